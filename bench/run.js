// Benchmark: how much do all retry-safety rules add to parsing real code?
//
// In one process: load the corpus (bench/corpus-files.mjs), then alternate rounds of
//   (a) ESLint (the class the `eslint` command runs, `lintText`) with @typescript-eslint/parser
//       and no rules, and
//   (b) the same with every retry-safety rule enabled,
// and print per-round times, the ratio b/a (target ≤ 1.05) for the whole corpus and for the
// DynamoDB + PostgreSQL subset — per file the median of its rounds on each side, then the
// ratio of the sums — with the median of the rounds' ratios beside it, and files/lines per second.
// Then runs bench/server-bench.mjs and bench/hostile-input.mjs (the connection-string scan,
// the host patterns and the masking on inputs built to make them go quadratic) when
// present, and prints the extension bundle size.
//
// Usage: npm run bench            (builds the plugin first)
//        BENCH_ROUNDS=9 node bench/run.js
//        BENCH_PROFILE=1 node bench/run.js   (also per-rule times and the costliest files)
import { spawnSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import * as tsParser from '@typescript-eslint/parser';
import {
  corpusModulesDir,
  corpusPackages,
  ensureCorpusInstalled,
  getInstalledVersion,
  loadCorpus,
} from './corpus-files.mjs';

const require = createRequire(import.meta.url);
const rootDir = fileURLToPath(new URL('..', import.meta.url));
const pluginPath = fileURLToPath(new URL('../eslint-plugin/dist/index.cjs', import.meta.url));
const serverBenchPath = fileURLToPath(new URL('./server-bench.mjs', import.meta.url));
const hostileInputBenchPath = fileURLToPath(new URL('./hostile-input.mjs', import.meta.url));
const extensionBundlePath = fileURLToPath(new URL('../extension/dist/extension.js', import.meta.url));

const target = 1.05;
const subsetDatabases = new Set(['dynamodb', 'postgresql']);
const settings = { 'retry-safety': { documentdb: { engineVersion: '8.0.2' } } };

function readRounds() {
  const raw = process.env.BENCH_ROUNDS;
  // Three rounds are too few: on a shared 2-CPU machine, windows of three rounds taken from one
  // ten-round run gave 1.003 to 1.097 for the same build; windows of five, 1.032 to 1.053.
  if (raw === undefined || raw === '') return 5;
  const rounds = Number(raw);
  if (!Number.isInteger(rounds) || rounds < 1) {
    throw new Error(`BENCH_ROUNDS must be a positive integer, got ${JSON.stringify(raw)}`);
  }
  return rounds;
}

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

const format = {
  ms: (value) => `${value.toFixed(0).padStart(6)} ms`,
  ratio: (value) => value.toFixed(3),
  count: (value) => Math.round(value).toLocaleString('en-US'),
};

/** One flat config per source type; `files` matches the corpus paths. */
function createConfigs(rules, plugins) {
  const configFor = (sourceType) => [
    {
      files: ['**/*.{js,mjs,cjs,ts,mts,cts}'],
      languageOptions: { parser: tsParser, sourceType, ecmaVersion: 'latest' },
      linterOptions: { reportUnusedDisableDirectives: 'off' },
      plugins,
      rules,
      settings,
    },
  ];
  return { module: configFor('module'), commonjs: configFor('commonjs') };
}

/**
 * One ESLint per source type, as the `eslint` command makes one for a run: its config is
 * computed once and reused for every file. (`Linter#verify` with a plain config array
 * normalises the config and validates every rule's options again on each call, a cost
 * the command does not pay and that grows with the number of rules.) The folder is the
 * corpus's node_modules, which ESLint would otherwise ignore; inline eslint comments of
 * the corpus name its own rules, so they are ignored.
 */
function createLinters(configs, options = {}) {
  const linterFor = (config) =>
    new ESLint({ cwd: corpusModulesDir, overrideConfigFile: true, overrideConfig: config, ignore: false, allowInlineConfig: false, ...options });
  return { module: linterFor(configs.module), commonjs: linterFor(configs.commonjs), configs };
}

async function lint(linters, file) {
  const [result] = await linters[file.sourceType].lintText(file.text, { filePath: file.path });
  return result.messages;
}

/**
 * Lints one file; returns [CPU ms, wall ms]. The ratio uses CPU time of this process:
 * on a shared machine other processes stretch wall-clock time unevenly.
 */
async function timeOne(linters, file) {
  const cpuStart = process.cpuUsage();
  const wallStart = performance.now();
  await lint(linters, file);
  const wall = performance.now() - wallStart;
  const cpu = process.cpuUsage(cpuStart);
  return [(cpu.user + cpu.system) / 1000, wall];
}

/**
 * One round: every file is linted with (a) and with (b), back to back, the order
 * flipping from file to file and round to round. Interleaving at file level means
 * load from other processes and GC pauses fall on both sides alike.
 * Returns CPU milliseconds per side, for the whole corpus and for the subset, and
 * wall-clock milliseconds per side for the whole corpus.
 */
async function lintRound(files, baseline, withRules, round) {
  const times = { a: 0, b: 0, subsetA: 0, subsetB: 0, wallA: 0, wallB: 0, byPackage: {}, perFile: [] };
  for (const [index, file] of files.entries()) {
    let a;
    let b;
    if ((index + round) % 2 === 0) {
      a = await timeOne(baseline, file);
      b = await timeOne(withRules, file);
    } else {
      b = await timeOne(withRules, file);
      a = await timeOne(baseline, file);
    }
    times.a += a[0];
    times.b += b[0];
    times.perFile.push({ a: a[0], b: b[0] });
    times.wallA += a[1];
    times.wallB += b[1];
    if (subsetDatabases.has(file.database)) {
      times.subsetA += a[0];
      times.subsetB += b[0];
    }
    const own = (times.byPackage[file.packageName] ??= { a: 0, b: 0 });
    own.a += a[0];
    own.b += b[0];
  }
  return times;
}

/**
 * Warm-up and check: lints each file once with (b) and once with (a), so both paths
 * are compiled before measuring, and keeps only the files that parse and on which no
 * rule throws; what was dropped is reported.
 */
async function checkFiles(files, baseline, withRules) {
  const usable = [];
  const parseFailures = [];
  const ruleCrashes = [];
  let findings = 0;
  // The first pass is the only one where the module index reads and parses the modules
  // files import (later passes reuse its summaries): its ratio is what one cold
  // `eslint .` run pays.
  const cold = { a: 0, b: 0 };
  for (const file of files) {
    try {
      let started = process.cpuUsage();
      const messages = await lint(withRules, file);
      cold.b += cpuSince(started);
      const fatal = messages.find((message) => message.fatal);
      if (fatal) {
        parseFailures.push(`${file.packageName}/${file.relativePath}:${fatal.line}: ${fatal.message}`);
        continue;
      }
      const notice = messages.find((message) => message.ruleId === null);
      if (notice) throw new Error(`ESLint did not lint ${file.path}: ${notice.message}`);
      findings += messages.length;
      started = process.cpuUsage();
      await lint(baseline, file);
      cold.a += cpuSince(started);
      usable.push(file);
    } catch (error) {
      if (error instanceof Error && error.message.startsWith('ESLint did not lint')) throw error;
      const message = error instanceof Error ? error.message.split('\n')[0] : String(error);
      ruleCrashes.push(`${file.packageName}/${file.relativePath}: ${message}`);
    }
  }
  return { usable, parseFailures, ruleCrashes, findings, cold };
}

function cpuSince(started) {
  const used = process.cpuUsage(started);
  return (used.user + used.system) / 1000;
}

/**
 * BENCH_PROFILE=1: one pass with ESLint's per-rule timing, and the files where the
 * rules cost most. A rule that runs a shared per-file analysis first is charged for it.
 */
async function printProfile(files, baseline, withRules) {
  const ruleTimes = {};
  let parseTime = 0;
  const extraByFile = [];
  const measured = createLinters(withRules.configs, { stats: true });
  for (const file of files) {
    const [result] = await measured[file.sourceType].lintText(file.text, { filePath: file.path });
    const pass = result.stats?.times.passes[0] ?? {};
    parseTime += pass.parse?.total ?? 0;
    let fileRules = 0;
    for (const [ruleId, { total }] of Object.entries(pass.rules ?? {})) {
      ruleTimes[ruleId] = (ruleTimes[ruleId] ?? 0) + total;
      fileRules += total;
    }
    const [a] = await timeOne(baseline, file);
    extraByFile.push({ file, rules: fileRules, a });
  }
  console.log(`\nProfile (one pass, ESLint stats, wall clock): parse ${format.ms(parseTime)}`);
  for (const [ruleId, total] of Object.entries(ruleTimes).sort((x, y) => y[1] - x[1])) {
    console.log(`  ${format.ms(total)}  ${ruleId}`);
  }
  console.log('Files where the rules took longest (rule time, (a) time):');
  for (const { file, rules, a } of extraByFile.sort((x, y) => y.rules - x.rules).slice(0, 10)) {
    console.log(`  ${format.ms(rules)}  ${format.ms(a)}  ${file.packageName}/${file.relativePath} (${format.count(file.lines)} lines)`);
  }
}

function printServerBench() {
  if (!existsSync(serverBenchPath)) {
    console.log('\nServer bench: bench/server-bench.mjs not present, skipped.');
    return true;
  }
  console.log('\nServer bench (bench/server-bench.mjs):');
  const result = spawnSync(process.execPath, [serverBenchPath], { cwd: rootDir, stdio: 'inherit' });
  if (result.status !== 0) {
    console.log(`Server bench failed (exit ${result.status ?? result.signal}).`);
    return false;
  }
  return true;
}

function printHostileInputBench() {
  if (!existsSync(hostileInputBenchPath)) {
    console.log('\nHostile-input bench: bench/hostile-input.mjs not present, skipped.');
    return true;
  }
  console.log('\nHostile-input bench (bench/hostile-input.mjs):');
  const result = spawnSync(process.execPath, [hostileInputBenchPath], { cwd: rootDir, stdio: 'inherit' });
  if (result.status !== 0) {
    console.log(`Hostile-input bench failed (exit ${result.status ?? result.signal}).`);
    return false;
  }
  return true;
}

function printExtensionSize() {
  if (!existsSync(extensionBundlePath)) {
    console.log('\nExtension bundle: extension/dist/extension.js not present (run npm run build).');
    return;
  }
  const bytes = statSync(extensionBundlePath).size;
  console.log(`\nExtension bundle: extension/dist/extension.js ${(bytes / 1024).toFixed(1)} KiB (${format.count(bytes)} bytes)`);
}

async function main() {
  const rounds = readRounds();
  if (!existsSync(pluginPath)) {
    throw new Error('eslint-plugin/dist/index.cjs is missing: run `npm run build` (npm run bench does).');
  }
  ensureCorpusInstalled();
  const plugin = require(pluginPath);
  const allRules = plugin.configs.all[0].rules;

  // Each file is linted at its real path, so the module index reads the modules it imports.
  const loaded = loadCorpus();
  const baseline = createLinters(createConfigs({}, {}));
  const withRules = createLinters(createConfigs(allRules, { 'retry-safety': plugin }));

  console.log(`Retry Safety benchmark — ESLint ${ESLint.version}, Node ${process.version}`);
  console.log(`Rules enabled in (b): ${Object.keys(allRules).length} (${Object.keys(plugin.rules).length} in the plugin)`);
  console.log('\nCorpus (bench/corpus, pinned, installed with --ignore-scripts):');
  for (const pkg of corpusPackages) {
    const own = loaded.filter((file) => file.packageName === pkg.name);
    const lines = own.reduce((sum, file) => sum + file.lines, 0);
    console.log(
      `  ${`${pkg.name}@${getInstalledVersion(pkg.name)}`.padEnd(46)} ${pkg.database.padEnd(10)} ${String(own.length).padStart(4)} files ${format.count(lines).padStart(8)} lines`,
    );
  }

  const { usable: files, parseFailures, ruleCrashes, findings, cold } = await checkFiles(loaded, baseline, withRules);
  const index = plugin.getModuleIndexStats?.() ?? { parsed: 0, skipped: 0, reused: 0 };
  const subsetFiles = files.filter((file) => subsetDatabases.has(file.database));
  const lines = files.reduce((sum, file) => sum + file.lines, 0);
  const subsetLines = subsetFiles.reduce((sum, file) => sum + file.lines, 0);
  console.log(
    `  total: ${files.length} files, ${format.count(lines)} lines; DynamoDB + PostgreSQL subset: ${subsetFiles.length} files, ${format.count(subsetLines)} lines`,
  );
  console.log(`  findings with all rules: ${findings}`);
  console.log(
    `  module index: ${index.parsed} imported modules parsed (${(index.parsed / files.length).toFixed(2)} per linted file), ${index.skipped} read and skipped unparsed (no database package, no relative import), ${index.reused} summaries reused`,
  );
  console.log(`  first pass (module index cold, one CPU sample): ratio b/a ${format.ratio(cold.b / cold.a)}`);
  if (parseFailures.length > 0) {
    console.log(`  left out, parse failures: ${parseFailures.length}`);
    for (const failure of parseFailures) console.log(`    ${failure}`);
  }
  if (ruleCrashes.length > 0) {
    console.log(`  left out, a rule threw: ${ruleCrashes.length}`);
    for (const crash of ruleCrashes) console.log(`    ${crash}`);
  }

  console.log(`\nRounds: ${rounds} (BENCH_ROUNDS); (a) and (b) interleaved file by file, order alternating.`);
  console.log('Times are CPU time of this process (wall clock in the last column: other processes distort it).');
  console.log('round   (a) parser only   (b) all rules   ratio b/a   subset a   subset b   subset ratio   wall a / wall b');
  const results = [];
  for (let round = 1; round <= rounds; round += 1) {
    const times = await lintRound(files, baseline, withRules, round);
    const result = {
      ...times,
      ratio: times.b / times.a,
      subsetRatio: times.subsetB / times.subsetA,
    };
    results.push(result);
    console.log(
      `${String(round).padStart(5)}   ${format.ms(result.a).padStart(15)}   ${format.ms(result.b).padStart(13)}   ${format.ratio(result.ratio).padStart(9)}   ${format.ms(result.subsetA)}  ${format.ms(result.subsetB)}   ${format.ratio(result.subsetRatio).padStart(12)}   ${format.ms(result.wallA)} / ${format.ms(result.wallB)}`,
    );
  }

  const roundsRatio = median(results.map((result) => result.ratio));
  const roundsSubsetRatio = median(results.map((result) => result.subsetRatio));
  // Per file, the median of its rounds on each side, then the ratio of the sums: a GC pause
  // or a burst of load from another process lands on one file's one side in one round, and
  // moves a whole round's ratio by several per cent; it does not move a median of rounds.
  const perFileRatio = (wanted, pick = median) => {
    let sumA = 0;
    let sumB = 0;
    for (const [index, file] of files.entries()) {
      if (!wanted(file)) continue;
      sumA += pick(results.map((result) => result.perFile[index].a));
      sumB += pick(results.map((result) => result.perFile[index].b));
    }
    return sumB / sumA;
  };
  const ratio = perFileRatio(() => true);
  const subsetRatio = perFileRatio((file) => subsetDatabases.has(file.database));
  // Per file, its fastest round on each side: what a lint of the file costs at the least.
  // Interference only ever adds time, so this floor moves least from run to run.
  const fastest = (values) => Math.min(...values);
  const floorRatio = perFileRatio(() => true, fastest);
  const floorSubsetRatio = perFileRatio((file) => subsetDatabases.has(file.database), fastest);
  const medianA = median(results.map((result) => result.a));
  const medianB = median(results.map((result) => result.b));
  const wallRatio = median(results.map((result) => result.wallB / result.wallA));
  const verdict = (value) => (value <= target ? 'OK' : 'OVER TARGET');
  console.log('\nResults (per file, the median of its rounds; then the ratio of the sums):');
  console.log(`  ratio b/a, whole corpus:            ${format.ratio(ratio)}  (target ≤ ${target.toFixed(2)}: ${verdict(ratio)})`);
  console.log(`  ratio b/a, DynamoDB + PostgreSQL:   ${format.ratio(subsetRatio)}  (target ≤ ${target.toFixed(2)}: ${verdict(subsetRatio)})`);
  console.log(`  (median of the rounds' ratios: whole corpus ${format.ratio(roundsRatio)}, subset ${format.ratio(roundsSubsetRatio)})`);
  console.log(`  (per file, its fastest round: whole corpus ${format.ratio(floorRatio)}, subset ${format.ratio(floorSubsetRatio)})`);
  console.log(`  (wall-clock ratio b/a, whole corpus: ${format.ratio(wallRatio)})`);
  console.log(
    `  (a) parser only: ${format.count((files.length / medianA) * 1000)} files/s, ${format.count((lines / medianA) * 1000)} lines/s`,
  );
  console.log(
    `  (b) all rules:   ${format.count((files.length / medianB) * 1000)} files/s, ${format.count((lines / medianB) * 1000)} lines/s`,
  );

  console.log('Ratio per package (sum of rounds):');
  for (const pkg of corpusPackages) {
    const a = results.reduce((sum, result) => sum + (result.byPackage[pkg.name]?.a ?? 0), 0);
    const b = results.reduce((sum, result) => sum + (result.byPackage[pkg.name]?.b ?? 0), 0);
    if (a > 0) console.log(`  ${format.ratio(b / a)}  ${pkg.name}`);
  }

  if (process.env.BENCH_PROFILE) await printProfile(files, baseline, withRules);

  const serverOk = printServerBench();
  const hostileOk = printHostileInputBench();
  printExtensionSize();
  if (ruleCrashes.length > 0 || !serverOk || !hostileOk) process.exitCode = 1;
}

await main();
