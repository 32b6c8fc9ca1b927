// The README's CI recipe, run for real: the workflow's ESLint command with the SARIF
// formatter on the example service (rule ids, help URIs, locations, and none of the
// passwords its connection strings hold), and the exit codes the README's table gives.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import plugin from '../../eslint-plugin/src/index';
import { childEnv, linkFromRepository, makeTempDir, readme, readmeBlock, removeTempDirs, repo, rootModules, runProjectEslint } from '../packaging/support';

const examplesDir = path.join(repo, 'examples');
const docsDir = path.join(repo, 'eslint-plugin', 'docs', 'rules');

interface SarifResult {
  ruleId?: string;
  ruleIndex?: number;
  level: string;
  message: { text: string };
  locations: { physicalLocation: { artifactLocation: { uri: string; index: number }; region?: { startLine?: number; startColumn?: number; endLine?: number; endColumn?: number } } }[];
}
interface SarifLog {
  version: string;
  runs: {
    tool: { driver: { name: string; rules: { id: string; helpUri: string; shortDescription?: { text: string } }[] } };
    artifacts?: { location: { uri: string } }[];
    results: SarifResult[];
    invocations?: unknown[];
  }[];
}

/** The ESLint step of the README's workflow. */
const workflow = readmeBlock('ci-workflow');
const eslintStep = /- name: ESLint\n\s+id: eslint\n\s+run: (npx eslint [^\n]+)\n/.exec(workflow)?.[1];

/** Every `scheme://user:password@` password in the example project's files. */
function findExamplePasswords(dir: string): string[] {
  const found = new Set<string>();
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile() || entry.parentPath.includes('node_modules')) continue;
    const text = readFileSync(path.join(entry.parentPath, entry.name), 'utf8');
    for (const match of text.matchAll(/[a-z][a-z0-9+.-]*:\/\/[^:/@\s'"`]+:([^@\s'"`]+)@/gi)) found.add(match[1]!);
  }
  return [...found];
}

afterAll(removeTempDirs);

describe('the README workflow on the example project', () => {
  let sarifText: string;
  let sarif: SarifLog;
  let status: number | null;

  beforeAll(() => {
    expect(eslintStep, 'the workflow has an ESLint step').toBeDefined();
    const output = path.join(makeTempDir('retry-safety-sarif-'), 'eslint-results.sarif');
    const args = eslintStep!.replace(/^npx eslint /, '').split(/\s+/);
    const outputIndex = args.indexOf('--output-file');
    expect(outputIndex).toBeGreaterThan(-1);
    args[outputIndex + 1] = output;
    const env = childEnv();
    delete env.SARIF_ESLINT_EMBED;
    const run = spawnSync(process.execPath, [path.join(rootModules, 'eslint', 'bin', 'eslint.js'), ...args], { cwd: examplesDir, encoding: 'utf8', env, timeout: 120_000 });
    status = run.status;
    if (!existsSync(output)) throw new Error(`no SARIF written (exit ${run.status}): ${run.stderr}`);
    sarifText = readFileSync(output, 'utf8');
    sarif = JSON.parse(sarifText) as SarifLog;
  });

  it('uploads the report it writes, keeps going on findings and fails the job after the upload', () => {
    expect(workflow).toContain('security-events: write');
    expect(workflow).toMatch(/uses: github\/codeql-action\/upload-sarif@v\d+/);
    expect(workflow).toContain('sarif_file: eslint-results.sarif');
    expect(eslintStep).toContain('--output-file eslint-results.sarif');
    expect(eslintStep).toContain('--format @microsoft/eslint-formatter-sarif');
    expect(workflow).toMatch(/run: npx eslint [^\n]+\n\s+continue-on-error: true/);
    expect(workflow).toContain("if: steps.eslint.outcome == 'failure'");
    // The example project has findings: exit code 1, and the report is still written.
    expect(status).toBe(1);
  });

  it('writes SARIF 2.1.0 with a result per finding, every rule of the plugin among them', () => {
    expect(sarif.version).toBe('2.1.0');
    const [run] = sarif.runs;
    expect(run!.tool.driver.name).toBe('ESLint');
    expect(run!.invocations, 'no ESLint errors (parse errors, crashes)').toBeUndefined();
    const ruleIds = new Set(run!.results.map((result) => result.ruleId));
    expect([...ruleIds].sort()).toEqual(Object.keys(plugin.rules).map((id) => `retry-safety/${id}`).sort());
  });

  it('gives each result its rule id, the rule docs page as help URI, and a location in the project', () => {
    const [run] = sarif.runs;
    const rules = run!.tool.driver.rules;
    for (const result of run!.results) {
      const id = result.ruleId!.replace('retry-safety/', '');
      const rule = rules[result.ruleIndex!];
      expect(rule?.id).toBe(result.ruleId);
      expect(rule?.helpUri).toBe(plugin.rules[id as keyof typeof plugin.rules].meta.docs?.url);
      expect(rule?.helpUri).toBe(`https://github.com/retry-safety/retry-safety/blob/main/eslint-plugin/docs/rules/${id}.md`);
      expect(existsSync(path.join(docsDir, `${id}.md`))).toBe(true);
      expect(rule?.shortDescription?.text).toBeTruthy();
      const { artifactLocation, region } = result.locations[0]!.physicalLocation;
      const file = fileURLToPath(artifactLocation.uri);
      expect(file.startsWith(examplesDir + path.sep), file).toBe(true);
      expect(existsSync(file)).toBe(true);
      expect(region?.startLine).toBeGreaterThanOrEqual(1);
      expect(region?.startColumn).toBeGreaterThanOrEqual(1);
    }
    // Findings in the .env file too (the connection-strings preset).
    expect(run!.results.some((result) => result.locations[0]!.physicalLocation.artifactLocation.uri.endsWith('/examples/.env'))).toBe(true);
  });

  it('never contains a password of the example connection strings', () => {
    const passwords = findExamplePasswords(examplesDir);
    expect(passwords.length, 'the examples hold connection strings with passwords').toBeGreaterThan(0);
    for (const password of passwords) expect(sarifText.includes(password), `password ${password} in the SARIF report`).toBe(false);
    // The connection-string findings are there, with the password masked.
    const uriMessages = sarif.runs[0]!.results.filter((result) => result.ruleId === 'retry-safety/mongo-retry-writes-connection-string');
    expect(uriMessages.length).toBeGreaterThan(0);
  });
});

describe('the exit codes in the README', () => {
  let project: string;
  const lint = (args: string[]) => runProjectEslint(project, args);

  beforeAll(() => {
    project = makeTempDir('retry-safety-exit-codes-');
    writeFileSync(path.join(project, 'package.json'), '{ "type": "module" }\n');
    for (const name of ['eslint', '@typescript-eslint/parser']) linkFromRepository(name, project);
    linkFromRepository('eslint-plugin-retry-safety', project);
    writeFileSync(
      path.join(project, 'eslint.config.js'),
      "import retrySafety from 'eslint-plugin-retry-safety';\n\nexport default [...retrySafety.configs.recommended, retrySafety.configs['connection-strings'], { settings: { 'retry-safety': { documentdb: { engineVersion: '8.0.2' } } } }];\n",
    );
    mkdirSync(path.join(project, 'clean'));
    writeFileSync(path.join(project, 'clean', 'index.js'), 'export const answer = 42;\n');
    mkdirSync(path.join(project, 'warning'));
    // mongo-no-non-retryable-write is a warning in `recommended`.
    writeFileSync(
      path.join(project, 'warning', 'archive.js'),
      "import { MongoClient } from 'mongodb';\n\nconst orders = new MongoClient(process.env.URI).db('shop').collection('orders');\n\nexport async function archive() {\n  await orders.updateMany({ status: 'delivered' }, { $set: { archived: true } });\n}\n",
    );
    mkdirSync(path.join(project, 'error'));
    writeFileSync(path.join(project, 'error', '.env'), 'URI=mongodb://app:pw@orders.cluster-abc.eu-west-1.docdb.amazonaws.com:27017/?tls=true&retryWrites=false\n');
  });

  it('the README gives the CI command and the table', () => {
    expect(readme).toContain('npx eslint . --max-warnings 0');
    expect(readme).toMatch(/\| 0 \| no errors, and no more warnings than `--max-warnings` allows \|/);
  });

  it('0: no findings, or only warnings without --max-warnings 0', () => {
    expect(lint(['clean', '--max-warnings', '0']).status).toBe(0);
    const warnings = lint(['warning']);
    expect(warnings.stdout).toContain('retry-safety/mongo-no-non-retryable-write');
    expect(warnings.status).toBe(0);
  });

  it('1: an error, or more warnings than --max-warnings allows', () => {
    expect(lint(['error']).status).toBe(1);
    expect(lint(['warning', '--max-warnings', '0']).status).toBe(1);
  });

  it('2: ESLint could not lint (invalid rule options, a pattern that matches no file)', () => {
    const badOptions = lint(['clean', '--rule', '{"retry-safety/require-retry-backoff": ["error", {"noSuchOption": true}]}']);
    expect(badOptions.status, badOptions.stderr).toBe(2);
    expect(lint(['no-such-folder']).status).toBe(2);
  });
});
