// What one cold `eslint` run pays for the rules: each side in a fresh process, as in CI.
//
// For each project package of the corpus that reads its own modules (the ones whose code
// imports other files of the package), a process lints the package's files with
// @typescript-eslint/parser and no rules (a), and another does the same with every rule of
// the plugin's `all` config (b), each with one `ESLint` instance over the files at their
// real paths, so the module index reads the imported modules from disk as it does in a
// user's project. Prints the CPU time of each side, the ratio b/a per package and for all,
// and how many modules the index parsed.
//
// Usage: node bench/cold-run.mjs [--runs <n>]   (after npm run build; default 2 runs, fastest kept;
//        BENCH_PLUGIN=<path to index.cjs> measures another build)
//        node bench/cold-run.mjs --side a|b <dir>…   (one side, one process: used by the above)
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import * as tsParser from '@typescript-eslint/parser';
import { corpusModulesDir, ensureCorpusInstalled } from './corpus-files.mjs';

const require = createRequire(import.meta.url);
const pluginPath = process.env.BENCH_PLUGIN ?? fileURLToPath(new URL('../eslint-plugin/dist/index.cjs', import.meta.url));
const selfPath = fileURLToPath(import.meta.url);

/** Packages whose files import each other (the module index has work to do), with the folder linted. */
const PROJECTS = [
  ['parse-server', 'lib'],
  ['pg-boss', 'dist'],
  ['dynamoose', 'dist'],
  ['graphile-worker', 'dist'],
  ['agenda', 'dist'],
];
const FILES = ['**/*.js', '**/*.mjs', '**/*.cjs'];

async function runSide(side, dirs) {
  const config = [{ files: FILES, languageOptions: { parser: tsParser, sourceType: 'module', ecmaVersion: 'latest' } }];
  const plugin = side === 'b' ? require(pluginPath) : undefined;
  if (plugin) {
    config.push({
      files: FILES,
      plugins: { 'retry-safety': plugin },
      rules: plugin.configs.all[0].rules,
      settings: { 'retry-safety': { documentdb: { engineVersion: '8.0.2' } } },
    });
  }
  const start = process.cpuUsage();
  const eslint = new ESLint({ cwd: corpusModulesDir, overrideConfigFile: true, overrideConfig: config, ignore: false });
  const results = await eslint.lintFiles(dirs);
  const used = process.cpuUsage(start);
  const index = plugin?.getModuleIndexStats?.();
  const parsed = index?.parsed ?? 0;
  if (process.env.BENCH_INDEX_DETAIL) console.error(JSON.stringify(index));
  console.log(JSON.stringify({ cpuMs: (used.user + used.system) / 1000, files: results.length, parsed }));
}

function measure(side, dirs) {
  const child = spawnSync(process.execPath, [selfPath, '--side', side, ...dirs], { encoding: 'utf8', cwd: corpusModulesDir, maxBuffer: 64 * 1024 * 1024 });
  if (child.status !== 0) throw new Error(`side ${side} failed: ${child.stderr}`);
  return JSON.parse(child.stdout.trim().split('\n').pop());
}

async function main() {
  const args = process.argv.slice(2);
  if (args[0] === '--side') return runSide(args[1], args.slice(2));
  const runsIndex = args.indexOf('--runs');
  const runs = runsIndex >= 0 ? Math.max(1, Number(args[runsIndex + 1]) || 1) : 2;
  ensureCorpusInstalled();
  console.log(`Cold runs, one process per side (CPU time, fastest of ${runs}):`);
  console.log('package                 files   (a) no rules   (b) all rules   ratio b/a   modules parsed');
  let totalA = 0;
  let totalB = 0;
  for (const [name, folder] of PROJECTS) {
    const dir = join(name, folder);
    let a;
    let b;
    for (let run = 0; run < runs; run++) {
      const nextA = measure('a', [dir]);
      const nextB = measure('b', [dir]);
      if (!a || nextA.cpuMs < a.cpuMs) a = nextA;
      if (!b || nextB.cpuMs < b.cpuMs) b = nextB;
    }
    totalA += a.cpuMs;
    totalB += b.cpuMs;
    const cells = [name.padEnd(22), String(a.files).padStart(6), `${a.cpuMs.toFixed(0)} ms`.padStart(14), `${b.cpuMs.toFixed(0)} ms`.padStart(15), (b.cpuMs / a.cpuMs).toFixed(3).padStart(11), String(b.parsed).padStart(16)];
    console.log(cells.join(' '));
  }
  console.log(`all packages: ratio b/a ${(totalB / totalA).toFixed(3)} (${totalA.toFixed(0)} ms / ${totalB.toFixed(0)} ms)`);
}

await main();
