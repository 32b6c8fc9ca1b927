#!/usr/bin/env node
// `npm run faults`: runs the fault scenarios (test/faults/faults.test.ts) and prints the
// table: per scenario, what the faults did to the program the rule reports and to the
// fixed one, and what the linter said about each. PostgreSQL is required here (in
// `npm test` the PostgreSQL scenarios are skipped, with the reason, where it is missing).
//
//   npm run faults                      the default seed
//   FAULTS_SEED=7 npm run faults        another fault schedule
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';

const root = path.join(import.meta.dirname, '..', '..');
const report = path.join(os.tmpdir(), `retry-safety-faults-report-${process.pid}.json`);
const vitest = path.join(path.dirname(createRequire(import.meta.url).resolve('vitest/package.json')), 'vitest.mjs');

const result = spawnSync(process.execPath, [vitest, 'run', 'test/faults/'], {
  cwd: root,
  stdio: 'inherit',
  env: { ...process.env, FAULTS_REPORT: report, FAULTS_REQUIRE_POSTGRES: process.env.FAULTS_REQUIRE_POSTGRES ?? '1' },
});

if (!existsSync(report)) {
  console.error('\nThe fault scenarios did not report (see the output above).');
  process.exit(result.status || 1);
}
const { table, faults, seed, seconds, other } = JSON.parse(readFileSync(report, 'utf8'));
rmSync(report, { force: true });
console.log(`\nFault scenarios (seed ${seed}, ${seconds} s)\n`);
console.log(table);
console.log(`\nFaults:\n${faults}`);
if (other.length > 0) console.log(`\nOther findings on the programs:\n${other.map((line) => `- ${line}`).join('\n')}`);
process.exit(result.status ?? 1);
