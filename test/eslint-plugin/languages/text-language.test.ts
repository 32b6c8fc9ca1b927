import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ESLint, type Linter } from 'eslint';
import { ESLint as ESLint9 } from 'eslint9';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FILE_KINDS, getConnectionStringsPresetFiles } from '../../../eslint-plugin/src/file-kinds';
import plugin from '../../../eslint-plugin/src/index';

const DOCDB = 'prod.cluster-abc.us-east-1.docdb.amazonaws.com:27017';
const RULE_ID = 'retry-safety/mongo-retry-writes-connection-string';

function settings(documentdb: Record<string, unknown>): Linter.Config {
  return { settings: { 'retry-safety': { documentdb } } };
}

/**
 * Where `needle` (its `occurrence`-th appearance) sits in `content`, 1-based as
 * ESLint reports it; computed from the text alone, independently of the plugin.
 */
function at(content: string, needle: string, occurrence = 1) {
  let index = -1;
  for (let count = 0; count < occurrence; count++) index = content.indexOf(needle, index + 1);
  if (index === -1) throw new Error(`${needle} not found`);
  const before = content.slice(0, index).split(/\r\n|\r|\n/);
  const line = before.length;
  const column = before.at(-1)!.length + 1;
  return { line, column, endLine: line, endColumn: column + needle.length };
}

function report(messageId: string, content: string, needle: string, occurrence = 1) {
  return { ruleId: RULE_ID, messageId, ...at(content, needle, occurrence) };
}

let cwd: string;
beforeEach(() => {
  cwd = mkdtempSync(path.join(tmpdir(), 'retry-safety-text-'));
});
afterEach(() => {
  rmSync(cwd, { recursive: true, force: true });
});

function write(files: Record<string, string>): void {
  for (const [name, content] of Object.entries(files)) writeFileSync(path.join(cwd, name), content);
}

async function lint(extra: Linter.Config[], options: { fix?: boolean; eslint?: typeof ESLint } = {}) {
  const Engine = options.eslint ?? ESLint;
  const eslint = new Engine({
    cwd,
    overrideConfigFile: true,
    overrideConfig: [plugin.configs['connection-strings'], ...extra] as never,
    fix: options.fix ?? false,
  });
  const results = await eslint.lintFiles(['.']);
  if (options.fix) await Engine.outputFixes(results as never);
  return Object.fromEntries(
    results.map((result) => [
      path.relative(cwd, result.filePath),
      result.messages.map(({ ruleId, messageId, line, column, endLine, endColumn }) => ({ ruleId, messageId, line, column, endLine, endColumn })),
    ]),
  );
}

describe('retry-safety/text language with the connection-strings config', () => {
  it('reports with exact line and column in .env, YAML, JSON, TOML, properties, INI and Terraform files', async () => {
    const files = {
      '.env': `# DocumentDB\nPORT=3000\nDOCDB_URI=mongodb://app:pw@${DOCDB}/?tls=true&retryWrites=false\n`,
      'config.yaml': `db:\n  # old: mongodb://old.docdb.amazonaws.com:27017/?retryWrites=false\n  uri: "mongodb://${DOCDB}/?retryWrites=false&tls=true"\n`,
      'settings.json': `{\n  "mongo": {\n    "uri": "mongodb+srv://c0.ab1cd.mongodb.net/app?retryWrites=false"\n  }\n}\n`,
      'app.toml': `[db]\nuri = "mongodb://localhost:27017/app"\n`,
      'application.properties': `spring.data.mongodb.uri=mongodb://${DOCDB}/app?retryWrites=false\n`,
      'db.ini': `[mongo]\n; uri = mongodb://localhost/?retryWrites=false\nuri = mongodb://localhost:27017/\n`,
      'main.tf': `resource "aws_ssm_parameter" "uri" {\n  value = "mongodb://\${var.user}:\${var.password}@\${aws_docdb_cluster.main.endpoint}:27017/?tls=true&tlsCAFile=global-bundle.pem&retryWrites=false"\n}\n`,
    };
    write(files);
    expect(await lint([settings({ engineVersion: '8.0.2' })])).toEqual({
      '.env': [report('removeRetryWritesFalse', files['.env'], 'retryWrites=false')],
      // The commented-out line is skipped; the second occurrence is the live one.
      'config.yaml': [report('removeRetryWritesFalse', files['config.yaml'], 'retryWrites=false', 2)],
      'settings.json': [report('retryWritesFalseNotDocumentDb', files['settings.json'], 'retryWrites=false')],
      'app.toml': [],
      'application.properties': [report('removeRetryWritesFalse', files['application.properties'], 'retryWrites=false')],
      'db.ini': [],
      'main.tf': [report('removeRetryWritesFalse', files['main.tf'], 'retryWrites=false')],
    });
  });

  it('fixes files with --fix: removes retryWrites=false on 8.0.2, keeps other lines and line endings', async () => {
    write({
      '.env': `# DocumentDB\r\nDOCDB_URI=mongodb://app:pw@${DOCDB}/?retryWrites=false\r\nPORT=3000\r\n`,
      'main.tf': `locals {\n  uri = "mongodb://\${var.user}:\${var.password}@\${var.cluster}.docdb.amazonaws.com:27017/?tls=true&retryWrites=false&readPreference=secondaryPreferred"\n}\n`,
    });
    await lint([settings({ engineVersion: '8.0.2' })], { fix: true });
    expect(readFileSync(path.join(cwd, '.env'), 'utf8')).toBe(`# DocumentDB\r\nDOCDB_URI=mongodb://app:pw@${DOCDB}/\r\nPORT=3000\r\n`);
    expect(readFileSync(path.join(cwd, 'main.tf'), 'utf8')).toBe(
      `locals {\n  uri = "mongodb://\${var.user}:\${var.password}@\${var.cluster}.docdb.amazonaws.com:27017/?tls=true&readPreference=secondaryPreferred"\n}\n`,
    );
  });

  it('fixes files with --fix: adds retryWrites=false before 8.0.2', async () => {
    write({
      '.env.production': `DOCDB_URI="mongodb://app:pw@${DOCDB}/?tls=true&tlsCAFile=global-bundle.pem"\n`,
      'values.yml': `mongo:\n  uri: mongodb://localhost:27018/orders\n`,
    });
    const messages = await lint([settings({ engineVersion: '5.0.0', hosts: ['localhost:27018'] })], { fix: true });
    expect(messages).toEqual({ '.env.production': [], 'values.yml': [] });
    expect(readFileSync(path.join(cwd, '.env.production'), 'utf8')).toBe(
      `DOCDB_URI="mongodb://app:pw@${DOCDB}/?tls=true&tlsCAFile=global-bundle.pem&retryWrites=false"\n`,
    );
    expect(readFileSync(path.join(cwd, 'values.yml'), 'utf8')).toBe('mongo:\n  uri: mongodb://localhost:27018/orders?retryWrites=false\n');
  });

  it('scans JSON and YAML whose syntax is broken as text', async () => {
    const files = {
      'broken.json': `{ "uri": "mongodb://${DOCDB}/?retryWrites=false", \n`,
      'broken.yaml': `a: [\n  b: mongodb://${DOCDB}/?retryWrites=false\n`,
    };
    write(files);
    expect(await lint([settings({ engineVersion: '8.0.2' })])).toEqual({
      'broken.json': [report('removeRetryWritesFalse', files['broken.json'], 'retryWrites=false')],
      'broken.yaml': [report('removeRetryWritesFalse', files['broken.yaml'], 'retryWrites=false')],
    });
  });

  it('skips binary content and handles a large file', async () => {
    const large = `${'x=1\n'.repeat(250_000)}URI=mongodb://${DOCDB}/?retryWrites=false\n`;
    write({ 'blob.json': `\u0000\u0001mongodb://${DOCDB}/?retryWrites=false`, 'large.env': large });
    const started = Date.now();
    expect(await lint([settings({ engineVersion: '8.0.2' })])).toEqual({
      'blob.json': [],
      'large.env': [report('removeRetryWritesFalse', large, 'retryWrites=false')],
    });
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it('reports an invalid engine version once per file, never crashes', async () => {
    const env = `A=mongodb://${DOCDB}/?retryWrites=false\nB=mongodb://${DOCDB}/\n`;
    write({ '.env': env, 'empty.json': '' });
    const firstUri = `mongodb://${DOCDB}/?retryWrites=false`;
    expect(await lint([settings({ engineVersion: 'latest' })])).toEqual({
      '.env': [report('invalidSetting', env, firstUri), report('retryWritesFalseUnknownVersion', env, 'retryWrites=false')],
      'empty.json': [],
    });
  });

  it('names an invalid setting as the ESLint config writes it, and never shows a connection string given as its value', async () => {
    write({ '.env': `A=mongodb://${DOCDB}/?retryWrites=false\n` });
    const messagesWith = async (config: Linter.Config) => {
      const eslint = new ESLint({ cwd, overrideConfigFile: true, overrideConfig: [plugin.configs['connection-strings'], config] as never });
      const [result] = await eslint.lintFiles(['.env']);
      return result!.messages.filter((message) => message.messageId === 'invalidSetting').map((message) => message.message);
    };
    expect(await messagesWith({ settings: { 'retry-safety': 'mongodb://admin:hunter2@db.example.com/' } })).toEqual([
      expect.stringMatching(/^settings\["retry-safety"\] is a string of 39 characters; expected an object/),
    ]);
    expect(await messagesWith(settings({ engineVersion: 'admin:hunter2@db.example.com:27017' }))).toEqual([
      expect.stringMatching(/^settings\["retry-safety"\]\.documentdb\.engineVersion is a string of 34 characters; expected a version such as/),
    ]);
  });

  it('lets the presets and project-wide language options (no `files`) be combined with it: other rules stay silent on text', async () => {
    const env = `DOCDB_URI=mongodb://${DOCDB}/?retryWrites=false\n`;
    write({ '.env': env });
    const projectWide: Linter.Config = { languageOptions: { ecmaVersion: 2022, sourceType: 'module', globals: { process: 'readonly' } } };
    expect(await lint([projectWide, ...plugin.configs.all, plugin.configs['connection-strings'], settings({ engineVersion: '8.0.2' })])).toEqual({
      '.env': [report('removeRetryWritesFalse', env, 'retryWrites=false')],
    });
  });

  it('honours eslint-disable comments in text files', async () => {
    const env = [
      '# eslint-disable-next-line retry-safety/mongo-retry-writes-connection-string -- legacy cluster, still on 5.0',
      `LEGACY_URI=mongodb://${DOCDB}/?retryWrites=false`,
      `OTHER_URI=mongodb://${DOCDB}/?retryWrites=false # eslint-disable-line`,
      `CURRENT_URI=mongodb://${DOCDB}/?retryWrites=false`,
      '',
    ].join('\r\n');
    const yaml = `# eslint-disable\nuri: mongodb://${DOCDB}/?retryWrites=false\n# eslint-enable\nnext: mongodb://${DOCDB}/?retryWrites=false\n`;
    write({ '.env': env, 'app.yaml': yaml, 'unused.yml': '# eslint-disable-next-line\nport: 3000\n' });
    expect(await lint([settings({ engineVersion: '8.0.2' }), { linterOptions: { reportUnusedDisableDirectives: 'error' } }])).toEqual({
      '.env': [report('removeRetryWritesFalse', env, 'retryWrites=false', 3)],
      'app.yaml': [report('removeRetryWritesFalse', yaml, 'retryWrites=false', 2)],
      // An unused directive is reported like in code (ESLint gives it no end position).
      'unused.yml': [{ ruleId: null, line: 1, column: 1 }],
    });
  });

  it("reads the text kinds of the file-kind table that are in the preset, as it always has", async () => {
    expect(plugin.configs['connection-strings'].files).toEqual(getConnectionStringsPresetFiles());
    expect(plugin.configs['connection-strings'].files).toEqual(
      ['**/.env*', '**/*.env', '**/*.json', '**/*.yaml', '**/*.yml', '**/*.properties', '**/*.toml', '**/*.ini', '**/*.tf'],
    );
    const line = `URI=mongodb://${DOCDB}/?retryWrites=false\n`;
    // One file of each kind: `name.ext`, or the name pattern with something after it.
    const files = Object.fromEntries(
      FILE_KINDS.filter((kind) => kind.syntax === 'text').flatMap((kind) => [
        ...kind.extensions.map((extension) => [`file${extension}`, line]),
        ...kind.fileNames.map((pattern) => [pattern.replace('*', 'rc'), line]),
      ]),
    );
    write(files);
    const results = await lint([settings({ engineVersion: '8.0.2' })]);
    const inPreset = FILE_KINDS.filter((kind) => kind.inConnectionStringsPreset).flatMap((kind) => [
      ...kind.extensions.map((extension) => `file${extension}`),
      ...kind.fileNames.map((pattern) => pattern.replace('*', 'rc')),
    ]);
    expect(Object.keys(results).sort()).toEqual([...inPreset].sort());
    expect(inPreset.sort()).toEqual(['.envrc', 'file.env', 'file.ini', 'file.json', 'file.properties', 'file.tf', 'file.toml', 'file.yaml', 'file.yml']);
    for (const name of inPreset) expect(results[name], name).toEqual([report('removeRetryWritesFalse', line, 'retryWrites=false')]);
  });

  it('takes a directive after any line comment of the text kinds (#, ; and //), and no other', async () => {
    const uri = `mongodb://${DOCDB}/?retryWrites=false`;
    const rule = 'retry-safety/mongo-retry-writes-connection-string';
    const files = {
      'app.ini': `; eslint-disable-next-line ${rule}\nuri = ${uri}\n`,
      'main.tf': `// eslint-disable-next-line ${rule}\nvalue = "${uri}"\n`,
      'app.properties': `! eslint-disable-next-line ${rule}\nuri=${uri}\n`,
    };
    write(files);
    expect(await lint([settings({ engineVersion: '8.0.2' })])).toEqual({
      'app.ini': [],
      'main.tf': [],
      'app.properties': [report('removeRetryWritesFalse', files['app.properties'], 'retryWrites=false')],
    });
  });

  it('works with ESLint 9', async () => {
    write({ '.env': `DOCDB_URI=mongodb://${DOCDB}/?retryWrites=false\n` });
    await lint([settings({ engineVersion: '8.0.2' })], { fix: true, eslint: ESLint9 as unknown as typeof ESLint });
    expect(readFileSync(path.join(cwd, '.env'), 'utf8')).toBe(`DOCDB_URI=mongodb://${DOCDB}/\n`);
  });
});
