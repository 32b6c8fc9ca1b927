// The server with a project's own eslint.config.*: small projects on disk (the workspace's
// plugin, ESLint 10 or 9, the TypeScript parser and `mongodb` linked into node_modules),
// the built server over stdio.
import { existsSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DiagnosticSeverity, FileChangeType, type Diagnostic } from 'vscode-languageserver-protocol/node';
import { createProject, removeProjects, repo } from '../cli/project';
import { LspClient } from './lsp-client';

const CONNECTION_RULE = 'retry-safety/mongo-retry-writes-connection-string';
const INSERT_ID_RULE = 'retry-safety/mongo-require-insert-id';
const PASSWORD = 's3cretPass';
const DOCDB_URI =
  `mongodb://app:${PASSWORD}@orders.cluster-c9akciq32.us-east-1.docdb.amazonaws.com:27017/orders` +
  '?tls=true&tlsCAFile=global-bundle.pem&retryWrites=false';

const SOURCE = `import { MongoClient, type Db } from 'mongodb';

export const client = new MongoClient('${DOCDB_URI}');

export async function addItem(db: Db) {
  await db.collection('items').insertOne({ sku: 'a' });
}
`;

/**
 * A config as a project writes it: the engine version in its shared settings, one rule off
 * and one at another level, an ignored folder, and another plugin whose rule leaves a mark
 * on disk when it runs.
 */
function projectConfig({ engineVersion = '8.0.2', extraImport = '' } = {}): string {
  return `import fs from 'node:fs';
import tsParser from '@typescript-eslint/parser';
import retrySafety from 'eslint-plugin-retry-safety';
${extraImport}
const other = {
  rules: {
    everything: {
      meta: { type: 'problem' },
      create(context) {
        fs.appendFileSync(new URL('./other-rule-ran', import.meta.url), context.filename + '\\n');
        return { Program(node) { context.report({ node, message: 'other plugin' }); } };
      },
    },
  },
};

export default [
  { ignores: ['generated/**'] },
  { files: ['**/*.ts'], languageOptions: { parser: tsParser } },
  ...retrySafety.configs.recommended,
  {
    plugins: { other },
    rules: { 'other/everything': 'error', '${INSERT_ID_RULE}': 'off', '${CONNECTION_RULE}': 'warn' },
  },
  { settings: { 'retry-safety': { documentdb: { engineVersion: '${engineVersion}' } } } },
];
`;
}

const uriOf = (dir: string, file: string) => pathToFileURL(path.join(dir, file)).href;
/** Rule ids of the diagnostics (the server publishes the rule's name as the code, under the source retry-safety). */
const codesOf = (diagnostics: Diagnostic[]) => diagnostics.map((diagnostic) => `${diagnostic.source}/${String(diagnostic.code)}`).sort();

const clients: LspClient[] = [];

async function startClient({ trusted = true, settings = {} as Record<string, unknown> } = {}): Promise<LspClient> {
  const client = await LspClient.start({ settings, initializationOptions: { debounceMs: 0, workspaceTrusted: trusted } });
  clients.push(client);
  return client;
}

async function openAndWait(client: LspClient, uri: string, text = SOURCE): Promise<Diagnostic[]> {
  await client.open(uri, 'typescript', text);
  return client.diagnosticsFor(uri, 1, 30_000);
}

/** Where the quick-fix that removes `retryWrites=false` is offered. */
async function quickFixTitles(client: LspClient, uri: string, diagnostics: Diagnostic[]): Promise<string[]> {
  const connection = diagnostics.find((diagnostic) => `${diagnostic.source}/${String(diagnostic.code)}` === CONNECTION_RULE)!;
  const actions = await client.codeActions(uri, connection.range, [connection]);
  return actions.map((action) => action.title);
}

beforeAll(() => {
  if (!existsSync(path.join(repo, 'eslint-plugin', 'dist', 'index.cjs'))) throw new Error('Build first: npm run build');
});

afterEach(async () => {
  for (const client of clients.splice(0)) await client.stop();
});

afterAll(removeProjects);

describe("trusted workspace: the project's eslint.config.mjs", () => {
  it('gives the engine version and the rule levels, with the fix, without any editor setting', async () => {
    const dir = createProject({ 'eslint.config.mjs': projectConfig(), 'src/db.ts': SOURCE }, 'eslint');
    const client = await startClient();
    const uri = uriOf(dir, 'src/db.ts');
    const diagnostics = await openAndWait(client, uri);

    // The config turns the insert-id rule off and the connection-string rule down to a warning.
    expect(codesOf(diagnostics)).toEqual([CONNECTION_RULE]);
    expect(diagnostics[0]!.severity).toBe(DiagnosticSeverity.Warning);
    expect(await quickFixTitles(client, uri, diagnostics)).toContain('Remove "&retryWrites=false"');
    const line = await client.waitForLog(/linting with .*eslint\.config\.mjs/);
    expect(line).toContain(`${dir}: linting with ${path.join(dir, 'eslint.config.mjs')} (ESLint 10.`);
    expect(line).toContain('from the project');
    expect(client.logs.join('\n')).not.toContain(PASSWORD);
  });

  it("does not run, or show, other plugins' rules", async () => {
    const dir = createProject({ 'eslint.config.mjs': projectConfig(), 'src/db.ts': SOURCE }, 'eslint');
    const client = await startClient();
    const diagnostics = await openAndWait(client, uriOf(dir, 'src/db.ts'));
    expect(codesOf(diagnostics)).toEqual([CONNECTION_RULE]);
    expect(existsSync(path.join(dir, 'other-rule-ran'))).toBe(false);
  });

  it('publishes nothing for a file the config ignores', async () => {
    const dir = createProject({ 'eslint.config.mjs': projectConfig(), 'generated/db.ts': SOURCE }, 'eslint');
    const client = await startClient();
    expect(await openAndWait(client, uriOf(dir, 'generated/db.ts'))).toEqual([]);
    await client.waitForLog(/Skipped .*generated\/db\.ts: not linted by .*eslint\.config\.mjs/);
  });

  it('lints the unsaved text, and the fix-all uses the config too', async () => {
    const dir = createProject({ 'eslint.config.mjs': projectConfig(), 'src/db.ts': 'export {};\n' }, 'eslint');
    const client = await startClient();
    const uri = uriOf(dir, 'src/db.ts');
    expect(await openAndWait(client, uri, 'export {};\n')).toEqual([]);
    const version = await client.change(uri, SOURCE);
    expect(codesOf(await client.diagnosticsFor(uri, version, 30_000))).toEqual([CONNECTION_RULE]);
    const fixed = client.waitForDiagnostics(uri, (params) => params.version === version + 1, 30_000);
    await client.executeCommand('retrySafety.fixAll', [uri]);
    expect((await fixed).diagnostics).toEqual([]);
    expect(client.text(uri)).toBe(SOURCE.replace('&retryWrites=false', ''));
  });

  it("uses the project's ESLint 9 when that is what it installed", async () => {
    const dir = createProject({ 'eslint.config.mjs': projectConfig(), 'src/db.ts': SOURCE }, 'eslint9');
    const client = await startClient();
    expect(codesOf(await openAndWait(client, uriOf(dir, 'src/db.ts')))).toEqual([CONNECTION_RULE]);
    expect(await client.waitForLog(/linting with/)).toMatch(/\(ESLint 9\.\d+\.\d+ from the project/);
    expect(existsSync(path.join(dir, 'other-rule-ran'))).toBe(false);
  });

  it('uses the bundled ESLint when the project has none installed', async () => {
    const dir = createProject({ 'eslint.config.mjs': projectConfig(), 'src/db.ts': SOURCE }, 'eslint');
    rmSync(path.join(dir, 'node_modules', 'eslint'));
    const client = await startClient();
    expect(codesOf(await openAndWait(client, uriOf(dir, 'src/db.ts')))).toEqual([CONNECTION_RULE]);
    expect(await client.waitForLog(/linting with/)).toContain('the bundled ESLint');
  });

  it('lints open documents again when the config changes', async () => {
    const dir = createProject({ 'eslint.config.mjs': projectConfig(), 'src/db.ts': SOURCE }, 'eslint');
    const client = await startClient();
    const uri = uriOf(dir, 'src/db.ts');
    expect(await quickFixTitles(client, uri, await openAndWait(client, uri))).toContain('Remove "&retryWrites=false"');

    // Before 8.0.2 DocumentDB needs retryWrites=false: the same file is now fine.
    const configFile = path.join(dir, 'eslint.config.mjs');
    writeFileSync(configFile, projectConfig({ engineVersion: '5.0.0' }));
    const later = new Date(Date.now() + 5_000);
    utimesSync(configFile, later, later);
    const relinted = client.waitForDiagnostics(uri, (params) => params.diagnostics.length === 0, 30_000);
    await client.changeWatchedFiles([{ uri: pathToFileURL(configFile).href, type: FileChangeType.Changed }]);
    await relinted;
    await client.waitForLog(/ESLint config changed/);
  });

  it('falls back to the settings when the config cannot be loaded, says so once, and keeps serving', async () => {
    const config = projectConfig({ extraImport: "import missing from 'eslint-plugin-not-installed';" });
    const dir = createProject({ 'eslint.config.mjs': config, 'src/db.ts': SOURCE, 'src/other.ts': SOURCE }, 'eslint');
    const client = await startClient({ settings: { documentdb: { engineVersion: '8.0.2' } } });
    // The settings' levels: both rules at their default level.
    expect(codesOf(await openAndWait(client, uriOf(dir, 'src/db.ts')))).toEqual([INSERT_ID_RULE, CONNECTION_RULE]);
    expect(codesOf(await openAndWait(client, uriOf(dir, 'src/other.ts')))).toEqual([INSERT_ID_RULE, CONNECTION_RULE]);
    const line = await client.waitForLog(/could not be loaded/);
    expect(line).toContain("eslint-plugin-not-installed");
    expect(line).toContain('linting with the retrySafety.* settings');
    expect(client.shownMessages).toHaveLength(1);
    expect(client.shownMessages[0]).toMatch(/^Retry Safety could not load eslint\.config\.mjs: .*eslint-plugin-not-installed/);
    expect(client.isAlive).toBe(true);
  });

  it('falls back to the settings when the config throws', async () => {
    const dir = createProject({ 'eslint.config.mjs': "throw new Error('config exploded');\n", 'src/db.ts': SOURCE }, 'eslint');
    const client = await startClient();
    expect(codesOf(await openAndWait(client, uriOf(dir, 'src/db.ts')))).toEqual([INSERT_ID_RULE, CONNECTION_RULE]);
    expect(await client.waitForLog(/could not be loaded/)).toContain('config exploded');
    expect(client.shownMessages).toEqual([expect.stringContaining('config exploded')]);
  });
});

describe('typed linting, when the config turns it on', () => {
  // A collection from a package the module index does not read: only its type says it is MongoDB's.
  const typedProject = {
    'tsconfig.json': JSON.stringify({ compilerOptions: { strict: true, module: 'NodeNext', moduleResolution: 'NodeNext', skipLibCheck: true, noEmit: true }, include: ['src'] }),
    'node_modules/dbkit/package.json': JSON.stringify({ name: 'dbkit', version: '1.0.0', types: 'index.d.ts', main: 'index.js' }),
    'node_modules/dbkit/index.d.ts': "export declare function getCollection(name: string): import('mongodb').Collection<{ kind: string }>;\n",
    'node_modules/dbkit/index.js': 'exports.getCollection = () => null;\n',
    'eslint.config.mjs': `import tsParser from '@typescript-eslint/parser';
import retrySafety from 'eslint-plugin-retry-safety';
export default [
  { files: ['**/*.ts'], languageOptions: { parser: tsParser, parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } } },
  ...retrySafety.configs.recommended,
];
`,
  };
  const typedSource = (kind: string) => `import { getCollection } from 'dbkit';
export async function add() {
  const events = getCollection('events');
  await events.insertOne({ kind: '${kind}' });
}
`;

  it("reports what only the types show, in the unsaved text, edit after edit; the settings alone do not", async () => {
    const dir = createProject({ ...typedProject, 'src/events.ts': typedSource('a') }, 'eslint');
    const uri = uriOf(dir, 'src/events.ts');
    const typed = await startClient();
    expect(codesOf(await openAndWait(typed, uri, typedSource('a')))).toEqual([INSERT_ID_RULE]);
    for (const kind of ['b', 'c']) {
      const version = await typed.change(uri, typedSource(kind));
      const diagnostics = await typed.diagnosticsFor(uri, version, 30_000);
      expect(codesOf(diagnostics)).toEqual([INSERT_ID_RULE]);
      expect(diagnostics[0]!.range.start.line).toBe(3);
    }
    const untyped = await startClient({ settings: { useProjectConfig: false } });
    expect(await openAndWait(untyped, uri, typedSource('a'))).toEqual([]);
  });
});

describe('settings mode: no workspace code runs', () => {
  it('an untrusted workspace uses the settings, says why, and switches once trusted', async () => {
    const dir = createProject({ 'eslint.config.mjs': projectConfig(), 'src/db.ts': SOURCE }, 'eslint');
    const client = await startClient({ trusted: false });
    const uri = uriOf(dir, 'src/db.ts');
    const diagnostics = await openAndWait(client, uri);
    // No engine version in the settings: reported, without the fix; the insert-id rule at its default level.
    expect(codesOf(diagnostics)).toEqual([INSERT_ID_RULE, CONNECTION_RULE]);
    expect(await quickFixTitles(client, uri, diagnostics)).not.toContain('Remove "&retryWrites=false"');
    expect(await client.waitForLog(/not trusted, so eslint\.config\.mjs is not loaded/)).toContain(dir);
    expect(existsSync(path.join(dir, 'other-rule-ran'))).toBe(false);

    const relinted = client.waitForDiagnostics(uri, (params) => params.diagnostics.length === 1, 30_000);
    await client.connection.sendNotification('retrySafety/workspaceTrustGranted');
    expect(codesOf((await relinted).diagnostics)).toEqual([CONNECTION_RULE]);
  });

  it('retrySafety.useProjectConfig off uses the settings', async () => {
    const dir = createProject({ 'eslint.config.mjs': projectConfig(), 'src/db.ts': SOURCE }, 'eslint');
    const client = await startClient({ settings: { useProjectConfig: false } });
    expect(codesOf(await openAndWait(client, uriOf(dir, 'src/db.ts')))).toEqual([INSERT_ID_RULE, CONNECTION_RULE]);
    await client.waitForLog(/retrySafety\.useProjectConfig is off/);
    expect(existsSync(path.join(dir, 'other-rule-ran'))).toBe(false);
  });

  it('a folder without a config uses the settings', async () => {
    const dir = createProject({ 'src/db.ts': SOURCE }, 'eslint');
    const client = await startClient({ settings: { documentdb: { engineVersion: '8.0.2' } } });
    const uri = uriOf(dir, 'src/db.ts');
    const diagnostics = await openAndWait(client, uri);
    expect(codesOf(diagnostics)).toEqual([INSERT_ID_RULE, CONNECTION_RULE]);
    expect(await quickFixTitles(client, uri, diagnostics)).toContain('Remove "&retryWrites=false"');
    await client.waitForLog(/no eslint\.config\.\* found/);
  });
});
