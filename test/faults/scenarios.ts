// The fault scenarios: for each rule, a program the rule reports (flagged.mjs) and the
// program after the rule's suggestion or its docs page's advice (fixed.mjs), both run
// against a real database under the same seeded faults. Each scenario prepares the
// database, runs one program, and reads back what happened to the data or the process.
import { CreateTableCommand, DeleteTableCommand, DynamoDBClient, PutItemCommand, ScanCommand } from '@aws-sdk/client-dynamodb';
import { type DynamoDB, type DynamoFaults, tokenBucket } from './dynamodb';
import type { PgProxy, PgProxyFaults } from './pg-proxy';
import type { PostgresCluster } from './postgres';
import { runProgram, type ProgramRun } from './programs';
import type { Resources } from './resources';
import { faultSchedule, hash32, seededRandom } from './seeded';

export type Variant = 'flagged' | 'fixed';

export interface ScenarioContext {
  resources: Resources;
  seed: number;
  postgres?: { cluster: PostgresCluster; proxy: PgProxy };
  dynamodb?: DynamoDB;
}

export interface Outcome {
  /** Lost, duplicated or crashed. */
  harmed: boolean;
  /** What happened, in the table's words. */
  text: string;
  /** The numbers behind the text, for the assertions. */
  measures: Record<string, number>;
  run: ProgramRun;
}

export interface Scenario {
  /** The row's number in the table. */
  label: string;
  id: string;
  title: string;
  rule: string;
  database: 'postgres' | 'dynamodb';
  /** The faults, in the table's words. */
  faults: string;
  run(context: ScenarioContext, variant: Variant): Promise<Outcome>;
  /** Marks harm that only shows against the other program (both outcomes in hand). */
  judge?(flagged: Outcome, fixed: Outcome): void;
  /** `false` for a scenario kept to show where a rule's claim does not hold. */
  expectHarm?: boolean;
  /** `false` for a scenario kept to show harm that the rule does not report. */
  expectReport?: boolean;
  /** Where the fixed program comes from, when it is neither the rule's suggestion nor its docs page's advice. */
  fixedBy?: string;
  /**
   * Why the fixed program follows the docs page's advice although the rule has a suggestion:
   * the suggestion is a safe first step that the scenario's full fix goes beyond.
   */
  suggestionIsFirstStep?: string;
  /** What the table's reader should know about the row. */
  note?: string;
}

/** PostgreSQL programs wait `random × min(60 s, base × 2^attempt)`: with a 20 ms base instead of 5 s, a scenario takes seconds. */
const RETRY_BASE_MS = '20';

function pgEnv(context: ScenarioContext, id: string, variant: Variant, extra: Record<string, string> = {}): Record<string, string> {
  const { cluster, proxy } = needPostgres(context);
  return {
    PGHOST: '127.0.0.1',
    PGPORT: String(proxy.port),
    PGUSER: cluster.user,
    PGDATABASE: cluster.database,
    PGAPPNAME: `faults-${id}-${variant}`,
    RETRY_BASE_MS,
    ...extra,
  };
}

function needPostgres(context: ScenarioContext): { cluster: PostgresCluster; proxy: PgProxy } {
  if (!context.postgres) throw new Error('this scenario needs PostgreSQL');
  return context.postgres;
}

/** Recreates the scenario's tables, sets the proxy's faults, and runs one program through the proxy. */
async function runOnPostgres(
  scenario: Scenario,
  context: ScenarioContext,
  variant: Variant,
  setup: { schema: string[]; faults: PgProxyFaults; env: Record<string, string>; onReady?: (appName: string) => Promise<void> },
): Promise<{ run: ProgramRun; cluster: PostgresCluster; proxy: PgProxy }> {
  const { cluster, proxy } = needPostgres(context);
  for (const statement of setup.schema) await cluster.query(statement);
  await proxy.setFaults(setup.faults);
  const env = pgEnv(context, scenario.id, variant, setup.env);
  const onReady = setup.onReady;
  const run = await runProgram(context.resources, scenario.id, `${scenario.id}/${variant}.mjs`, {
    env,
    ...(onReady ? { onReady: () => onReady(env.PGAPPNAME!) } : {}),
  });
  return { run, cluster, proxy };
}

function needDynamo(context: ScenarioContext): DynamoDB {
  if (!context.dynamodb) throw new Error('this scenario needs DynamoDB');
  return context.dynamodb;
}

/** How a program that did not finish ended, in a few words. */
function crashText(run: ProgramRun): string {
  if (run.timedOut) return `did not finish within the time bound (${run.ms} ms)`;
  if (/Unhandled 'error' event|Emitted 'error' event/.test(run.stderr)) return "crashed: unhandled 'error' event";
  const last = run.stderr.trim().split('\n').find((line) => /Error|error/.test(line)) ?? `exit code ${run.exitCode}`;
  return `crashed: ${last.trim().slice(0, 80)}`;
}

function plural(count: number, one: string, many = `${one}s`): string {
  return `${count} ${count === 1 ? one : many}`;
}

// 1. The COMMIT reply is lost; the transaction is retried.
const commitReplyLost: Scenario = {
  label: '1',
  id: 'pg-commit-reply-lost',
  title: 'PostgreSQL: connection cut after COMMIT, transaction retried',
  rule: 'require-idempotent-retry',
  database: 'postgres',
  faults: 'proxy cuts the connection after the server answered COMMIT, before the client reads it (seeded, 35% of COMMITs)',
  async run(context, variant) {
    const { run, cluster, proxy } = await runOnPostgres(this, context, variant, {
      schema: ['DROP TABLE IF EXISTS orders', 'CREATE TABLE orders (id uuid PRIMARY KEY, customer text NOT NULL, total numeric NOT NULL)'],
      faults: { cutAfterCommit: faultSchedule(context.seed, this.id, 0.35) },
      env: { FAULTS_CALLS: '12' },
    });
    const { rows } = await cluster.query<{ rows: number; customers: number }>(
      'SELECT count(*)::int AS rows, count(DISTINCT customer)::int AS customers FROM orders',
    );
    const stored = rows[0]!;
    const cuts = proxy.stats.commitsCut;
    const measures = { orders: run.result?.ok ?? 0, rows: stored.rows, customers: stored.customers, commitsCut: cuts };
    if (!run.result) return { harmed: true, text: crashText(run), measures, run };
    const twice = stored.rows - stored.customers;
    const text =
      twice > 0
        ? `${plural(run.result.ok, 'order')} placed, ${plural(stored.rows, 'row')}: ${twice} written twice`
        : `${plural(run.result.ok, 'order')} placed, ${plural(stored.rows, 'row')}: each once`;
    return { harmed: twice > 0 || stored.rows !== run.result.calls, text: `${text} (${plural(cuts, 'COMMIT reply', 'COMMIT replies')} lost)`, measures, run };
  },
};

// 2. The server drops the pool's idle connections and refuses new ones for a moment.
const idleConnectionsDropped: Scenario = {
  label: '2',
  id: 'pg-idle-connections-dropped',
  title: 'PostgreSQL: idle pool connections terminated by the server',
  rule: 'pg-require-pool-error-listener',
  database: 'postgres',
  faults: "pg_terminate_backend() on the pool's 4 idle connections, then new connections refused for 150 ms",
  async run(context, variant) {
    let terminated = 0;
    const { run } = await runOnPostgres(this, context, variant, {
      schema: ['DROP TABLE IF EXISTS orders', 'CREATE TABLE orders (id text PRIMARY KEY)'],
      faults: {},
      env: { FAULTS_POOL_SIZE: '4', FAULTS_CALLS: '20', FAULTS_INTERVAL_MS: '25' },
      async onReady(appName) {
        const { cluster, proxy } = needPostgres(context);
        const { rows } = await cluster.query<{ n: number }>(
          "SELECT count(pg_terminate_backend(pid))::int AS n FROM pg_stat_activity WHERE application_name = $1 AND state = 'idle'",
          [appName],
        );
        terminated = rows[0]!.n;
        proxy.refuseFor(150);
      },
    });
    const measures = { terminated, served: run.result?.ok ?? 0, refused: run.result?.failed ?? 0, exitCode: run.exitCode ?? -1 };
    if (!run.result || run.exitCode !== 0) {
      return { harmed: true, text: `${crashText(run)} when ${plural(terminated, 'idle connection')} dropped`, measures, run };
    }
    const { ok, calls, failed } = run.result;
    return {
      harmed: ok === 0,
      text: `kept serving: ${ok} of ${calls} requests answered after ${plural(terminated, 'idle connection')} dropped (${failed} refused during the outage)`,
      measures,
      run,
    };
  },
};

// 2b. A connection drops while its client is checked out: a finding about the rule.
const checkedOutConnectionDropped: Scenario = {
  label: '2b',
  id: 'pg-checked-out-connection-dropped',
  title: "PostgreSQL: connection dropped while a client is checked out (the pool's listener only)",
  rule: 'pg-require-pool-error-listener',
  database: 'postgres',
  faults: 'proxy cuts the connection when the transaction sends its INSERT; then 10 requests',
  expectReport: false,
  fixedBy: 'fixed with a listener on each client: node-postgres #2439',
  note: "The pool's listener, as the suggestion adds it, covers idle clients only; a checked-out client emits 'error' itself (node-postgres #2439). No rule reports the flagged program, which has the listener the rule asks for.",
  async run(context, variant) {
    const { run, proxy } = await runOnPostgres(this, context, variant, {
      schema: ['DROP TABLE IF EXISTS orders, closings', 'CREATE TABLE orders (id text PRIMARY KEY)', 'CREATE TABLE closings (day date PRIMARY KEY)'],
      faults: { cutBeforeStatement: { match: /INSERT INTO closings/, when: (index) => index === 0 } },
      env: { FAULTS_CALLS: '10' },
    });
    const measures = { cuts: proxy.stats.statementsCut, served: run.result?.ok ?? 0, exitCode: run.exitCode ?? -1 };
    if (!run.result || run.exitCode !== 0) return { harmed: true, text: `${crashText(run)} when the transaction's connection dropped`, measures, run };
    const { ok, calls } = run.result;
    return {
      harmed: ok < calls,
      text: `kept serving: the transaction ${run.result.transaction ?? 'ended'}, then ${ok} of ${calls} requests answered`,
      measures,
      run,
    };
  },
};

// 3. The connection is cut in the middle of a transaction; one statement is retried.
const statementRetriedInTransaction: Scenario = {
  label: '3',
  id: 'pg-statement-retried-in-transaction',
  title: 'PostgreSQL: connection cut inside BEGIN … COMMIT',
  rule: 'pg-require-whole-transaction-retry',
  database: 'postgres',
  faults: 'proxy cuts the connection when the credit UPDATE is sent, before the server gets it (seeded, 50%)',
  suggestionIsFirstStep:
    "The suggestion removes the one-statement retry, which can never succeed inside the aborted transaction; retrying the whole transaction, as fixed.mjs does, also needs the transfer id under a unique constraint, which the docs page explains and no edit can add.",
  async run(context, variant) {
    const amount = 100;
    const { run, cluster, proxy } = await runOnPostgres(this, context, variant, {
      schema: [
        'DROP TABLE IF EXISTS transfers, accounts',
        'CREATE TABLE accounts (id text PRIMARY KEY, balance int NOT NULL)',
        "INSERT INTO accounts VALUES ('alice', 1000), ('bob', 1000)",
        'CREATE TABLE transfers (id text PRIMARY KEY)',
      ],
      faults: { cutBeforeStatement: { match: /balance = balance \+/, when: faultSchedule(context.seed, this.id, 0.5) } },
      env: { FAULTS_CALLS: '6', FAULTS_AMOUNT: String(amount) },
    });
    const { rows } = await cluster.query<{ alice: number; bob: number; transfers: number }>(
      "SELECT (SELECT balance FROM accounts WHERE id = 'alice') AS alice, (SELECT balance FROM accounts WHERE id = 'bob') AS bob, (SELECT count(*)::int FROM transfers) AS transfers",
    );
    const { alice, bob, transfers } = rows[0]!;
    const debits = (1000 - alice) / amount;
    const credits = (bob - 1000) / amount;
    const halfDone = Math.abs(credits - debits);
    const measures = { reportedOk: run.result?.ok ?? 0, transfers, debits, credits, created: alice + bob - 2000, cuts: proxy.stats.statementsCut };
    if (!run.result) return { harmed: true, text: crashText(run), measures, run };
    const told = `caller told ${run.result.ok} of ${run.result.calls} succeeded`;
    const text =
      halfDone > 0
        ? `${plural(transfers, 'transfer')} committed in full, ${halfDone} half (credit without debit: ${alice + bob - 2000 > 0 ? '+' : ''}${alice + bob - 2000} created); ${told}`
        : `${plural(transfers, 'transfer')} committed in full, none half; ${told}`;
    return { harmed: halfDone > 0 || debits !== transfers || transfers !== run.result.ok, text, measures, run };
  },
};

// This process reads the tables with the SDK too; its Node.js version notice is noise in the test output.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

function directClient(dynamodb: DynamoDB): DynamoDBClient {
  return new DynamoDBClient({
    endpoint: dynamodb.directEndpoint,
    region: 'us-east-1',
    credentials: { accessKeyId: 'faults', secretAccessKey: 'faults' },
  });
}

/** Drops and recreates a table with a string `id` key, directly in dynalite. */
async function freshTable(dynamodb: DynamoDB, table: string): Promise<DynamoDBClient> {
  const client = directClient(dynamodb);
  await client.send(new DeleteTableCommand({ TableName: table })).catch(() => {});
  await client.send(
    new CreateTableCommand({
      TableName: table,
      AttributeDefinitions: [{ AttributeName: 'id', AttributeType: 'S' }],
      KeySchema: [{ AttributeName: 'id', KeyType: 'HASH' }],
      BillingMode: 'PAY_PER_REQUEST',
    }),
  );
  return client;
}

async function countItems(client: DynamoDBClient, table: string): Promise<number> {
  let count = 0;
  let start: Record<string, never> | undefined;
  do {
    const page = await client.send(new ScanCommand({ TableName: table, Select: 'COUNT', ExclusiveStartKey: start }));
    count += page.Count ?? 0;
    start = page.LastEvaluatedKey as typeof start;
  } while (start);
  return count;
}

/** Recreates the scenario's table, sets the proxy's faults, and runs one program through the proxy. */
async function runOnDynamo(
  scenario: Scenario,
  context: ScenarioContext,
  variant: Variant,
  setup: { table: string; items?: number; faults: DynamoFaults; env: Record<string, string>; workload?: string },
): Promise<{ run: ProgramRun; dynamodb: DynamoDB; client: DynamoDBClient }> {
  const dynamodb = needDynamo(context);
  const client = await freshTable(dynamodb, setup.table);
  for (let index = 0; index < (setup.items ?? 0); index++) {
    await client.send(new PutItemCommand({ TableName: setup.table, Item: { id: { S: `order-${index}` }, total: { N: String(index) } } }));
  }
  dynamodb.setFaults(setup.faults);
  const run = await runProgram(context.resources, setup.workload ?? scenario.id, `${scenario.id}/${variant}.mjs`, {
    env: { DYNAMODB_ENDPOINT: dynamodb.endpoint, ...setup.env },
  });
  return { run, dynamodb, client };
}

// 4. Batches come back partly processed.
const partialBatch: Scenario = {
  label: '4',
  id: 'dynamodb-partial-batch',
  title: 'DynamoDB: BatchWriteItem partly processed',
  rule: 'dynamodb-require-unprocessed-items-handling',
  database: 'dynamodb',
  faults: 'proxy processes 30–80% of each BatchWriteItem and returns the rest in UnprocessedItems (seeded by request)',
  async run(context, variant) {
    const items = 100;
    const { run, dynamodb, client } = await runOnDynamo(this, context, variant, {
      table: 'orders',
      faults: { processedShare: (request) => 0.3 + 0.5 * seededRandom(context.seed, `${this.id} ${hash32(request.body)}`)() },
      env: { FAULTS_ITEMS: String(items) },
    });
    const stored = await countItems(client, 'orders');
    client.destroy();
    const heldBack = dynamodb.stats.heldBack;
    const measures = { items, stored, heldBack, requests: dynamodb.stats.requests };
    if (!run.result) return { harmed: true, text: crashText(run), measures, run };
    const text =
      stored < items
        ? `${items} orders saved without error, ${stored} in the table: ${items - stored} lost`
        : `${items} orders saved, ${stored} in the table (${plural(heldBack, 'write')} returned unprocessed and sent again)`;
    return { harmed: stored < items, text, measures, run };
  },
};

// 5. A throttled table, hammered or backed off from.
const CAPACITY_PER_SECOND = 10;
const HAMMER_MS = 3000;
const HAMMER_WORKERS = 4;

/** Several workers write for a fixed time against a table with little write capacity. */
async function hammer(scenario: Scenario, context: ScenarioContext, variant: Variant): Promise<Outcome> {
  const admit = tokenBucket(CAPACITY_PER_SECOND, 2);
  const { run, dynamodb, client } = await runOnDynamo(scenario, context, variant, {
    table: 'events',
    faults: { throttle: (request) => request.operation === 'PutItem' && admit() },
    env: { FAULTS_WORKERS: String(HAMMER_WORKERS), FAULTS_DURATION_MS: String(HAMMER_MS) },
    workload: 'dynamodb-retry-without-wait',
  });
  const stored = await countItems(client, 'events');
  client.destroy();
  const { requests, throttled, retryGaps } = dynamodb.stats;
  const perSecond = Math.round(requests / (HAMMER_MS / 1000));
  const retryGapMs = Math.round(median(retryGaps));
  const measures = { requests, perSecond, throttled, retryGapMs, ok: run.result?.ok ?? 0, failed: run.result?.failed ?? 0, stored };
  if (!run.result) return { harmed: true, text: crashText(run), measures, run };
  const text = `${perSecond} requests/s, ${Math.round((100 * throttled) / Math.max(1, requests))}% throttled, retried ${retryGapMs} ms after a throttle (median); in ${HAMMER_MS / 1000} s ${run.result.ok} events recorded, ${plural(run.result.failed, 'call')} failed`;
  return { harmed: false, text, measures, run };
}

function median(values: number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

/**
 * Hammering is relative to the backoff loop under the same load: retrying at once (a
 * median wait under a third of the other's) and sending more requests a second. The wait
 * is what the code decides; the rate also depends on how busy the machine is.
 */
function judgeHammering(flagged: Outcome, fixed: Outcome): void {
  const hammers = (one: Outcome, other: Outcome) =>
    one.measures.retryGapMs! * 3 < other.measures.retryGapMs! && one.measures.perSecond! > other.measures.perSecond!;
  flagged.harmed ||= hammers(flagged, fixed);
  fixed.harmed ||= hammers(fixed, flagged) || fixed.measures.failed! > flagged.measures.failed!;
}

const retryWithoutWait: Scenario = {
  label: '5',
  id: 'dynamodb-retry-without-wait',
  title: "DynamoDB: retry loop against a throttled table (the loop is the only retry: the client's `maxAttempts: 1`)",
  rule: 'require-retry-backoff',
  database: 'dynamodb',
  faults: `write capacity of ${CAPACITY_PER_SECOND} requests/s (token bucket): requests over it get ProvisionedThroughputExceededException; ${HAMMER_WORKERS} workers for ${HAMMER_MS / 1000} s`,
  run(context, variant) {
    return hammer(this, context, variant);
  },
  judge: judgeHammering,
};

// 5b. The same loops with the SDK's own retries underneath: a finding about the rule.
const retryWithoutWaitSdkRetries: Scenario = {
  label: '5b',
  id: 'dynamodb-retry-without-wait-sdk-retries',
  title: "DynamoDB: the same loop on top of the client's default retries",
  rule: 'require-retry-backoff',
  database: 'dynamodb',
  faults: retryWithoutWait.faults,
  expectHarm: false,
  note: "The SDK retries each throttled call itself, with exponential backoff and jitter (this SDK version: up to 4 attempts, waiting up to 1 s, 2 s, 4 s after a throttle), so the loop's own retry seldom runs and both programs send about the same requests: the rule reports code that does not hammer here.",
  run(context, variant) {
    return hammer(this, context, variant);
  },
  judge: judgeHammering,
};

// 6. Throttling with the SDK's retries turned off.
const THROTTLED_SHARE = 0.2;
const READS = 40;
const retriesDisabled: Scenario = {
  label: '6',
  id: 'dynamodb-retries-disabled',
  title: 'DynamoDB: SDK retries turned off, table throttling',
  rule: 'dynamodb-no-disabled-retries',
  database: 'dynamodb',
  faults: `${THROTTLED_SHARE * 100}% of requests get ProvisionedThroughputExceededException (seeded); ${READS} reads one after the other`,
  async run(context, variant) {
    const throttle = faultSchedule(context.seed, this.id, THROTTLED_SHARE);
    const { run, dynamodb, client } = await runOnDynamo(this, context, variant, {
      table: 'orders',
      items: 10,
      faults: { throttle: (request) => throttle(request.index) },
      env: { FAULTS_CALLS: String(READS) },
    });
    client.destroy();
    const measures = { calls: run.result?.calls ?? 0, failed: run.result?.failed ?? 0, requests: dynamodb.stats.requests, throttled: dynamodb.stats.throttled };
    if (!run.result) return { harmed: true, text: crashText(run), measures, run };
    const { calls, failed } = run.result;
    const text = `${failed} of ${calls} reads failed (${Math.round((100 * failed) / calls)}%), ${dynamodb.stats.throttled} of ${dynamodb.stats.requests} requests throttled`;
    // More failures than three attempts would leave (share³ of the calls, with room for chance).
    return { harmed: failed > Math.max(2, 3 * THROTTLED_SHARE ** 3 * calls), text, measures, run };
  },
};

export const SCENARIOS: Scenario[] = [
  commitReplyLost,
  idleConnectionsDropped,
  checkedOutConnectionDropped,
  statementRetriedInTransaction,
  partialBatch,
  retryWithoutWait,
  retryWithoutWaitSdkRetries,
  retriesDisabled,
];
