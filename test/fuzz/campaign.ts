// Runs the families with fast-check (seeded, so a run repeats exactly), checks every input,
// and tallies what was checked and what failed: per property, per family and per file kind.
// A failure that a known bug explains (known-bugs.ts) is counted under that bug; any other
// is a new failure, kept with its input (and shrunk, when asked).
import fc from 'fast-check';
import { FILE_KINDS } from '../../eslint-plugin/src/index';
import { type CheckOptions, type CheckReport, type Failure, PROPERTIES, type Property } from './checks';
import { connectionStringDocumentArb } from './documents';
import { eslumpArb } from './eslump-programs';
import { FAMILIES, type Family, type FuzzInput } from './input';
import { classify, type KnownBug } from './known-bugs';
import { fileKindName } from './lint';
import { logLineArb } from './log-lines';
import { mutationArb } from './mutations';
import { pathologicalArb, SHAPES } from './pathological';
import { programArb } from './programs';

export interface CampaignConfig {
  /** Inputs over all families (the regression corpus comes on top). */
  runs: number;
  seed: number;
  timeBoundMs: number;
  /** Largest pathological input, in characters. */
  maxSize: number;
  /** Shrink new failures to a smaller input that fails the same way. */
  shrink: boolean;
}

/** The short run of `npm test`: a few thousand inputs, a fixed seed. */
export const SHORT_RUN: CampaignConfig = { runs: 3000, seed: 20_260_610, timeBoundMs: 5000, maxSize: 262_144, shrink: false };

function readNumber(name: string, fallback: number): number {
  const value = process.env[name];
  if (value === undefined || value === '') return fallback;
  const number = Number(value);
  if (!Number.isFinite(number)) throw new Error(`${name} must be a number, not ${JSON.stringify(value)}`);
  return number;
}

/** The short run, or what FUZZ_RUNS, FUZZ_SEED, FUZZ_TIME_BOUND_MS, FUZZ_MAX_SIZE and FUZZ_SHRINK say. */
export function readConfig(): CampaignConfig {
  return {
    runs: readNumber('FUZZ_RUNS', SHORT_RUN.runs),
    seed: readNumber('FUZZ_SEED', SHORT_RUN.seed),
    timeBoundMs: readNumber('FUZZ_TIME_BOUND_MS', SHORT_RUN.timeBoundMs),
    maxSize: readNumber('FUZZ_MAX_SIZE', SHORT_RUN.maxSize),
    shrink: process.env.FUZZ_SHRINK === '1',
  };
}

/** Share of the runs per family; pathological inputs are few (each may cost the whole bound). */
const SHARES: Record<Family, number> = { program: 0.14, eslump: 0.08, mutation: 0.14, 'connection-string': 0.48, 'log-line': 0.16, pathological: 0 };

export function runsOf(family: Family, config: CampaignConfig): number {
  if (family === 'pathological') return Math.max(SHAPES.length, Math.min(SHAPES.length * 5, Math.round(config.runs / 400)));
  return Math.max(1, Math.round(config.runs * SHARES[family]));
}

export function arbitraryOf(family: Family, config: CampaignConfig): fc.Arbitrary<FuzzInput> {
  switch (family) {
    case 'program':
      return programArb;
    case 'eslump':
      return eslumpArb;
    case 'mutation':
      return mutationArb;
    case 'connection-string':
      return connectionStringDocumentArb;
    case 'log-line':
      return logLineArb;
    case 'pathological':
      return pathologicalArb(config.maxSize);
  }
}

/** Each family draws from its own seed: adding runs to one does not change the others. */
export function seedOf(family: Family, config: CampaignConfig): number {
  return (config.seed + FAMILIES.indexOf(family) * 7919) | 0;
}

export interface Found {
  family: Family;
  /** Index of the run in its family (fast-check's path), with the family's seed. */
  run: number;
  seed: number;
  input: FuzzInput;
  failures: Failure[];
  /** The known bug behind every failure of the input, when one is. */
  knownBug: KnownBug | undefined;
}

interface Counts {
  inputs: number;
  parsed: number;
  findings: number;
  fixes: number;
  suggestions: number;
  failed: number;
  knownBug: number;
}

const zeroCounts = (): Counts => ({ inputs: 0, parsed: 0, findings: 0, fixes: 0, suggestions: 0, failed: 0, knownBug: 0 });

export interface Tally {
  checks: Record<Property, number>;
  failures: Record<Property, number>;
  byFamily: Record<string, Counts>;
  byKind: Record<string, Counts>;
  byEngine: Record<string, number>;
  knownBugs: Record<string, number>;
  slowestMs: number;
  slowest: string;
}

export function emptyTally(): Tally {
  const perProperty = () => Object.fromEntries(PROPERTIES.map((property) => [property, 0])) as Record<Property, number>;
  return { checks: perProperty(), failures: perProperty(), byFamily: {}, byKind: {}, byEngine: {}, knownBugs: {}, slowestMs: 0, slowest: '' };
}

/** The file kind an input is counted under (`server log` for log lines). */
export function kindOf(input: FuzzInput): string {
  return input.logLines ? 'server log' : fileKindName(input.filename);
}

export function record(tally: Tally, input: FuzzInput, report: CheckReport, knownBug: KnownBug | undefined): void {
  for (const property of PROPERTIES) tally.checks[property] += report.checks[property];
  for (const failure of report.failures) tally.failures[failure.property]++;
  const counts = [(tally.byFamily[input.family] ??= zeroCounts()), (tally.byKind[kindOf(input)] ??= zeroCounts())];
  for (const count of counts) {
    count.inputs++;
    if (report.parsed) count.parsed++;
    count.findings += report.findings;
    count.fixes += report.fixes;
    count.suggestions += report.suggestions;
    if (report.failures.length > 0) {
      if (knownBug) count.knownBug++;
      else count.failed++;
    }
  }
  const engine = input.logLines ? 'logger' : `${input.engine}${input.parser ? ` + ${input.parser}` : ''}`;
  tally.byEngine[engine] = (tally.byEngine[engine] ?? 0) + 1;
  if (knownBug) tally.knownBugs[knownBug.id] = (tally.knownBugs[knownBug.id] ?? 0) + 1;
  if (report.maxMs > tally.slowestMs) {
    tally.slowestMs = report.maxMs;
    tally.slowest = `${input.family}: ${input.origin}`;
  }
}

export function mergeTallies(tallies: readonly Tally[]): Tally {
  const merged = emptyTally();
  for (const tally of tallies) {
    for (const property of PROPERTIES) {
      merged.checks[property] += tally.checks[property];
      merged.failures[property] += tally.failures[property];
    }
    for (const [target, source] of [[merged.byFamily, tally.byFamily], [merged.byKind, tally.byKind]] as const) {
      for (const [key, counts] of Object.entries(source)) {
        const into = (target[key] ??= zeroCounts());
        for (const field of Object.keys(counts) as Array<keyof Counts>) into[field] += counts[field];
      }
    }
    for (const [key, count] of Object.entries(tally.byEngine)) merged.byEngine[key] = (merged.byEngine[key] ?? 0) + count;
    for (const [key, count] of Object.entries(tally.knownBugs)) merged.knownBugs[key] = (merged.knownBugs[key] ?? 0) + count;
    if (tally.slowestMs > merged.slowestMs) {
      merged.slowestMs = tally.slowestMs;
      merged.slowest = tally.slowest;
    }
  }
  return merged;
}

/** Classifies the failures of one checked input: the known bug behind all of them, if one is. */
function toFound(family: Family, run: number, seed: number, input: FuzzInput, report: CheckReport): Found {
  return { family, run, seed, input, failures: report.failures, knownBug: report.failures.length > 0 ? classify(input, report.failures) : undefined };
}

/** Runs one family in this thread. */
export function runFamily(family: Family, config: CampaignConfig, check: (input: FuzzInput) => CheckReport, tally: Tally): Found[] {
  const found: Found[] = [];
  const seed = seedOf(family, config);
  let run = 0;
  fc.assert(
    fc.property(arbitraryOf(family, config), (input) => {
      const report = check(input);
      const result = toFound(family, run, seed, input, report);
      record(tally, input, report, result.knownBug);
      if (report.failures.length > 0) found.push(result);
      run++;
    }),
    { seed, numRuns: runsOf(family, config) },
  );
  return found;
}

/**
 * Runs the pathological family through an asynchronous checker (the time-bounded worker):
 * every shape, each at sizes and variants drawn from its own seed.
 */
export async function runPathological(config: CampaignConfig, check: (input: FuzzInput) => Promise<CheckReport>, tally: Tally): Promise<Found[]> {
  const found: Found[] = [];
  const perShape = Math.max(1, Math.round(runsOf('pathological', config) / SHAPES.length));
  for (const [index, shape] of SHAPES.entries()) {
    const seed = seedOf('pathological', config) + index;
    const inputs = fc.sample(pathologicalArb(config.maxSize, shape), { seed, numRuns: perShape });
    for (const [run, input] of inputs.entries()) {
      const report = await check(input);
      const result = toFound('pathological', run, seed, input, report);
      record(tally, input, report, result.knownBug);
      if (report.failures.length > 0) found.push(result);
    }
  }
  return found;
}

/** Runs one family through an asynchronous checker (the time-bounded worker). */
export async function runFamilyAsync(family: Family, config: CampaignConfig, check: (input: FuzzInput) => Promise<CheckReport>, tally: Tally): Promise<Found[]> {
  const found: Found[] = [];
  const seed = seedOf(family, config);
  let run = 0;
  await fc.assert(
    fc.asyncProperty(arbitraryOf(family, config), async (input) => {
      const report = await check(input);
      const result = toFound(family, run, seed, input, report);
      record(tally, input, report, result.knownBug);
      if (report.failures.length > 0) found.push(result);
      run++;
    }),
    { seed, numRuns: runsOf(family, config) },
  );
  return found;
}

/** Whether an input fails `property` in a way no known bug explains. */
export function isNewFailureOf(property: Property, check: (input: FuzzInput) => CheckReport): (input: FuzzInput) => boolean {
  return (input) => {
    const report = check(input);
    return report.failures.some((failure) => failure.property === property) && !classify(input, report.failures);
  };
}

/**
 * A smaller input that fails the same way (by default: the same property, and no known bug explains it), found by
 * fast-check's shrinking from the failing run; the input itself when none is.
 */
export function shrink(found: Found, config: CampaignConfig, check: (input: FuzzInput) => CheckReport, failsTheSameWay = isNewFailureOf(found.failures[0]!.property, check)): FuzzInput {
  const details = fc.check(
    fc.property(arbitraryOf(found.family, config), (input) => !failsTheSameWay(input)),
    { seed: found.seed, path: String(found.run), numRuns: found.run + 1, interruptAfterTimeLimit: 120_000 },
  );
  return details.failed && details.counterexample ? details.counterexample[0] : found.input;
}

/** Every file kind of the table, for checking that a run reached them all. */
export const ALL_KIND_NAMES = FILE_KINDS.map((kind) => kind.name);

/** A failure as a test report shows it: where it came from, what failed, and the input (long texts cut). */
export function describeFound(found: Found): string {
  const { input } = found;
  const text = input.logLines ? input.logLines.join('\n') : input.text;
  const shown = text.length > 3000 ? `${text.slice(0, 3000)}… (${text.length} characters)` : text;
  return [
    `${found.family} run ${found.run} (seed ${found.seed}): ${input.origin}`,
    `file ${input.filename || '(log)'} · ${input.engine}${input.parser ? ` + ${input.parser}` : ''} · settings ${JSON.stringify(input.settings ?? null)}`,
    ...found.failures.map((failure) => `  ✗ ${failure.property}: ${failure.detail}`),
    '--- input ---',
    shown,
  ].join('\n');
}

export type { CheckOptions };
