// Each rule against a real database with injected faults: the program the rule reports
// loses, duplicates or crashes; the program after the rule's suggestion (or its docs
// page's advice) survives the same seeded faults; the linter reports the first and
// accepts the second. PostgreSQL is a throw-away cluster (skipped, with the reason, where
// none can be started; FAULTS_REQUIRE_POSTGRES=1 makes that a failure), DynamoDB is
// dynalite behind a faulty proxy. `npm run faults` runs this file and prints the table.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DynamoDB } from './dynamodb';
import { applySuggestion, type Finding, lintPrograms, withoutHeader } from './lint';
import { PgProxy } from './pg-proxy';
import { INSTALL_HINT, startPostgres } from './postgres';
import { PROGRAMS_DIR, runProgram } from './programs';
import { renderFaults, renderTable, type Row } from './report';
import { Resources, TEMP_PREFIX, releaseOnExit, withResources } from './resources';
import { type Outcome, SCENARIOS, type ScenarioContext } from './scenarios';
import { FAULTS_SEED } from './seeded';

const REQUIRE_POSTGRES = process.env.FAULTS_REQUIRE_POSTGRES === '1';
const programFile = (id: string, variant: 'flagged' | 'fixed') => path.join(PROGRAMS_DIR, id, `${variant}.mjs`);

let resources: Resources;
let context: ScenarioContext;
let postgresProblem: string | undefined;
let findings: Map<string, Finding[]>;
const rows: Row[] = [];
const started = performance.now();

/** What each scenario must show, beyond "flagged harmed, fixed not". */
const CHECKS: Record<string, (flagged: Outcome, fixed: Outcome) => void> = {
  'pg-commit-reply-lost'(flagged, fixed) {
    expect(flagged.measures.commitsCut).toBeGreaterThan(0);
    expect(flagged.measures.rows).toBeGreaterThan(flagged.measures.customers!);
    expect(fixed.measures.commitsCut).toBeGreaterThan(0);
    expect(fixed.measures.rows).toBe(12);
    expect(fixed.measures.customers).toBe(12);
  },
  'pg-idle-connections-dropped'(flagged, fixed) {
    expect(flagged.measures.terminated, flagged.run.stderr).toBe(4);
    expect(flagged.run.exitCode).not.toBe(0);
    expect(flagged.run.stderr).toMatch(/Unhandled 'error' event|Emitted 'error' event/);
    expect(fixed.measures.terminated, fixed.run.stderr).toBe(4);
    expect(fixed.run.exitCode).toBe(0);
    expect(fixed.measures.served).toBeGreaterThan(0);
  },
  'pg-checked-out-connection-dropped'(flagged, fixed) {
    expect(flagged.measures.cuts).toBe(1);
    expect(flagged.run.stderr).toMatch(/Emitted 'error' event on Client/);
    expect(fixed.measures.cuts).toBe(1);
    expect(fixed.run.result?.transaction).toMatch(/^failed: /);
    expect(fixed.measures.served).toBe(10);
  },
  'pg-statement-retried-in-transaction'(flagged, fixed) {
    expect(flagged.measures.cuts).toBeGreaterThan(0);
    expect(flagged.measures.credits).toBeGreaterThan(flagged.measures.debits!);
    expect(flagged.measures.created).toBeGreaterThan(0);
    expect(fixed.measures.cuts).toBeGreaterThan(0);
    expect(fixed.measures.created).toBe(0);
    expect(fixed.measures.transfers).toBe(6);
    expect(fixed.measures.debits).toBe(6);
  },
  'dynamodb-partial-batch'(flagged, fixed) {
    expect(flagged.measures.stored).toBeLessThan(100);
    expect(flagged.run.result?.failed).toBe(0); // no error told the caller
    expect(fixed.measures.stored).toBe(100);
    expect(fixed.measures.heldBack).toBeGreaterThan(0);
  },
  'dynamodb-retry-without-wait'(flagged, fixed) {
    expect(flagged.measures.retryGapMs).toBeLessThan(fixed.measures.retryGapMs! / 3);
    expect(flagged.measures.perSecond).toBeGreaterThan(fixed.measures.perSecond!);
    expect(fixed.measures.failed).toBeLessThan(flagged.measures.failed!);
  },
  'dynamodb-retry-without-wait-sdk-retries'(flagged, fixed) {
    // Not hammering: the SDK's own backoff sets the wait in both (see the scenario's note).
    expect(flagged.measures.retryGapMs).toBeGreaterThan(fixed.measures.retryGapMs! / 3);
    expect(flagged.measures.ok).toBeGreaterThan(0);
    expect(fixed.measures.ok).toBeGreaterThan(0);
  },
  'dynamodb-retries-disabled'(flagged, fixed) {
    expect(flagged.measures.failed).toBeGreaterThan(3 * Math.max(1, fixed.measures.failed!));
  },
};

beforeAll(async () => {
  releaseOnExit();
  resources = new Resources();
  context = { resources, seed: FAULTS_SEED };
  findings = await lintPrograms(SCENARIOS.flatMap((scenario) => [programFile(scenario.id, 'flagged'), programFile(scenario.id, 'fixed')]));
  context.dynamodb = await DynamoDB.start(resources);
  try {
    const cluster = await startPostgres(resources);
    context.postgres = { cluster, proxy: await PgProxy.start(resources, cluster) };
  } catch (error) {
    postgresProblem = (error as Error).message;
    if (REQUIRE_POSTGRES) throw new Error(`PostgreSQL is required (FAULTS_REQUIRE_POSTGRES=1) but cannot be started: ${postgresProblem}`);
    console.warn(`\nFault scenarios on PostgreSQL are SKIPPED: ${postgresProblem}\nTo run them, ${INSTALL_HINT}.\n`);
  }
}, 120_000);

afterAll(async () => {
  await resources?.close();
  const report = process.env.FAULTS_REPORT;
  if (report) {
    const other = [...(findings ?? new Map<string, Finding[]>())].flatMap(([file, list]) => {
      const scenario = SCENARIOS.find((candidate) => file.includes(`${path.sep}${candidate.id}${path.sep}`));
      return list
        .filter((finding) => finding.ruleId !== scenario?.rule)
        .map((finding) => `${path.relative(PROGRAMS_DIR, file)}:${finding.line} ${finding.ruleId}: ${finding.message}`);
    });
    writeFileSync(
      report,
      JSON.stringify({ table: renderTable(rows), faults: renderFaults(rows), seed: FAULTS_SEED, seconds: Math.round((performance.now() - started) / 100) / 10, postgresProblem, other }),
    );
  }
}, 60_000);

describe('fault scenarios', () => {
  for (const scenario of SCENARIOS) {
    it(`${scenario.label}. ${scenario.title} (${scenario.rule})`, async (test) => {
      const reportsOf = (variant: 'flagged' | 'fixed') =>
        (findings.get(programFile(scenario.id, variant)) ?? []).filter((finding) => finding.ruleId === scenario.rule);
      const row: Row = {
        scenario,
        reportsFlagged: reportsOf('flagged'),
        reportsFixed: reportsOf('fixed'),
        fixIsSuggestion: false,
      };
      rows.push(row);
      if (scenario.database === 'postgres' && !context.postgres) {
        row.skipped = `PostgreSQL cannot be started (${postgresProblem})`;
        test.skip(`PostgreSQL cannot be started here: ${postgresProblem}`);
      }
      // The fixed program is the rule's own suggestion applied to the flagged one, where the rule has one.
      const suggestions = row.reportsFlagged.flatMap((finding) => finding.suggestions);
      const fixedCode = withoutHeader(readFileSync(programFile(scenario.id, 'fixed'), 'utf8'));
      row.fixIsSuggestion = suggestions.some((suggestion) => withoutHeader(applySuggestion(programFile(scenario.id, 'flagged'), suggestion.fix)) === fixedCode);

      const flagged = await scenario.run(context, 'flagged');
      const fixed = await scenario.run(context, 'fixed');
      scenario.judge?.(flagged, fixed);
      Object.assign(row, { flagged, fixed });

      if (scenario.expectReport === false) expect(row.reportsFlagged, 'a known miss: see the scenario note').toEqual([]);
      else expect(row.reportsFlagged, 'the rule reports the flagged program').not.toEqual([]);
      expect(row.reportsFixed, 'the rule accepts the fixed program').toEqual([]);
      if (suggestions.length > 0 && !scenario.suggestionIsFirstStep) expect(row.fixIsSuggestion, 'fixed.mjs is flagged.mjs with the suggestion applied').toBe(true);
      if (scenario.suggestionIsFirstStep) expect(suggestions, 'a scenario whose suggestion is a first step has one').not.toEqual([]);
      expect(flagged.harmed, `flagged: ${flagged.text}\n${flagged.run.stderr}`).toBe(scenario.expectHarm ?? true);
      expect(fixed.harmed, `fixed: ${fixed.text}\n${fixed.run.stderr}`).toBe(false);
      CHECKS[scenario.id]!(flagged, fixed);
    }, 90_000);
  }

  it('cleans up processes and temp folders when a scenario fails half-way', async () => {
    let failed: Resources | undefined;
    await expect(
      withResources(async (scratch) => {
        failed = scratch;
        const dynamodb = await DynamoDB.start(scratch);
        if (context.postgres) await PgProxy.start(scratch, await startPostgres(scratch));
        // A program still running when the scenario throws.
        const running = runProgram(scratch, 'dynamodb-retries-disabled', 'dynamodb-retries-disabled/fixed.mjs', {
          env: { DYNAMODB_ENDPOINT: dynamodb.endpoint, FAULTS_CALLS: '1000000' },
        });
        running.catch(() => {});
        await new Promise((resolve) => setTimeout(resolve, 500));
        throw new Error('scenario failed on purpose');
      }),
    ).rejects.toThrow('on purpose');
    expect(failed!.leftovers()).toEqual([]);
    expect(failed!.tracked().pids).not.toEqual([]);
  }, 60_000);

  it('leaves no process or temp folder behind', async () => {
    await resources.close();
    // Every program process, the postmaster and every temp folder this run made are gone.
    expect(resources.leftovers()).toEqual([]);
    const tracked = resources.tracked();
    if (context.postgres) expect(tracked.pids).toContain(context.postgres.cluster.pid);
    const ours = new Set(tracked.dirs.map((dir) => path.basename(dir)));
    expect(readdirSync(os.tmpdir()).filter((name) => name.startsWith(TEMP_PREFIX) && ours.has(name))).toEqual([]);
  }, 60_000);
});
