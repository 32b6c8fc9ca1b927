// The real-code corpus: which installed npm packages are linted, and which of their
// files. Shared by the benchmark (bench/run.js) and the real-code review
// (scripts/real-code.mjs). The packages are pinned devDependencies of the separate
// package bench/corpus (not a workspace), installed with --ignore-scripts.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

export const corpusDir = fileURLToPath(new URL('./corpus/', import.meta.url));
export const corpusModulesDir = join(corpusDir, 'node_modules');

/** Files larger than this are left out (generated bundles, data). */
export const maxFileBytes = 1024 * 1024;

/**
 * Every package of the corpus.
 * - `database`: which database's code it mostly is ('mongodb' | 'dynamodb' | 'postgresql').
 * - `kind`: 'library' (a driver or SDK: measured by the benchmark only) or 'project'
 *   (an application-level user of a driver: also reviewed by scripts/real-code.mjs).
 * - `include`: files or folders inside the package. Where a package ships the same code
 *   twice (ESM and CJS builds), only one build is listed so nothing is counted twice.
 */
export const corpusPackages = [
  { name: 'mongodb', database: 'mongodb', kind: 'library', include: ['src'] },
  { name: 'mongoose', database: 'mongodb', kind: 'library', include: ['index.js', 'lib'] },
  { name: 'parse-server', database: 'mongodb', kind: 'project', include: ['lib'] },
  { name: 'agenda', database: 'mongodb', kind: 'project', include: ['dist'] },
  { name: 'connect-mongo', database: 'mongodb', kind: 'project', include: ['dist/index.mjs'] },
  { name: '@keyv/mongo', database: 'mongodb', kind: 'project', include: ['dist/index.js'] },
  { name: '@agendajs/mongo-backend', database: 'mongodb', kind: 'project', include: ['dist'] },
  { name: 'migrate-mongo', database: 'mongodb', kind: 'project', include: ['lib'] },
  { name: 'mongodb-queue', database: 'mongodb', kind: 'project', include: ['mongodb-queue.js'] },
  { name: '@aws-sdk/client-dynamodb', database: 'dynamodb', kind: 'library', include: ['dist-cjs'] },
  { name: '@aws-sdk/lib-dynamodb', database: 'dynamodb', kind: 'library', include: ['dist-cjs'] },
  { name: 'dynamoose', database: 'dynamodb', kind: 'project', include: ['dist'] },
  { name: '@keyv/dynamo', database: 'dynamodb', kind: 'project', include: ['dist/index.js'] },
  {
    name: '@aws-lambda-powertools/idempotency',
    database: 'dynamodb',
    kind: 'project',
    include: ['lib/esm'],
  },
  { name: 'electrodb', database: 'dynamodb', kind: 'project', include: ['index.js', 'src'] },
  { name: 'connect-dynamodb', database: 'dynamodb', kind: 'project', include: ['lib'] },
  { name: 'pg', database: 'postgresql', kind: 'library', include: ['lib'] },
  { name: 'pg-pool', database: 'postgresql', kind: 'library', include: ['index.js'] },
  { name: '@keyv/postgres', database: 'postgresql', kind: 'project', include: ['dist/index.js'] },
  { name: 'connect-pg-simple', database: 'postgresql', kind: 'project', include: ['index.js'] },
  { name: 'pg-boss', database: 'postgresql', kind: 'project', include: ['dist'] },
  { name: 'graphile-worker', database: 'postgresql', kind: 'project', include: ['dist'] },
  { name: 'pg-listen', database: 'postgresql', kind: 'project', include: ['dist'] },
];

const sourceFilePattern = /\.(?:[cm]?js|[cm]?ts)$/;
const declarationFilePattern = /\.d\.[cm]?ts$/;
const minifiedNamePattern = /[.-]min\.[cm]?js$/;

/**
 * Heuristic for minified or bundled-on-one-line code: very long average lines or a
 * single huge line. Hand-written and compiled (tsc, babel) code passes.
 */
export function isMinified(text) {
  const code = stripInlineSourceMap(text);
  if (code.length < 2000) return false;
  const lines = code.split('\n');
  const longest = lines.reduce((max, line) => Math.max(max, line.length), 0);
  return code.length / lines.length > 250 || longest > 10_000;
}

const inlineSourceMapPattern = /\n\/\/# sourceMappingURL=data:[^\n]*\s*$/;

/**
 * Removes a trailing inline source map comment (babel output carries a base64 copy of
 * the original source): it is not code, and lexing it would dilute the benchmark.
 * Line and column positions of the code are unchanged.
 */
export function stripInlineSourceMap(text) {
  return text.replace(inlineSourceMapPattern, '\n');
}

/**
 * Why a file is left out of the corpus, or undefined when it is kept.
 * @param {string} path path relative to the package root, '/'-separated
 * @param {number} size bytes
 * @param {() => string} readText reads the file (only called when needed)
 */
export function getExclusionReason(path, size, readText) {
  const parts = path.split('/');
  if (parts.includes('node_modules')) return 'node_modules';
  const name = parts.at(-1) ?? '';
  if (!sourceFilePattern.test(name)) return 'not source';
  if (declarationFilePattern.test(name)) return 'declaration';
  if (minifiedNamePattern.test(name)) return 'minified';
  if (size > maxFileBytes) return 'too large';
  if (isMinified(readText())) return 'minified';
  return undefined;
}

/**
 * Lists the kept files of one package: `{ path, relativePath }` sorted by path.
 * @param {string} packageDir absolute directory of the installed package
 * @param {string[]} include files or folders relative to it
 */
export function findPackageFiles(packageDir, include) {
  const found = [];
  const visit = (absolute) => {
    let stats;
    try {
      stats = statSync(absolute);
    } catch {
      return;
    }
    const relativePath = relative(packageDir, absolute).split(sep).join('/');
    if (stats.isDirectory()) {
      if (relativePath.split('/').includes('node_modules')) return;
      for (const entry of readdirSync(absolute).sort()) visit(join(absolute, entry));
      return;
    }
    if (!stats.isFile()) return;
    const reason = getExclusionReason(relativePath, stats.size, () => readFileSync(absolute, 'utf8'));
    if (reason === undefined) found.push({ path: absolute, relativePath });
  };
  for (const entry of include) visit(join(packageDir, entry));
  const unique = new Map(found.map((file) => [file.path, file]));
  return [...unique.values()].sort((a, b) => a.relativePath.localeCompare(b.relativePath));
}

/** True when every corpus package is installed under bench/corpus/node_modules. */
export function isCorpusInstalled() {
  return corpusPackages.every((pkg) => existsSync(join(corpusModulesDir, pkg.name, 'package.json')));
}

/**
 * Installs the corpus from its lock file when any package is missing (a fresh clone).
 * Needs the npm registry once; nothing later does.
 */
export function ensureCorpusInstalled({ log = console.error } = {}) {
  if (isCorpusInstalled()) return;
  log('Installing the benchmark corpus (npm ci in bench/corpus, scripts disabled)…');
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  execFileSync(npm, ['ci', '--prefix', corpusDir, '--ignore-scripts', '--no-audit', '--no-fund'], {
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  if (!isCorpusInstalled()) throw new Error('bench/corpus: npm ci finished but packages are missing');
}

/** How ESLint should parse a file: 'module' or 'commonjs'. */
export function getSourceType(path, text) {
  if (/\.(?:mjs|mts)$/.test(path)) return 'module';
  if (/\.(?:cjs|cts)$/.test(path)) return 'commonjs';
  if (/\.ts$/.test(path)) return 'module';
  // Compiled packages mix both: look for ESM syntax at the start of a line.
  return /^\s*(?:import\s*[\w*{'"]|export\s+[\w*{]|export\s+default\b)/m.test(text) ? 'module' : 'commonjs';
}

/**
 * Loads the corpus into memory.
 * @param {{ kinds?: string[], databases?: string[] }} [filter]
 * @returns {{ packageName: string, database: string, kind: string, path: string,
 *   relativePath: string, text: string, lines: number, sourceType: string }[]}
 */
export function loadCorpus(filter = {}) {
  const files = [];
  for (const pkg of corpusPackages) {
    if (filter.kinds && !filter.kinds.includes(pkg.kind)) continue;
    if (filter.databases && !filter.databases.includes(pkg.database)) continue;
    const packageDir = join(corpusModulesDir, pkg.name);
    for (const file of findPackageFiles(packageDir, pkg.include)) {
      const text = stripInlineSourceMap(readFileSync(file.path, 'utf8'));
      files.push({
        packageName: pkg.name,
        database: pkg.database,
        kind: pkg.kind,
        path: file.path,
        relativePath: file.relativePath,
        text,
        lines: text.split('\n').length,
        sourceType: getSourceType(file.path, text),
      });
    }
  }
  return files;
}

/** The installed version of a corpus package. */
export function getInstalledVersion(name) {
  const manifest = JSON.parse(readFileSync(join(corpusModulesDir, name, 'package.json'), 'utf8'));
  return manifest.version;
}
