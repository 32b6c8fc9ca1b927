import rule from '../../../eslint-plugin/src/rules/require-retry-backoff';
import type { InvalidTestCase, ValidTestCase } from '@typescript-eslint/rule-tester';
import { createRuleTester } from '../rule-tester';

type Options = NonNullable<typeof rule.defaultOptions>;
type ValidCase = ValidTestCase<Options>;
type InvalidCase = InvalidTestCase<
  'unbounded' | 'noWait' | 'constantDelay' | 'uncappedDelay' | 'noJitter' | 'useBackoff' | 'limitAttempts' | 'limitRecursion' | 'waitBeforeResend' | 'waitBeforeLimitedResend' | 'limitTimerRetry' | 'countTimerRetry' | 'limitTimerRetryEvent' | 'countTimerRetryEvent' | 'setOption' | 'addJitter',
  Options
>;

const ruleTester = createRuleTester();

type Database = 'mongodb' | 'postgres' | 'dynamodb';
const NAMES = { mongodb: 'MongoDB', postgres: 'PostgreSQL', dynamodb: 'DynamoDB' } as const;
const DEFAULTS = {
  dynamodb: { baseDelayMs: 100, maxDelayMs: 20000 },
  postgres: { baseDelayMs: 5000, maxDelayMs: 60000 },
  mongodb: { baseDelayMs: 100, maxDelayMs: 10000 },
};

const seconds = (ms: number): string => (ms >= 1000 ? `${ms / 1000} s` : `${ms} ms`);

/** The backoff each message's action names: capped exponential with full jitter, the service's base and cap. */
function data(database: Database, operation: string, detail: string, subject = 'This retry', service = DEFAULTS[database]) {
  const { baseDelayMs, maxDelayMs } = service;
  return {
    subject,
    database: NAMES[database],
    operation,
    origin: '',
    detail,
    backoff: `a random time up to min(${seconds(maxDelayMs)}, ${seconds(baseDelayMs)} × 2^attempt)`,
    maxDelay: seconds(maxDelayMs),
  };
}

/** A retry through async's `retry`, reported on line 4 (after the client's two lines) with no suggestion: the library has no option that would fix it. */
function asyncRetryCase(
  name: string,
  code: string,
  errors: Array<{ messageId: 'noWait' | 'constantDelay' | 'uncappedDelay' | 'noJitter'; column: number; endColumn: number; data: ReturnType<typeof data> }>,
): InvalidCase {
  return { name, code, errors: errors.map((error) => ({ ...error, line: 4, endLine: 4, suggestions: [] })) };
}

const MONGO = `import { MongoClient } from 'mongodb';\nconst coll = new MongoClient(process.env.MONGO_URL).db().collection('orders');\n`;
const PG = `import { Pool } from 'pg';\nconst pool = new Pool();\n`;
const DDB = `import { DynamoDBClient, PutItemCommand } from '@aws-sdk/client-dynamodb';\nconst client = new DynamoDBClient({});\n`;
const RESEND_DATA = { property: 'UnprocessedItems', maxAttempts: '5', maxDelayMs: '20000', baseDelayMs: '100' };
/** What the leftover re-send suggestion makes of a \`while\` loop that sends the leftovers again (a count before it, the limit and the wait first in it). */
const leftoverLoopOutput = `import { DynamoDBClient, BatchWriteItemCommand, BatchGetItemCommand } from '@aws-sdk/client-dynamodb';
const client = new DynamoDBClient({});
export async function writeAll(RequestItems) {
  let res = await client.send(new BatchWriteItemCommand({ RequestItems }));
  let attempt = 0;
  while (Object.keys(res.UnprocessedItems ?? {}).length) {
    if (++attempt >= 5) throw new Error(\`DynamoDB left writes unprocessed after \${attempt} attempts\`);
    await new Promise((resolve) => setTimeout(resolve, Math.random() * Math.min(20000, 100 * 2 ** attempt)));
    res = await client.send(new BatchWriteItemCommand({ RequestItems: res.UnprocessedItems }));
  }
}
`;
/** The leftover re-send suggestion on a `while` loop whose leftovers come through a destructured name. */
const destructuredLeftoverOutput = `import { DynamoDBClient, BatchGetItemCommand } from '@aws-sdk/client-dynamodb';
const client = new DynamoDBClient({});
export async function getAll(RequestItems) {
  let { Responses, UnprocessedKeys } = await client.send(new BatchGetItemCommand({ RequestItems }));
  const found = [Responses];
  let attempt = 0;
  while (UnprocessedKeys && Object.keys(UnprocessedKeys).length > 0) {
    if (++attempt >= 5) throw new Error(\`DynamoDB left reads unprocessed after \${attempt} attempts\`);
    await new Promise((resolve) => setTimeout(resolve, Math.random() * Math.min(20000, 100 * 2 ** attempt)));
    ({ Responses, UnprocessedKeys } = await client.send(new BatchGetItemCommand({ RequestItems: UnprocessedKeys })));
    found.push(Responses);
  }
  return found;
}
`;
/** What the leftover re-send suggestion makes of a `do … while` whose first round makes the first send (it neither waits nor counts). */
const leftoverDoWhileOutput = `import { DynamoDBClient, BatchWriteItemCommand, BatchGetItemCommand } from '@aws-sdk/client-dynamodb';
const client = new DynamoDBClient({});
export async function getAll(RequestItems) {
  let request = RequestItems;
  const responses = [];
  let attempt = 0;
  do {
    if (attempt > 0) {
      if (attempt >= 5) throw new Error(\`DynamoDB left reads unprocessed after \${attempt} attempts\`);
      await new Promise((resolve) => setTimeout(resolve, Math.random() * Math.min(20000, 100 * 2 ** attempt)));
    }
    attempt += 1;
    const res = await client.send(new BatchGetItemCommand({ RequestItems: request }));
    responses.push(res.Responses);
    request = res.UnprocessedKeys;
  } while (request && Object.keys(request).length > 0);
  return responses;
}
`;
/** What it makes of a function that calls itself with the leftovers: an attempt parameter, the limit and the wait before the call. */
const leftoverRecursionOutput = `import { DynamoDBClient, BatchWriteItemCommand, BatchGetItemCommand } from '@aws-sdk/client-dynamodb';
const client = new DynamoDBClient({});
export async function write(RequestItems, attempt = 1) {
  const res = await client.send(new BatchWriteItemCommand({ RequestItems }));
  if (res.UnprocessedItems && Object.keys(res.UnprocessedItems).length > 0) {
    if (attempt >= 5) throw new Error(\`DynamoDB left writes unprocessed after \${attempt} attempts\`);
    await new Promise((resolve) => setTimeout(resolve, Math.random() * Math.min(20000, 100 * 2 ** attempt)));
    await write(res.UnprocessedItems, attempt + 1);
  }
}
`;
/** An SDK v2 callback retry that a timer runs, with no count of its attempts. */
const SDK_V2_TIMER_RETRY = `var AWS = require('aws-sdk');
var dynamodb = new AWS.DynamoDB();
function putWithRetry(params, callback) {
  dynamodb.putItem(params, function (err, data) {
    if (err) {
      return setTimeout(function () { putWithRetry(params, callback); }, 1000);
    }
    callback(null, data);
  });
}
module.exports = putWithRetry;
`;
/** What the leftover re-send suggestion makes of the result handler case (the same edit for both of its findings). */
const leftoverResendOutput = `const AWS = require("aws-sdk")
const docClient = new AWS.DynamoDB.DocumentClient()
function saveEvents(events) {
  const request = { RequestItems: { events } }
  let unprocessedAttempts = 0
  const onResult = async function (result) {
    if (result.UnprocessedItems && Object.keys(result.UnprocessedItems).length > 0) {
      if (++unprocessedAttempts >= 5) throw new Error(\`DynamoDB left writes unprocessed after \${unprocessedAttempts} attempts\`)
    } else {
      unprocessedAttempts = 0
    }
    const resendDelay = unprocessedAttempts > 0 ? Math.random() * Math.min(20000, 100 * 2 ** unprocessedAttempts) : 0
    const left = result.UnprocessedItems || {}
    if (Object.keys(left).length === 0) return result
    request.RequestItems = left
    await new Promise((resolve) => setTimeout(resolve, resendDelay))
    return docClient.batchWrite(request).promise().then(onResult)
  }
  return docClient.batchWrite(request).promise().then(onResult)
}
module.exports = { saveEvents }
`;

/** What the recursion suggestions make of a retry that calls itself (checked as valid code too). */
const recursionSaveOutput = `import { Pool } from 'pg';
const pool = new Pool();
function sleep(ms: number) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
export async function save(id: string, name: string, attempt = 1): Promise<void> {
  try {
    await pool.query('UPDATE users SET name = $2 WHERE id = $1', [id, name]);
  } catch (error) {
    if (attempt >= 5) throw error;
    await sleep(Math.random() * Math.min(60000, 5000 * 2 ** attempt));
    return save(id, name, attempt + 1);
  }
}
`;
const recursionPingOutput = `const { Pool } = require('pg');
const pool = new Pool();
async function ping(attempt = 1) {
  return pool.query('SELECT 1').catch(async (error) => {
    if (attempt >= 5) throw error;
    await new Promise((resolve) => setTimeout(resolve, Math.random() * Math.min(60000, 5000 * 2 ** attempt)));
    return ping(attempt + 1);
  });
}
module.exports = { ping };
`;

const valid: ValidCase[] = [
  {
    name: 'a retry of a method of a class of the file that calls no database',
    code: `const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
class Orders {
  async markPaid(id: string) {
    await fetch(\`https://payments.example/orders/\${id}/paid\`, { method: 'POST' });
  }
  async markPaidWithRetry(id: string) {
    for (let attempt = 1; attempt <= 5; attempt++) {
      try {
        return await this.markPaid(id);
      } catch (error) {
        if (attempt === 5 || !['57P01', '40001'].includes((error as { code?: string }).code ?? '')) throw error;
        await sleep(1000);
      }
    }
  }
}
const orders = new Orders();
export async function markPaid(id: string) {
  for (let attempt = 1; attempt <= 5; attempt++) {
    try {
      return await orders.markPaid(id);
    } catch (error) {
      if (attempt === 5 || !['57P01', '40001'].includes((error as { code?: string }).code ?? '')) throw error;
      await sleep(1000);
    }
  }
}
`,
  },
    {
      name: 'one retry at most: a single wait has nothing to grow (graphile-worker migrate)',
      code: DDB + `export async function put(item) {
  for (let attempts = 0; attempts < 2; attempts++) {
    try {
      return await client.send(new PutItemCommand(item));
    } catch (err) {
      if (attempts > 0) throw err;
    }
    await new Promise((resolve) => setTimeout(resolve, 400 + Math.random() * 200));
  }
}`,
    },
    {
      name: 'capped full-jitter exponential backoff (the suggested shape)',
      code: DDB + `export async function put(item) {
  for (let attempt = 0; attempt < 5; attempt++) {
    try {
      return await client.send(new PutItemCommand(item));
    } catch (err) {
      await new Promise((resolve) => setTimeout(resolve, Math.random() * Math.min(20000, 100 * 2 ** attempt)));
    }
  }
  throw new Error('gave up');
}`,
    },
    {
      name: 'exponential growth that stays below the service cap within its bounded attempts, jittered',
      code: PG + `export async function ping() {
  for (let attempt = 0; attempt < 4; attempt++) {
    try { return await pool.query('SELECT 1'); } catch (err) { await sleep(5000 * 2 ** attempt + Math.random() * 1000); }
  }
}`,
    },
    {
      name: 'requireJitter: false accepts a capped exponential wait without jitter',
      code: MONGO + `export async function save(doc) {
  for (let attempt = 0; attempt < 8; attempt++) {
    try { return await coll.insertOne(doc); } catch (err) { await sleep(Math.min(10000, 100 * 2 ** attempt)); }
  }
}`,
      options: [{ requireJitter: false }],
    },
    {
      name: 'DynamoDB pagination loop is not a retry',
      code: `import { DynamoDBClient, QueryCommand } from '@aws-sdk/client-dynamodb';
const client = new DynamoDBClient({});
export async function all(TableName) {
  const items = [];
  let ExclusiveStartKey;
  do {
    const page = await client.send(new QueryCommand({ TableName, ExclusiveStartKey }));
    items.push(...(page.Items ?? []));
    ExclusiveStartKey = page.LastEvaluatedKey;
  } while (ExclusiveStartKey);
  return items;
}`,
    },
    {
      name: 'per-item loop that logs and moves on is not a retry',
      code: MONGO + `export async function importAll(docs) {
  for (const doc of docs) {
    try { await coll.insertOne(doc); } catch (err) { console.error('skipped', doc._id, err); }
  }
}`,
    },
    {
      name: 'p-retry with randomize and a cap',
      code: PG + `import pRetry from 'p-retry';
export const load = () => pRetry(() => pool.query('SELECT * FROM t'), { retries: 5, randomize: true, maxTimeout: 60000 });`,
    },
    {
      name: 'async-retry randomizes by default; a bounded count keeps the wait under the cap',
      code: `const retry = require('async-retry');
const { Pool } = require('pg');
const pool = new Pool();
module.exports = () => retry(() => pool.query('SELECT 1'), { retries: 4 });`,
    },
    {
      name: 'options passed as a variable cannot be read',
      code: PG + `import pRetry from 'p-retry';
import { retryOptions } from './config';
export const load = () => pRetry(() => pool.query('SELECT 1'), retryOptions);`,
    },
    {
      name: "async's retry with a capped, jittered exponential interval",
      code: DDB + `const async = require('async');
export const put = (item) => async.retry({ times: 5, interval: (n) => Math.random() * Math.min(20000, 100 * 2 ** n) }, async () => client.send(new PutItemCommand(item)));`,
    },
    {
      name: "async's retry with options the file does not show",
      code: DDB + `import async from 'async';
export const put = (item, options) => async.retry(options, async () => client.send(new PutItemCommand(item)));`,
    },
    {
      name: "another library's retry method: not async's",
      code: DDB + `import queue from 'job-queue';
export const put = (item) => queue.retry(async () => client.send(new PutItemCommand(item)));`,
    },
    {
      name: 'cockatiel with an ExponentialBackoff and maxAttempts',
      code: DDB + `import { retry, handleAll, ExponentialBackoff } from 'cockatiel';
const policy = retry(handleAll, { maxAttempts: 5, backoff: new ExponentialBackoff() });
export const put = (item) => policy.execute(() => client.send(new PutItemCommand(item)));`,
    },
    {
      name: 'an HTTP retry that records each failure in MongoDB: the retried work is not a database call',
      code: MONGO + `export async function fetchWithRetry(url) {
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      return await fetch(url);
    } catch (err) {
      await coll.insertOne({ url, error: String(err), at: new Date() });
      await sleep(1000);
    }
  }
  throw new Error('fetch failed');
}`,
    },
    {
      name: 'S3 retry loop with a constant wait: not a database',
      code: `import { S3Client, PutObjectCommand } from '@aws-sdk/client-s3';
const s3 = new S3Client({});
export async function upload(params) {
  for (let attempt = 0; attempt < 3; attempt++) {
    try { return await s3.send(new PutObjectCommand(params)); } catch (err) { await sleep(1000); }
  }
}`,
    },
    {
      name: 'SQS retry without a wait: not a database',
      code: `const { SQSClient, SendMessageCommand } = require('@aws-sdk/client-sqs');
const sqs = new SQSClient({});
async function send(params) {
  while (true) {
    try { return await sqs.send(new SendMessageCommand(params)); } catch (err) { console.warn(err); }
  }
}`,
    },
    {
      name: 'mysql2 retry: not a tracked database',
      code: `import mysql from 'mysql2/promise';
const pool = mysql.createPool({});
export async function ping() {
  for (let attempt = 0; attempt < 3; attempt++) {
    try { return await pool.query('SELECT 1'); } catch (err) { await sleep(1000); }
  }
}`,
    },
    {
      name: 'Prisma retry: not a tracked database',
      code: `import { PrismaClient } from '@prisma/client';
const prisma = new PrismaClient();
export async function touch(where, data) {
  for (let attempt = 0; attempt < 3; attempt++) {
    try { return await prisma.user.updateMany({ where, data }); } catch (err) { await sleep(500); }
  }
}`,
    },
    {
      name: 'a retry with an imported backoff helper fed the attempt is left alone',
      code: MONGO + `import { backoff } from './backoff';
export async function save(doc) {
  for (let attempt = 0; attempt < 5; attempt++) {
    try { return await coll.insertOne(doc); } catch (err) { await backoff(attempt); }
  }
}`,
    },
    {
      name: 'the DynamoDB seed with full jitter added',
      code: `import { DynamoDBClient, DescribeTableCommand } from '@aws-sdk/client-dynamodb';
const client = new DynamoDBClient({});
const MAX_RETRIES = 5;
const MAX_WAIT_INTERVAL = 20000;
const getWaitTime = (retryCount: number) => Math.random() * Math.pow(3, retryCount) * 100;
export async function waitForActive(TableName: string) {
  let retries = 0;
  let retry = false;
  do {
    await sleep(Math.min(getWaitTime(retries), MAX_WAIT_INTERVAL));
    const { Table } = await client.send(new DescribeTableCommand({ TableName }));
    retry = Table?.TableStatus !== 'ACTIVE';
  } while (retry && retries++ < MAX_RETRIES);
}`,
    },
    {
      name: 'ConfiguredRetryStrategy with a jittered exponential delay, passed through a variable',
      code: `import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { ConfiguredRetryStrategy } from '@aws-sdk/util-retry';
const strategy = new ConfiguredRetryStrategy(4, (attempt) => Math.random() * Math.min(20000, 100 * 2 ** attempt));
export const client = new DynamoDBClient({ retryStrategy: strategy });`,
    },
    {
      name: 'ConfiguredRetryStrategy on a non-DynamoDB client',
      code: `import { S3Client } from '@aws-sdk/client-s3';
import { ConfiguredRetryStrategy } from '@aws-sdk/util-retry';
export const s3 = new S3Client({ retryStrategy: new ConfiguredRetryStrategy(4, 1000) });`,
    },
    {
      name: 'a flag loop bounded by a counter in the body',
      code: PG + `export async function ping() {
  let done = false;
  let attempts = 0;
  while (!done) {
    try { await pool.query('SELECT 1'); done = true; } catch (err) {
      if (++attempts >= 5) throw err;
      await sleep(Math.random() * Math.min(60000, 5000 * 2 ** attempts));
    }
  }
}`,
    },
    {
      name: 'a catch that waits with capped jittered backoff before it continues, and rethrows otherwise',
      code: `import { Pool } from 'pg';
const pool = new Pool();
export async function insertOrder(id: string) {
  for (let attempt = 1; ; attempt++) {
    try {
      return await pool.query('INSERT INTO orders(id) VALUES ($1)', [id]);
    } catch (err: any) {
      if (err.code === '40001' && attempt < 5) {
        await new Promise((resolve) => setTimeout(resolve, Math.random() * Math.min(60000, 5000 * 2 ** attempt)));
        continue;
      }
      throw err;
    }
  }
}
`,
    },
    {
      name: 'a retry flag set in the catch after a capped jittered wait',
      code: `import { Pool } from 'pg';
const pool = new Pool();
export async function upd(id: string) {
  let retry = false;
  let n = 0;
  do {
    retry = false;
    try {
      await pool.query('UPDATE orders SET x = 1 WHERE id = $1', [id]);
    } catch (e: any) {
      if (n >= 5 || (e.code !== '40001' && e.code !== '40P01')) throw e;
      retry = true;
      await new Promise((resolve) => setTimeout(resolve, Math.random() * Math.min(60000, 5000 * 2 ** n)));
    }
  } while (retry && n++ < 5);
}
`,
    },
    {
      name: 'a flag reset before the try that the catch clears: the loop stops on failure, no retry',
      code: `import { Pool } from 'pg';
const pool = new Pool();
export async function poll() {
  let running = true;
  while (running) {
    running = true;
    try {
      await pool.query('UPDATE jobs SET state = $1 WHERE state = $2', ['running', 'queued']);
    } catch (err) {
      running = false;
      console.error(err);
    }
  }
}
`,
    },
    // Retries decided by the response, MongoDB connection retries, and shapes seen on real code.
    {
      name: "DynamoDB leftovers sent again with capped full-jitter backoff and an attempt limit",
      code: `import { DynamoDBClient, BatchWriteItemCommand, BatchGetItemCommand } from '@aws-sdk/client-dynamodb';
const client = new DynamoDBClient({});
export async function writeAll(RequestItems) {
  let pending = RequestItems;
  for (let attempt = 0; attempt < 8 && Object.keys(pending).length > 0; attempt++) {
    if (attempt > 0) await new Promise((resolve) => setTimeout(resolve, Math.random() * Math.min(20000, 100 * 2 ** attempt)));
    const res = await client.send(new BatchWriteItemCommand({ RequestItems: pending }));
    pending = res.UnprocessedItems ?? {};
  }
  if (Object.keys(pending).length > 0) throw new Error('unprocessed items left');
}`,
    },
    {
      name: "DynamoDB pagination in while (true) left when LastEvaluatedKey is empty: not a retry",
      code: `import { DynamoDBClient, ScanCommand } from '@aws-sdk/client-dynamodb';
const client = new DynamoDBClient({});
export async function scanAll(TableName) {
  const items = [];
  let key;
  while (true) {
    const page = await client.send(new ScanCommand({ TableName, ExclusiveStartKey: key }));
    items.push(...page.Items);
    if (!page.LastEvaluatedKey) break;
    key = page.LastEvaluatedKey;
  }
  return items;
}`,
    },
    {
      name: "batches written chunk by chunk, leftovers collected for the caller: not a retry",
      code: `import { DynamoDBClient, BatchWriteItemCommand, BatchGetItemCommand } from '@aws-sdk/client-dynamodb';
const client = new DynamoDBClient({});
export async function writeChunks(chunks) {
  const failed = [];
  for (let i = 0; i < chunks.length; i++) {
    const res = await client.send(new BatchWriteItemCommand({ RequestItems: chunks[i] }));
    if (res.UnprocessedItems) failed.push(res.UnprocessedItems);
  }
  return failed;
}`,
    },
    {
      name: "an idle polling loop that calls no database",
      code: `import { Pool } from 'pg';
const pool = new Pool();
export async function waitIdle(state) {
  let idle = false;
  while (!idle) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    idle = state.status === 'IDLE';
  }
  return pool.query('SELECT 1');
}`,
    },
    {
      name: "a queue worker that leaves when no job is left and works on each one it gets: not a retry",
      code: `import { MongoClient } from 'mongodb';
const coll = new MongoClient(process.env.MONGO_URL).db().collection('orders');
export async function work(handle) {
  while (true) {
    const job = await coll.findOneAndUpdate({ state: 'new' }, { $set: { state: 'taken' } }, { projection: { _id: 1 } });
    if (!job) break;
    await handle(job);
  }
}`,
    },
    {
      name: "paging with a done flag set from the page size: not a retry",
      code: `import { Pool } from 'pg';
const pool = new Pool();
export async function all() {
  let done = false;
  let offset = 0;
  const rows = [];
  while (!done) {
    const res = await pool.query('SELECT * FROM t ORDER BY id LIMIT 100 OFFSET $1', [offset]);
    rows.push(...res.rows);
    offset += 100;
    done = res.rows.length < 100;
  }
  return rows;
}`,
    },
    {
      name: "a delay taken from a generator is unknown, not constant",
      code: `import { Pool } from 'pg';
const pool = new Pool();
function* backoff() {
  let delay = 100;
  for (let i = 0; i < 5; i++) {
    yield Math.random() * delay;
    delay *= 2;
  }
}
export async function ping() {
  for (const delay of backoff()) {
    try {
      return await pool.query('SELECT 1');
    } catch (err) {
      await new Promise((resolve) => setTimeout(resolve, delay));
    }
  }
  throw new Error('database unavailable');
}`,
    },
    {
      name: "while (retries) counting down with retries -= 1 is bounded",
      code: `import { Pool } from 'pg';
const pool = new Pool();
export async function connect() {
  let retries = 5;
  while (retries) {
    try {
      await pool.connect();
      break;
    } catch (err) {
      console.log(err);
      retries -= 1;
      await new Promise((resolve) => setTimeout(resolve, Math.random() * Math.min(60000, 5000 * 2 ** (5 - retries))));
    }
  }
}`,
    },
    {
      name: "while (n-- > 0) is bounded",
      code: `import { Pool } from 'pg';
const pool = new Pool();
export async function connect() {
  let n = 5;
  while (n-- > 0) {
    try {
      return await pool.connect();
    } catch (err) {
      await new Promise((resolve) => setTimeout(resolve, Math.random() * Math.min(60000, 5000 * 2 ** (5 - n))));
    }
  }
  throw new Error('database unavailable');
}`,
    },
    {
      name: "a wait-for-database script that gives up after 30 tries with process.exit() is bounded",
      code: `import { Pool } from 'pg';
const pool = new Pool();
async function waitForDb() {
  let tries = 0;
  while (true) {
    try {
      await pool.query('SELECT 1');
      return;
    } catch (err) {
      tries++;
      if (tries > 30) {
        console.error('database did not come up');
        process.exit(1);
      }
      await new Promise((resolve) => setTimeout(resolve, Math.random() * Math.min(60000, 5000 * 2 ** tries)));
    }
  }
}
waitForDb();`,
    },
    {
      name: "process.exitCode = 1 and return end the retry",
      code: `import { Pool } from 'pg';
const pool = new Pool();
async function waitForDb() {
  for (let i = 0; ; i++) {
    try {
      await pool.query('SELECT 1');
      break;
    } catch (err) {
      if (i >= 30) {
        process.exitCode = 1;
        return;
      }
      await new Promise((resolve) => setTimeout(resolve, Math.random() * Math.min(60000, 5000 * 2 ** i)));
    }
  }
}
waitForDb();`,
    },
    {
      name: "500 * 2 ** i over five attempts tops out at 8 s: below the MongoDB maximum, not uncapped",
      code: `import { MongoClient } from 'mongodb';
const coll = new MongoClient(process.env.MONGO_URL).db().collection('orders');
export async function save(doc) {
  for (let i = 0; i < 5; i++) {
    try {
      return await coll.insertOne(doc);
    } catch (err) {
      const delay = 500 * 2 ** i;
      await new Promise((resolve) => setTimeout(resolve, delay + Math.random() * 100));
    }
  }
  throw new Error('insert failed');
}`,
    },
    {
      name: 'a loop whose test bounds the doubling delay itself: the longest wait is the bound, not uncapped',
      code: `import { Pool } from 'pg';
const pool = new Pool();
pool.on('error', (err) => console.error(err));
export async function run() {
  for (let delay = 5000; delay <= 60000; delay *= 2) {
    try {
      return await pool.query('SELECT 1');
    } catch (err) {
      if (err.code !== '57P01') throw err;
      await new Promise((resolve) => setTimeout(resolve, Math.random() * delay));
    }
  }
  throw new Error('the database did not come back');
}`,
    },
    {
      name: "a counting-down recursive retry whose exponential wait stays below the maximum",
      code: `import { MongoClient } from 'mongodb';
const coll = new MongoClient(process.env.MONGO_URL).db().collection('orders');
export async function save(doc, retries = 5) {
  try {
    return await coll.insertOne(doc);
  } catch (err) {
    if (retries <= 1) throw err;
    await new Promise((resolve) => setTimeout(resolve, 500 * 2 ** (5 - retries) + Math.random() * 100));
    return save(doc, retries - 1);
  }
}`,
    },
    {
      name: "a MongoDB connection retry with capped full-jitter backoff and a limit",
      code: `import { MongoClient } from 'mongodb';
const client = new MongoClient(process.env.MONGO_URL);
export async function connect() {
  for (let attempt = 0; attempt < 6; attempt++) {
    try {
      return await client.connect();
    } catch (err) {
      if (attempt === 5) throw err;
      await new Promise((resolve) => setTimeout(resolve, Math.random() * Math.min(10000, 100 * 2 ** attempt)));
    }
  }
}`,
    },
    {
      name: "connect() on something that is not a MongoDB client",
      code: `import net from 'node:net';
export async function connect(client) {
  while (true) {
    try {
      await client.connect();
      break;
    } catch (err) {
      await new Promise((resolve) => setTimeout(resolve, 1000));
    }
  }
}`,
    },
    {
      name: "a generic retry helper whose callers pass no database call",
      code: `async function withRetry(fn) {
  for (;;) {
    try {
      return await fn();
    } catch (err) {
      console.warn(err);
    }
  }
}
export const load = (url) => withRetry(() => fetch(url));`,
    },
  // What the recursion suggestions above leave: counted, bounded, backing off.
  {
    name: 'recursion suggestion output 1 passes',
    code: recursionSaveOutput,
  },
  {
    name: 'recursion suggestion output 2 passes',
    code: recursionPingOutput,
  },
];

/** A LISTEN client in an `EventEmitter` that reconnects from a timer, counting its attempts without a limit. */
const EMITTER_LISTENER = `const { Client } = require('pg');
const { EventEmitter } = require('events');

class Listener extends EventEmitter {
  constructor(config) {
    super();
    this.config = config;
  }

  listen(channel) {
    let attempt = 0;
    let closed = false;
    const connect = async () => {
      const client = new Client(this.config);
      client.on('error', (error) => {
        this.emit('error', error);
        scheduleReconnect();
      });
      await client.connect();
      await client.query(\`LISTEN \${channel}\`);
      attempt = 0;
    };
    const scheduleReconnect = () => {
      if (closed) return;
      const backoff = Math.random() * Math.min(60000, 5000 * 2 ** attempt);
      attempt++;
      setTimeout(() => {
        connect().catch(() => scheduleReconnect());
      }, backoff);
    };
    return connect().then(() => () => {
      closed = true;
    });
  }
}

module.exports = { Listener };
`;

/** A generic retry method of an exported class, fed a DynamoDB call by the class's own code; its wait is a setting times 2 ** attempt. */
const SETTINGS_RETRY_METHOD = `const { BatchGetCommand } = require('@aws-sdk/lib-dynamodb');

class Iterator {
  constructor(repo, options = {}) {
    this.repo = repo;
    this.maxRetries = options.maxRetries ?? 3;
    this.retryDelayMs = options.retryDelayMs ?? 1000;
  }

  async retryableOperation(operation, operationName) {
    let lastError;
    for (let attempt = 0; attempt <= this.maxRetries; attempt++) {
      try {
        return await operation();
      } catch (error) {
        lastError = error;
        if (attempt < this.maxRetries) {
          const delay = this.retryDelayMs * Math.pow(2, attempt);
          await new Promise((resolve) => setTimeout(resolve, delay));
        }
      }
    }
    throw new Error(\`\${operationName} failed: \${lastError.message}\`);
  }

  async get(keys) {
    return this.retryableOperation(() => this.repo.client.send(new BatchGetCommand({ RequestItems: { t: { Keys: keys } } })), 'BatchGet');
  }
}
module.exports = { Iterator };
`;

/** A LISTEN client made by a factory that returns an `EventEmitter` held in `self`, reconnecting from a timer without a limit. */
const EMITTER_VARIABLE_LISTENER = `const pg = require('pg');
const { EventEmitter } = require('events');

function createListener(config) {
  const self = new EventEmitter();
  let attempts = 0;
  const reconnect = () => {
    attempts += 1;
    setTimeout(() => {
      const client = new pg.Client(config);
      client.connect().then(() => self.emit('connected', client), (error) => {
        self.emit('error', error);
        reconnect();
      });
    }, Math.random() * Math.min(60000, 5000 * 2 ** attempts));
  };
  reconnect();
  return self;
}

module.exports = { createListener };
`;

const invalid: InvalidCase[] = [
  {
    name: 'a retry of a method of a class of the file: on its own `this`, and on a `const` made from the class',
    code: `import { Pool } from 'pg';
const pool = new Pool();
pool.on('error', () => {});
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
class Orders {
  async markPaid(id: string) {
    await pool.query('UPDATE orders SET paid = true WHERE id = $1', [id]);
  }
  async markPaidWithRetry(id: string) {
    for (let attempt = 1; attempt <= 5; attempt++) {
      try {
        return await this.markPaid(id);
      } catch (error) {
        if (attempt === 5 || !['57P01', '40001'].includes((error as { code?: string }).code ?? '')) throw error;
        await sleep(1000);
      }
    }
  }
}
const orders = new Orders();
export async function markPaid(id: string) {
  for (let attempt = 1; attempt <= 5; attempt++) {
    try {
      return await orders.markPaid(id);
    } catch (error) {
      if (attempt === 5 || !['57P01', '40001'].includes((error as { code?: string }).code ?? '')) throw error;
      await sleep(1000);
    }
  }
}
`,
    errors: [
      { line: 15, output: `import { Pool } from 'pg';
const pool = new Pool();
pool.on('error', () => {});
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
class Orders {
  async markPaid(id: string) {
    await pool.query('UPDATE orders SET paid = true WHERE id = $1', [id]);
  }
  async markPaidWithRetry(id: string) {
    for (let attempt = 1; attempt <= 5; attempt++) {
      try {
        return await this.markPaid(id);
      } catch (error) {
        if (attempt === 5 || !['57P01', '40001'].includes((error as { code?: string }).code ?? '')) throw error;
        await sleep(Math.random() * Math.min(60000, 5000 * 2 ** attempt));
      }
    }
  }
}
const orders = new Orders();
export async function markPaid(id: string) {
  for (let attempt = 1; attempt <= 5; attempt++) {
    try {
      return await orders.markPaid(id);
    } catch (error) {
      if (attempt === 5 || !['57P01', '40001'].includes((error as { code?: string }).code ?? '')) throw error;
      await sleep(1000);
    }
  }
}
` },
      { line: 27, output: `import { Pool } from 'pg';
const pool = new Pool();
pool.on('error', () => {});
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
class Orders {
  async markPaid(id: string) {
    await pool.query('UPDATE orders SET paid = true WHERE id = $1', [id]);
  }
  async markPaidWithRetry(id: string) {
    for (let attempt = 1; attempt <= 5; attempt++) {
      try {
        return await this.markPaid(id);
      } catch (error) {
        if (attempt === 5 || !['57P01', '40001'].includes((error as { code?: string }).code ?? '')) throw error;
        await sleep(1000);
      }
    }
  }
}
const orders = new Orders();
export async function markPaid(id: string) {
  for (let attempt = 1; attempt <= 5; attempt++) {
    try {
      return await orders.markPaid(id);
    } catch (error) {
      if (attempt === 5 || !['57P01', '40001'].includes((error as { code?: string }).code ?? '')) throw error;
      await sleep(Math.random() * Math.min(60000, 5000 * 2 ** attempt));
    }
  }
}
` },
    ].map(({ line, output }) => ({
      messageId: 'constantDelay' as const,
      line,
      data: data('postgres', 'query', ''),
      suggestions: [{ messageId: 'useBackoff' as const, data: { maxDelayMs: '60000', baseDelayMs: '5000', variable: 'attempt' }, output }],
    })),
  },
    {
      name: "mongo-constant",
      code: `import { MongoClient } from 'mongodb';
const coll = new MongoClient(process.env.MONGO_URL).db().collection('orders');
export async function save(doc) {
  for (let attempt = 0; attempt < 5; attempt++) {
    try {
      return await coll.insertOne(doc);
    } catch (err) {
      await new Promise((resolve) => setTimeout(resolve, 1000));
    }
  }
  throw new Error('insert failed');
}
`,
      errors: [
        {
          messageId: 'constantDelay',
          line: 8, column: 58, endLine: 8, endColumn: 62,
          data: data('mongodb', "insertOne", ""),
          suggestions: [
            { messageId: 'useBackoff', output: `import { MongoClient } from 'mongodb';
const coll = new MongoClient(process.env.MONGO_URL).db().collection('orders');
export async function save(doc) {
  for (let attempt = 0; attempt < 5; attempt++) {
    try {
      return await coll.insertOne(doc);
    } catch (err) {
      await new Promise((resolve) => setTimeout(resolve, Math.random() * Math.min(10000, 100 * 2 ** attempt)));
    }
  }
  throw new Error('insert failed');
}
` },
          ],
        },
      ],
    },
    {
      name: "pg-unbounded-nowait",
      code: `import { Pool } from 'pg';
const pool = new Pool();
export async function ping() {
  while (true) {
    try {
      await pool.query('SELECT 1');
      break;
    } catch (err) {
      console.warn(err);
    }
  }
}
`,
      errors: [
        {
          messageId: 'unbounded',
          line: 4, column: 3, endLine: 4, endColumn: 15,
          data: data('postgres', "query", ""),
          suggestions: [
            {
              messageId: 'limitAttempts',
              output: `import { Pool } from 'pg';
const pool = new Pool();
export async function ping() {
  let attempt = 0;
  while (true) {
    try {
      await pool.query('SELECT 1');
      break;
    } catch (err) {
      if (++attempt >= 5) throw err;
      console.warn(err);
      await new Promise((resolve) => setTimeout(resolve, Math.random() * Math.min(60000, 5000 * 2 ** attempt)));
    }
  }
}
`,
            },
          ],
        },
        {
          messageId: 'noWait',
          line: 4, column: 3, endLine: 4, endColumn: 15,
          data: data('postgres', "query", ""),
          suggestions: [
            {
              messageId: 'limitAttempts',
              output: `import { Pool } from 'pg';
const pool = new Pool();
export async function ping() {
  let attempt = 0;
  while (true) {
    try {
      await pool.query('SELECT 1');
      break;
    } catch (err) {
      if (++attempt >= 5) throw err;
      console.warn(err);
      await new Promise((resolve) => setTimeout(resolve, Math.random() * Math.min(60000, 5000 * 2 ** attempt)));
    }
  }
}
`,
            },
          ],
        },
      ],
    },
    {
      name: "pg-nowait-suggest",
      code: `import { Pool } from 'pg';
const pool = new Pool();
export async function ping() {
  for (let attempt = 0; attempt < 5; attempt++) {
    try {
      return await pool.query('SELECT 1');
    } catch (err) {
      if (attempt === 4) throw err;
    }
  }
}
`,
      errors: [
        {
          messageId: 'noWait',
          line: 4, column: 3, endLine: 4, endColumn: 48,
          data: data('postgres', "query", ""),
          suggestions: [
            { messageId: 'useBackoff', output: `import { Pool } from 'pg';
const pool = new Pool();
export async function ping() {
  for (let attempt = 0; attempt < 5; attempt++) {
    try {
      return await pool.query('SELECT 1');
    } catch (err) {
      if (attempt === 4) throw err;
      await new Promise((resolve) => setTimeout(resolve, Math.random() * Math.min(60000, 5000 * 2 ** attempt)));
    }
  }
}
` },
          ],
        },
      ],
    },
    {
      name: "pg-nowait-continue",
      code: `import { Pool } from 'pg';
const pool = new Pool();
export async function ping() {
  for (let attempt = 0; attempt < 5; attempt++) {
    try {
      await pool.query('UPDATE jobs SET state = $1', ['done']);
    } catch (err) {
      continue;
    }
    break;
  }
}
`,
      errors: [
        {
          messageId: 'noWait',
          line: 4, column: 3, endLine: 4, endColumn: 48,
          data: data('postgres', "query", ""),
          suggestions: [
            { messageId: 'useBackoff', output: `import { Pool } from 'pg';
const pool = new Pool();
export async function ping() {
  for (let attempt = 0; attempt < 5; attempt++) {
    try {
      await pool.query('UPDATE jobs SET state = $1', ['done']);
    } catch (err) {
      await new Promise((resolve) => setTimeout(resolve, Math.random() * Math.min(60000, 5000 * 2 ** attempt)));
      continue;
    }
    break;
  }
}
` },
          ],
        },
      ],
    },
    {
      name: "ddb-nojitter",
      code: `import { DynamoDBClient, PutItemCommand } from '@aws-sdk/client-dynamodb';
const client = new DynamoDBClient({});
export async function put(item) {
  for (let attempt = 0; attempt < 5; attempt++) {
    try {
      return await client.send(new PutItemCommand(item));
    } catch (err) {
      await sleep(100 * 2 ** attempt);
    }
  }
}
`,
      errors: [
        {
          messageId: 'noJitter',
          line: 8, column: 19, endLine: 8, endColumn: 37,
          data: data('dynamodb', "PutItem", ""),
          suggestions: [
            {
              messageId: 'useBackoff',
              output: `import { DynamoDBClient, PutItemCommand } from '@aws-sdk/client-dynamodb';
const client = new DynamoDBClient({});
export async function put(item) {
  for (let attempt = 0; attempt < 5; attempt++) {
    try {
      return await client.send(new PutItemCommand(item));
    } catch (err) {
      await sleep(Math.random() * Math.min(20000, 100 * 2 ** attempt));
    }
  }
}
`,
            },
          ],
        },
      ],
    },
    {
      name: "ddb-v2-uncapped",
      code: `const AWS = require('aws-sdk');
const docClient = new AWS.DynamoDB.DocumentClient();
async function put(params) {
  let retries = 0;
  while (retries < 10) {
    try {
      return await docClient.put(params).promise();
    } catch (err) {
      await sleep(100 * 3 ** retries);
      retries++;
    }
  }
}
module.exports = { put };
`,
      errors: [
        {
          messageId: 'uncappedDelay',
          line: 9, column: 19, endLine: 9, endColumn: 37,
          data: data('dynamodb', "PutItem", " (up to 1968.3 s)"),
          suggestions: [
            {
              messageId: 'useBackoff',
              output: `const AWS = require('aws-sdk');
const docClient = new AWS.DynamoDB.DocumentClient();
async function put(params) {
  let retries = 0;
  while (retries < 10) {
    try {
      return await docClient.put(params).promise();
    } catch (err) {
      await sleep(Math.random() * Math.min(20000, 100 * 2 ** retries));
      retries++;
    }
  }
}
module.exports = { put };
`,
            },
          ],
        },
      ],
    },
    {
      name: "ddb-seed",
      code: `import { DynamoDBClient, DescribeTableCommand } from '@aws-sdk/client-dynamodb';
const client = new DynamoDBClient({});
const MAX_RETRIES = 5;
const MAX_WAIT_INTERVAL = 60000;
const getWaitTime = (retryCount: number) => Math.pow(3, retryCount) * 100;
export async function waitForActive(TableName: string) {
  let retries = 0;
  let retry = false;
  do {
    const waitTime = Math.min(getWaitTime(retries), MAX_WAIT_INTERVAL);
    await sleep(waitTime);
    const { Table } = await client.send(new DescribeTableCommand({ TableName }));
    retry = Table?.TableStatus !== 'ACTIVE';
  } while (retry && retries++ < MAX_RETRIES);
}
`,
      errors: [
        {
          messageId: 'noJitter',
          line: 11, column: 17, endLine: 11, endColumn: 25,
          data: data('dynamodb', "DescribeTable", ""),
          suggestions: [
            {
              messageId: 'useBackoff',
              output: `import { DynamoDBClient, DescribeTableCommand } from '@aws-sdk/client-dynamodb';
const client = new DynamoDBClient({});
const MAX_RETRIES = 5;
const MAX_WAIT_INTERVAL = 60000;
const getWaitTime = (retryCount: number) => Math.pow(3, retryCount) * 100;
export async function waitForActive(TableName: string) {
  let retries = 0;
  let retry = false;
  do {
    const waitTime = Math.min(getWaitTime(retries), MAX_WAIT_INTERVAL);
    await sleep(Math.random() * Math.min(20000, 100 * 2 ** retries));
    const { Table } = await client.send(new DescribeTableCommand({ TableName }));
    retry = Table?.TableStatus !== 'ACTIVE';
  } while (retry && retries++ < MAX_RETRIES);
}
`,
            },
          ],
        },
      ],
    },
    {
      name: "pg-recursion-cjs",
      code: `const { Pool } = require('pg');
const pool = new Pool();
function connect() {
  pool.connect().catch(() => {
    setTimeout(() => connect(), 5000);
  });
}
connect();
`,
      errors: [
        {
          messageId: 'unbounded',
          line: 3, column: 10, endLine: 3, endColumn: 17,
          data: data('postgres', "connect", ""),
          suggestions: [],
        },
        {
          messageId: 'constantDelay',
          line: 5, column: 33, endLine: 5, endColumn: 37,
          data: data('postgres', "connect", ""),
          suggestions: [],
        },
      ],
    },
    {
      name: "pg-catch-retry",
      code: `import { Pool } from 'pg';
const pool = new Pool();
export const count = () => pool.query('SELECT count(*) FROM t').catch(() => pool.query('SELECT count(*) FROM t'));
`,
      errors: [
        {
          messageId: 'noWait',
          line: 3, column: 65, endLine: 3, endColumn: 70,
          data: data('postgres', "query", ""),
          suggestions: [],
        },
      ],
    },
    {
      name: "p-retry-default",
      code: `import { Pool } from 'pg';
const pool = new Pool();
import pRetry from 'p-retry';
export const load = () => pRetry(() => pool.query('SELECT * FROM t'));
`,
      errors: [
        {
          messageId: 'uncappedDelay',
          line: 4, column: 27, endLine: 4, endColumn: 33,
          data: data('postgres', "query", " (up to 512 s; `maxTimeout` defaults to Infinity)", "This `p-retry` retry"),
          suggestions: [
            { messageId: 'setOption', output: `import { Pool } from 'pg';
const pool = new Pool();
import pRetry from 'p-retry';
export const load = () => pRetry(() => pool.query('SELECT * FROM t'), { maxTimeout: 60000 });
` },
          ],
        },
        {
          messageId: 'noJitter',
          line: 4, column: 27, endLine: 4, endColumn: 33,
          data: data('postgres', "query", " (`randomize` defaults to false)", "This `p-retry` retry"),
          suggestions: [
            { messageId: 'setOption', output: `import { Pool } from 'pg';
const pool = new Pool();
import pRetry from 'p-retry';
export const load = () => pRetry(() => pool.query('SELECT * FROM t'), { randomize: true });
` },
          ],
        },
      ],
    },
    {
      name: "p-retry-randomize-false",
      code: `import { MongoClient } from 'mongodb';
const coll = new MongoClient(process.env.MONGO_URL).db().collection('orders');
import pRetry from 'p-retry';
export const save = (doc) => pRetry(() => coll.insertOne(doc), { retries: 3, randomize: false });
`,
      errors: [
        {
          messageId: 'noJitter',
          line: 4, column: 78, endLine: 4, endColumn: 94,
          data: data('mongodb', "insertOne", " (`randomize: false`)", "This `p-retry` retry"),
          suggestions: [
            { messageId: 'setOption', output: `import { MongoClient } from 'mongodb';
const coll = new MongoClient(process.env.MONGO_URL).db().collection('orders');
import pRetry from 'p-retry';
export const save = (doc) => pRetry(() => coll.insertOne(doc), { retries: 3, randomize: true });
` },
          ],
        },
      ],
    },
    {
      name: "async-retry-factor-1",
      code: `const retry = require('async-retry');
const { MongoClient } = require('mongodb');
const coll = new MongoClient(process.env.MONGO_URL).db().collection('orders');
module.exports = (doc) => retry(() => coll.insertOne(doc), { retries: 3, factor: 1 });
`,
      errors: [
        {
          messageId: 'constantDelay',
          line: 4, column: 74, endLine: 4, endColumn: 83,
          data: data('mongodb', "insertOne", " (`factor: 1`)", "This `async-retry` retry"),
          suggestions: [
            { messageId: 'setOption', output: `const retry = require('async-retry');
const { MongoClient } = require('mongodb');
const coll = new MongoClient(process.env.MONGO_URL).db().collection('orders');
module.exports = (doc) => retry(() => coll.insertOne(doc), { retries: 3, factor: 2 });
` },
          ],
        },
      ],
    },
    {
      name: "retry-forever",
      code: `import { Pool } from 'pg';
const pool = new Pool();
import retry from 'retry';
export function ping(callback) {
  const operation = retry.operation({ forever: true, randomize: true, maxTimeout: 60000 });
  operation.attempt(() => {
    pool.query('SELECT 1', (err) => {
      if (operation.retry(err)) return;
      callback(err ? operation.mainError() : null);
    });
  });
}
`,
      errors: [
        {
          messageId: 'unbounded',
          line: 5, column: 39, endLine: 5, endColumn: 52,
          data: data('postgres', "query", " (`forever: true`)", "This `retry` retry"),
          suggestions: [],
        },
      ],
    },
    {
      name: "exponential-backoff-default",
      code: `import { DynamoDBClient, PutItemCommand } from '@aws-sdk/client-dynamodb';
const client = new DynamoDBClient({});
import { backOff } from 'exponential-backoff';
export const put = (item) => backOff(() => client.send(new PutItemCommand(item)), { jitter: 'full' });
`,
      errors: [
        {
          messageId: 'uncappedDelay',
          line: 4, column: 30, endLine: 4, endColumn: 37,
          data: data('dynamodb', "PutItem", " (up to 51.2 s; `maxDelay` defaults to Infinity)", "This `exponential-backoff` retry"),
          suggestions: [
            { messageId: 'setOption', output: `import { DynamoDBClient, PutItemCommand } from '@aws-sdk/client-dynamodb';
const client = new DynamoDBClient({});
import { backOff } from 'exponential-backoff';
export const put = (item) => backOff(() => client.send(new PutItemCommand(item)), { jitter: 'full', maxDelay: 20000 });
` },
          ],
        },
      ],
    },
    {
      name: "cockatiel-default",
      code: `import { DynamoDBClient, PutItemCommand } from '@aws-sdk/client-dynamodb';
const client = new DynamoDBClient({});
import { retry, handleAll } from 'cockatiel';
const policy = retry(handleAll);
export const put = (item) => policy.execute(() => client.send(new PutItemCommand(item)));
`,
      errors: [
        {
          messageId: 'unbounded',
          line: 4, column: 16, endLine: 4, endColumn: 21,
          data: data('dynamodb', "PutItem", " (`maxAttempts` defaults to Infinity)", "This `cockatiel` retry"),
          suggestions: [],
        },
        {
          messageId: 'noWait',
          line: 4, column: 16, endLine: 4, endColumn: 21,
          data: data('dynamodb', "PutItem", " (no `backoff`)", "This `cockatiel` retry"),
          suggestions: [],
        },
      ],
    },
    asyncRetryCase(
      "async-retry-default",
      DDB + `import async from 'async';
export const put = (item, done) => async.retry((cb) => client.send(new PutItemCommand(item)).then(() => cb(), cb), done);`,
      [{ messageId: 'noWait', column: 36, endColumn: 47, data: data('dynamodb', "PutItem", " (`interval` defaults to 0)", "This `async` retry") }],
    ),
    // async reads `times: 0` as its default of five attempts: the fifth wait is 5 s × 2^4 = 80 s, over PostgreSQL's 60 s.
    asyncRetryCase(
      "async-retry-times-zero",
      PG + `import async from 'async';
export const load = (done) => async.retry({ times: 0, interval: (n) => 5000 * 2 ** n }, (cb) => pool.query('SELECT 1').then(() => cb(), cb), done);`,
      [
        { messageId: 'uncappedDelay', column: 31, endColumn: 42, data: data('postgres', "query", " (up to 80 s)", "This `async` retry") },
        { messageId: 'noJitter', column: 31, endColumn: 42, data: data('postgres', "query", "", "This `async` retry") },
      ],
    ),
    asyncRetryCase(
      "async-retry-times-alone",
      DDB + `import retry from 'async/retry';
export const put = (item) => retry(3, async () => client.send(new PutItemCommand(item)));`,
      [{ messageId: 'noWait', column: 30, endColumn: 35, data: data('dynamodb', "PutItem", " (`interval` defaults to 0)", "This `async` retry") }],
    ),
    asyncRetryCase(
      "async-retry-constant-interval",
      DDB + `import { retry } from 'async';
export const put = (item) => retry({ times: 3, interval: 1000 }, async () => client.send(new PutItemCommand(item)));`,
      [{ messageId: 'constantDelay', column: 58, endColumn: 62, data: data('dynamodb', "PutItem", "", "This `async` retry") }],
    ),
    {
      name: "configured-strategy",
      code: `import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { ConfiguredRetryStrategy } from '@aws-sdk/util-retry';
export const client = new DynamoDBClient({ retryStrategy: new ConfiguredRetryStrategy(4, 1000) });
`,
      errors: [
        {
          messageId: 'constantDelay',
          line: 3, column: 90, endLine: 3, endColumn: 94,
          data: data('dynamodb', "send", "", "This `@aws-sdk/util-retry` retry"),
          suggestions: [],
        },
      ],
    },
    {
      name: "pg-base-option",
      code: `import { Pool } from 'pg';
const pool = new Pool();
export async function ping() {
  for (let attempt = 0; attempt < 5; attempt++) {
    try {
      return await pool.query('SELECT 1');
    } catch (err) {
      await sleep(2000);
    }
  }
}
`,
      options: [{"postgres": {"baseDelayMs": 1000, "maxDelayMs": 30000}}],
      errors: [
        {
          messageId: 'constantDelay',
          line: 8, column: 19, endLine: 8, endColumn: 23,
          data: data('postgres', "query", "", 'This retry', {"baseDelayMs": 1000, "maxDelayMs": 30000}),
          suggestions: [
            { messageId: 'useBackoff', output: `import { Pool } from 'pg';
const pool = new Pool();
export async function ping() {
  for (let attempt = 0; attempt < 5; attempt++) {
    try {
      return await pool.query('SELECT 1');
    } catch (err) {
      await sleep(Math.random() * Math.min(30000, 1000 * 2 ** attempt));
    }
  }
}
` },
          ],
        },
      ],
    },
    {
      name: "comment-inside",
      code: `import { MongoClient } from 'mongodb';
const coll = new MongoClient(process.env.MONGO_URL).db().collection('orders');
export async function save(doc) {
  for (let attempt = 0; attempt < 5; attempt++) {
    try {
      return await coll.insertOne(doc);
    } catch (err) {
      await sleep(500 /* half a second */ * 2);
    }
  }
}
`,
      errors: [
        {
          messageId: 'constantDelay',
          line: 8, column: 19, endLine: 8, endColumn: 46,
          data: data('mongodb', "insertOne", ""),
          suggestions: [],
        },
      ],
    },
    {
      name: "empty-catch-insert",
      code: `import { MongoClient } from 'mongodb';
const coll = new MongoClient(process.env.MONGO_URL).db().collection('orders');
export async function save(doc) {
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      return await coll.insertOne(doc);
    } catch {}
  }
}
`,
      errors: [
        {
          messageId: 'noWait',
          line: 4, column: 3, endLine: 4, endColumn: 48,
          data: data('mongodb', "insertOne", ""),
          suggestions: [
            { messageId: 'useBackoff', output: `import { MongoClient } from 'mongodb';
const coll = new MongoClient(process.env.MONGO_URL).db().collection('orders');
export async function save(doc) {
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      return await coll.insertOne(doc);
    } catch {
      await new Promise((resolve) => setTimeout(resolve, Math.random() * Math.min(10000, 100 * 2 ** attempt)));
    }
  }
}
` },
          ],
        },
      ],
    },
    {
      name: "recursion-counted-nowait",
      code: `import { DynamoDBClient, PutItemCommand } from '@aws-sdk/client-dynamodb';
const client = new DynamoDBClient({});
export async function put(item, attempt = 0) {
  try {
    return await client.send(new PutItemCommand(item));
  } catch (err) {
    if (attempt >= 3) throw err;
    return put(item, attempt + 1);
  }
}
`,
      errors: [
        {
          messageId: 'noWait',
          line: 3, column: 23, endLine: 3, endColumn: 26,
          data: data('dynamodb', "PutItem", ""),
          suggestions: [
            { messageId: 'useBackoff', output: `import { DynamoDBClient, PutItemCommand } from '@aws-sdk/client-dynamodb';
const client = new DynamoDBClient({});
export async function put(item, attempt = 0) {
  try {
    return await client.send(new PutItemCommand(item));
  } catch (err) {
    if (attempt >= 3) throw err;
    await new Promise((resolve) => setTimeout(resolve, Math.random() * Math.min(20000, 100 * 2 ** attempt)));
    return put(item, attempt + 1);
  }
}
` },
          ],
        },
      ],
    },
    {
      name: "local-sleep-helper-constant",
      code: `import { Pool as PgPool } from 'pg';
const pool = new PgPool();
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
export async function connect() {
  for (let attempt = 1; attempt <= 10; attempt++) {
    try {
      return await pool.connect();
    } catch (err) {
      console.warn('connect failed', err);
      await sleep(1000);
    }
  }
  throw new Error('no connection');
}
`,
      errors: [
        {
          messageId: 'constantDelay',
          line: 10, column: 19, endLine: 10, endColumn: 23,
          data: data('postgres', "connect", ""),
          suggestions: [
            { messageId: 'useBackoff', output: `import { Pool as PgPool } from 'pg';
const pool = new PgPool();
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
export async function connect() {
  for (let attempt = 1; attempt <= 10; attempt++) {
    try {
      return await pool.connect();
    } catch (err) {
      console.warn('connect failed', err);
      await sleep(Math.random() * Math.min(60000, 5000 * 2 ** attempt));
    }
  }
  throw new Error('no connection');
}
` },
          ],
        },
      ],
    },
    {
      name: "lib-dynamodb-v3-doc-client",
      code: `import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, PutCommand } from '@aws-sdk/lib-dynamodb';
const doc = DynamoDBDocumentClient.from(new DynamoDBClient({}));
export async function save(Item: Record<string, unknown>) {
  let attempts = 0;
  while (true) {
    try {
      return await doc.send(new PutCommand({ TableName: 'orders', Item }));
    } catch (err) {
      attempts++;
      if (attempts > 5) throw err;
      await new Promise((resolve) => setTimeout(resolve, 2 ** attempts * 100));
    }
  }
}
`,
      errors: [
        {
          messageId: 'noJitter',
          line: 12, column: 58, endLine: 12, endColumn: 77,
          data: data('dynamodb', "PutItem", ""),
          suggestions: [
            {
              messageId: 'useBackoff',
              output: `import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, PutCommand } from '@aws-sdk/lib-dynamodb';
const doc = DynamoDBDocumentClient.from(new DynamoDBClient({}));
export async function save(Item: Record<string, unknown>) {
  let attempts = 0;
  while (true) {
    try {
      return await doc.send(new PutCommand({ TableName: 'orders', Item }));
    } catch (err) {
      attempts++;
      if (attempts > 5) throw err;
      await new Promise((resolve) => setTimeout(resolve, Math.random() * Math.min(20000, 100 * 2 ** attempts)));
    }
  }
}
`,
            },
          ],
        },
      ],
    },
    {
      name: "a timer retry with no counter gets no attempt parameter when a caller passes more arguments, or the timer names it bare",
      // The sdk-v2-callback-recursion case below with a call that passes one argument too many.
      code: `${SDK_V2_TIMER_RETRY.replace('module.exports = putWithRetry;', "putWithRetry({}, console.log, 'extra');")}function putOne(params, callback) {
  dynamodb.putItem(params, function (err, data) {
    if (err) return setTimeout(putOne, 1000, params, callback);
    callback(null, data);
  });
}
module.exports = { putWithRetry, putOne };
`,
      errors: [
        { messageId: 'unbounded', line: 3, suggestions: [] },
        { messageId: 'constantDelay', line: 6, suggestions: [] },
        { messageId: 'unbounded', line: 12, suggestions: [] },
        { messageId: 'constantDelay', line: 14, suggestions: [] },
      ],
    },
    {
      name: "sdk-v2-callback-recursion",
      code: SDK_V2_TIMER_RETRY,
      errors: [
        {
          messageId: 'unbounded',
          line: 3, column: 10, endLine: 3, endColumn: 22,
          data: data('dynamodb', "PutItem", ""),
          suggestions: [
            {
              messageId: 'countTimerRetry',
              data: { maxAttempts: '5', counter: 'attempt', callback: 'callback' },
              output: SDK_V2_TIMER_RETRY.replace('function putWithRetry(params, callback) {', 'function putWithRetry(params, callback, attempt = 1) {').replace(
                '      return setTimeout(function () { putWithRetry(params, callback); }, 1000);',
                `      if (attempt >= 5) return callback(new Error(\`Gave up on DynamoDB PutItem after \${attempt} attempts\`, { cause: err }));
      return setTimeout(function () { putWithRetry(params, callback, attempt + 1); }, 1000);`,
              ),
            },
          ],
        },
        {
          messageId: 'constantDelay',
          line: 6, column: 74, endLine: 6, endColumn: 78,
          data: data('dynamodb', "PutItem", ""),
          suggestions: [],
        },
      ],
    },
    {
      name: "postgres-js",
      code: `import postgres from 'postgres';
const sql = postgres(process.env.DATABASE_URL);
export async function markSeen(id: string) {
  for (let attempt = 0; attempt < 6; attempt++) {
    try {
      return await sql\`UPDATE sessions SET seen_at = now() WHERE id = \${id}\`;
    } catch (err) {
      await new Promise((resolve) => setTimeout(resolve, 5000 * 2 ** attempt));
    }
  }
  throw new Error('update failed');
}
`,
      errors: [
        {
          messageId: 'uncappedDelay',
          line: 8, column: 58, endLine: 8, endColumn: 77,
          data: data('postgres', "query", " (up to 160 s)"),
          suggestions: [
            {
              messageId: 'useBackoff',
              output: `import postgres from 'postgres';
const sql = postgres(process.env.DATABASE_URL);
export async function markSeen(id: string) {
  for (let attempt = 0; attempt < 6; attempt++) {
    try {
      return await sql\`UPDATE sessions SET seen_at = now() WHERE id = \${id}\`;
    } catch (err) {
      await new Promise((resolve) => setTimeout(resolve, Math.random() * Math.min(60000, 5000 * 2 ** attempt)));
    }
  }
  throw new Error('update failed');
}
`,
            },
          ],
        },
      ],
    },
    {
      name: "mongo-cjs-destructured",
      code: `const { MongoClient } = require('mongodb');
const client = new MongoClient(process.env.MONGO_URL);
async function bump(id) {
  const counters = client.db('app').collection('counters');
  let retries = 3;
  while (retries-- > 0) {
    try {
      return await counters.updateOne({ _id: id }, { $inc: { n: 1 } });
    } catch (err) {
      if (retries === 0) throw err;
    }
  }
}
module.exports = { bump };
`,
      errors: [
        {
          messageId: 'noWait',
          line: 6, column: 3, endLine: 6, endColumn: 24,
          data: data('mongodb', "updateOne", ""),
          suggestions: [],
        },
      ],
    },
    {
      name: "configured-strategy-variable",
      code: `import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { ConfiguredRetryStrategy } from '@smithy/util-retry';
const retryStrategy = new ConfiguredRetryStrategy(5, (attempt) => 100 * 2 ** attempt);
export const client = new DynamoDBClient({ region: 'eu-west-1', retryStrategy });
`,
      errors: [
        {
          messageId: 'noJitter',
          line: 3, column: 23, endLine: 3, endColumn: 50,
          data: data('dynamodb', "send", "", "This `@smithy/util-retry` retry"),
          suggestions: [],
        },
      ],
    },
    {
      name: "pg-catch-continues-or-rethrows",
      code: `import { Pool } from 'pg';
const pool = new Pool();
export async function insertOrder(id: string) {
  for (let attempt = 1; ; attempt++) {
    try {
      return await pool.query('INSERT INTO orders(id) VALUES ($1)', [id]);
    } catch (err: any) {
      if (err.code === '40001' && attempt < 5) continue;
      throw err;
    }
  }
}
`,
      errors: [
        {
          messageId: 'noWait',
          line: 4, column: 3, endLine: 4, endColumn: 37,
          data: data('postgres', "query", ""),
          // The catch ends in `throw`: the wait goes right before the `continue`, in a new block.
          suggestions: [
            { messageId: 'useBackoff', output: `import { Pool } from 'pg';
const pool = new Pool();
export async function insertOrder(id: string) {
  for (let attempt = 1; ; attempt++) {
    try {
      return await pool.query('INSERT INTO orders(id) VALUES ($1)', [id]);
    } catch (err: any) {
      if (err.code === '40001' && attempt < 5) {
        await new Promise((resolve) => setTimeout(resolve, Math.random() * Math.min(60000, 5000 * 2 ** attempt)));
        continue;
      }
      throw err;
    }
  }
}
` },
          ],
        },
      ],
    },
    {
      name: "pg-catch-continue-with-comments",
      code: `import { Pool } from 'pg';
const pool = new Pool();
export async function insertOrder(id: string) {
  for (let attempt = 1; ; attempt++) {
    try {
      return await pool.query('INSERT INTO orders(id) VALUES ($1)', [id]);
    } catch (err: any) {
      if (err.code === '40001' && attempt < 5) continue /* serialization failure */; // try again
      throw err;
    }
  }
}
`,
      errors: [
        {
          messageId: 'noWait',
          line: 4, column: 3, endLine: 4, endColumn: 37,
          data: data('postgres', "query", ""),
          suggestions: [
            { messageId: 'useBackoff', output: `import { Pool } from 'pg';
const pool = new Pool();
export async function insertOrder(id: string) {
  for (let attempt = 1; ; attempt++) {
    try {
      return await pool.query('INSERT INTO orders(id) VALUES ($1)', [id]);
    } catch (err: any) {
      if (err.code === '40001' && attempt < 5) {
        await new Promise((resolve) => setTimeout(resolve, Math.random() * Math.min(60000, 5000 * 2 ** attempt)));
        continue /* serialization failure */;
      } // try again
      throw err;
    }
  }
}
` },
          ],
        },
      ],
    },
    {
      name: "pg-catch-continue-in-block",
      code: `import { Pool } from 'pg';
const pool = new Pool();
export async function insertOrder(id: string) {
  for (let attempt = 1; ; attempt++) {
    try {
      return await pool.query('INSERT INTO orders(id) VALUES ($1)', [id]);
    } catch (err: any) {
      if (err.code === '40001' && attempt < 5) {
        console.warn('retrying', attempt);
        continue;
      }
      throw err;
    }
  }
}
`,
      errors: [
        {
          messageId: 'noWait',
          line: 4, column: 3, endLine: 4, endColumn: 37,
          data: data('postgres', "query", ""),
          suggestions: [
            { messageId: 'useBackoff', output: `import { Pool } from 'pg';
const pool = new Pool();
export async function insertOrder(id: string) {
  for (let attempt = 1; ; attempt++) {
    try {
      return await pool.query('INSERT INTO orders(id) VALUES ($1)', [id]);
    } catch (err: any) {
      if (err.code === '40001' && attempt < 5) {
        console.warn('retrying', attempt);
        await new Promise((resolve) => setTimeout(resolve, Math.random() * Math.min(60000, 5000 * 2 ** attempt)));
        continue;
      }
      throw err;
    }
  }
}
` },
          ],
        },
      ],
    },
    {
      name: "pg-catch-two-continues-no-suggestion",
      code: `import { Pool } from 'pg';
const pool = new Pool();
export async function insertOrder(id: string) {
  for (let attempt = 1; ; attempt++) {
    try {
      return await pool.query('INSERT INTO orders(id) VALUES ($1)', [id]);
    } catch (err: any) {
      if (err.code === '40001' && attempt < 5) continue;
      if (err.code === '40P01' && attempt < 5) continue;
      throw err;
    }
  }
}
`,
      errors: [
        {
          messageId: 'noWait',
          line: 4, column: 3, endLine: 4, endColumn: 37,
          data: data('postgres', "query", ""),
          // Two ways round: no single place for the wait.
          suggestions: [],
        },
      ],
    },
    {
      name: "pg-retry-flag-do-while",
      code: `import { Pool } from 'pg';
const pool = new Pool();
export async function upd(id: string) {
  let retry = false;
  let n = 0;
  do {
    retry = false;
    try {
      await pool.query('UPDATE orders SET x = 1 WHERE id = $1', [id]);
    } catch (e) {
      retry = true;
    }
  } while (retry && n++ < 5);
}
`,
      errors: [
        {
          messageId: 'noWait',
          line: 13, column: 5, endLine: 13, endColumn: 29,
          data: data('postgres', "query", ""),
          suggestions: [
            { messageId: 'useBackoff', output: `import { Pool } from 'pg';
const pool = new Pool();
export async function upd(id: string) {
  let retry = false;
  let n = 0;
  do {
    retry = false;
    try {
      await pool.query('UPDATE orders SET x = 1 WHERE id = $1', [id]);
    } catch (e) {
      retry = true;
      await new Promise((resolve) => setTimeout(resolve, Math.random() * Math.min(60000, 5000 * 2 ** n)));
    }
  } while (retry && n++ < 5);
}
` },
          ],
        },
      ],
    },
    {
      name: "pg-retry-flag-from-helper",
      code: `import { Pool } from 'pg';
import { isRetryable } from './errors';
const pool = new Pool();
export async function upd(sql: string) {
  let retry = false;
  let n = 0;
  do {
    retry = false;
    try {
      await pool.query(sql);
    } catch (e: any) {
      retry = isRetryable(e);
    }
  } while (retry && n++ < 5);
}
`,
      errors: [
        {
          messageId: 'noWait',
          line: 14, column: 5, endLine: 14, endColumn: 29,
          data: data('postgres', "query", ""),
          suggestions: [
            { messageId: 'useBackoff', output: `import { Pool } from 'pg';
import { isRetryable } from './errors';
const pool = new Pool();
export async function upd(sql: string) {
  let retry = false;
  let n = 0;
  do {
    retry = false;
    try {
      await pool.query(sql);
    } catch (e: any) {
      retry = isRetryable(e);
      if (retry) await new Promise((resolve) => setTimeout(resolve, Math.random() * Math.min(60000, 5000 * 2 ** n)));
    }
  } while (retry && n++ < 5);
}
` },
          ],
        },
      ],
    },
    {
      name: "pg-retry-flag-from-code",
      code: `import { Pool } from 'pg';
import { isRetryable } from './errors';
const pool = new Pool();
export async function upd(sql: string) {
  let retry = false;
  let n = 0;
  do {
    retry = false;
    try {
      await pool.query(sql);
    } catch (e: any) {
      retry = e.code === '40001';
    }
  } while (retry && n++ < 5);
}
`,
      errors: [
        {
          messageId: 'noWait',
          line: 14, column: 5, endLine: 14, endColumn: 29,
          data: data('postgres', "query", ""),
          suggestions: [
            { messageId: 'useBackoff', output: `import { Pool } from 'pg';
import { isRetryable } from './errors';
const pool = new Pool();
export async function upd(sql: string) {
  let retry = false;
  let n = 0;
  do {
    retry = false;
    try {
      await pool.query(sql);
    } catch (e: any) {
      retry = e.code === '40001';
      if (retry) await new Promise((resolve) => setTimeout(resolve, Math.random() * Math.min(60000, 5000 * 2 ** n)));
    }
  } while (retry && n++ < 5);
}
` },
          ],
        },
      ],
    },
    {
      name: "ddb-seed-helper-function-declared-after-use",
      code: `import { DynamoDBClient, DescribeTableCommand } from '@aws-sdk/client-dynamodb';
const client = new DynamoDBClient({});
const MAX_RETRIES = 10;
const MAX_WAIT_INTERVAL = 60_000;
export async function waitForActive(TableName: string) {
  let retries = 0;
  let retry = false;
  do {
    const waitTime = Math.min(getWaitTime(retries), MAX_WAIT_INTERVAL);
    await sleep(waitTime);
    const { Table } = await client.send(new DescribeTableCommand({ TableName }));
    retry = Table?.TableStatus !== 'ACTIVE';
  } while (retry && retries++ < MAX_RETRIES);
}
export function getWaitTime(retryCount: number): number {
  const waitTime = Math.pow(3, retryCount) * 100;
  return waitTime;
}
`,
      errors: [
        {
          messageId: 'noJitter',
          line: 10, column: 17, endLine: 10, endColumn: 25,
          data: data('dynamodb', "DescribeTable", ""),
          suggestions: [
            {
              messageId: 'useBackoff',
              output: `import { DynamoDBClient, DescribeTableCommand } from '@aws-sdk/client-dynamodb';
const client = new DynamoDBClient({});
const MAX_RETRIES = 10;
const MAX_WAIT_INTERVAL = 60_000;
export async function waitForActive(TableName: string) {
  let retries = 0;
  let retry = false;
  do {
    const waitTime = Math.min(getWaitTime(retries), MAX_WAIT_INTERVAL);
    await sleep(Math.random() * Math.min(20000, 100 * 2 ** retries));
    const { Table } = await client.send(new DescribeTableCommand({ TableName }));
    retry = Table?.TableStatus !== 'ACTIVE';
  } while (retry && retries++ < MAX_RETRIES);
}
export function getWaitTime(retryCount: number): number {
  const waitTime = Math.pow(3, retryCount) * 100;
  return waitTime;
}
`,
            },
          ],
        },
      ],
    },
    // Retries decided by the response, MongoDB connection retries, and shapes seen on real code.
    {
      name: "DynamoDB UnprocessedItems sent again at once while any are left",
      code: `import { DynamoDBClient, BatchWriteItemCommand, BatchGetItemCommand } from '@aws-sdk/client-dynamodb';
const client = new DynamoDBClient({});
export async function writeAll(RequestItems) {
  let res = await client.send(new BatchWriteItemCommand({ RequestItems }));
  while (Object.keys(res.UnprocessedItems ?? {}).length) {
    res = await client.send(new BatchWriteItemCommand({ RequestItems: res.UnprocessedItems }));
  }
}
`,
      errors: [
        {
          messageId: 'unbounded',
          line: 5, column: 3, endLine: 5, endColumn: 57,
          data: data('dynamodb', "BatchWriteItem", ""),
          suggestions: [{ messageId: 'waitBeforeResend', data: RESEND_DATA, output: leftoverLoopOutput }],
        },
        {
          messageId: 'noWait',
          line: 5, column: 3, endLine: 5, endColumn: 57,
          data: data('dynamodb', "BatchWriteItem", ""),
          suggestions: [{ messageId: 'waitBeforeResend', data: RESEND_DATA, output: leftoverLoopOutput }],
        },
      ],
    },
    {
      name: "DynamoDB UnprocessedKeys destructured from each response and sent again at once",
      code: `import { DynamoDBClient, BatchGetItemCommand } from '@aws-sdk/client-dynamodb';
const client = new DynamoDBClient({});
export async function getAll(RequestItems) {
  let { Responses, UnprocessedKeys } = await client.send(new BatchGetItemCommand({ RequestItems }));
  const found = [Responses];
  while (UnprocessedKeys && Object.keys(UnprocessedKeys).length > 0) {
    ({ Responses, UnprocessedKeys } = await client.send(new BatchGetItemCommand({ RequestItems: UnprocessedKeys })));
    found.push(Responses);
  }
  return found;
}
`,
      errors: (['unbounded', 'noWait'] as const).map((messageId) => ({
        messageId,
        line: 6, column: 3, endLine: 6, endColumn: 69,
        data: data('dynamodb', "BatchGetItem", ""),
        suggestions: [{ messageId: 'waitBeforeResend', data: { ...RESEND_DATA, property: 'UnprocessedKeys' }, output: destructuredLeftoverOutput }],
      })),
    },
    {
      name: "DynamoDB UnprocessedKeys carried into the next round of a do … while",
      code: `import { DynamoDBClient, BatchWriteItemCommand, BatchGetItemCommand } from '@aws-sdk/client-dynamodb';
const client = new DynamoDBClient({});
export async function getAll(RequestItems) {
  let request = RequestItems;
  const responses = [];
  do {
    const res = await client.send(new BatchGetItemCommand({ RequestItems: request }));
    responses.push(res.Responses);
    request = res.UnprocessedKeys;
  } while (request && Object.keys(request).length > 0);
  return responses;
}
`,
      errors: [
        {
          messageId: 'unbounded',
          line: 10, column: 5, endLine: 10, endColumn: 55,
          data: data('dynamodb', "BatchGetItem", ""),
          suggestions: [{ messageId: 'waitBeforeResend', data: { ...RESEND_DATA, property: 'UnprocessedKeys' }, output: leftoverDoWhileOutput }],
        },
        {
          messageId: 'noWait',
          line: 10, column: 5, endLine: 10, endColumn: 55,
          data: data('dynamodb', "BatchGetItem", ""),
          suggestions: [{ messageId: 'waitBeforeResend', data: { ...RESEND_DATA, property: 'UnprocessedKeys' }, output: leftoverDoWhileOutput }],
        },
      ],
    },
    {
      name: "DynamoDB UnprocessedKeys sent again after the same short wait each time, with no limit: the wait backs off from a new count (one edit for both findings)",
      code: `import { DynamoDBClient, BatchGetItemCommand } from '@aws-sdk/client-dynamodb';
const client = new DynamoDBClient({});
export async function getAll(keys) {
  let left = keys;
  const found = [];
  while (left.length > 0) {
    const res = await client.send(new BatchGetItemCommand({ RequestItems: { t: { Keys: left } } }));
    found.push(...(res.Responses?.t ?? []));
    left = res.UnprocessedKeys?.t?.Keys ?? [];
    if (left.length > 0) await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return found;
}
`,
      errors: [
        {
          messageId: 'unbounded',
          line: 6, column: 3, endLine: 6, endColumn: 26,
          data: data('dynamodb', "BatchGetItem", ""),
          suggestions: [{ messageId: 'waitBeforeResend', data: { ...RESEND_DATA, property: 'UnprocessedKeys' }, output: `import { DynamoDBClient, BatchGetItemCommand } from '@aws-sdk/client-dynamodb';
const client = new DynamoDBClient({});
export async function getAll(keys) {
  let left = keys;
  const found = [];
  let attempt = 0;
  while (left.length > 0) {
    if (attempt >= 5) throw new Error(\`DynamoDB left reads unprocessed after \${attempt} attempts\`);
    attempt += 1;
    const res = await client.send(new BatchGetItemCommand({ RequestItems: { t: { Keys: left } } }));
    found.push(...(res.Responses?.t ?? []));
    left = res.UnprocessedKeys?.t?.Keys ?? [];
    if (left.length > 0) await new Promise((resolve) => setTimeout(resolve, Math.random() * Math.min(20000, 100 * 2 ** attempt)));
  }
  return found;
}
` }],
        },
        {
          messageId: 'constantDelay',
          line: 10, column: 77, endLine: 10, endColumn: 80,
          data: data('dynamodb', "BatchGetItem", ""),
          suggestions: [{ messageId: 'waitBeforeResend', data: { ...RESEND_DATA, property: 'UnprocessedKeys' }, output: `import { DynamoDBClient, BatchGetItemCommand } from '@aws-sdk/client-dynamodb';
const client = new DynamoDBClient({});
export async function getAll(keys) {
  let left = keys;
  const found = [];
  let attempt = 0;
  while (left.length > 0) {
    if (attempt >= 5) throw new Error(\`DynamoDB left reads unprocessed after \${attempt} attempts\`);
    attempt += 1;
    const res = await client.send(new BatchGetItemCommand({ RequestItems: { t: { Keys: left } } }));
    found.push(...(res.Responses?.t ?? []));
    left = res.UnprocessedKeys?.t?.Keys ?? [];
    if (left.length > 0) await new Promise((resolve) => setTimeout(resolve, Math.random() * Math.min(20000, 100 * 2 ** attempt)));
  }
  return found;
}
` }],
        },
      ],
    },
    {
      name: "compiled async code (a generator under __awaiter) re-sending UnprocessedItems after a fixed wait: the wait keeps its `yield`",
      code: `const { DynamoDBClient, BatchWriteItemCommand } = require('@aws-sdk/client-dynamodb');
const client = new DynamoDBClient({});
function writeAll(RequestItems) {
  return __awaiter(this, void 0, void 0, function* () {
    let res = yield client.send(new BatchWriteItemCommand({ RequestItems }));
    while (res.UnprocessedItems && Object.keys(res.UnprocessedItems).length > 0) {
      yield new Promise((resolve) => setTimeout(resolve, 250));
      res = yield client.send(new BatchWriteItemCommand({ RequestItems: res.UnprocessedItems }));
    }
  });
}
module.exports = { writeAll };
`,
      errors: [
        {
          messageId: 'unbounded',
          line: 6, column: 5, endLine: 6, endColumn: 81,
          data: data('dynamodb', "BatchWriteItem", ""),
          suggestions: [{ messageId: 'waitBeforeResend', data: RESEND_DATA, output: `const { DynamoDBClient, BatchWriteItemCommand } = require('@aws-sdk/client-dynamodb');
const client = new DynamoDBClient({});
function writeAll(RequestItems) {
  return __awaiter(this, void 0, void 0, function* () {
    let res = yield client.send(new BatchWriteItemCommand({ RequestItems }));
    let attempt = 0;
    while (res.UnprocessedItems && Object.keys(res.UnprocessedItems).length > 0) {
      if (++attempt >= 5) throw new Error(\`DynamoDB left writes unprocessed after \${attempt} attempts\`);
      yield new Promise((resolve) => setTimeout(resolve, Math.random() * Math.min(20000, 100 * 2 ** attempt)));
      res = yield client.send(new BatchWriteItemCommand({ RequestItems: res.UnprocessedItems }));
    }
  });
}
module.exports = { writeAll };
` }],
        },
        {
          messageId: 'constantDelay',
          line: 7, column: 58, endLine: 7, endColumn: 61,
          data: data('dynamodb', "BatchWriteItem", ""),
          suggestions: [{ messageId: 'waitBeforeResend', data: RESEND_DATA, output: `const { DynamoDBClient, BatchWriteItemCommand } = require('@aws-sdk/client-dynamodb');
const client = new DynamoDBClient({});
function writeAll(RequestItems) {
  return __awaiter(this, void 0, void 0, function* () {
    let res = yield client.send(new BatchWriteItemCommand({ RequestItems }));
    let attempt = 0;
    while (res.UnprocessedItems && Object.keys(res.UnprocessedItems).length > 0) {
      if (++attempt >= 5) throw new Error(\`DynamoDB left writes unprocessed after \${attempt} attempts\`);
      yield new Promise((resolve) => setTimeout(resolve, Math.random() * Math.min(20000, 100 * 2 ** attempt)));
      res = yield client.send(new BatchWriteItemCommand({ RequestItems: res.UnprocessedItems }));
    }
  });
}
module.exports = { writeAll };
` }],
        },
      ],
    },
    {
      name: "a result handler that sends the leftovers again through itself (one edit for both findings, in the file's style)",
      code: `const AWS = require("aws-sdk")
const docClient = new AWS.DynamoDB.DocumentClient()
function saveEvents(events) {
  const request = { RequestItems: { events } }
  const onResult = function (result) {
    const left = result.UnprocessedItems || {}
    if (Object.keys(left).length === 0) return result
    request.RequestItems = left
    return docClient.batchWrite(request).promise().then(onResult)
  }
  return docClient.batchWrite(request).promise().then(onResult)
}
module.exports = { saveEvents }
`,
      errors: [
        {
          messageId: 'unbounded',
          line: 5, column: 9, endLine: 5, endColumn: 17,
          data: data('dynamodb', "BatchWriteItem", ""),
          suggestions: [{ messageId: 'waitBeforeResend', data: RESEND_DATA, output: leftoverResendOutput }],
        },
        {
          messageId: 'noWait',
          line: 5, column: 9, endLine: 5, endColumn: 17,
          data: data('dynamodb', "BatchWriteItem", ""),
          suggestions: [{ messageId: 'waitBeforeResend', data: RESEND_DATA, output: leftoverResendOutput }],
        },
      ],
    },
    {
      name: "a function that calls itself, awaited, with the leftover items",
      code: `import { DynamoDBClient, BatchWriteItemCommand, BatchGetItemCommand } from '@aws-sdk/client-dynamodb';
const client = new DynamoDBClient({});
export async function write(RequestItems) {
  const res = await client.send(new BatchWriteItemCommand({ RequestItems }));
  if (res.UnprocessedItems && Object.keys(res.UnprocessedItems).length > 0) {
    await write(res.UnprocessedItems);
  }
}
`,
      errors: [
        {
          messageId: 'unbounded',
          line: 3, column: 23, endLine: 3, endColumn: 28,
          data: data('dynamodb', "BatchWriteItem", ""),
          suggestions: [{ messageId: 'waitBeforeResend', data: RESEND_DATA, output: leftoverRecursionOutput }],
        },
        {
          messageId: 'noWait',
          line: 3, column: 23, endLine: 3, endColumn: 28,
          data: data('dynamodb', "BatchWriteItem", ""),
          suggestions: [{ messageId: 'waitBeforeResend', data: RESEND_DATA, output: leftoverRecursionOutput }],
        },
      ],
    },
    {
      name: "a function that returns its call of itself with the leftovers, in TypeScript: the call gets braces with the limit and the wait",
      code: `import { DynamoDBClient, BatchWriteItemCommand } from '@aws-sdk/client-dynamodb';
const client = new DynamoDBClient({});
export async function putAll(items: Record<string, any>): Promise<void> {
  const res = await client.send(new BatchWriteItemCommand({ RequestItems: items }));
  if (res.UnprocessedItems && Object.keys(res.UnprocessedItems).length > 0) return putAll(res.UnprocessedItems);
}
`,
      errors: (['unbounded', 'noWait'] as const).map((messageId) => ({
        messageId: messageId as 'unbounded' | 'noWait',
        line: 3,
        suggestions: [
          {
            messageId: 'waitBeforeResend' as const,
            data: RESEND_DATA,
            output: `import { DynamoDBClient, BatchWriteItemCommand } from '@aws-sdk/client-dynamodb';
const client = new DynamoDBClient({});
export async function putAll(items: Record<string, any>, attempt = 1): Promise<void> {
  const res = await client.send(new BatchWriteItemCommand({ RequestItems: items }));
  if (res.UnprocessedItems && Object.keys(res.UnprocessedItems).length > 0) {
    if (attempt >= 5) throw new Error(\`DynamoDB left writes unprocessed after \${attempt} attempts\`);
    await new Promise((resolve) => setTimeout(resolve, Math.random() * Math.min(20000, 100 * 2 ** attempt)));
    return putAll(res.UnprocessedItems, attempt + 1);
  }
}
`,
          },
        ],
      })),
    },
    {
      name: "a for loop that limits its rounds and sends the first batch itself: a wait before each later round only",
      code: `import { DynamoDBClient, BatchWriteItemCommand } from '@aws-sdk/client-dynamodb';
const client = new DynamoDBClient({});
export async function writeAll(items) {
  let request = items;
  for (let round = 0; round < 5 && request && Object.keys(request).length > 0; round++) {
    const res = await client.send(new BatchWriteItemCommand({ RequestItems: request }));
    request = res.UnprocessedItems;
  }
}
`,
      errors: [
        {
          messageId: 'noWait',
          line: 5,
          suggestions: [
            {
              messageId: 'waitBeforeLimitedResend',
              data: RESEND_DATA,
              output: `import { DynamoDBClient, BatchWriteItemCommand } from '@aws-sdk/client-dynamodb';
const client = new DynamoDBClient({});
export async function writeAll(items) {
  let request = items;
  let attempt = 0;
  for (let round = 0; round < 5 && request && Object.keys(request).length > 0; round++) {
    if (attempt > 0) {
      await new Promise((resolve) => setTimeout(resolve, Math.random() * Math.min(20000, 100 * 2 ** attempt)));
    }
    attempt += 1;
    const res = await client.send(new BatchWriteItemCommand({ RequestItems: request }));
    request = res.UnprocessedItems;
  }
}
`,
            },
          ],
        },
      ],
    },
    {
      name: "a while loop that limits its rounds after a first batch sent before it: a wait first in every round",
      code: `import { DynamoDBClient, BatchWriteItemCommand } from '@aws-sdk/client-dynamodb';
const client = new DynamoDBClient({});
export async function writeAll(items) {
  let res = await client.send(new BatchWriteItemCommand({ RequestItems: items }));
  let rounds = 0;
  while (res.UnprocessedItems && Object.keys(res.UnprocessedItems).length > 0 && rounds < 5) {
    rounds++;
    res = await client.send(new BatchWriteItemCommand({ RequestItems: res.UnprocessedItems }));
  }
}
`,
      errors: [
        {
          messageId: 'noWait',
          line: 6,
          suggestions: [
            {
              messageId: 'waitBeforeLimitedResend',
              data: RESEND_DATA,
              output: `import { DynamoDBClient, BatchWriteItemCommand } from '@aws-sdk/client-dynamodb';
const client = new DynamoDBClient({});
export async function writeAll(items) {
  let res = await client.send(new BatchWriteItemCommand({ RequestItems: items }));
  let rounds = 0;
  let attempt = 0;
  while (res.UnprocessedItems && Object.keys(res.UnprocessedItems).length > 0 && rounds < 5) {
    attempt += 1;
    await new Promise((resolve) => setTimeout(resolve, Math.random() * Math.min(20000, 100 * 2 ** attempt)));
    rounds++;
    res = await client.send(new BatchWriteItemCommand({ RequestItems: res.UnprocessedItems }));
  }
}
`,
            },
          ],
        },
      ],
    },
    {
      name: "no limit suggested where its throw would reach no caller: a call of itself from a then callback, or not awaited",
      code: `import { DynamoDBClient, BatchWriteItemCommand } from '@aws-sdk/client-dynamodb';
const client = new DynamoDBClient({});
export function fireAll(items) {
  client.send(new BatchWriteItemCommand({ RequestItems: items })).then((res) => {
    if (res.UnprocessedItems && Object.keys(res.UnprocessedItems).length > 0) fireAll(res.UnprocessedItems);
  });
}
export async function dropAll(items) {
  const res = await client.send(new BatchWriteItemCommand({ RequestItems: items }));
  if (res.UnprocessedItems && Object.keys(res.UnprocessedItems).length > 0) dropAll(res.UnprocessedItems);
}
`,
      errors: [
        { messageId: 'unbounded', line: 3, suggestions: [] },
        { messageId: 'noWait', line: 3, suggestions: [] },
        { messageId: 'unbounded', line: 8, suggestions: [] },
        { messageId: 'noWait', line: 8, suggestions: [] },
      ],
    },
    {
      name: "SDK v2 callback style: the leftovers written again from a timer with a constant delay",
      code: `const AWS = require('aws-sdk');
const docClient = new AWS.DynamoDB.DocumentClient();
function write(params) {
  docClient.batchWrite(params, (err, data) => {
    if (err) return console.error(err);
    const left = data.UnprocessedItems;
    if (Object.keys(left).length) setTimeout(() => write({ RequestItems: left }), 1000);
  });
}
module.exports = write;
`,
      errors: [
        {
          messageId: 'unbounded',
          line: 3, column: 10, endLine: 3, endColumn: 15,
          data: data('dynamodb', "BatchWriteItem", ""),
          suggestions: [],
        },
        {
          messageId: 'constantDelay',
          line: 7, column: 83, endLine: 7, endColumn: 87,
          data: data('dynamodb', "BatchWriteItem", ""),
          suggestions: [],
        },
      ],
    },
    {
      name: "a timer retry that counts on an object it passes along: the limit before the timer, the error to the function's callback",
      code: `const AWS = require('aws-sdk');
const docClient = new AWS.DynamoDB.DocumentClient();
function putAll(job, done) {
  docClient.batchWrite(job.request, (err, data) => {
    if (err) return done(err);
    const left = data.UnprocessedItems;
    if (left && Object.keys(left).length > 0) {
      job.tries += 1;
      job.request = { RequestItems: left };
      setTimeout(() => putAll(job, done), Math.random() * Math.min(20000, 100 * 2 ** job.tries));
      return;
    }
    job.tries = 0;
    done(null, job);
  });
}
module.exports = { putAll };
`,
      errors: [
        {
          messageId: 'unbounded',
          line: 3, column: 10, endLine: 3, endColumn: 16,
          data: data('dynamodb', "BatchWriteItem", ""),
          suggestions: [{ messageId: 'limitTimerRetry', data: { maxAttempts: '5', counter: 'job.tries', callback: 'done' }, output: `const AWS = require('aws-sdk');
const docClient = new AWS.DynamoDB.DocumentClient();
function putAll(job, done) {
  docClient.batchWrite(job.request, (err, data) => {
    if (err) return done(err);
    const left = data.UnprocessedItems;
    if (left && Object.keys(left).length > 0) {
      job.tries += 1;
      job.request = { RequestItems: left };
      if (job.tries >= 5) return done(new Error(\`Gave up on DynamoDB BatchWriteItem after \${job.tries} attempts\`));
      setTimeout(() => putAll(job, done), Math.random() * Math.min(20000, 100 * 2 ** job.tries));
      return;
    }
    job.tries = 0;
    done(null, job);
  });
}
module.exports = { putAll };
` }],
        },
      ],
    },
    {
      name: "a timer retry of pg connect with a module-level counter and a callback called as callback(null, client)",
      code: `const { Client } = require('pg');
let connectAttempts = 0;
function connectWithRetry(config, callback) {
  const client = new Client(config);
  client.connect((err) => {
    if (err) {
      connectAttempts++;
      setTimeout(() => connectWithRetry(config, callback), Math.random() * Math.min(30000, 1000 * 2 ** connectAttempts));
      return;
    }
    connectAttempts = 0;
    callback(null, client);
  });
}
module.exports = { connectWithRetry };
`,
      errors: [
        {
          messageId: 'unbounded',
          line: 3, column: 10, endLine: 3, endColumn: 26,
          data: data('postgres', "connect", ""),
          suggestions: [{ messageId: 'limitTimerRetry', data: { maxAttempts: '5', counter: 'connectAttempts', callback: 'callback' }, output: `const { Client } = require('pg');
let connectAttempts = 0;
function connectWithRetry(config, callback) {
  const client = new Client(config);
  client.connect((err) => {
    if (err) {
      connectAttempts++;
      if (connectAttempts >= 5) return callback(new Error(\`Gave up on PostgreSQL connect after \${connectAttempts} attempts\`, { cause: err }));
      setTimeout(() => connectWithRetry(config, callback), Math.random() * Math.min(30000, 1000 * 2 ** connectAttempts));
      return;
    }
    connectAttempts = 0;
    callback(null, client);
  });
}
module.exports = { connectWithRetry };
` }],
        },
      ],
    },
    {
      name: "a function that calls itself, not awaited, with the leftover keys",
      code: `import { DynamoDBClient, BatchWriteItemCommand, BatchGetItemCommand } from '@aws-sdk/client-dynamodb';
const client = new DynamoDBClient({});
export function read(RequestItems, out) {
  return client.send(new BatchGetItemCommand({ RequestItems })).then((res) => {
    out.push(res.Responses);
    if (res.UnprocessedKeys) read(res.UnprocessedKeys, out);
  });
}
`,
      errors: [
        {
          messageId: 'unbounded',
          line: 3, column: 17, endLine: 3, endColumn: 21,
          data: data('dynamodb', "BatchGetItem", ""),
          suggestions: [],
        },
        {
          messageId: 'noWait',
          line: 3, column: 17, endLine: 3, endColumn: 21,
          data: data('dynamodb', "BatchGetItem", ""),
          suggestions: [],
        },
      ],
    },
    {
      name: "the DynamoDB document example: the status comes from a local function, retried with a constant wait",
      code: `import { DynamoDBClient, DescribeTableCommand } from '@aws-sdk/client-dynamodb';
const client = new DynamoDBClient({});
const MAX_RETRIES = 5;
async function getResult(TableName) {
  const out = await client.send(new DescribeTableCommand({ TableName }));
  return out.Table.TableStatus === 'ACTIVE' ? 'SUCCESS' : 'THROTTLED';
}
export async function waitFor(TableName) {
  let retries = 0;
  let retry = false;
  do {
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const result = await getResult(TableName);
    retry = result === 'THROTTLED' || result === 'SERVER_ERROR';
  } while (retry && retries++ < MAX_RETRIES);
  if (retry) throw new Error('not ready');
}
`,
      errors: [
        {
          messageId: 'constantDelay',
          line: 12, column: 56, endLine: 12, endColumn: 60,
          data: data('dynamodb', "DescribeTable", ""),
          suggestions: [
            { messageId: 'useBackoff', output: `import { DynamoDBClient, DescribeTableCommand } from '@aws-sdk/client-dynamodb';
const client = new DynamoDBClient({});
const MAX_RETRIES = 5;
async function getResult(TableName) {
  const out = await client.send(new DescribeTableCommand({ TableName }));
  return out.Table.TableStatus === 'ACTIVE' ? 'SUCCESS' : 'THROTTLED';
}
export async function waitFor(TableName) {
  let retries = 0;
  let retry = false;
  do {
    await new Promise((resolve) => setTimeout(resolve, Math.random() * Math.min(20000, 100 * 2 ** retries)));
    const result = await getResult(TableName);
    retry = result === 'THROTTLED' || result === 'SERVER_ERROR';
  } while (retry && retries++ < MAX_RETRIES);
  if (retry) throw new Error('not ready');
}
` },
          ],
        },
      ],
    },
    {
      name: "a status polled in a do … while (!done) with no try: unbounded, constant wait",
      code: `import { DynamoDBClient, DescribeTableCommand } from '@aws-sdk/client-dynamodb';
const client = new DynamoDBClient({});
export async function waitActive(TableName) {
  let done = false;
  do {
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const out = await client.send(new DescribeTableCommand({ TableName }));
    done = out.Table.TableStatus === 'ACTIVE';
  } while (!done);
}
`,
      errors: [
        {
          messageId: 'constantDelay',
          line: 6, column: 56, endLine: 6, endColumn: 60,
          data: data('dynamodb', "DescribeTable", ""),
          suggestions: [],
        },
        {
          messageId: 'unbounded',
          line: 9, column: 5, endLine: 9, endColumn: 18,
          data: data('dynamodb', "DescribeTable", ""),
          suggestions: [],
        },
      ],
    },
    {
      name: "while (true) left through else { break; } on a good result",
      code: `import { Pool } from 'pg';
const pool = new Pool();
export async function lock(id) {
  while (true) {
    const res = await pool.query('SELECT pg_try_advisory_lock($1) AS ok', [id]);
    if (!res.rows[0].ok) {
      await new Promise((resolve) => setTimeout(resolve, 1000));
    } else {
      break;
    }
  }
}
`,
      errors: [
        {
          messageId: 'unbounded',
          line: 4, column: 3, endLine: 4, endColumn: 15,
          data: data('postgres', "query", ""),
          suggestions: [],
        },
        {
          messageId: 'constantDelay',
          line: 7, column: 58, endLine: 7, endColumn: 62,
          data: data('postgres', "query", ""),
          suggestions: [],
        },
      ],
    },
    {
      name: "while (true) left through return on a good result, no wait",
      code: `import { Pool } from 'pg';
const pool = new Pool();
export async function claim() {
  while (true) {
    const res = await pool.query('SELECT pg_try_advisory_lock(1) AS ok');
    if (res.rows[0].ok) return res;
  }
}
`,
      errors: [
        {
          messageId: 'unbounded',
          line: 4, column: 3, endLine: 4, endColumn: 15,
          data: data('postgres', "query", ""),
          suggestions: [],
        },
        {
          messageId: 'noWait',
          line: 4, column: 3, endLine: 4, endColumn: 15,
          data: data('postgres', "query", ""),
          suggestions: [],
        },
      ],
    },
    {
      name: "a try loop left on success through else { break; }",
      code: `import { Pool } from 'pg';
const pool = new Pool();
export async function ping() {
  for (let attempt = 0; attempt < 5; attempt++) {
    let ok = false;
    try {
      await pool.query('SELECT 1');
      ok = true;
    } catch (err) {
      console.warn(err);
    }
    if (!ok) {
      await new Promise((resolve) => setTimeout(resolve, 1000));
    } else {
      break;
    }
  }
}
`,
      errors: [
        {
          messageId: 'constantDelay',
          line: 13, column: 58, endLine: 13, endColumn: 62,
          data: data('postgres', "query", ""),
          suggestions: [
            { messageId: 'useBackoff', output: `import { Pool } from 'pg';
const pool = new Pool();
export async function ping() {
  for (let attempt = 0; attempt < 5; attempt++) {
    let ok = false;
    try {
      await pool.query('SELECT 1');
      ok = true;
    } catch (err) {
      console.warn(err);
    }
    if (!ok) {
      await new Promise((resolve) => setTimeout(resolve, Math.random() * Math.min(60000, 5000 * 2 ** attempt)));
    } else {
      break;
    }
  }
}
` },
          ],
        },
      ],
    },
    {
      name: "a generic retry helper fed a database call by its caller",
      code: `import { Pool } from 'pg';
const pool = new Pool();
async function withRetry(fn) {
  for (;;) {
    try {
      return await fn();
    } catch (err) {
      console.warn(err);
    }
  }
}
export const load = (id) => withRetry(() => pool.query('SELECT * FROM t WHERE id = $1', [id]));
`,
      errors: [
        {
          messageId: 'unbounded',
          line: 4, column: 3, endLine: 4, endColumn: 11,
          data: data('postgres', "query", ""),
          suggestions: [{ messageId: "limitAttempts", output: `import { Pool } from 'pg';
const pool = new Pool();
async function withRetry(fn) {
  let attempt = 0;
  for (;;) {
    try {
      return await fn();
    } catch (err) {
      if (++attempt >= 5) throw err;
      console.warn(err);
      await new Promise((resolve) => setTimeout(resolve, Math.random() * Math.min(60000, 5000 * 2 ** attempt)));
    }
  }
}
export const load = (id) => withRetry(() => pool.query('SELECT * FROM t WHERE id = $1', [id]));
` }],
        },
        {
          messageId: 'noWait',
          line: 4, column: 3, endLine: 4, endColumn: 11,
          data: data('postgres', "query", ""),
          suggestions: [{ messageId: "limitAttempts", output: `import { Pool } from 'pg';
const pool = new Pool();
async function withRetry(fn) {
  let attempt = 0;
  for (;;) {
    try {
      return await fn();
    } catch (err) {
      if (++attempt >= 5) throw err;
      console.warn(err);
      await new Promise((resolve) => setTimeout(resolve, Math.random() * Math.min(60000, 5000 * 2 ** attempt)));
    }
  }
}
export const load = (id) => withRetry(() => pool.query('SELECT * FROM t WHERE id = $1', [id]));
` }],
        },
      ],
    },
    {
      name: "mongoose.connect retried from its callback by a timer (MongoDB connection retry)",
      code: `const mongoose = require('mongoose');
const connectWithRetry = () => {
  mongoose.connect(process.env.MONGO_URL, { serverSelectionTimeoutMS: 5000 }, (err) => {
    if (err) {
      console.error('MongoDB connection failed, retrying in 5 s', err);
      setTimeout(connectWithRetry, 5000);
    }
  });
};
connectWithRetry();
`,
      errors: [
        {
          messageId: 'unbounded',
          line: 2, column: 7, endLine: 2, endColumn: 23,
          data: data('mongodb', "connect", ""),
          suggestions: [],
        },
        {
          messageId: 'constantDelay',
          line: 6, column: 36, endLine: 6, endColumn: 40,
          data: data('mongodb', "connect", ""),
          suggestions: [],
        },
      ],
    },
    {
      name: "client.connect() retried in while (true) with a growing wait but no cap on the attempts and no jitter",
      code: `import { MongoClient } from 'mongodb';
const client = new MongoClient(process.env.MONGO_URL);
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
export async function connect() {
  let n = 0;
  while (true) {
    try {
      await client.connect();
      break;
    } catch (err) {
      n++;
      await sleep(n * 1000);
    }
  }
  return client.db();
}
`,
      errors: [
        {
          messageId: 'unbounded',
          line: 6, column: 3, endLine: 6, endColumn: 15,
          data: data('mongodb', "connect", ""),
          suggestions: [{ messageId: "limitAttempts", output: `import { MongoClient } from 'mongodb';
const client = new MongoClient(process.env.MONGO_URL);
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
export async function connect() {
  let n = 0;
  let attempt = 0;
  while (true) {
    try {
      await client.connect();
      break;
    } catch (err) {
      if (++attempt >= 5) throw err;
      n++;
      await sleep(Math.random() * Math.min(10000, 100 * 2 ** attempt));
    }
  }
  return client.db();
}
` }],
        },
        {
          messageId: 'noJitter',
          line: 12, column: 19, endLine: 12, endColumn: 27,
          data: data('mongodb', "connect", ""),
          suggestions: [{ messageId: "limitAttempts", output: `import { MongoClient } from 'mongodb';
const client = new MongoClient(process.env.MONGO_URL);
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
export async function connect() {
  let n = 0;
  let attempt = 0;
  while (true) {
    try {
      await client.connect();
      break;
    } catch (err) {
      if (++attempt >= 5) throw err;
      n++;
      await sleep(Math.random() * Math.min(10000, 100 * 2 ** attempt));
    }
  }
  return client.db();
}
` }],
        },
      ],
    },
    {
      name: "exponential wait whose bound lets it grow past the service maximum is still uncapped",
      code: `import { MongoClient } from 'mongodb';
const coll = new MongoClient(process.env.MONGO_URL).db().collection('orders');
export async function save(doc) {
  for (let i = 0; i < 8; i++) {
    try {
      return await coll.insertOne(doc);
    } catch (err) {
      const delay = 500 * 2 ** i;
      await new Promise((resolve) => setTimeout(resolve, delay + Math.random() * 100));
    }
  }
  throw new Error('insert failed');
}
`,
      errors: [
        {
          messageId: 'uncappedDelay',
          line: 9, column: 58, endLine: 9, endColumn: 85,
          data: data('mongodb', "insertOne", " (up to 64.1 s)"),
          suggestions: [{ messageId: "useBackoff", output: `import { MongoClient } from 'mongodb';
const coll = new MongoClient(process.env.MONGO_URL).db().collection('orders');
export async function save(doc) {
  for (let i = 0; i < 8; i++) {
    try {
      return await coll.insertOne(doc);
    } catch (err) {
      const delay = 500 * 2 ** i;
      await new Promise((resolve) => setTimeout(resolve, Math.random() * Math.min(10000, 100 * 2 ** i)));
    }
  }
  throw new Error('insert failed');
}
` }],
        },
      ],
    },
    {
      name: "a wait-for-database loop that counts its tries but never stops on them",
      code: `import { Pool } from 'pg';
const pool = new Pool();
async function waitForDb() {
  let tries = 0;
  while (true) {
    try {
      await pool.query('SELECT 1');
      return;
    } catch (err) {
      tries++;
      console.error('database not ready', tries);
      await new Promise((resolve) => setTimeout(resolve, 1000));
    }
  }
}
waitForDb();
`,
      errors: [
        {
          messageId: 'unbounded',
          line: 5, column: 3, endLine: 5, endColumn: 15,
          data: data('postgres', "query", ""),
          suggestions: [{ messageId: "limitAttempts", output: `import { Pool } from 'pg';
const pool = new Pool();
async function waitForDb() {
  let tries = 0;
  while (true) {
    try {
      await pool.query('SELECT 1');
      return;
    } catch (err) {
      if (tries >= 5) throw err;
      tries++;
      console.error('database not ready', tries);
      await new Promise((resolve) => setTimeout(resolve, Math.random() * Math.min(60000, 5000 * 2 ** tries)));
    }
  }
}
waitForDb();
` }],
        },
        {
          messageId: 'constantDelay',
          line: 12, column: 58, endLine: 12, endColumn: 62,
          data: data('postgres', "query", ""),
          suggestions: [
            { messageId: 'useBackoff', output: `import { Pool } from 'pg';
const pool = new Pool();
async function waitForDb() {
  let tries = 0;
  while (true) {
    try {
      await pool.query('SELECT 1');
      return;
    } catch (err) {
      tries++;
      console.error('database not ready', tries);
      await new Promise((resolve) => setTimeout(resolve, Math.random() * Math.min(60000, 5000 * 2 ** tries)));
    }
  }
}
waitForDb();
` },
          ],
        },
      ],
    },
  {
    name: 'a function that calls itself from its catch with a constant wait: an attempt parameter, a limit and backoff',
    code: `import { Pool } from 'pg';
const pool = new Pool();
function sleep(ms: number) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
export async function save(id: string, name: string): Promise<void> {
  try {
    await pool.query('UPDATE users SET name = $2 WHERE id = $1', [id, name]);
  } catch {
    await sleep(2000);
    return save(id, name);
  }
}
`,
    errors: [
      {
        messageId: 'unbounded',
        line: 6,
        data: data('postgres', 'query', ''),
        suggestions: [{ messageId: 'limitAttempts', output: recursionSaveOutput }],
      },
      {
        messageId: 'constantDelay',
        line: 10,
        data: data('postgres', 'query', ''),
        suggestions: [{ messageId: 'limitAttempts', output: recursionSaveOutput }],
      },
    ],
  },
  {
    name: 'an arrow that calls itself from .catch: the limit; no wait fits a handler that is not async',
    code: `import { Pool } from 'pg';
const pool = new Pool();
export const count = (table: string): Promise<unknown> =>
  pool.query(\`SELECT count(*) FROM \${table}\`).catch(() => count(table));
`,
    errors: [
      {
        messageId: 'unbounded',
        line: 3,
        data: data('postgres', 'query', ''),
        suggestions: [{ messageId: 'limitRecursion', data: { variable: 'attempt', maxAttempts: '5' }, output: `import { Pool } from 'pg';
const pool = new Pool();
export const count = (table: string, attempt = 1): Promise<unknown> =>
  pool.query(\`SELECT count(*) FROM \${table}\`).catch((error) => { if (attempt >= 5) throw error; return count(table, attempt + 1); });
` }],
      },
      { messageId: 'noWait', line: 3, data: data('postgres', 'query', ''), suggestions: [] },
    ],
  },
  {
    name: 'a function that calls itself at once from an async .catch handler: the limit and a wait before the call',
    code: `const { Pool } = require('pg');
const pool = new Pool();
async function ping() {
  return pool.query('SELECT 1').catch(async () => {
    return ping();
  });
}
module.exports = { ping };
`,
    errors: [
      { messageId: 'unbounded', line: 3, data: data('postgres', 'query', ''), suggestions: [{ messageId: 'limitAttempts', output: recursionPingOutput }] },
      { messageId: 'noWait', line: 3, data: data('postgres', 'query', ''), suggestions: [{ messageId: 'limitAttempts', output: recursionPingOutput }] },
    ],
  },
  {
    name: 'a timer that calls the retry again with a growing, capped wait and no jitter: the wait times Math.random(); no limit where a throw would reach no caller',
    code: `const { Pool } = require('pg');
const pool = new Pool();
let attempt = 0;
function reconnect() {
  const delay = Math.min(30000, 1000 * 2 ** attempt);
  attempt++;
  setTimeout(() => {
    pool.connect().catch(() => reconnect());
  }, delay);
}
reconnect();
`,
    errors: [
      { messageId: 'unbounded', line: 4, data: data('postgres', 'connect', ''), suggestions: [] },
      { messageId: 'noJitter', line: 9, data: data('postgres', 'connect', ''), suggestions: [{ messageId: 'addJitter', output: `const { Pool } = require('pg');
const pool = new Pool();
let attempt = 0;
function reconnect() {
  const delay = Math.min(30000, 1000 * 2 ** attempt);
  attempt++;
  setTimeout(() => {
    pool.connect().catch(() => reconnect());
  }, Math.random() * delay);
}
reconnect();
` }] },
    ],
  },
  {
    name: 'a timer retry in an event emitter with a counter and no callback: the error goes out as an error event on the same this',
    code: EMITTER_LISTENER,
    errors: [
      {
        messageId: 'unbounded',
        line: 23,
        data: data('postgres', 'connect', ''),
        suggestions: [{ messageId: 'limitTimerRetryEvent', data: { maxAttempts: '5', counter: 'attempt', emitter: 'this' }, output: EMITTER_LISTENER.replace(
            '      attempt++;\n',
            "      attempt++;\n      if (attempt >= 5) {\n        this.emit('error', new Error(`Gave up on PostgreSQL connect after ${attempt} attempts`));\n        return;\n      }\n",
          ) }],
      },
    ],
  },
  {
    name: 'a timer retry whose emitter is a variable: the error event goes to that variable',
    code: EMITTER_VARIABLE_LISTENER,
    errors: [
      {
        messageId: 'unbounded',
        line: 7,
        data: data('postgres', 'connect', ''),
        suggestions: [{ messageId: 'limitTimerRetryEvent', data: { maxAttempts: '5', counter: 'attempts', emitter: 'self' }, output: EMITTER_VARIABLE_LISTENER.replace(
            '    attempts += 1;\n',
            "    attempts += 1;\n    if (attempts >= 5) {\n      self.emit('error', new Error(`Gave up on PostgreSQL connect after ${attempts} attempts`));\n      return;\n    }\n",
          ) }],
      },
    ],
  },
  {
    name: 'a timer retry in an event emitter with no counter: a new attempt parameter, and the error event on this',
    code: `const pg = require('pg');
const { EventEmitter } = require('events');

class Listener extends EventEmitter {
  start(config) {
    const reconnect = () => {
      setTimeout(() => {
        const client = new pg.Client(config);
        client.connect().catch((error) => {
          this.emit('error', error);
          reconnect();
        });
      }, Math.random() * 5000);
    };
    reconnect();
  }
}

module.exports = { Listener };
`,
    errors: [
      {
        messageId: 'unbounded',
        line: 6,
        data: data('postgres', 'connect', ''),
        suggestions: [{ messageId: 'countTimerRetryEvent', data: { maxAttempts: '5', counter: 'attempt', emitter: 'this' }, output: `const pg = require('pg');
const { EventEmitter } = require('events');

class Listener extends EventEmitter {
  start(config) {
    const reconnect = (attempt = 1) => {
      if (attempt >= 5) {
        this.emit('error', new Error(\`Gave up on PostgreSQL connect after \${attempt} attempts\`));
        return;
      }
      setTimeout(() => {
        const client = new pg.Client(config);
        client.connect().catch((error) => {
          this.emit('error', error);
          reconnect(attempt + 1);
        });
      }, Math.random() * 5000);
    };
    reconnect();
  }
}

module.exports = { Listener };
` }],
      },
      { messageId: 'constantDelay', line: 13, data: { ...data('postgres', 'connect', ''), backoff: 'a random time up to min(60 s, 5 s × 2^attempt)' } },
    ],
  },
  {
    name: "a generic retry method of an exported class, fed a DynamoDB call by the class's own code, waiting a setting times 2 ** attempt: no jitter, and the jitter goes on the wait as written",
    code: SETTINGS_RETRY_METHOD,
    errors: [
      {
        messageId: 'noJitter',
        line: 19,
        data: data('dynamodb', 'BatchGetItem', ''),
        suggestions: [{ messageId: 'addJitter', output: SETTINGS_RETRY_METHOD.replace('setTimeout(resolve, delay)', 'setTimeout(resolve, Math.random() * delay)') }],
      },
    ],
  },
  {
    name: 'a generic retry helper whose loop runs in an inner function (compiled async code): the function passed to the helper is still the retried call',
    code: `const { Pool } = require('pg');
const pool = new Pool();
pool.on('error', () => {});
function withRetry(operation) {
  return run(function* () {
    for (;;) {
      try {
        return yield operation();
      } catch (error) {
        console.warn('retrying', error);
      }
    }
  });
}
module.exports = { ping: () => withRetry(() => pool.query('SELECT 1')) };
`,
    errors: [
      { messageId: 'unbounded', line: 6, data: data('postgres', 'query', ''), suggestions: [] },
      { messageId: 'noWait', line: 6, data: data('postgres', 'query', ''), suggestions: [] },
    ],
  },
  {
    name: 'no error-event limit when the retrying function returns a value (a bare return would change it)',
    code: EMITTER_LISTENER.replace('if (closed) return;', 'if (closed) return true;').replace('}, backoff);\n', '}, backoff);\n      return false;\n'),
    errors: [{ messageId: 'unbounded', line: 23, data: data('postgres', 'connect', ''), suggestions: [] }],
  },
  {
    name: 'no error-event limit when the emit is on the this of another function',
    code: `const { Pool } = require('pg');
const pool = new Pool();
function Watcher() {
  this.attempt = 0;
}
Watcher.prototype.onError = function (error) {
  this.emit('error', error);
};
Watcher.prototype.start = function () {
  const retry = () => {
    this.attempt++;
    setTimeout(() => {
      pool.connect().catch(() => retry());
    }, Math.random() * Math.min(60000, 5000 * 2 ** this.attempt));
  };
  retry();
};
module.exports = { Watcher };
`,
    errors: [{ messageId: 'unbounded', line: 10, data: data('postgres', 'connect', ''), suggestions: [] }],
  },
];

/**
 * Every suggestion that is the only problem of its case must itself pass the rule:
 * re-lint the suggested code as a valid case.
 */
const suggestedOutputs: ValidCase[] = invalid.flatMap((testCase) =>
  testCase.errors.length !== 1
    ? []
    : testCase.errors.flatMap((error) =>
        (typeof error === 'object' && 'suggestions' in error ? (error.suggestions ?? []) : []).map((suggestion) => ({
          name: `suggestion output of ${testCase.name ?? 'case'} passes`,
          code: suggestion.output,
          ...(testCase.options ? { options: testCase.options } : {}),
        })),
      ),
);

ruleTester.run('require-retry-backoff', rule, { valid: [...valid, ...suggestedOutputs], invalid });
