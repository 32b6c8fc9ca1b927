#!/usr/bin/env node
// `npm run fuzz`: the long fuzz run. Runs test/fuzz with vitest (both files in parallel),
// then prints what was checked and what failed, per property, per family and per file kind.
//
//   npm run fuzz                              30,000 inputs, a seed from the clock
//   npm run fuzz -- --runs 50000 --seed 7     count and seed (FUZZ_RUNS, FUZZ_SEED work too)
//   npm run fuzz -- --time-bound 5000         the time bound per input, ms (FUZZ_TIME_BOUND_MS)
//   npm run fuzz -- --max-size 1048576        largest pathological input (FUZZ_MAX_SIZE)
//   npm run fuzz -- --shrink                  shrink new failures before showing them
//   npm run fuzz -- --record                  add the failing inputs to regressions.json
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';

const here = import.meta.dirname;
const root = path.join(here, '..', '..');

function parseArgs(argv) {
  const options = {
    runs: process.env.FUZZ_RUNS ?? '30000',
    seed: process.env.FUZZ_SEED ?? String(Date.now() % 2_147_483_647),
    timeBound: process.env.FUZZ_TIME_BOUND_MS ?? '5000',
    maxSize: process.env.FUZZ_MAX_SIZE ?? '1048576',
    shrink: process.env.FUZZ_SHRINK === '1',
    record: false,
  };
  for (let index = 0; index < argv.length; index++) {
    const arg = argv[index];
    const value = () => {
      const next = argv[++index];
      if (next === undefined || !/^\d+$/.test(next)) throw new Error(`${arg} takes a number`);
      return next;
    };
    if (arg === '--runs') options.runs = value();
    else if (arg === '--seed') options.seed = value();
    else if (arg === '--time-bound') options.timeBound = value();
    else if (arg === '--max-size') options.maxSize = value();
    else if (arg === '--shrink') options.shrink = true;
    else if (arg === '--record') options.record = true;
    else throw new Error(`unknown argument ${arg} (see test/fuzz/run.mjs)`);
  }
  return options;
}

const options = parseArgs(process.argv.slice(2));
const report = path.join(os.tmpdir(), `retry-safety-fuzz-${process.pid}`);
const parts = ['code', 'text'];
const vitest = path.join(path.dirname(createRequire(import.meta.url).resolve('vitest/package.json')), 'vitest.mjs');

console.log(`Fuzzing: ${options.runs} inputs, seed ${options.seed}, time bound ${options.timeBound} ms, pathological inputs up to ${options.maxSize} characters\n`);
const started = Date.now();
const result = spawnSync(process.execPath, [vitest, 'run', 'test/fuzz/'], {
  cwd: root,
  stdio: 'inherit',
  env: {
    ...process.env,
    FUZZ_RUNS: options.runs,
    FUZZ_SEED: options.seed,
    FUZZ_TIME_BOUND_MS: options.timeBound,
    FUZZ_MAX_SIZE: options.maxSize,
    FUZZ_SHRINK: options.shrink ? '1' : '0',
    FUZZ_REPORT: report,
  },
});
const seconds = Math.round((Date.now() - started) / 1000);

const files = parts.map((part) => `${report}.${part}.json`).filter((file) => existsSync(file));
const reports = files.map((file) => JSON.parse(readFileSync(file, 'utf8')));
if (reports.length === 0) {
  console.error('No fuzz report was written.');
  process.exit(result.status ?? 1);
}

/** Sums the tallies of the two test files. */
function merge(tallies) {
  const merged = { checks: {}, failures: {}, byFamily: {}, byKind: {}, byEngine: {}, knownBugs: {}, slowestMs: 0, slowest: '' };
  const add = (target, source) => {
    for (const [key, value] of Object.entries(source)) {
      if (typeof value === 'number') target[key] = (target[key] ?? 0) + value;
      else add((target[key] ??= {}), value);
    }
  };
  for (const tally of tallies) {
    for (const field of ['checks', 'failures', 'byFamily', 'byKind', 'byEngine', 'knownBugs']) add(merged[field], tally[field]);
    if (tally.slowestMs > merged.slowestMs) Object.assign(merged, { slowestMs: tally.slowestMs, slowest: tally.slowest });
  }
  return merged;
}

const tally = merge(reports.map((entry) => entry.tally));
const failures = reports.flatMap((entry) => entry.failures);
const number = (value) => (value ?? 0).toLocaleString('en-US');

function table(title, columns, rows) {
  const widths = columns.map((column, index) => Math.max(column.length, ...rows.map((row) => String(row[index]).length)));
  const line = (cells) => cells.map((cell, index) => (index === 0 ? String(cell).padEnd(widths[index]) : String(cell).padStart(widths[index]))).join('  ');
  console.log(`\n${title}`);
  console.log(line(columns));
  for (const row of rows) console.log(line(row));
}

const totalInputs = Object.values(tally.byFamily).reduce((sum, counts) => sum + counts.inputs, 0);
console.log(`\nFuzz run: ${number(totalInputs)} inputs (regression corpus included), seed ${options.seed}, ${seconds} s`);
table(
  'Per property',
  ['property', 'checked', 'failed'],
  Object.keys(tally.checks).map((property) => [property, number(tally.checks[property]), number(tally.failures[property])]),
);
const countRows = (groups) =>
  Object.entries(groups)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([name, counts]) => [name, number(counts.inputs), number(counts.parsed), number(counts.findings), number(counts.fixes), number(counts.suggestions), number(counts.failed), number(counts.knownBug)]);
const countColumns = ['inputs', 'parsed', 'findings', 'fixes', 'suggestions', 'failed', 'known bug'];
table('Per family', ['family', ...countColumns], countRows(tally.byFamily));
table('Per file kind', ['file kind', ...countColumns], countRows(tally.byKind));
table('Per linter', ['ESLint + parser', 'inputs'], Object.entries(tally.byEngine).sort(([a], [b]) => a.localeCompare(b)).map(([name, count]) => [name, number(count)]));
if (Object.keys(tally.knownBugs).length > 0) {
  table('Known bugs hit (counted, not failed; see test/fuzz/known-bugs.ts)', ['bug', 'inputs'], Object.entries(tally.knownBugs).map(([id, count]) => [id, number(count)]));
}
console.log(`\nSlowest input: ${Math.round(tally.slowestMs)} ms (${tally.slowest})`);

if (options.record && failures.length > 0) {
  const file = path.join(here, 'regressions.json');
  const corpus = JSON.parse(readFileSync(file, 'utf8'));
  let added = 0;
  for (const failure of failures) {
    // A known bug needs one example in the corpus; a new failure always becomes one.
    if (failure.bug && corpus.some((entry) => entry.bug === failure.bug)) continue;
    corpus.push({
      id: `${failure.family}-${failure.seed}-${failure.run}`,
      found: `npm run fuzz, seed ${options.seed}: ${failure.family} run ${failure.run} (family seed ${failure.seed}); ${failure.failures.map((entry) => entry.property).join(', ')}`,
      ...(failure.bug ? { bug: failure.bug, skip: failure.bugTitle } : {}),
      input: failure.input,
    });
    added++;
  }
  writeFileSync(file, `${JSON.stringify(corpus, null, 2)}\n`);
  console.log(`\nRecorded ${added} failing input(s) in test/fuzz/regressions.json.`);
}
if (failures.length > 0 && !options.record) {
  console.log(`\nThe failing inputs (new ones, and one per known bug hit) are in ${files.join(' and ')}; --record adds them to test/fuzz/regressions.json.`);
} else {
  for (const part of files) rmSync(part, { force: true });
}
process.exit(result.status ?? 1);
