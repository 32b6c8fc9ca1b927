// Runs the real `eslint` CLI (ESLint 10 and 9) on throw-away projects that use the
// built plugin from this workspace, the way a user's CI does.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProject, findingsOf, removeProjects, repo, runEslint } from './project';

const docdbUri =
  'mongodb://app:s3cretPass@orders.cluster-c9akciq32.us-east-1.docdb.amazonaws.com:27017/orders?tls=true&tlsCAFile=global-bundle.pem&replicaSet=rs0&retryWrites=false';

const esmConfig = `import tsParser from '@typescript-eslint/parser';
import retrySafety from 'eslint-plugin-retry-safety';

export default [
  { files: ['**/*.ts'], languageOptions: { parser: tsParser } },
  ...retrySafety.configs.recommended,
  retrySafety.configs['connection-strings'],
  { settings: { 'retry-safety': { documentdb: { engineVersion: '8.0.2' } } } },
];
`;

const cjsConfig = `const retrySafety = require('eslint-plugin-retry-safety');

module.exports = [
  ...retrySafety.configs.recommended,
  retrySafety.configs['connection-strings'],
  { settings: { 'retry-safety': { documentdb: { engineVersion: '5.0.0' } } } },
];
`;

const typedConfig = `import tsParser from '@typescript-eslint/parser';
import retrySafety from 'eslint-plugin-retry-safety';

export default [
  {
    files: ['**/*.ts'],
    languageOptions: { parser: tsParser, parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
  },
  ...retrySafety.configs.all,
  { settings: { 'retry-safety': { documentdb: { engineVersion: '8.0.2' } } } },
];
`;

const tsClient = `import { MongoClient } from 'mongodb';

const uri = process.env.DOCDB_URI ?? '${docdbUri}';
export const client = new MongoClient(uri);
`;

beforeAll(() => {
  if (!existsSync(path.join(repo, 'eslint-plugin', 'dist', 'index.cjs'))) {
    throw new Error('Build the plugin first: npm run build');
  }
});

afterAll(removeProjects);

describe.each(['eslint', 'eslint9'] as const)('%s CLI with eslint.config.js (ESM) and the TypeScript parser', (eslintPackage) => {
  it('reports the connection string in .ts and .env files and --fix removes retryWrites=false', () => {
    const dir = createProject(
      { 'package.json': '{ "type": "module" }', 'eslint.config.js': esmConfig, 'src/db.ts': tsClient, '.env': `PORT=3000\nDOCDB_URI=${docdbUri}\n` },
      eslintPackage,
    );
    const before = runEslint(dir, ['.']);
    const tsFindings = findingsOf(before, 'src/db.ts');
    const envFindings = findingsOf(before, '.env');
    expect(tsFindings.map((m) => m.ruleId)).toEqual(['retry-safety/mongo-retry-writes-connection-string']);
    expect(tsFindings[0]).toMatchObject({ line: 3 });
    expect(envFindings.map((m) => [m.ruleId, m.line])).toEqual([['retry-safety/mongo-retry-writes-connection-string', 2]]);
    // The finding points at the offending option, not at the start of the URI.
    expect(envFindings[0]!.column).toBe(`DOCDB_URI=${docdbUri}`.indexOf('retryWrites=false') + 1);
    for (const message of [...tsFindings, ...envFindings]) expect(message.message).not.toContain('s3cretPass');

    const afterFix = runEslint(dir, ['--fix', '.']);
    expect(afterFix.flatMap((result) => result.messages)).toEqual([]);
    const fixedUri = docdbUri.replace('&retryWrites=false', '');
    expect(readFileSync(path.join(dir, '.env'), 'utf8')).toBe(`PORT=3000\nDOCDB_URI=${fixedUri}\n`);
    expect(readFileSync(path.join(dir, 'src/db.ts'), 'utf8')).toBe(tsClient.replace(docdbUri, fixedUri));
  });
});

describe('eslint 9 CLI with eslint.config.cjs (CommonJS) and the default parser', () => {
  it('loads the plugin with require() and adds retryWrites=false for an engine before 8.0.2', () => {
    const uri = 'mongodb://app:pw@orders.cluster-c9akciq32.us-east-1.docdb.amazonaws.com:27017/?tls=true';
    const source = `const { MongoClient } = require('mongodb');\nconst client = new MongoClient('${uri}');\nmodule.exports = client;\n`;
    const dir = createProject({ 'eslint.config.cjs': cjsConfig, 'db.js': source, 'settings.yaml': `mongo:\n  uri: "${uri}"\n` }, 'eslint9');
    const before = runEslint(dir, ['.']);
    expect(findingsOf(before, 'db.js').map((m) => [m.ruleId, m.line])).toEqual([['retry-safety/mongo-retry-writes-connection-string', 2]]);
    expect(findingsOf(before, 'settings.yaml').map((m) => m.line)).toEqual([2]);
    runEslint(dir, ['--fix', '.']);
    expect(readFileSync(path.join(dir, 'db.js'), 'utf8')).toContain(`${uri}&retryWrites=false`);
    expect(readFileSync(path.join(dir, 'settings.yaml'), 'utf8')).toContain(`${uri}&retryWrites=false`);
  });
});

describe('eslint CLI with typed linting', () => {
  it('runs every rule with type information without errors', () => {
    const tsconfig = JSON.stringify({ compilerOptions: { strict: true, module: 'NodeNext', moduleResolution: 'NodeNext', skipLibCheck: true, noEmit: true }, include: ['src'] });
    const dir = createProject({ 'package.json': '{ "type": "module" }', 'tsconfig.json': tsconfig, 'eslint.config.js': typedConfig, 'src/db.ts': tsClient }, 'eslint');
    const results = runEslint(dir, ['src']);
    const messages = findingsOf(results, 'src/db.ts');
    expect(messages.filter((m) => m.fatal)).toEqual([]);
    expect(messages.map((m) => m.ruleId)).toContain('retry-safety/mongo-retry-writes-connection-string');
  });
});
