// Protocol tests: the built server bundle over stdio, driven by a real JSON-RPC client.
import { createRequire } from 'node:module';
import parser from '@typescript-eslint/parser';
import { Linter, type ESLint } from 'eslint';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DiagnosticSeverity, type CodeAction, type Diagnostic, type MarkupContent, type TextEdit } from 'vscode-languageserver-protocol/node';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { LspClient } from './lsp-client';

// The plugin as published (its CommonJS bundle), which is what the server bundles too.
const plugin = createRequire(import.meta.url)('eslint-plugin-retry-safety') as ESLint.Plugin;

const RULE = 'retry-safety/mongo-retry-writes-connection-string';
/** What diagnostics are coded with: the rule's name, the plugin being their source. */
const CODE = 'mongo-retry-writes-connection-string';
const DOCS_URL = /\/eslint-plugin\/docs\/rules\/mongo-retry-writes-connection-string\.md$/;
const PASSWORD = 's3cret';
const DOCDB_URI =
  `mongodb://app:${PASSWORD}@orders.cluster-abc.us-east-1.docdb.amazonaws.com:27017/` +
  '?tls=true&tlsCAFile=global-bundle.pem&retryWrites=false';
const FIXED_URI = DOCDB_URI.replace('&retryWrites=false', '');

const TS_SOURCE = [
  "import { MongoClient } from 'mongodb';",
  '',
  'export function connect() {',
  `  const uri = '${DOCDB_URI}';`,
  '  return new MongoClient(uri);',
  '}',
  '',
].join('\n');
const ENV_SOURCE = `# orders service\nPORT=8080\nMONGODB_URI=${DOCDB_URI}\n`;

const settings = (engineVersion: string, rules: Record<string, string> = {}) => ({
  enable: true,
  documentdb: { engineVersion, hosts: [] },
  rules,
  trace: { server: 'verbose' },
});

let uriCounter = 0;
const fileUri = (name: string) => `file:///work/project/src/${++uriCounter}/${name}`;

/** Where ESLint itself puts the findings (1-based, end exclusive), as LSP ranges. */
function eslintRanges(text: string, filename: string, engineVersion: string) {
  const linter = new Linter({ cwd: '/project' });
  const common = {
    plugins: { 'retry-safety': plugin },
    settings: { 'retry-safety': { documentdb: { engineVersion } } },
    rules: { [RULE]: 'error' as const },
  };
  const config: Linter.Config = filename.endsWith('.ts')
    ? { ...common, files: ['**/*.ts'], languageOptions: { parser } }
    : { ...common, files: ['**/.env'], language: 'retry-safety/text' };
  return linter.verify(text.replace(/^\uFEFF/, ''), [config], `/project/${filename}`).map((message) => ({
    start: { line: message.line - 1, column: message.column - 1 },
    end: { line: (message.endLine ?? message.line) - 1, column: (message.endColumn ?? message.column) - 1 },
  }));
}

function textAt(client: LspClient, uri: string, diagnostic: Diagnostic): string {
  const document = TextDocument.create(uri, 'x', 0, client.text(uri));
  return document.getText(diagnostic.range);
}

/** Applies a code action's edit through the client and returns the version it produced. */
async function apply(client: LspClient, uri: string, action: CodeAction | undefined): Promise<number> {
  expect(action?.edit).toBeDefined();
  const before = client.version(uri);
  client.applyWorkspaceEdit(action!.edit!);
  await expect.poll(() => client.version(uri)).toBe(before + 1);
  return before + 1;
}

describe('language server over stdio', () => {
  let client: LspClient;

  beforeAll(async () => {
    client = await LspClient.start({ settings: settings('8.0.2'), initializationOptions: { debounceMs: 20 } });
  });

  afterAll(async () => {
    await client.stop();
  });

  it('announces its capabilities', () => {
    const { capabilities, serverInfo } = client.initializeResult;
    expect(serverInfo?.name).toBe('retry-safety-language-server');
    expect(capabilities.hoverProvider).toBe(true);
    expect(capabilities.codeActionProvider).toMatchObject({ codeActionKinds: ['quickfix', 'source.fixAll.retrySafety'] });
    expect(capabilities.executeCommandProvider?.commands).toEqual(['retrySafety.fixAll']);
  });

  it('reports a DocumentDB URI in TypeScript with ESLint’s exact range, code, docs link and severity', async () => {
    const uri = fileUri('db.ts');
    await client.open(uri, 'typescript', TS_SOURCE);
    const [diagnostic, ...rest] = await client.diagnosticsFor(uri, 1);
    expect(rest).toEqual([]);
    expect(diagnostic).toMatchObject({
      source: 'retry-safety',
      code: CODE,
      severity: DiagnosticSeverity.Error,
      codeDescription: { href: expect.stringMatching(DOCS_URL) },
    });
    const [expected] = eslintRanges(TS_SOURCE, 'db.ts', '8.0.2');
    expect(diagnostic!.range).toEqual({
      start: { line: expected!.start.line, character: expected!.start.column },
      end: { line: expected!.end.line, character: expected!.end.column },
    });
    expect(textAt(client, uri, diagnostic!)).toContain('retryWrites=false');
    expect(diagnostic!.message).not.toContain(PASSWORD);
  });

  it('quick-fixes the TypeScript finding; the re-linted document is clean', async () => {
    const uri = fileUri('fix.ts');
    await client.open(uri, 'typescript', TS_SOURCE);
    const diagnostics = await client.diagnosticsFor(uri, 1);
    const actions = await client.codeActions(uri, diagnostics[0]!.range, diagnostics);
    const titles = actions.map((action) => action.title);
    // The autofix's title says what it changes.
    expect(titles).toContain('Remove "&retryWrites=false"');
    expect(titles).toContain(`Disable ${RULE} for this line`);
    // Diagnostics of other tools, or with a code that names none of the rules, get no action.
    const [own] = diagnostics;
    for (const foreign of [{ ...own!, source: 'eslint' }, { ...own!, code: RULE }, { ...own!, code: 'no-such-rule' }]) {
      expect(await client.codeActions(uri, own!.range, [foreign])).toEqual([]);
    }
    const fix = actions.find((action) => action.isPreferred);
    expect(fix?.kind).toBe('quickfix');
    const version = await apply(client, uri, fix);
    expect(client.text(uri)).toBe(TS_SOURCE.replace(DOCDB_URI, FIXED_URI));
    expect(await client.diagnosticsFor(uri, version)).toEqual([]);
  });

  it('reports and quick-fixes a .env file through the text language', async () => {
    const uri = fileUri('.env');
    await client.open(uri, 'dotenv', ENV_SOURCE);
    const diagnostics = await client.diagnosticsFor(uri, 1);
    expect(diagnostics).toHaveLength(1);
    const [expected] = eslintRanges(ENV_SOURCE, '.env', '8.0.2');
    expect(diagnostics[0]).toMatchObject({
      code: CODE,
      source: 'retry-safety',
      severity: DiagnosticSeverity.Error,
      codeDescription: { href: expect.stringMatching(DOCS_URL) },
      range: {
        start: { line: 2, character: expected!.start.column },
        end: { line: 2, character: expected!.end.column },
      },
    });
    const actions = await client.codeActions(uri, diagnostics[0]!.range, diagnostics);
    // The text language honours `#` directives, so a disable comment is offered.
    const disable = actions.find((action) => action.title.startsWith('Disable'));
    const edit = disable?.edit?.documentChanges?.[0];
    expect(edit && 'edits' in edit && (edit.edits[0] as TextEdit).newText).toBe(`# eslint-disable-next-line ${RULE}\n`);
    const version = await apply(client, uri, actions.find((action) => action.isPreferred));
    expect(client.text(uri)).toBe(ENV_SOURCE.replace(DOCDB_URI, FIXED_URI));
    expect(await client.diagnosticsFor(uri, version)).toEqual([]);
  });

  it('reports in JSON, where no disable comment can be written', async () => {
    const uri = fileUri('config.json');
    const text = `{\n  "mongo": {\n    "uri": "${DOCDB_URI}"\n  }\n}\n`;
    await client.open(uri, 'json', text);
    const diagnostics = await client.diagnosticsFor(uri, 1);
    expect(diagnostics.map((diagnostic) => [diagnostic.code, diagnostic.range.start.line])).toEqual([[CODE, 2]]);
    expect(textAt(client, uri, diagnostics[0]!)).toBe('retryWrites=false');
    const actions = await client.codeActions(uri, diagnostics[0]!.range, diagnostics);
    expect(actions.map((action) => action.title)).toEqual(['Remove "&retryWrites=false"']);
  });

  it('maps positions exactly after a BOM, CRLF line ends and a U+2028 inside a string', async () => {
    const text = `\uFEFFconst note = 'a\u2028b';\r\nconst other = 1;\r\n  const uri = '${DOCDB_URI}';\r\n`;
    const uri = fileUri('positions.ts');
    await client.open(uri, 'typescript', text);
    const [diagnostic] = await client.diagnosticsFor(uri, 1);
    expect(textAt(client, uri, diagnostic!)).toBe('retryWrites=false');
    expect(diagnostic!.range.start.line).toBe(2);
    const actions = await client.codeActions(uri, diagnostic!.range, [diagnostic!]);
    const version = await apply(client, uri, actions.find((action) => action.isPreferred));
    expect(client.text(uri)).toBe(text.replace(DOCDB_URI, FIXED_URI));
    expect(await client.diagnosticsFor(uri, version)).toEqual([]);
  });

  it('serves a fix too large to carry in Diagnostic.data as the small edits it makes', async () => {
    // The suggestion adds `ObjectId` to the import and `_id` to the document: ESLint merges
    // both into one replacement spanning the padding in between.
    const padding = Array.from({ length: 300 }, (_, index) => `export const filler${index} = ${index};`).join('\n');
    const text = [
      "import { MongoClient } from 'mongodb';",
      padding,
      'export async function addItem(client: MongoClient) {',
      "  await client.db('shop').collection('items').insertOne({ sku: 'a-1', qty: 2 });",
      '}',
      '',
    ].join('\n');
    const uri = fileUri('large-fix.ts');
    await client.open(uri, 'typescript', text);
    const diagnostics = await client.diagnosticsFor(uri, 1);
    const finding = diagnostics.find((diagnostic) => diagnostic.code === 'mongo-require-insert-id');
    expect(finding).toBeDefined();
    const data = finding!.data as { suggestions?: { desc: string; fix: unknown }[] };
    expect(data.suggestions?.some((suggestion) => suggestion.fix === null)).toBe(true);
    expect(JSON.stringify(finding).length).toBeLessThan(2000);

    // What ESLint itself makes of the first suggestion.
    const linter = new Linter({ cwd: '/project' });
    const [message] = linter.verify(text, [
      {
        files: ['**/*.ts'],
        plugins: { 'retry-safety': plugin },
        languageOptions: { parser },
        rules: { 'retry-safety/mongo-require-insert-id': 'error' },
      },
    ], '/project/large-fix.ts');
    const suggestion = message!.suggestions![0]!;
    const expected = text.slice(0, suggestion.fix.range[0]) + suggestion.fix.text + text.slice(suggestion.fix.range[1]);

    const actions = await client.codeActions(uri, finding!.range, [finding!]);
    const action = actions.find((candidate) => candidate.title === suggestion.desc);
    const change = action!.edit!.documentChanges![0]!;
    const edits = 'edits' in change ? (change.edits as TextEdit[]) : [];
    expect(edits.length).toBeGreaterThanOrEqual(2);
    expect(edits.every((edit) => edit.newText.length < 200)).toBe(true);
    await apply(client, uri, action);
    expect(client.text(uri)).toBe(expected);
  });

  it('disables the rule for one line with the line’s indentation', async () => {
    const uri = fileUri('disable.ts');
    await client.open(uri, 'typescript', TS_SOURCE);
    const diagnostics = await client.diagnosticsFor(uri, 1);
    const actions = await client.codeActions(uri, diagnostics[0]!.range, diagnostics);
    const version = await apply(client, uri, actions.find((action) => action.title.startsWith('Disable')));
    expect(client.text(uri)).toContain(`\n  // eslint-disable-next-line ${RULE}\n  const uri = '`);
    expect(await client.diagnosticsFor(uri, version)).toEqual([]);
  });

  it('shows the rule’s description, the message and a docs link on hover', async () => {
    const uri = fileUri('hover.ts');
    await client.open(uri, 'typescript', TS_SOURCE);
    const [diagnostic] = await client.diagnosticsFor(uri, 1);
    const hover = await client.hover(uri, diagnostic!.range.start);
    const { kind, value } = hover!.contents as MarkupContent;
    expect(kind).toBe('markdown');
    expect(value).toContain(`**${RULE}**`);
    expect(value).toContain(diagnostic!.message);
    expect(value).toMatch(/\]\(https:\/\/[^)]+mongo-retry-writes-connection-string\.md\)/);
    expect(await client.hover(uri, { line: 0, character: 0 })).toBeNull();
  });

  it('fixes the whole file with source.fixAll.retrySafety and never applies suggestions', async () => {
    const uri = fileUri('fix-all.ts');
    const atlas = "const atlas = 'mongodb+srv://app:pw@cluster0.abcde.mongodb.net/?retryWrites=false';";
    const text = `${TS_SOURCE}${atlas}\nconst second = '${DOCDB_URI}';\n`;
    await client.open(uri, 'typescript', text);
    const diagnostics = await client.diagnosticsFor(uri, 1);
    expect(diagnostics).toHaveLength(3);
    const actions = await client.codeActions(uri, diagnostics[0]!.range, [], ['source.fixAll.retrySafety']);
    expect(actions).toHaveLength(1);
    expect(actions[0]).toMatchObject({ kind: 'source.fixAll.retrySafety' });
    const edits = actions[0]!.edit!.documentChanges![0]!;
    expect('edits' in edits && edits.edits).toHaveLength(2);
    const version = await apply(client, uri, actions[0]);
    // The Atlas finding only has a suggestion: it stays.
    expect(client.text(uri)).toBe(`${TS_SOURCE.replace(DOCDB_URI, FIXED_URI)}${atlas}\nconst second = '${FIXED_URI}';\n`);
    const after = await client.diagnosticsFor(uri, version);
    expect(after.map((diagnostic) => diagnostic.range.start.line)).toEqual([6]);
    // Asked with the wider `source.fixAll` kind as well; nothing left to fix now.
    expect(await client.codeActions(uri, after[0]!.range, [], ['source.fixAll'])).toEqual([]);
  });

  it('offers a rule’s suggestions as quick-fixes, and fix-all leaves them alone', async () => {
    const uri = fileUri('swallowed.ts');
    const text = [
      "import { MongoClient } from 'mongodb';",
      '',
      `const uri = '${DOCDB_URI}';`,
      'export async function save(doc: object) {',
      '  try {',
      "    await new MongoClient(uri).db().collection('orders').insertOne({ _id: 1, ...doc });",
      '  } catch (err) {}',
      '}',
      '',
    ].join('\n');
    await client.open(uri, 'typescript', text);
    const diagnostics = await client.diagnosticsFor(uri, 1);
    const swallowed = diagnostics.find((diagnostic) => diagnostic.code === 'no-swallowed-db-error');
    expect(swallowed).toBeDefined();
    const actions = await client.codeActions(uri, swallowed!.range, [swallowed!]);
    expect(actions.map((action) => action.title)).toEqual([
      'Rethrow the caught error.',
      'Log the caught error (`console.error`) and rethrow it.',
      'Disable retry-safety/no-swallowed-db-error for this line',
    ]);
    expect(actions.every((action) => !action.isPreferred)).toBe(true);

    // Fix-all applies the connection string's autofix only; the empty catch stays.
    const [fixAll] = await client.codeActions(uri, swallowed!.range, [], ['source.fixAll.retrySafety']);
    const fixed = await apply(client, uri, fixAll);
    expect(client.text(uri)).toBe(text.replace(DOCDB_URI, FIXED_URI));
    const left = await client.diagnosticsFor(uri, fixed);
    expect(left.map((diagnostic) => diagnostic.code)).toEqual(['no-swallowed-db-error']);

    // The suggestion, taken as a quick-fix, clears the finding.
    const [logAndRethrow] = (await client.codeActions(uri, left[0]!.range, left)).filter((action) => action.title.startsWith('Log'));
    const version = await apply(client, uri, logAndRethrow);
    expect(client.text(uri)).toContain("  } catch (err) {\n    console.error('MongoDB insertOne failed', err);\n    throw err;\n  }\n");
    expect(await client.diagnosticsFor(uri, version)).toEqual([]);
  });

  it('fixes the whole file through the retrySafety.fixAll command (workspace/applyEdit)', async () => {
    const uri = fileUri('command.env');
    await client.open(uri, 'properties', ENV_SOURCE);
    await client.diagnosticsFor(uri, 1);
    const result = await client.executeCommand('retrySafety.fixAll', [{ uri, version: 1 }]);
    expect(result).toEqual({ applied: true });
    await expect.poll(() => client.text(uri)).toBe(ENV_SOURCE.replace(DOCDB_URI, FIXED_URI));
    expect(await client.diagnosticsFor(uri, 2)).toEqual([]);
    expect(await client.executeCommand('retrySafety.fixAll', [uri])).toEqual({ applied: false });
  });

  it('re-lints open documents when the engine version or a rule level changes', async () => {
    const uri = fileUri('settings.ts');
    await client.open(uri, 'typescript', TS_SOURCE);
    expect(await client.diagnosticsFor(uri, 1)).toHaveLength(1);

    // Below 8.0.2, retryWrites=false is what DocumentDB needs: no finding.
    let next = client.waitForDiagnostics(uri);
    await client.changeSettings(settings('5.0.0'));
    expect((await next).diagnostics).toEqual([]);

    next = client.waitForDiagnostics(uri);
    await client.changeSettings(settings('8.0.2', { 'mongo-retry-writes-connection-string': 'info' }));
    expect((await next).diagnostics.map((diagnostic) => diagnostic.severity)).toEqual([DiagnosticSeverity.Information]);

    next = client.waitForDiagnostics(uri);
    await client.changeSettings(settings('8.0.2', { 'mongo-retry-writes-connection-string': 'off' }));
    expect((await next).diagnostics).toEqual([]);

    next = client.waitForDiagnostics(uri);
    await client.changeSettings({ ...settings('8.0.2'), enable: false });
    expect((await next).diagnostics).toEqual([]);

    next = client.waitForDiagnostics(uri);
    await client.changeSettings(settings('8.0.2'));
    expect((await next).diagnostics.map((diagnostic) => diagnostic.severity)).toEqual([DiagnosticSeverity.Error]);
  });

  it('passes documentdb.hosts to the rules (a tunnel to DocumentDB below 8.0.2)', async () => {
    const uri = fileUri('.env.tunnel');
    await client.open(uri, 'dotenv', 'MONGODB_URI=mongodb://app:pw@localhost:27018/orders?tls=true\n');
    // Any host could be a tunnel: without `hosts`, a localhost URI is plain MongoDB.
    expect(await client.diagnosticsFor(uri, 1)).toEqual([]);
    let next = client.waitForDiagnostics(uri);
    await client.changeSettings(settings('5.0.0'));
    expect((await next).diagnostics).toEqual([]);
    next = client.waitForDiagnostics(uri);
    await client.changeSettings({ ...settings('5.0.0'), documentdb: { engineVersion: '5.0.0', hosts: ['localhost'] } });
    const [finding] = (await next).diagnostics;
    expect(finding?.code).toBe(CODE);
    expect(finding?.message).toMatch(/retryWrites=false/);
    const actions = await client.codeActions(uri, finding!.range, [finding!]);
    expect(actions.find((action) => action.isPreferred)?.title).toBe('Add "&retryWrites=false"');
    next = client.waitForDiagnostics(uri);
    await client.changeSettings(settings('8.0.2'));
    await next;
  });

  it('has the plugin report an invalid engine version under its editor name', async () => {
    const uri = fileUri('.env.invalid');
    await client.changeSettings(settings('8'));
    await client.open(uri, 'dotenv', ENV_SOURCE);
    const messages = (await client.diagnosticsFor(uri, 1)).map((diagnostic) => diagnostic.message);
    expect(messages).toEqual([
      expect.stringMatching(/^retrySafety\.documentdb\.engineVersion is a string of 1 character; expected a version such as/),
      expect.stringContaining('Set retrySafety.documentdb.engineVersion (for example "8.0.2")'),
    ]);
    for (const message of messages) expect(message).not.toContain('settings["retry-safety"]');
    const next = client.waitForDiagnostics(uri);
    await client.changeSettings(settings('8.0.2'));
    expect((await next).diagnostics).toHaveLength(1);
  });

  it('publishes only the newest version when edits overtake a settings pull', async () => {
    const uri = fileUri('overtaken.ts');
    await client.open(uri, 'typescript', TS_SOURCE);
    await client.diagnosticsFor(uri, 1);
    const before = client.published.length;
    client.configurationDelayMs = 1000;
    try {
      await client.changeSettings(settings('8.0.2'));
      await client.change(uri, `${TS_SOURCE}// edited\n`);
      const version = await client.change(uri, TS_SOURCE.replace(DOCDB_URI, FIXED_URI));
      expect(await client.diagnosticsFor(uri, version)).toEqual([]);
      await new Promise((resolve) => setTimeout(resolve, 200));
    } finally {
      client.configurationDelayMs = 0;
    }
    const forThisDocument = client.published.slice(before).filter((params) => params.uri === uri);
    expect(forThisDocument.map((params) => params.version)).toEqual([3]);
  });

  it('drops stale results and offers no stale fix while the syntax is broken', async () => {
    const uri = fileUri('typing.ts');
    await client.open(uri, 'typescript', TS_SOURCE);
    const diagnostics = await client.diagnosticsFor(uri, 1);
    // Three quick edits: only the last version is linted (debounced), and it does not parse.
    await client.change(uri, `${TS_SOURCE}const broken = {`);
    await client.change(uri, `${TS_SOURCE}const broken = {(`);
    const broken = await client.change(uri, `${TS_SOURCE}const broken = {((`);
    // The server still answers, publishes nothing for the broken versions, and the
    // fix computed for version 1 is not offered for version 4.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(client.published.filter((params) => params.uri === uri).map((params) => params.version)).toEqual([1]);
    const actions = await client.codeActions(uri, diagnostics[0]!.range, diagnostics);
    expect(actions.map((action) => action.title)).toEqual([`Disable ${RULE} for this line`]);
    const fixAll = await client.codeActions(uri, diagnostics[0]!.range, [], ['source.fixAll.retrySafety']);
    expect(fixAll).toEqual([]);
    // Fixing the syntax brings fresh diagnostics.
    const repaired = await client.change(uri, `${TS_SOURCE}const broken = {};\n`);
    expect(repaired).toBe(broken + 1);
    expect(await client.diagnosticsFor(uri, repaired)).toHaveLength(1);
  });

  it('keeps answering after an empty file, a 5 MB file, a binary file and a malformed URI', async () => {
    const empty = fileUri('empty.ts');
    await client.open(empty, 'typescript', '');
    expect(await client.diagnosticsFor(empty, 1)).toEqual([]);

    const huge = fileUri('huge.ts');
    const hugeText = `const uri = '${DOCDB_URI}';\n`.repeat(Math.ceil((5 * 1024 * 1024) / (DOCDB_URI.length + 16)));
    expect(hugeText.length).toBeGreaterThan(5 * 1024 * 1024);
    await client.open(huge, 'typescript', hugeText);
    expect(await client.diagnosticsFor(huge, 1)).toEqual([]);
    await client.change(huge, `${hugeText}// more\n`);
    expect(await client.diagnosticsFor(huge, 2)).toEqual([]);
    expect(client.logs.filter((line) => line.includes('huge.ts') && line.startsWith('Skipped'))).toHaveLength(1);

    const binary = fileUri('blob.env');
    await client.open(binary, 'plaintext', `MONGODB_URI=${DOCDB_URI}\n\0\0\u0001binary`);
    expect(await client.diagnosticsFor(binary, 1)).toEqual([]);

    for (const malformed of ['not a uri', 'file:///%E0%A4%A', 'untitled:', '::::']) {
      await client.open(malformed, 'typescript', TS_SOURCE);
      expect(await client.diagnosticsFor(malformed, 1)).toHaveLength(1);
      await client.close(malformed);
    }
    const unknown = await client.codeActions('file:///never/opened.ts', { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, []);
    expect(unknown).toEqual([]);
    expect(await client.hover('file:///never/opened.ts', { line: 0, character: 0 })).toBeNull();

    // Still alive and linting.
    const after = fileUri('after.ts');
    await client.open(after, 'typescript', TS_SOURCE);
    expect(await client.diagnosticsFor(after, 1)).toHaveLength(1);
    expect(client.isAlive).toBe(true);
  });

  it('clears a document’s diagnostics when it is closed', async () => {
    const uri = fileUri('closing.ts');
    await client.open(uri, 'typescript', TS_SOURCE);
    expect(await client.diagnosticsFor(uri, 1)).toHaveLength(1);
    const cleared = client.waitForDiagnostics(uri);
    await client.close(uri);
    expect((await cleared).diagnostics).toEqual([]);
    expect(await client.hover(uri, { line: 3, character: 20 })).toBeNull();
  });

  it('publishes at most 1,000 findings of a document, then one summary of how many more are not shown', async () => {
    const envLines = (count: number) => Array.from({ length: count }, (_, index) => `DB_${index}=${DOCDB_URI}\n`).join('');
    // Over the cap: a generated file with 1,500 findings.
    const many = fileUri('many.env');
    await client.open(many, 'dotenv', envLines(1500));
    const diagnostics = await client.diagnosticsFor(many, 1, 60_000);
    expect(diagnostics).toHaveLength(1001);
    const shown = diagnostics.slice(0, 1000);
    expect(shown.every((diagnostic) => diagnostic.code === CODE)).toBe(true);
    expect(shown.map((diagnostic) => diagnostic.range.start.line)).toEqual(Array.from({ length: 1000 }, (_, line) => line));
    const last = shown[999]!;
    // At the first finding left out (`DB_1000=` is one character longer than `DB_999=`), as severe as they are.
    const at = { line: 1000, character: last.range.start.character + 1 };
    expect(diagnostics[1000]).toEqual({
      range: { start: at, end: at },
      severity: last.severity,
      source: 'retry-safety',
      message:
        '500 more retry-safety findings are not shown, from here on: the editor shows the first 1,000 of the 1,500 in this file. Run ESLint on the file to see them all.',
    });
    const hover = await client.hover(many, at);
    expect((hover?.contents as MarkupContent).value).toContain('500 more retry-safety findings are not shown');
    expect(await client.codeActions(many, diagnostics[1000]!.range, [diagnostics[1000]!])).toEqual([]);

    // At the cap: all of them, no summary.
    const exact = fileUri('exact.env');
    await client.open(exact, 'dotenv', envLines(1000));
    const all = await client.diagnosticsFor(exact, 1, 60_000);
    expect(all).toHaveLength(1000);
    expect(all.every((diagnostic) => diagnostic.code === CODE)).toBe(true);
    await client.close(many);
    await client.close(exact);
  });

  it('never logs a password', () => {
    expect(client.logs.length).toBeGreaterThan(0);
    expect(client.logs.filter((line) => line.includes(PASSWORD))).toEqual([]);
  });
});

describe('a client without workspace/configuration', () => {
  let client: LspClient;

  beforeAll(async () => {
    client = await LspClient.start({
      initializationOptions: { retrySafety: { documentdb: { engineVersion: '8.0.2' } }, debounceMs: 0 },
    });
  });

  afterAll(async () => {
    await client.stop();
  });

  it('takes its settings from initializationOptions and pushed configuration changes', async () => {
    const uri = fileUri('.env.production');
    await client.open(uri, 'plaintext', ENV_SOURCE);
    expect(await client.diagnosticsFor(uri, 1)).toHaveLength(1);
    const next = client.waitForDiagnostics(uri);
    await client.changeSettings({ 'documentdb.engineVersion': '5.0.0' });
    expect((await next).diagnostics).toEqual([]);
  });

  it('lints an untitled TypeScript buffer by its language id', async () => {
    const uri = 'untitled:Untitled-1';
    await client.changeSettings({ documentdb: { engineVersion: '8.0.2' } });
    await client.open(uri, 'typescript', TS_SOURCE);
    expect((await client.diagnosticsFor(uri, 1)).map((diagnostic) => diagnostic.code)).toEqual([CODE]);
  });
});
