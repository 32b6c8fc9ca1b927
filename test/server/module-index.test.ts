// The plugin's module index in the language server: a document's relative imports are read
// from the editor's unsaved text of open documents, else from disk, and an edit of an
// imported document lints the open documents that import it again.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { FileChangeType } from 'vscode-languageserver-protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LspClient } from './lsp-client';

/** The code of its diagnostics: the rule's name without the plugin's prefix. */
const RULE = 'mongo-no-non-retryable-write';
const COLLECTION_MODULE = `import { MongoClient } from 'mongodb';\nexport const orders = new MongoClient('mongodb://localhost').db('shop').collection('orders');\n`;
const ARRAY_MODULE = `export const orders = { deleteMany(filter: unknown) { return filter; } };\n`;
const APP = `import { orders } from './db';\n\nexport async function purge() {\n  await orders.deleteMany({ archived: true });\n}\n`;
/** A function of another module, retried at once: reported only while it does database work. */
const PLAIN_ORDERS = `export async function saveOrder(order: { id: string }) {\n  return JSON.stringify(order);\n}\n`;
const DB_ORDERS = `import { MongoClient } from 'mongodb';\nconst orders = new MongoClient('mongodb://localhost').db('shop').collection('orders');\nexport async function saveOrder(order: { id: string }) {\n  return orders.insertOne({ _id: order.id });\n}\n`;
const RETRYING_APP = `import { saveOrder } from './orders';\n\nexport async function save(order: { id: string }) {\n  for (let attempt = 0; attempt < 3; attempt++) {\n    try {\n      return await saveOrder(order);\n    } catch (error) {\n      console.error(error);\n    }\n  }\n  return undefined;\n}\n`;

describe('language server: values from imported modules', () => {
  let client: LspClient;
  let dir: string;

  beforeAll(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'retry-safety-lsp-modules-'));
    mkdirSync(path.join(dir, 'src'));
    client = await LspClient.start({
      settings: { enable: true, documentdb: { hosts: [] }, rules: {}, trace: { server: 'off' } },
      initializationOptions: { debounceMs: 20 },
    });
  });

  afterAll(async () => {
    await client?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  const uriOf = (name: string): string => pathToFileURL(path.join(dir, 'src', name)).href;

  /** A project folder `name` whose `src` holds `files` on disk; gives the URI of a file there. */
  const projectIn = (name: string, files: Record<string, string>): ((file: string) => string) => {
    const src = path.join(dir, name, 'src');
    mkdirSync(src, { recursive: true });
    for (const [file, text] of Object.entries(files)) writeFileSync(path.join(src, file), text);
    return (file) => pathToFileURL(path.join(src, file)).href;
  };

  it('reads an imported module from disk', async () => {
    writeFileSync(path.join(dir, 'src', 'db.ts'), COLLECTION_MODULE);
    const app = uriOf('app.ts');
    await client.open(app, 'typescript', APP);
    const diagnostics = await client.diagnosticsFor(app, 1);
    expect(diagnostics.map((diagnostic) => [diagnostic.code, diagnostic.range.start.line])).toEqual([[RULE, 3]]);
    await client.close(app);
  });

  it("reads an open module's unsaved text instead of the file, and lints its importers again after an edit", async () => {
    // On disk the module exports a plain object with a look-alike method: nothing to report.
    const uriIn = projectIn('unsaved', { 'db.ts': ARRAY_MODULE });
    const db = uriIn('db.ts');
    const app = uriIn('app.ts');
    await client.open(db, 'typescript', COLLECTION_MODULE);
    await client.diagnosticsFor(db, 1);
    await client.open(app, 'typescript', APP);
    expect((await client.diagnosticsFor(app, 1)).map((diagnostic) => diagnostic.code)).toEqual([RULE]);

    // Edit the module (unsaved) back to the look-alike: the importer is linted again.
    const published = client.published.length;
    await client.change(db, ARRAY_MODULE);
    const relinted = await client.waitForDiagnostics(app, () => client.published.length > published);
    expect(relinted.diagnostics).toEqual([]);

    // And back to a collection (still unsaved): reported again.
    const before = client.published.length;
    await client.change(db, COLLECTION_MODULE);
    const again = await client.waitForDiagnostics(app, () => client.published.length > before);
    expect(again.diagnostics.map((diagnostic) => diagnostic.code)).toEqual([RULE]);

    // Closing the module without saving: the file on disk (the look-alike) counts again.
    await client.close(db);
    await client.change(app, `${APP}\n`);
    expect(await client.diagnosticsFor(app, 2)).toEqual([]);
  });

  it('lints again a retry of a function whose module starts, then stops, doing database work', async () => {
    const uriIn = projectIn('calls', { 'orders.ts': PLAIN_ORDERS });
    const orders = uriIn('orders.ts');
    const app = uriIn('app.ts');
    await client.open(app, 'typescript', RETRYING_APP);
    // The module is summarised once and known to call no database: nothing to report.
    expect(await client.diagnosticsFor(app, 1)).toEqual([]);
    await client.change(app, `${RETRYING_APP}\n`);
    expect(await client.diagnosticsFor(app, 2)).toEqual([]);

    // Its unsaved text now writes to MongoDB: the importer's retry is reported.
    await client.open(orders, 'typescript', DB_ORDERS);
    await client.diagnosticsFor(orders, 1);
    await client.change(app, `${RETRYING_APP}\n\n`);
    const reported = (await client.diagnosticsFor(app, 3)).map((diagnostic) => diagnostic.code);
    expect(reported).toContain('require-retry-backoff');

    // And back to plain code: silent again.
    await client.change(orders, PLAIN_ORDERS);
    await client.change(app, RETRYING_APP);
    expect(await client.diagnosticsFor(app, 4)).toEqual([]);
    await client.close(orders);
    await client.close(app);
  });
});

describe('language server: imported modules changed on disk', () => {
  let client: LspClient;
  let dir: string;

  beforeAll(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'retry-safety-lsp-disk-'));
    mkdirSync(path.join(dir, 'src'));
    client = await LspClient.start({
      settings: { enable: true, documentdb: { hosts: [] }, rules: {}, trace: { server: 'off' } },
      initializationOptions: { debounceMs: 20 },
      watchFiles: true,
    });
  });

  afterAll(async () => {
    await client?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('asks the client to watch the modules, and lints importers again as soon as a watched module changes, appears or goes away', async () => {
    await expect.poll(() => client.registrations.map((registration) => registration.method)).toContain('workspace/didChangeWatchedFiles');
    const watchers = client.registrations.find((registration) => registration.method === 'workspace/didChangeWatchedFiles')?.registerOptions as { watchers: Array<{ globPattern: string }> };
    expect(watchers.watchers.map((watcher) => watcher.globPattern)).toEqual(expect.arrayContaining(['**/*.{ts,tsx,mts,cts,js,jsx,mjs,cjs}', '**/package.json']));

    const db = path.join(dir, 'src', 'db.ts');
    const dbUri = pathToFileURL(db).href;
    writeFileSync(db, ARRAY_MODULE);
    const app = pathToFileURL(path.join(dir, 'src', 'app.ts')).href;
    await client.open(app, 'typescript', APP);
    expect(await client.diagnosticsFor(app, 1)).toEqual([]);

    // Rewritten on disk (a checkout, not the editor): reported without waiting for the index to look again.
    let published = client.published.length;
    writeFileSync(db, COLLECTION_MODULE);
    await client.changeWatchedFiles([{ uri: dbUri, type: FileChangeType.Changed }]);
    const reported = await client.waitForDiagnostics(app, () => client.published.length > published);
    expect(reported.diagnostics.map((diagnostic) => [diagnostic.code, diagnostic.range.start.line])).toEqual([[RULE, 3]]);

    // Deleted: nothing is known of `orders` any more.
    published = client.published.length;
    rmSync(db);
    await client.changeWatchedFiles([{ uri: dbUri, type: FileChangeType.Deleted }]);
    expect((await client.waitForDiagnostics(app, () => client.published.length > published)).diagnostics).toEqual([]);

    // Created again, as a folder's index: found at once.
    published = client.published.length;
    const index = path.join(dir, 'src', 'db', 'index.ts');
    mkdirSync(path.dirname(index));
    writeFileSync(index, COLLECTION_MODULE);
    await client.changeWatchedFiles([{ uri: pathToFileURL(index).href, type: FileChangeType.Created }]);
    const again = await client.waitForDiagnostics(app, () => client.published.length > published);
    expect(again.diagnostics.map((diagnostic) => diagnostic.code)).toEqual([RULE]);
    await client.close(app);
  });
});
