// Benchmark: does a rule stay linear in the number of findings of one file?
//
// Lints generated files with n and 4n retried inserts (each a function whose retry loop
// inserts a document without `_id`, so `mongo-require-insert-id` reports every one and
// offers its hoisted-id suggestion), with ESLint's Linter and @typescript-eslint/parser,
// once with no rules (parsing alone) and once with the rule. Prints the times and the
// ratio 4n / n: about 4 is linear, about 16 quadratic. The rule's time is the median
// CPU time with the rule minus the median without it.
//
// Usage: npm run build -w eslint-plugin && node bench/hostile-input-rules.mjs [n]   (n defaults to 1000)
//        BENCH_ROUNDS=5 node bench/hostile-input-rules.mjs   (rounds per size, default 3)
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { Linter } from 'eslint';
import * as tsParser from '@typescript-eslint/parser';

const require = createRequire(import.meta.url);
const plugin = require(fileURLToPath(new URL('../eslint-plugin/dist/index.cjs', import.meta.url)));

const RULE = 'retry-safety/mongo-require-insert-id';

/** A module with `count` functions, each retrying an insert of a document without `_id`. */
function generateRetriedInserts(count) {
  const lines = [
    "import { MongoClient } from 'mongodb';",
    "const orders = new MongoClient('mongodb://localhost').db('shop').collection('orders');",
  ];
  for (let index = 0; index < count; index++) {
    lines.push(
      `export async function place${index}(total) {`,
      '  for (let attempt = 1; attempt <= 3; attempt++) {',
      `    try { await orders.insertOne({ total, n: ${index} }); return; } catch (error) { if (attempt === 3) throw error; }`,
      '  }',
      '}',
    );
  }
  return `${lines.join('\n')}\n`;
}

function lint(text, rules) {
  const linter = new Linter({ cwd: '/bench' });
  const config = [
    {
      files: ['**/*.ts'],
      languageOptions: { parser: tsParser, ecmaVersion: 'latest', sourceType: 'module' },
      plugins: { 'retry-safety': plugin },
      rules,
    },
  ];
  const cpu = process.cpuUsage();
  const messages = linter.verify(text, config, { filename: '/bench/retried-inserts.ts' });
  const used = process.cpuUsage(cpu);
  return { ms: (used.user + used.system) / 1000, messages };
}

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

/** Median CPU times over `rounds`, parsing alone and with the rule back to back. */
function measure(count, rounds) {
  const text = generateRetriedInserts(count);
  const parseTimes = [];
  const totalTimes = [];
  for (let round = 0; round < rounds; round++) {
    parseTimes.push(lint(text, {}).ms);
    const rule = lint(text, { [RULE]: 'warn' });
    const fatal = rule.messages.find((message) => message.fatal);
    if (fatal) throw new Error(`the generated file does not parse: ${fatal.message}`);
    const findings = rule.messages.filter((message) => message.ruleId === RULE).length;
    if (findings !== count) throw new Error(`expected ${count} findings, got ${findings}`);
    totalTimes.push(rule.ms);
  }
  const parseMs = median(parseTimes);
  const totalMs = median(totalTimes);
  return { count, parseMs, totalMs, ruleMs: Math.max(1, totalMs - parseMs) };
}

const n = Number(process.argv[2] ?? 1000);
if (!Number.isInteger(n) || n < 1) throw new Error(`n must be a positive integer, got ${process.argv[2]}`);
const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
if (!Number.isInteger(rounds) || rounds < 1) throw new Error(`BENCH_ROUNDS must be a positive integer, got ${process.env.BENCH_ROUNDS}`);

measure(Math.min(n, 100), 1); // warm-up: JIT and module loading
const small = measure(n, rounds);
const large = measure(4 * n, rounds);
const ms = (value) => `${value.toFixed(0).padStart(7)} ms`;
console.log(`${RULE}: ${n} vs ${4 * n} retried inserts in one file (CPU time, median of ${rounds})`);
for (const run of [small, large]) {
  console.log(`  ${String(run.count).padStart(6)} inserts: parse ${ms(run.parseMs)}, rule ${ms(run.ruleMs)}, total ${ms(run.totalMs)}`);
}
console.log(`  ratio ${4 * n}/${n}: rule ${(large.ruleMs / small.ruleMs).toFixed(1)}, total ${(large.totalMs / small.totalMs).toFixed(1)} (4 is linear, 16 quadratic)`);
