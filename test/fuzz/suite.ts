// What the two fuzz test files share: replaying the regression corpus, running families,
// failing on new failures (known bugs are counted, not failed), and writing the tally for
// `npm run fuzz` to print.
import { writeFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { BoundedRunner } from './bounded-runner';
import { type CampaignConfig, describeFound, type Found, record, runFamily, runPathological, runsOf, shrink, type Tally } from './campaign';
import { type CheckReport, checkInput } from './checks';
import type { Family, FuzzInput } from './input';
import { classify } from './known-bugs';
import { loadRegressions, toInput, toStored } from './regressions';

/** Time for one family's test: generous, since a long run is a test too. */
export function testTimeout(config: CampaignConfig, family: Family): number {
  const perInput = family === 'pathological' ? config.timeBoundMs * 3 : 400;
  return Math.max(120_000, runsOf(family, config) * perInput);
}

/** Checks an input in this thread (pathological inputs: lint only, through `runner`, which stops them at the bound). */
export function checker(config: CampaignConfig) {
  return (input: FuzzInput): CheckReport => checkInput(input, { timeBoundMs: config.timeBoundMs });
}

/** One test per corpus entry of `families`; an entry whose fix is not in yet is skipped, naming the bug. */
export function replayRegressions(families: readonly Family[], config: CampaignConfig, runner: () => BoundedRunner, tally: Tally): void {
  for (const regression of loadRegressions().filter((entry) => families.includes(entry.input.family))) {
    const name = `regression ${regression.id}`;
    if (regression.skip) {
      it.skip(`${name} — skipped: ${regression.skip}`, () => {});
      continue;
    }
    it(
      name,
      async () => {
        const input = toInput(regression);
        const report =
          input.family === 'pathological' ? await runner().check(input) : checkInput(input, { timeBoundMs: config.timeBoundMs });
        record(tally, input, report, undefined);
        expect(report.failures, `${regression.found}${regression.bug ? `\n${regression.bug}` : ''}`).toEqual([]);
      },
      config.timeBoundMs * 3 + 120_000,
    );
  }
}

const newFailures: Found[] = [];

/** Fails the test on failures no known bug explains, each shown with its input. */
export function expectNoNewFailures(found: readonly Found[], config: CampaignConfig): void {
  const unexplained = found.filter((entry) => !entry.knownBug);
  const shown = unexplained.map((entry) => {
    if (!config.shrink || entry.family === 'pathological') return entry;
    const input = shrink(entry, config, checker(config));
    return { ...entry, input, failures: checkInput(input, { timeBoundMs: config.timeBoundMs }).failures };
  });
  newFailures.push(...shown);
  expect(shown.map(describeFound), `${shown.length} input(s) fail a property`).toEqual([]);
}

export function runSync(family: Family, config: CampaignConfig, tally: Tally): Found[] {
  return runFamily(family, config, checker(config), tally);
}

export async function runBounded(config: CampaignConfig, runner: BoundedRunner, tally: Tally): Promise<Found[]> {
  return runPathological(config, (input) => runner.check(input), tally);
}

/**
 * With FUZZ_REPORT set (by `npm run fuzz`): writes the tally and the failing inputs (new
 * ones, and one per known bug) next to that path, for the report and `--record`.
 */
export function writeReport(name: string, tally: Tally, found: readonly Found[]): void {
  const target = process.env.FUZZ_REPORT;
  if (!target) return;
  const perBug = new Map<string, Found>();
  for (const entry of found) if (entry.knownBug && !perBug.has(entry.knownBug.id)) perBug.set(entry.knownBug.id, entry);
  const failures = [...newFailures, ...perBug.values()].map((entry) => {
    const bug = entry.knownBug ?? classify(entry.input, entry.failures);
    return { family: entry.family, run: entry.run, seed: entry.seed, bug: bug?.id, bugTitle: bug?.title, failures: entry.failures, input: toStored(entry.input) };
  });
  writeFileSync(`${target}.${name}.json`, JSON.stringify({ tally, failures }, null, 2));
}
