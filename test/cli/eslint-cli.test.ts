// Runs the real `eslint` CLI (ESLint 10 and 9) on throw-away projects that use the
// built plugin from this workspace, the way a user's CI does.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync, existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const repo = path.join(import.meta.dirname, '..', '..');
const rootModules = path.join(repo, 'node_modules');
const tempDirs: string[] = [];

const docdbUri =
  'mongodb://app:s3cretPass@orders.cluster-c9akciq32.us-east-1.docdb.amazonaws.com:27017/orders?tls=true&tlsCAFile=global-bundle.pem&replicaSet=rs0&retryWrites=false';

interface JsonResult {
  filePath: string;
  messages: { ruleId: string | null; line: number; column: number; message: string; fatal?: boolean }[];
}

/** A project folder whose node_modules links the workspace's plugin and the chosen ESLint. */
function createProject(files: Record<string, string>, eslintPackage: 'eslint' | 'eslint9'): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'retry-safety-cli-'));
  tempDirs.push(dir);
  const modules = path.join(dir, 'node_modules');
  mkdirSync(path.join(modules, '@typescript-eslint'), { recursive: true });
  symlinkSync(path.join(repo, 'eslint-plugin'), path.join(modules, 'eslint-plugin-retry-safety'), 'dir');
  symlinkSync(path.join(rootModules, eslintPackage), path.join(modules, 'eslint'), 'dir');
  symlinkSync(path.join(rootModules, '@typescript-eslint', 'parser'), path.join(modules, '@typescript-eslint', 'parser'), 'dir');
  symlinkSync(path.join(rootModules, 'typescript'), path.join(modules, 'typescript'), 'dir');
  symlinkSync(path.join(rootModules, 'mongodb'), path.join(modules, 'mongodb'), 'dir');
  for (const [name, content] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    writeFileSync(path.join(dir, name), content);
  }
  return dir;
}

/** Runs the project's eslint binary; returns its JSON report (exit code 1 just means findings). */
function runEslint(dir: string, args: string[]): JsonResult[] {
  const bin = path.join(dir, 'node_modules', 'eslint', 'bin', 'eslint.js');
  let stdout: string;
  try {
    stdout = execFileSync(process.execPath, [bin, '--format', 'json', ...args], { cwd: dir, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  } catch (error) {
    const failure = error as { status?: number; stdout?: string; stderr?: string };
    if (failure.status !== 1) throw new Error(`eslint exited with ${failure.status}: ${failure.stderr}`);
    stdout = failure.stdout ?? '';
  }
  return JSON.parse(stdout) as JsonResult[];
}

function findingsOf(results: JsonResult[], file: string): JsonResult['messages'] {
  return results.find((result) => result.filePath.endsWith(file))?.messages ?? [];
}

const esmConfig = `import tsParser from '@typescript-eslint/parser';
import retrySafety from 'eslint-plugin-retry-safety';

export default [
  { files: ['**/*.ts'], languageOptions: { parser: tsParser } },
  retrySafety.configs.recommended,
  retrySafety.configs['connection-strings'],
  { settings: { 'retry-safety': { documentdb: { engineVersion: '8.0.2' } } } },
];
`;

const cjsConfig = `const retrySafety = require('eslint-plugin-retry-safety');

module.exports = [
  retrySafety.configs.recommended,
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
  retrySafety.configs.all,
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

afterAll(() => {
  for (const dir of tempDirs) rmSync(dir, { recursive: true, force: true });
});

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
