// The `recommended` preset is quiet in test files (the rules whose reports there are about
// set-up and helper code), `strict` is not, and the README's recipe for other test folders
// works as written: all with the real `eslint` CLI (ESLint 10 and 9) on throw-away projects.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProject, findingsOf, removeProjects, repo, runEslint, type JsonResult } from './project';

const config = (preset: string) => `import tsParser from '@typescript-eslint/parser';
import retrySafety from 'eslint-plugin-retry-safety';

export default [
  { files: ['**/*.ts'], languageOptions: { parser: tsParser } },
  ...retrySafety.configs.${preset},
  { settings: { 'retry-safety': { documentdb: { engineVersion: '8.0.2' } } } },
];
`;

// A test's set-up: a wipe, a fixture insert, and a connection string that turns retries off.
const setUp = `import { MongoClient } from 'mongodb';

const client = new MongoClient('mongodb://localhost:27017/shop?retryWrites=false');
const orders = client.db('shop').collection('orders');

export async function reset() {
  await orders.deleteMany({});
  await orders.insertOne({ sku: 'a-1', quantity: 2 });
}
`;

const QUIET = ['retry-safety/mongo-no-non-retryable-write', 'retry-safety/mongo-require-insert-id'];
const KEPT = 'retry-safety/mongo-retry-writes-connection-string';

const testFileNames = [
  'src/orders.test.ts',
  'src/orders.spec.ts',
  'src/__tests__/orders.ts',
  'test/helpers.ts',
  'packages/api/tests/setup.ts',
  'src/__mocks__/db.ts',
  'fixtures/seed.ts',
];

const rulesOf = (results: JsonResult[], file: string) => findingsOf(results, file).map((message) => message.ruleId);

beforeAll(() => {
  if (!existsSync(path.join(repo, 'eslint-plugin', 'dist', 'index.cjs'))) throw new Error('Build the plugin first: npm run build');
});

afterAll(removeProjects);

describe.each(['eslint', 'eslint9'] as const)('%s CLI: test files', (eslintPackage) => {
  const files = (preset: string) => ({
    'package.json': '{ "type": "module" }',
    'eslint.config.js': config(preset),
    'src/orders.ts': setUp,
    ...Object.fromEntries(testFileNames.map((name) => [name, setUp])),
  });

  it('recommended: the set-up rules are off in test files, on elsewhere; the connection-string rule stays on', () => {
    const results = runEslint(createProject(files('recommended'), eslintPackage), ['.']);
    expect(rulesOf(results, 'src/orders.ts').sort()).toEqual([...QUIET, KEPT].sort());
    for (const name of testFileNames) expect(rulesOf(results, name), name).toEqual([KEPT]);
  });

  it('strict: test files are checked like any other', () => {
    const results = runEslint(createProject(files('strict'), eslintPackage), ['.']);
    for (const name of ['src/orders.ts', ...testFileNames]) expect(rulesOf(results, name).sort(), name).toEqual([...QUIET, KEPT].sort());
  });

  it("the README's recipe quiets another folder and checks fixtures/ again", () => {
    const readme = readFileSync(path.join(repo, 'README.md'), 'utf8');
    const recipe = /<!-- test-files-config -->\n```js\n([\s\S]*?)\n```\n/.exec(readme)?.[1];
    expect(recipe).toBeDefined();
    const javaScript = setUp.replace('?retryWrites=false', '');
    const dir = createProject(
      {
        'package.json': '{ "type": "module" }',
        'eslint.config.js': recipe!,
        'src/orders.js': javaScript,
        'src/orders.test.js': javaScript,
        'e2e/setup.js': javaScript,
        'fixtures/seed.js': javaScript,
      },
      eslintPackage,
    );
    const results = runEslint(dir, ['.']);
    expect(rulesOf(results, 'src/orders.js').sort()).toEqual(QUIET);
    expect(rulesOf(results, 'src/orders.test.js')).toEqual([]);
    expect(rulesOf(results, 'e2e/setup.js')).toEqual([]);
    expect(rulesOf(results, 'fixtures/seed.js').sort()).toEqual(QUIET);
  });
});
