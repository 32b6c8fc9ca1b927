// Hostile-input benchmark (called by bench/run.js; also runs alone after `npm run build`):
// inputs built to make a scanner, a pattern matcher or a masker go quadratic or worse.
// Each family is timed at a size n and at 2n, 4n…; the ratio t(2n) / t(n) is about 2 when
// the work grows linearly and about 4 when it grows quadratically.
//
// - the connection-string rule, through ESLint's Linter and the plugin's text language, on
//   one long line of `mongodb://h ` tokens (.env, and a TypeScript string literal with the
//   connection-string rule alone) and of `"mongodb://h",` items (JSON), on runs of `mongodb://{{` and
//   `mongodb://${` (.env), and on one long line of URIs that are all reported
//   (`mongodb://h/?retryWrites=false `);
// - a `documentdb.hosts` pattern `*a*a*a*a*a*a*a*a*c` against hosts of 16 to 128 characters;
// - the masking of a log line holding one URI of 25 KB to 200 KB (`eslint-plugin-retry-safety/mask`).
//
// Times are CPU time of this process, the best of BENCH_HOSTILE_REPEAT runs (default 3).
// A case that takes longer than BENCH_HOSTILE_BUDGET_MS (default 10,000) stops its family.
//
// Usage: node bench/hostile-input.mjs
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { Linter } from 'eslint';
import * as tsParser from '@typescript-eslint/parser';

const require = createRequire(import.meta.url);
const rootDir = fileURLToPath(new URL('..', import.meta.url));
const pluginPath = fileURLToPath(new URL('../eslint-plugin/dist/index.cjs', import.meta.url));
const maskPath = fileURLToPath(new URL('../eslint-plugin/dist/mask.cjs', import.meta.url));

const REPEAT = Number(process.env.BENCH_HOSTILE_REPEAT) || 3;
const BUDGET_MS = Number(process.env.BENCH_HOSTILE_BUDGET_MS) || 10_000;
const KB = 1024;

if (!existsSync(pluginPath)) throw new Error('eslint-plugin/dist/index.cjs is missing: run `npm run build`.');
const plugin = require(pluginPath);
const linter = new Linter({ cwd: rootDir });

/** CPU milliseconds of one call. */
function cpuTime(run) {
  const start = process.cpuUsage();
  run();
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000;
}

/** Best of REPEAT runs; one run only when that one is already slow. */
function measure(run) {
  let best = cpuTime(run);
  for (let index = 1; index < REPEAT && best < BUDGET_MS / 10; index++) best = Math.min(best, cpuTime(run));
  return best;
}

/** `count` copies of `unit`, cut to `size` characters. */
function repeatTo(unit, size) {
  return unit.repeat(Math.ceil(size / unit.length)).slice(0, size);
}

function lintText(filename, text, settings = {}) {
  const config = [plugin.configs['connection-strings'], { settings: { 'retry-safety': settings } }];
  return linter.verify(text, config, { filename: `${rootDir}bench/hostile/${filename}` });
}

function lintCode(text) {
  const config = [
    {
      files: ['**/*.ts'],
      languageOptions: { parser: tsParser },
      plugins: { 'retry-safety': plugin },
      rules: { 'retry-safety/mongo-retry-writes-connection-string': 'error' },
    },
  ];
  return linter.verify(text, config, { filename: `${rootDir}bench/hostile/hostile.ts` });
}

const families = [
  {
    name: '.env, one line of `mongodb://h ` tokens',
    sizes: [64 * KB, 128 * KB, 256 * KB, 512 * KB],
    unit: 'KB',
    run: (size) => lintText('.env', `URIS=${repeatTo('mongodb://h ', size)}\n`),
  },
  {
    name: 'JSON, one line of `"mongodb://h",` items',
    sizes: [64 * KB, 128 * KB, 256 * KB, 512 * KB],
    unit: 'KB',
    run: (size) => lintText('hostile.json', `[${repeatTo('"mongodb://h",', size)}""]\n`),
  },
  {
    name: 'TypeScript, one string literal of `mongodb://h ` tokens',
    sizes: [64 * KB, 128 * KB, 256 * KB, 512 * KB],
    unit: 'KB',
    run: (size) => lintCode(`export const uris = '${repeatTo('mongodb://h ', size)}';\n`),
  },
  {
    name: 'TypeScript, `mongodb` imported, then n template literals holding `mongo` (each looked at alone)',
    sizes: [2000, 4000, 8000, 16000],
    unit: 'templates',
    run: (size) => lintCode(`import { MongoClient } from 'mongodb';\n${Array.from({ length: size }, (_, i) => `const v${i} = \`mongo item \${${i}}\`;`).join('\n')}\n`),
  },
  {
    name: '.env, a run of `mongodb://{{`',
    sizes: [128 * KB, 256 * KB, 512 * KB, 1024 * KB],
    unit: 'KB',
    run: (size) => lintText('.env', `URI=${repeatTo('mongodb://{{', size)}\n`),
  },
  {
    name: '.env, a run of `mongodb://${`',
    sizes: [128 * KB, 256 * KB, 512 * KB, 1024 * KB],
    unit: 'KB',
    run: (size) => lintText('.env', `URI=${repeatTo('mongodb://${', size)}\n`),
  },
  {
    name: '.env, one line of reported URIs (`mongodb://h/?retryWrites=false `)',
    sizes: [64 * KB, 128 * KB, 256 * KB],
    unit: 'KB',
    run: (size) => lintText('.env', `URIS=${repeatTo('mongodb://h/?retryWrites=false ', size)}\n`),
  },
  {
    name: 'documentdb.hosts `*a*a*a*a*a*a*a*a*c` against a host of n characters',
    sizes: [16, 32, 64, 128],
    unit: 'chars',
    run: (size) => lintText('.env', `URI=mongodb://${'a'.repeat(size)}/?retryWrites=false\n`, { documentdb: { hosts: ['*a*a*a*a*a*a*a*a*c'] } }),
  },
];

if (existsSync(maskPath)) {
  const { maskSecrets } = require(maskPath);
  families.push(
    {
      name: 'maskSecrets, a log line with one URI of n KB (long host)',
      sizes: [25 * KB, 50 * KB, 100 * KB, 200 * KB],
      unit: 'KB',
      run: (size) => maskSecrets(`lint failed for mongodb://app:pw@${'a'.repeat(size)}/db: timeout`),
    },
    {
      name: 'maskSecrets, a log line with one URI of n KB (no `@`, long user part)',
      sizes: [25 * KB, 50 * KB, 100 * KB, 200 * KB],
      unit: 'KB',
      run: (size) => maskSecrets(`lint failed for mongodb://${'a'.repeat(size)}:27017/db: timeout`),
    },
  );
} else {
  console.log('maskSecrets: eslint-plugin/dist/mask.cjs not present, skipped.');
}

console.log(`Hostile inputs — ESLint ${Linter.version}, Node ${process.version}; CPU ms, best of ${REPEAT}`);
let worst = 0;
for (const family of families) {
  console.log(`\n${family.name}`);
  family.run(family.sizes[0]); // warm-up
  let previous;
  for (const size of family.sizes) {
    const time = measure(() => family.run(size));
    const label = family.unit === 'KB' ? `${size / KB} KB` : `${size} ${family.unit}`;
    const ratio = previous === undefined ? '' : `   ×${(time / Math.max(previous, 0.01)).toFixed(2)} for ×${size / family.sizes[family.sizes.indexOf(size) - 1]}`;
    console.log(`  ${label.padStart(10)}  ${time.toFixed(1).padStart(9)} ms${ratio}`);
    if (previous !== undefined && previous >= 5) worst = Math.max(worst, time / previous);
    previous = time;
    if (time > BUDGET_MS) {
      console.log(`  (over ${BUDGET_MS} ms: larger sizes skipped)`);
      break;
    }
  }
}
console.log(`\nLargest ratio for a doubling (cases over 5 ms): ×${worst.toFixed(2)} (linear ≈ ×2, quadratic ≈ ×4)`);
