// Fuzzing, part 2: connection strings and time. Generated connection strings with hostile
// passwords, hosts and options in a file of every kind of `file-kinds.ts` (code through its
// parsers, text through the `connection-strings` preset and the `retry-safety/text`
// language), the language server's log lines, and pathological inputs run in a worker that
// is stopped at the time bound. The regression corpus of these families is replayed first.
import { afterAll, describe, expect, it } from 'vitest';
import { BoundedRunner } from './bounded-runner';
import { ALL_KIND_NAMES, emptyTally, type Found, readConfig, runsOf } from './campaign';
import type { Family } from './input';
import { expectNoNewFailures, replayRegressions, runBounded, runSync, testTimeout, writeReport } from './suite';

const config = readConfig();
const tally = emptyTally();
const found: Found[] = [];
let runner: BoundedRunner | undefined;
const getRunner = () => (runner ??= new BoundedRunner({ timeBoundMs: config.timeBoundMs, lintOnly: true }));

const FAMILIES: Family[] = ['connection-string', 'log-line', 'pathological'];

describe('fuzz: connection strings, log lines, time', () => {
  replayRegressions(FAMILIES, config, getRunner, tally);

  it(
    `connection strings with hostile passwords, hosts and options in every file kind (${runsOf('connection-string', config)} inputs, seed ${config.seed})`,
    () => {
      const results = runSync('connection-string', config, tally);
      found.push(...results);
      expectNoNewFailures(results, config);
    },
    testTimeout(config, 'connection-string'),
  );

  it(
    `log lines of the language server (${runsOf('log-line', config)} inputs)`,
    () => {
      const results = runSync('log-line', config, tally);
      found.push(...results);
      expectNoNewFailures(results, config);
    },
    testTimeout(config, 'log-line'),
  );

  it(
    `pathological inputs within ${config.timeBoundMs} ms each (${runsOf('pathological', config)} inputs)`,
    async () => {
      const results = await runBounded(config, getRunner(), tally);
      found.push(...results);
      expectNoNewFailures(results, config);
    },
    testTimeout(config, 'pathological'),
  );

  it('reached every file kind and checked fixed connection strings with the driver', () => {
    for (const kind of ALL_KIND_NAMES) expect(tally.byKind[kind]?.inputs ?? 0, kind).toBeGreaterThan(0);
    expect(tally.checks['uri-valid']).toBeGreaterThan(20);
    expect(tally.checks['no-secret']).toBeGreaterThan(100);
  });

  afterAll(async () => {
    writeReport('text', tally, found);
    await runner?.close();
  });
});
