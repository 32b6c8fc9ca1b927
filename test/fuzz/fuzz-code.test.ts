// Fuzzing, part 1: programs. Generated database programs, eslump's random programs with
// database snippets spliced in, and mutations of the examples and the rule tests, linted
// with ESLint 10 and 9, espree and @typescript-eslint/parser (see checks.ts for the
// properties). The regression corpus of these families is replayed first.
import { afterAll, describe, expect, it } from 'vitest';
import { BoundedRunner } from './bounded-runner';
import { emptyTally, type Found, readConfig, runsOf } from './campaign';
import type { Family } from './input';
import { expectNoNewFailures, replayRegressions, runSync, testTimeout, writeReport } from './suite';

const config = readConfig();
const tally = emptyTally();
const found: Found[] = [];
let runner: BoundedRunner | undefined;
const getRunner = () => (runner ??= new BoundedRunner({ timeBoundMs: config.timeBoundMs, lintOnly: true }));

const FAMILIES: Family[] = ['program', 'eslump', 'mutation'];
const TITLES: Record<string, string> = {
  program: 'generated database programs',
  eslump: 'eslump programs with database snippets',
  mutation: 'mutated examples and rule tests',
};

describe('fuzz: programs', () => {
  replayRegressions(FAMILIES, config, getRunner, tally);

  for (const family of FAMILIES) {
    it(
      `${TITLES[family]} (${runsOf(family, config)} inputs, seed ${config.seed})`,
      () => {
        const results = runSync(family, config, tally);
        found.push(...results);
        expectNoNewFailures(results, config);
      },
      testTimeout(config, family),
    );
  }

  it('reached both ESLint versions, both parsers and the fixers', () => {
    for (const engine of ['eslint10 + espree', 'eslint10 + typescript', 'eslint9 + espree', 'eslint9 + typescript']) {
      expect(tally.byEngine[engine] ?? 0, engine).toBeGreaterThan(0);
    }
    expect(tally.checks['fix-parses'] + tally.checks['suggestion-parses']).toBeGreaterThan(50);
    expect(tally.checks['suggestion-clears']).toBeGreaterThan(5);
    expect(tally.byFamily.program?.findings ?? 0).toBeGreaterThan(100);
  });

  afterAll(async () => {
    writeReport('code', tally, found);
    await runner?.close();
  });
});
