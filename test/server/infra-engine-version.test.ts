// The DocumentDB engine version found in a workspace folder's infrastructure code, in the
// language server over stdio: the message says where it is stated, and a change to the
// infrastructure file (reported by the client's file watcher, or saved) lints the open
// documents again.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { FileChangeType, type Diagnostic } from 'vscode-languageserver-protocol';
import { afterEach, describe, expect, it } from 'vitest';
import { LspClient } from './lsp-client';

const RULE = 'mongo-retry-writes-connection-string';
const URI_FALSE = 'mongodb://app:s3cretPass@orders.cluster-c9akciq32.us-east-1.docdb.amazonaws.com:27017/orders?tls=true&retryWrites=false';
const SOURCE = `import { MongoClient } from 'mongodb';\n\nexport const client = new MongoClient('${URI_FALSE}');\n`;
const SETTINGS = { enable: true, documentdb: { hosts: [] }, rules: {}, trace: { server: 'off' } };

const terraform = (version: string) => `resource "aws_docdb_cluster" "orders" {\n  engine         = "docdb"\n  engine_version = "${version}"\n}\n`;

const dirs: string[] = [];
const clients: LspClient[] = [];

function makeWorkspace(files: Record<string, string>): { dir: string; uriOf: (name: string) => string } {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'retry-safety-lsp-infra-'));
  dirs.push(dir);
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    writeFileSync(path.join(dir, name), text);
  }
  return { dir, uriOf: (name) => pathToFileURL(path.join(dir, name)).href };
}

async function start(options: Parameters<typeof LspClient.start>[0]): Promise<LspClient> {
  const client = await LspClient.start({ initializationOptions: { debounceMs: 20 }, ...options });
  clients.push(client);
  return client;
}

const messages = (diagnostics: Diagnostic[]) => diagnostics.filter((diagnostic) => diagnostic.code === RULE).map((diagnostic) => diagnostic.message);

afterEach(async () => {
  for (const client of clients.splice(0)) await client.stop();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

// Each test starts a server and lints with it several times: slower than most on a loaded machine.
describe('language server: the engine version from the workspace folder', { timeout: 120_000 }, () => {
  it('shows the version found and where, watches infrastructure files, and lints again when one changes', async () => {
    const { dir, uriOf } = makeWorkspace({ 'infra/docdb.tf': terraform('8.0.2'), 'src/db.ts': SOURCE });
    const client = await start({ settings: SETTINGS, workspaceFolders: [pathToFileURL(dir).href], watchFiles: true });
    const db = uriOf('src/db.ts');
    await client.open(db, 'typescript', SOURCE);
    const [message, ...others] = messages(await client.diagnosticsFor(db, 1));
    expect(others).toEqual([]);
    expect(message).toContain('DocumentDB 8.0.2 (from infra/docdb.tf:3) supports them');
    expect(message).not.toContain('s3cretPass');

    // The server asked the client to watch the files that may state the version.
    await expect.poll(() => client.registrations.map((registration) => registration.method)).toContain('workspace/didChangeWatchedFiles');
    const watchers = client.registrations.find((registration) => registration.method === 'workspace/didChangeWatchedFiles')?.registerOptions as { watchers: Array<{ globPattern: string }> };
    expect(watchers.watchers[0]!.globPattern).toContain('tf');

    // The cluster goes back to 5.0.0: retryWrites=false is right there, nothing to report.
    let published = client.published.length;
    writeFileSync(path.join(dir, 'infra/docdb.tf'), terraform('5.0.0'));
    await client.changeWatchedFiles([{ uri: uriOf('infra/docdb.tf'), type: FileChangeType.Changed }]);
    const relinted = await client.waitForDiagnostics(db, () => client.published.length > published);
    expect(messages(relinted.diagnostics)).toEqual([]);

    // A second cluster on 8.0.2 appears: the versions disagree, named rather than guessed.
    published = client.published.length;
    writeFileSync(path.join(dir, 'infra/global.tf'), 'resource "aws_docdb_global_cluster" "g" {\n  engine_version = "8.0.2"\n}\n');
    await client.changeWatchedFiles([{ uri: uriOf('infra/global.tf'), type: FileChangeType.Created }]);
    const several = await client.waitForDiagnostics(db, () => client.published.length > published);
    expect(messages(several.diagnostics)).toEqual([expect.stringContaining('versions on both sides (5.0.0 in infra/docdb.tf:3, 8.0.2 in infra/global.tf:2)')]);

    // A change to a file that states no cluster lints nothing again.
    published = client.published.length;
    writeFileSync(path.join(dir, 'src/other.ts'), 'export const x = 1;\n');
    await client.changeWatchedFiles([{ uri: uriOf('src/other.ts'), type: FileChangeType.Created }]);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(client.published.length).toBe(published);
  });

  it('looks again when an open infrastructure file is saved (a client that watches no files)', async () => {
    const { dir, uriOf } = makeWorkspace({ 'template.yaml': 'Resources:\n  Db:\n    Type: AWS::DocDB::DBCluster\n    Properties:\n      EngineVersion: 8.0.2\n', 'src/db.ts': SOURCE });
    const client = await start({ settings: SETTINGS, workspaceFolders: [pathToFileURL(dir).href] });
    const db = uriOf('src/db.ts');
    await client.open(db, 'typescript', SOURCE);
    expect(messages(await client.diagnosticsFor(db, 1))).toEqual([expect.stringContaining('8.0.2 (from template.yaml:5) supports them')]);
    expect(client.registrations.some((registration) => registration.method === 'workspace/didChangeWatchedFiles')).toBe(false);

    const template = uriOf('template.yaml');
    const edited = 'Resources:\n  Db:\n    Type: AWS::DocDB::DBCluster\n    Properties:\n      EngineVersion: !Ref Version\n';
    await client.open(template, 'yaml', edited);
    writeFileSync(path.join(dir, 'template.yaml'), edited);
    const published = client.published.length;
    await client.save(template);
    const relinted = await client.waitForDiagnostics(db, () => client.published.length > published);
    expect(messages(relinted.diagnostics)).toEqual([expect.stringContaining('Set retrySafety.documentdb.engineVersion')]);
  });

  it('searches a workspace folder added later', async () => {
    const { dir, uriOf } = makeWorkspace({ 'infra/docdb.tf': terraform('8.0.2'), 'src/db.ts': SOURCE });
    const client = await start({ settings: SETTINGS, watchFiles: true });
    const db = uriOf('src/db.ts');
    await client.open(db, 'typescript', SOURCE);
    expect(messages(await client.diagnosticsFor(db, 1))).toEqual([expect.stringContaining('Set retrySafety.documentdb.engineVersion')]);
    const published = client.published.length;
    await client.changeWorkspaceFolders([pathToFileURL(dir).href]);
    const relinted = await client.waitForDiagnostics(db, () => client.published.length > published);
    expect(messages(relinted.diagnostics)).toEqual([expect.stringContaining('8.0.2 (from infra/docdb.tf:3) supports them')]);
  });

  it('searches no folder for a document outside the workspace', async () => {
    const { uriOf } = makeWorkspace({ 'infra/docdb.tf': terraform('8.0.2'), 'src/db.ts': SOURCE });
    const outside = await start({ settings: SETTINGS });
    await outside.open(uriOf('src/db.ts'), 'typescript', SOURCE);
    expect(messages(await outside.diagnosticsFor(uriOf('src/db.ts'), 1))).toEqual([expect.stringContaining('Set retrySafety.documentdb.engineVersion')]);
  });

  it('searches none when findEngineVersion is off', async () => {
    const { dir, uriOf } = makeWorkspace({ 'infra/docdb.tf': terraform('8.0.2'), 'src/db.ts': SOURCE });
    const off = await start({ settings: { ...SETTINGS, documentdb: { hosts: [], findEngineVersion: false } }, workspaceFolders: [pathToFileURL(dir).href] });
    await off.open(uriOf('src/db.ts'), 'typescript', SOURCE);
    expect(messages(await off.diagnosticsFor(uriOf('src/db.ts'), 1))).toEqual([expect.stringContaining('Set retrySafety.documentdb.engineVersion')]);
  });
});
