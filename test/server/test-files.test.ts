// Test files in the language server: it applies the `recommended` preset's test-file levels
// to documents whose path, relative to their workspace folder, matches the preset's
// patterns, exactly as `eslint .` with the preset does; a level in the settings still wins.
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import parser from '@typescript-eslint/parser';
import { Linter, type ESLint } from 'eslint';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LspClient } from './lsp-client';

const plugin = createRequire(import.meta.url)('eslint-plugin-retry-safety') as ESLint.Plugin & { configs: { recommended: Linter.Config[] } };

const SET_UP = `import { MongoClient } from 'mongodb';

const client = new MongoClient('mongodb://localhost:27017/shop?retryWrites=false');
const orders = client.db('shop').collection('orders');

export async function reset() {
  await orders.deleteMany({});
  await orders.insertOne({ sku: 'a-1', quantity: 2 });
}
`;
const QUIET = ['retry-safety/mongo-no-non-retryable-write', 'retry-safety/mongo-require-insert-id'];
const KEPT = 'retry-safety/mongo-retry-writes-connection-string';

// The workspace itself sits in a folder named `test`: only the path inside it counts.
const WORKSPACE = 'file:///work/test/shop';
const settings = (rules: Record<string, string> = {}) => ({ enable: true, documentdb: { engineVersion: '8.0.2', hosts: [] }, rules, trace: { server: 'off' } });

/** The rule ids `eslint .` with `recommended` reports for the file, run from the workspace folder. */
function eslintRuleIds(uri: string): string[] {
  const cwd = fileURLToPath(WORKSPACE);
  const config: Linter.Config[] = [
    { files: ['**/*.ts'], languageOptions: { parser } },
    ...plugin.configs.recommended,
    { settings: { 'retry-safety': { documentdb: { engineVersion: '8.0.2' } } } },
  ];
  return new Linter({ cwd }).verify(SET_UP, config, fileURLToPath(uri)).map((message) => String(message.ruleId)).sort();
}

async function ruleIdsOf(client: LspClient, uri: string): Promise<string[]> {
  await client.open(uri, 'typescript', SET_UP);
  const diagnostics = await client.diagnosticsFor(uri, 1);
  await client.close(uri);
  // The server publishes the rule's name as the code, under the source retry-safety.
  return diagnostics.map((diagnostic) => `${diagnostic.source}/${String(diagnostic.code)}`).sort();
}

describe('language server: test files under recommended', () => {
  let client: LspClient;

  beforeAll(async () => {
    client = await LspClient.start({ settings: settings(), workspaceFolders: [WORKSPACE], initializationOptions: { debounceMs: 20 } });
  });

  afterAll(async () => {
    await client?.stop();
  });

  it('reports the set-up rules in application code', async () => {
    const uri = `${WORKSPACE}/src/orders.ts`;
    expect(await ruleIdsOf(client, uri)).toEqual([...QUIET, KEPT].sort());
    expect(await ruleIdsOf(client, uri)).toEqual(eslintRuleIds(uri));
  });

  it.each(['src/orders.test.ts', 'src/orders.spec.ts', 'src/__tests__/orders.ts', 'test/helpers.ts', 'tests/setup.ts', 'src/__mocks__/db.ts', 'fixtures/seed.ts'])(
    'keeps only the rules that stay on in test files for %s, as eslint . does',
    async (name) => {
      const uri = `${WORKSPACE}/${name}`;
      expect(await ruleIdsOf(client, uri)).toEqual([KEPT]);
      expect(await ruleIdsOf(client, uri)).toEqual(eslintRuleIds(uri));
    },
  );

  it('judges a document outside every workspace folder by its whole path', async () => {
    expect(await ruleIdsOf(client, 'file:///elsewhere/__tests__/orders.ts')).toEqual([KEPT]);
    expect(await ruleIdsOf(client, 'file:///elsewhere/src/orders.ts')).toEqual([...QUIET, KEPT].sort());
  });
});

describe('language server: a level in the settings wins in test files', () => {
  let client: LspClient;

  beforeAll(async () => {
    client = await LspClient.start({
      settings: settings({ 'mongo-require-insert-id': 'error' }),
      workspaceFolders: [WORKSPACE],
      initializationOptions: { debounceMs: 20 },
    });
  });

  afterAll(async () => {
    await client?.stop();
  });

  it('reports the rule the settings turn on, and keeps the others quiet', async () => {
    expect(await ruleIdsOf(client, `${WORKSPACE}/src/orders.test.ts`)).toEqual([KEPT, 'retry-safety/mongo-require-insert-id'].sort());
  });
});
