import rule from '../../../eslint-plugin/src/rules/no-retry-on-permanent-error';
import { createRuleTester, createTypedRuleTester, typedFilename } from '../rule-tester';

const ruleTester = createRuleTester();

const DYNAMODB_WRITE = {
  database: 'DynamoDB',
  examples: '`ConditionalCheckFailedException`, `ValidationException`',
  transient: 'throttling and 5xx errors',
};
const POSTGRES_TRANSIENT = 'connection errors and 40001, 40P01, 57P01';
const POSTGRES_WRITE = {
  database: 'PostgreSQL',
  examples: '23505 unique_violation, 42P01 undefined_table',
  transient: POSTGRES_TRANSIENT,
};

const ddbV3 = `import { DynamoDBClient, PutItemCommand } from '@aws-sdk/client-dynamodb';
const client = new DynamoDBClient({});
`;

/** A v3 PutItem retried by a loop whose catch is `handler`. */
const ddbLoop = (handler: string) => `${ddbV3}export async function save(item) {
  for (let attempt = 0; attempt < 5; attempt++) {
    try {
      return await client.send(new PutItemCommand({ TableName: 'orders', Item: item }));
    } catch (err) {
${handler}
    }
  }
}`;


/** A method that retries itself after error 42704 (undefined_object), running `branch` first. */
const slotRetry = (branch: string) => `import { Pool } from 'pg';
const pool = new Pool();
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
export class Slot {
  async createSlot() { await pool.query("SELECT pg_create_logical_replication_slot($1, 'wal2json')", ['s']); }
  async getChanges() {
    try {
      const { rows } = await pool.query('SELECT * FROM pg_logical_slot_get_changes($1, NULL, NULL)', ['s']);
      return rows;
    } catch (e) {
      if (e.code === '42704') {
${branch}
        await sleep(500);
        return this.getChanges();
      }
      throw e;
    }
  }
}`;

/** The same retry written as a guard that rethrows every other error, then `rest`. */
const guardedSlotRetry = (rest: string) => `import { Pool } from 'pg';
const pool = new Pool();
async function createSlot() { await pool.query("SELECT pg_create_logical_replication_slot($1, 'wal2json')", ['s']); }
export async function getChanges() {
  try {
    const { rows } = await pool.query('SELECT * FROM pg_logical_slot_get_changes($1, NULL, NULL)', ['s']);
    return rows;
  } catch (e) {
    if (e.code !== '42704') throw e;
${rest}
    return getChanges();
  }
}`;

ruleTester.run('no-retry-on-permanent-error', rule, {
  valid: [
    guardedSlotRetry('    await createSlot();'),
    // The branch makes what was missing before trying again: a repair, not a blind retry.
    slotRetry('        await this.createSlot();'),
    slotRetry("        await pool.query('CREATE TABLE IF NOT EXISTS slots (name text)');"),
    `import { DynamoDBClient, PutItemCommand } from '@aws-sdk/client-dynamodb';
const client = new DynamoDBClient({});
async function ensureTable() {}
export async function save(item) {
  for (let attempt = 0; attempt < 5; attempt++) {
    try {
      return await client.send(new PutItemCommand({ TableName: 'orders', Item: item }));
    } catch (err) {
      switch (err.name) {
        case 'ResourceNotFoundException':
          await ensureTable();
          continue;
        default:
          throw err;
      }
    }
  }
}`,
    // Retries that check the exception name against the throttling errors.
    ddbLoop(`      if (err.name !== 'ProvisionedThroughputExceededException' && err.name !== 'ThrottlingException') throw err;
      await sleep(Math.random() * 100 * 2 ** attempt);`),
    ddbLoop(`      if (!['ThrottlingException', 'RequestLimitExceeded'].includes(err.name) || attempt === 4) throw err;`),
    // SDK v3's own classification, the HTTP status, a helper, instanceof.
    ddbLoop(`      if (!err.$retryable || attempt === 4) throw err;`),
    ddbLoop(`      if ((err.$metadata?.httpStatusCode ?? 500) < 500) throw err;`),
    ddbLoop(`      if (!isRetryableError(err)) throw err;`),
    ddbLoop(`      if (err instanceof ConditionalCheckFailedException) throw err;`),
    // A deny-list of the permanent errors.
    ddbLoop(`      if (err.name === 'ConditionalCheckFailedException' || err.name === 'ValidationException') throw err;`),
    ddbLoop(`      switch (err.name) {
        case 'ThrottlingException':
        case 'InternalServerError':
          continue;
        default:
          throw err;
      }`),
    // A cancelled transaction retried when DynamoDB says it conflicted with another one.
    ddbLoop(`      const conflict = err.name === 'TransactionCanceledException' && err.CancellationReasons?.some((reason) => reason.Code === 'TransactionConflict');
      if (!conflict) throw err;`),
    // p-retry with shouldRetry that bails on ConditionalCheckFailed.
    `import pRetry from 'p-retry';
import { DynamoDBDocumentClient, PutCommand } from '@aws-sdk/lib-dynamodb';
const doc = DynamoDBDocumentClient.from(client);
await pRetry(() => doc.send(new PutCommand({ TableName: 't', Item: item })), {
  retries: 5,
  randomize: true,
  shouldRetry: (error) => error.name !== 'ConditionalCheckFailedException',
});`,
    // p-retry: AbortError on permanent errors.
    `import pRetry, { AbortError } from 'p-retry';
import { DynamoDBDocumentClient, PutCommand } from '@aws-sdk/lib-dynamodb';
const doc = DynamoDBDocumentClient.from(client);
await pRetry(async () => {
  try {
    return await doc.send(new PutCommand({ TableName: 't', Item: item }));
  } catch (error) {
    if (error.name === 'ConditionalCheckFailedException') throw new AbortError(error.message);
    throw error;
  }
}, { randomize: true });`,
    // async-retry bails on 23505 (postgres.js).
    `import retry from 'async-retry';
import postgres from 'postgres';
const sql = postgres();
await retry(async (bail) => {
  try {
    await sql\`insert into orders \${sql(order)}\`;
  } catch (err) {
    if (err.code === '23505') return bail(err);
    throw err;
  }
}, { retries: 3 });`,
    // pg: only connection errors are retried (CJS).
    `const { Pool } = require('pg');
const pool = new Pool();
const TRANSIENT = new Set(['ECONNRESET', 'ECONNREFUSED', '57P01', '57P03', '40001']);
async function run(text, values) {
  for (let attempt = 1; ; attempt++) {
    try {
      return await pool.query(text, values);
    } catch (error) {
      if (attempt >= 5 || !(TRANSIENT.has(error.code) || error.code?.startsWith('08'))) throw error;
      await sleep(Math.min(60000, 5000 * 2 ** attempt) * Math.random());
    }
  }
}`,
    // MongoDB: retry only what the driver labels retryable.
    `import { MongoClient } from 'mongodb';
const orders = new MongoClient(url).db().collection('orders');
export async function add(order) {
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      return await orders.insertOne(order);
    } catch (e) {
      if (!e.hasErrorLabel('RetryableWriteError')) throw e;
    }
  }
}`,
    // Opening a connection is retried on any failure by design.
    `import pg from 'pg';
const client = new pg.Client();
for (let attempt = 0; attempt < 5; attempt++) {
  try {
    await client.connect();
    break;
  } catch (err) {
    await sleep(5000 * 2 ** attempt);
  }
}`,
    // A connectivity probe and waiting for a table to exist are retried on any error by design.
    `import { Pool } from 'pg';
const pool = new Pool();
for (let attempt = 0; attempt < 10; attempt++) {
  try {
    await pool.query('SELECT 1');
    break;
  } catch (err) {
    await sleep(5000);
  }
}`,
    `import { DynamoDBClient, DescribeTableCommand } from '@aws-sdk/client-dynamodb';
const client = new DynamoDBClient({});
for (let attempt = 0; attempt < 10; attempt++) {
  try {
    await client.send(new DescribeTableCommand({ TableName: 'orders' }));
    break;
  } catch (err) {
    await sleep(1000);
  }
}`,
    // The same loop around S3 and SQS calls: not a database.
    `import { S3Client, PutObjectCommand } from '@aws-sdk/client-s3';
import { SQSClient, SendMessageCommand } from '@aws-sdk/client-sqs';
const s3 = new S3Client({});
const sqs = new SQSClient({});
for (let attempt = 0; attempt < 5; attempt++) {
  try {
    await s3.send(new PutObjectCommand({ Bucket: 'b', Key: 'k', Body: 'x' }));
    await sqs.send(new SendMessageCommand({ QueueUrl: 'q', MessageBody: 'x' }));
    break;
  } catch (err) {
    await sleep(100);
  }
}`,
    // mysql2 and Prisma: other clients.
    `import mysql from 'mysql2/promise';
const conn = await mysql.createConnection({});
for (let attempt = 0; attempt < 5; attempt++) {
  try {
    await conn.query('INSERT INTO t VALUES (1)');
    break;
  } catch (err) {
    await sleep(100);
  }
}`,
    `import { PrismaClient } from '@prisma/client';
const prisma = new PrismaClient();
for (let attempt = 0; attempt < 5; attempt++) {
  try {
    await prisma.user.updateMany({ where: { active: false }, data: { active: true } });
    break;
  } catch (err) {
    await sleep(100);
  }
}`,
    // A loop over items is not a retry.
    `${ddbV3}for (const item of items) {
  try {
    await client.send(new PutItemCommand({ TableName: 'orders', Item: item }));
  } catch (err) {
    console.error(err);
  }
}`,
    // Optimistic locking: each attempt reads the item again, so a failed condition may pass next time.
    `import { DynamoDBDocumentClient, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
const doc = DynamoDBDocumentClient.from(client);
export async function increment(pk) {
  for (let attempt = 0; attempt < 5; attempt++) {
    const { Item } = await doc.send(new GetCommand({ TableName: 't', Key: { pk } }));
    try {
      await doc.send(new PutCommand({
        TableName: 't',
        Item: { pk, n: Item.n + 1, version: Item.version + 1 },
        ConditionExpression: 'version = :v',
        ExpressionAttributeValues: { ':v': Item.version },
      }));
      return;
    } catch (err) {
      if (err.name !== 'ConditionalCheckFailedException') throw err;
    }
  }
}`,
    // A new random code per attempt: a duplicate key may not happen again.
    `import { Pool } from 'pg';
const pool = new Pool();
export async function createShortLink(url) {
  for (let attempt = 0; attempt < 5; attempt++) {
    const code = makeCode(6);
    try {
      return await pool.query('INSERT INTO links (code, url) VALUES ($1, $2)', [code, url]);
    } catch (err) {
      if (err.code !== '23505') throw err;
    }
  }
}`,
    // pg callback retried only on a dropped connection.
    `const { Pool } = require('pg');
const pool = new Pool();
function insert(row, attempt, done) {
  pool.query('INSERT INTO t VALUES ($1)', [row], (error) => {
    if (error && error.code === 'ECONNRESET' && attempt < 3) return insert(row, attempt + 1, done);
    done(error);
  });
}`,
    // node-retry with a check before operation.retry(err).
    `const retry = require('retry');
const { Pool } = require('pg');
const pool = new Pool();
const operation = retry.operation({ retries: 5, randomize: true });
operation.attempt(async () => {
  try {
    await pool.query('INSERT INTO t (id) VALUES ($1)', [1]);
  } catch (err) {
    if (err.code === 'ECONNRESET' && operation.retry(err)) return;
    throw err;
  }
});`,
    // The predicate is built elsewhere: the rule cannot read it.
    `import pRetry from 'p-retry';
import { DynamoDBDocumentClient, PutCommand } from '@aws-sdk/lib-dynamodb';
const doc = DynamoDBDocumentClient.from(client);
await pRetry(() => doc.send(new PutCommand({ TableName: 't', Item: item })), { shouldRetry: isTransient });`,
    // A catch that continues only for a serialization failure (40001) and rethrows the rest.
    `import { Pool } from 'pg';
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
    // A retry flag set only after the error was checked.
    `import { Pool } from 'pg';
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
    // A flag computed from the error (`retry = status >= 500 || …`): retried only when the check passes.
    `import { DynamoDBClient, PutItemCommand } from '@aws-sdk/client-dynamodb';
const client = new DynamoDBClient({});
export async function save(params: any) {
  let retries = 0;
  let retry = false;
  do {
    retry = false;
    try {
      await client.send(new PutItemCommand(params));
    } catch (err: any) {
      const status = err.$metadata?.httpStatusCode ?? 0;
      retry = status >= 500 || err.name === 'ThrottlingException';
      if (!retry) throw err;
    }
  } while (retry && retries++ < 10);
}
`,
    // A retry flag computed from a check of the error: a checked decision, not "every error".
    `import { Pool } from 'pg';
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
    `import { Pool } from 'pg';
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
    // An error-first callback that returns on the error first: the resend of leftovers runs on success only.
    `const AWS = require('aws-sdk');
const documents = new AWS.DynamoDB.DocumentClient();
function putItems(options, done) {
  documents.batchWrite({ RequestItems: { t: options.items } }, function (err, data) {
    if (err) {
      return done(err);
    }
    const left = data.UnprocessedItems.t;
    if (left !== undefined) {
      options.items = left;
      return setTimeout(function () { putItems(options, done); }, 2 ** options.retries++ * 100);
    }
    done(null);
  });
}
module.exports = { putItems };
`,
    // A listener reconnected through a local function: LISTEN sets up the new connection's session and is retried with it.
    {
      filename: 'listener.js',
      code: `const pg = require('pg');
function listen(config, channel) {
  const connect = async () => {
    const client = new pg.Client(config);
    await client.connect();
    await client.query(\`LISTEN "\${channel}"\`);
    return client;
  };
  const reconnect = (attempt) => {
    setTimeout(() => {
      connect().catch(() => { if (attempt < 5) reconnect(attempt + 1); });
    }, Math.random() * Math.min(60000, 5000 * 2 ** attempt));
  };
  return connect().catch(() => reconnect(1));
}
module.exports = { listen };
`,
    },
  ],
  invalid: [
    {
      code: guardedSlotRetry("    console.warn('slot went away');"),
      errors: [{ messageId: 'retriesPermanentError', data: { database: 'PostgreSQL', value: '42704' }, line: 9 }],
    },
    // The branch for the missing object only logs (or starts a repair it does not wait for) and tries again.
    ...["        console.warn('Replication slot went away?');", '        this.createSlot();', '        await report(e);'].map((branch) => ({
      code: slotRetry(branch),
      errors: [{ messageId: 'retriesPermanentError' as const, data: { database: 'PostgreSQL', value: '42704' }, line: 11 }],
    })),
    {
      // A retry helper of the file fed the query by its caller: the error check in the helper lets 23505 through.
      code: `import { Pool } from 'pg';
const pool = new Pool();
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
async function withRetry<T>(work: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await work();
    } catch (e: any) {
      if (e.code !== '23505' || attempt === 5) throw e;
      await sleep(Math.random() * Math.min(60000, 5000 * 2 ** attempt));
    }
  }
}
export const save = (id: string) => withRetry(() => pool.query('INSERT INTO t VALUES ($1)', [id]));
`,
      errors: [{ messageId: 'retriesPermanentError', data: { database: 'PostgreSQL', value: '23505' }, line: 9 }],
    },
    {
      // A predicate of the file, read through its call: the permanent error it lists is named there.
      code: `import { DynamoDBClient, PutItemCommand } from '@aws-sdk/client-dynamodb';
const client = new DynamoDBClient({});
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
function isRetryable(error: unknown): boolean {
  const name = (error as { name?: string } | undefined)?.name ?? '';
  return ['ThrottlingException', 'ValidationException'].includes(name);
}
export async function save(item: Record<string, never>) {
  for (let attempt = 0; attempt < 5; attempt++) {
    try {
      return await client.send(new PutItemCommand({ TableName: 'items', Item: item }));
    } catch (err) {
      if (!isRetryable(err) || attempt === 4) throw err;
      await sleep(Math.random() * Math.min(20000, 50 * 2 ** attempt));
    }
  }
}`,
      errors: [{ messageId: 'retriesPermanentError', data: { database: 'DynamoDB', value: 'ValidationException' }, line: 6, column: 34 }],
    },
    {
      // A retry flag computed from the error that lets a permanent error through.
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
      retry = e.code === '23505';
    }
  } while (retry && n++ < 5);
}
`,
      errors: [
        {
          messageId: 'retriesPermanentError',
          data: { database: 'PostgreSQL', value: '23505' },
          line: 12,
          column: 26,
          endLine: 12,
          endColumn: 33,
        },
      ],
    },
    {
      // SDK v3 PutItem retried on every error.
      code: ddbLoop(`      if (attempt === 4) throw err;
      await sleep(Math.random() * 100 * 2 ** attempt);`),
      errors: [
        {
          messageId: 'retriesEveryError',
          data: { origin: '', ...DYNAMODB_WRITE, operation: 'PutItem' },
          line: 7,
          column: 7,
          endLine: 7,
          endColumn: 18,
          suggestions: [
            {
              messageId: 'rethrowPermanentErrors',
              output: `import { DynamoDBClient, PutItemCommand } from '@aws-sdk/client-dynamodb';

/** Whether a DynamoDB error may pass on retry: throttling, a 5xx, a lost connection. */
function isTransientDynamoDbError(error: unknown): boolean {
  const transientNames = [
    'ProvisionedThroughputExceededException', 'ThrottlingException', 'Throttling',
    'RequestLimitExceeded', 'TooManyRequestsException', 'LimitExceededException',
    'TransactionConflictException', 'TransactionInProgressException', 'InternalServerError',
    'InternalFailure', 'ServiceUnavailable', 'ServiceUnavailableException', 'RequestTimeout',
    'RequestTimeoutException', 'TimeoutError', 'ECONNRESET', 'ECONNREFUSED', 'ETIMEDOUT', 'EPIPE',
    'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND',
  ];
  const { name, code, $retryable, retryable, $metadata, statusCode } = (error ?? {}) as { name?: unknown; code?: unknown; $retryable?: unknown; retryable?: unknown; $metadata?: { httpStatusCode?: number }; statusCode?: number };
  if ($retryable || retryable === true) return true;
  const status = $metadata?.httpStatusCode ?? statusCode;
  if (status !== undefined && status >= 500) return true;
  return transientNames.some((transient) => transient === name || transient === code);
}

const client = new DynamoDBClient({});
export async function save(item) {
  for (let attempt = 0; attempt < 5; attempt++) {
    try {
      return await client.send(new PutItemCommand({ TableName: 'orders', Item: item }));
    } catch (err) {
      if (attempt === 4) throw err;
      if (!isTransientDynamoDbError(err)) throw err;
      await sleep(Math.random() * 100 * 2 ** attempt);
    }
  }
}`,
            },
          ],
        },
      ],
    },
    {
      // A check that explicitly lets a permanent error through.
      code: ddbLoop(`      if (err.name === 'ThrottlingException' || err.name === 'ConditionalCheckFailedException') {
        await sleep(100 * 2 ** attempt);
      } else {
        throw err;
      }`),
      errors: [
        {
          messageId: 'retriesPermanentError',
          data: { database: 'DynamoDB', value: 'ConditionalCheckFailedException' },
          line: 8,
          column: 62,
          endLine: 8,
          endColumn: 95,
        },
      ],
    },
    {
      // Every error retried around an optimistic-locking write: the message leaves the condition failure out.
      code: `import { DynamoDBDocumentClient, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
const doc = DynamoDBDocumentClient.from(client);
export async function increment(pk) {
  for (let attempt = 0; attempt < 5; attempt++) {
    const { Item } = await doc.send(new GetCommand({ TableName: 't', Key: { pk } }));
    try {
      await doc.send(new PutCommand({ TableName: 't', Item: { pk, n: Item.n + 1 }, ConditionExpression: 'n = :n', ExpressionAttributeValues: { ':n': Item.n } }));
      return;
    } catch (err) {
      if (attempt === 4) throw err;
    }
  }
}`,
      errors: [
        {
          messageId: 'retriesEveryError',
          data: { origin: '',
            ...DYNAMODB_WRITE,
            operation: 'PutItem',
            examples: '`ValidationException`, `ResourceNotFoundException`',
          },
          line: 9,
          column: 7,
          endLine: 9,
          endColumn: 18,
          suggestions: [
            {
              messageId: 'rethrowPermanentErrors',
              output: `import { DynamoDBDocumentClient, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';

/** Whether a DynamoDB error may pass on retry: throttling, a 5xx, a lost connection. */
function isTransientDynamoDbError(error: unknown): boolean {
  const transientNames = [
    'ProvisionedThroughputExceededException', 'ThrottlingException', 'Throttling',
    'RequestLimitExceeded', 'TooManyRequestsException', 'LimitExceededException',
    'TransactionConflictException', 'TransactionInProgressException', 'InternalServerError',
    'InternalFailure', 'ServiceUnavailable', 'ServiceUnavailableException', 'RequestTimeout',
    'RequestTimeoutException', 'TimeoutError', 'ECONNRESET', 'ECONNREFUSED', 'ETIMEDOUT', 'EPIPE',
    'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND',
  ];
  const { name, code, $retryable, retryable, $metadata, statusCode } = (error ?? {}) as { name?: unknown; code?: unknown; $retryable?: unknown; retryable?: unknown; $metadata?: { httpStatusCode?: number }; statusCode?: number };
  if ($retryable || retryable === true) return true;
  const status = $metadata?.httpStatusCode ?? statusCode;
  if (status !== undefined && status >= 500) return true;
  return transientNames.some((transient) => transient === name || transient === code);
}

const doc = DynamoDBDocumentClient.from(client);
export async function increment(pk) {
  for (let attempt = 0; attempt < 5; attempt++) {
    const { Item } = await doc.send(new GetCommand({ TableName: 't', Key: { pk } }));
    try {
      await doc.send(new PutCommand({ TableName: 't', Item: { pk, n: Item.n + 1 }, ConditionExpression: 'n = :n', ExpressionAttributeValues: { ':n': Item.n } }));
      return;
    } catch (err) {
      if (attempt === 4) throw err;
      if (!isTransientDynamoDbError(err)) throw err;
    }
  }
}`,
            },
          ],
        },
      ],
    },
    {
      // pg (CJS), recursive retry.
      code: `const { Pool } = require('pg');
const pool = new Pool();
async function insertOrder(order, attempt = 0) {
  try {
    return await pool.query('INSERT INTO orders (id, total) VALUES ($1, $2)', [order.id, order.total]);
  } catch (error) {
    if (attempt < 3) return insertOrder(order, attempt + 1);
    throw error;
  }
}`,
      errors: [
        {
          messageId: 'retriesEveryError',
          data: { origin: '', ...POSTGRES_WRITE, operation: 'query' },
          line: 6,
          column: 5,
          endLine: 6,
          endColumn: 18,
          suggestions: [
            {
              messageId: 'rethrowPermanentErrors',
              output: `const { Pool } = require('pg');

/** Whether a PostgreSQL error may pass on retry: a lost or refused connection, a serialization failure, a deadlock. */
function isTransientPgError(error: unknown): boolean {
  const transientCodes = [
    '57P01', '57P02', '57P03', '40001', '40P01', '53300', 'ECONNRESET', 'ECONNREFUSED',
    'ETIMEDOUT', 'EPIPE', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND',
  ];
  const transientClasses = ['08'];
  const transientMessages = [
    'Connection terminated', 'timeout exceeded when trying to connect',
    'Client has encountered a connection error', 'the database system is starting up',
    'the database system is shutting down', 'terminating connection',
  ];
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  if (typeof code === 'string' && (transientCodes.includes(code) || transientClasses.includes(code.slice(0, 2)))) return true;
  return typeof message === 'string' && transientMessages.some((part) => message.includes(part));
}

const pool = new Pool();
async function insertOrder(order, attempt = 0) {
  try {
    return await pool.query('INSERT INTO orders (id, total) VALUES ($1, $2)', [order.id, order.total]);
  } catch (error) {
    if (!isTransientPgError(error)) throw error;
    if (attempt < 3) return insertOrder(order, attempt + 1);
    throw error;
  }
}`,
            },
          ],
        },
      ],
    },
    {
      // pg: a list of codes that includes 23505.
      code: `import { Pool } from 'pg';
const pool = new Pool();
const RETRY_CODES = ['40001', '23505'];
export async function insert(row) {
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      return await pool.query('INSERT INTO t (id) VALUES ($1)', [row.id]);
    } catch (error) {
      if (!RETRY_CODES.includes(error.code)) throw error;
    }
  }
}`,
      errors: [
        {
          messageId: 'retriesPermanentError',
          data: { database: 'PostgreSQL', value: '23505' },
          line: 3,
          column: 31,
          endLine: 3,
          endColumn: 38,
        },
      ],
    },
    {
      // p-retry with no shouldRetry, lib-dynamodb.
      code: `import pRetry from 'p-retry';
import { DynamoDBDocumentClient, UpdateCommand } from '@aws-sdk/lib-dynamodb';
const doc = DynamoDBDocumentClient.from(new DynamoDBClient({}));
await pRetry(() => doc.send(new UpdateCommand({ TableName: 't', Key: { pk: 'a' }, UpdateExpression: 'SET n = :n' })), { retries: 5, randomize: true });`,
      errors: [
        {
          messageId: 'retriesEveryError',
          data: { origin: '', ...DYNAMODB_WRITE, operation: 'UpdateItem' },
          line: 4,
          column: 7,
          endLine: 4,
          endColumn: 13,
        },
      ],
    },
    {
      // SDK v2 DocumentClient, `.catch(() => retry())`.
      code: `const AWS = require('aws-sdk');
const db = new AWS.DynamoDB.DocumentClient();
function put(item, retries) {
  return db.put({ TableName: 't', Item: item }).promise().catch((err) => retryPut(item, retries - 1));
}`,
      errors: [
        {
          messageId: 'retriesEveryError',
          data: { origin: '', ...DYNAMODB_WRITE, operation: 'PutItem' },
          line: 4,
          column: 59,
          endLine: 4,
          endColumn: 64,
          suggestions: [
            {
              messageId: 'rethrowPermanentErrors',
              output: `const AWS = require('aws-sdk');

/** Whether a DynamoDB error may pass on retry: throttling, a 5xx, a lost connection. */
function isTransientDynamoDbError(error: unknown): boolean {
  const transientNames = [
    'ProvisionedThroughputExceededException', 'ThrottlingException', 'Throttling',
    'RequestLimitExceeded', 'TooManyRequestsException', 'LimitExceededException',
    'TransactionConflictException', 'TransactionInProgressException', 'InternalServerError',
    'InternalFailure', 'ServiceUnavailable', 'ServiceUnavailableException', 'RequestTimeout',
    'RequestTimeoutException', 'TimeoutError', 'ECONNRESET', 'ECONNREFUSED', 'ETIMEDOUT', 'EPIPE',
    'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND',
  ];
  const { name, code, $retryable, retryable, $metadata, statusCode } = (error ?? {}) as { name?: unknown; code?: unknown; $retryable?: unknown; retryable?: unknown; $metadata?: { httpStatusCode?: number }; statusCode?: number };
  if ($retryable || retryable === true) return true;
  const status = $metadata?.httpStatusCode ?? statusCode;
  if (status !== undefined && status >= 500) return true;
  return transientNames.some((transient) => transient === name || transient === code);
}

const db = new AWS.DynamoDB.DocumentClient();
function put(item, retries) {
  return db.put({ TableName: 't', Item: item }).promise().catch((err) => {
    if (!isTransientDynamoDbError(err)) throw err;
    return retryPut(item, retries - 1);
  });
}`,
            },
          ],
        },
      ],
    },
    {
      // MongoDB insert retried on anything, including 11000.
      code: `import { MongoClient } from 'mongodb';
const orders = new MongoClient(url).db().collection('orders');
export async function add(order) {
  let attempt = 0;
  while (true) {
    try {
      await orders.insertOne(order);
      return;
    } catch (e) {
      if (++attempt > 3) throw e;
    }
  }
}`,
      errors: [
        {
          messageId: 'retriesEveryError',
          data: { origin: '',
            database: 'MongoDB',
            operation: 'insertOne',
            examples: '11000 duplicate key',
            transient: 'errors labelled `RetryableWriteError` or `TransientTransactionError`',
          },
          line: 9,
          column: 7,
          endLine: 9,
          endColumn: 16,
          suggestions: [
            {
              messageId: 'rethrowPermanentErrors',
              output: `import { MongoClient } from 'mongodb';

/** Whether a MongoDB error may pass on retry: labelled so by the driver, a network error, a primary election. */
function isTransientMongoError(error: unknown): boolean {
  const transientLabels = [
    'RetryableWriteError', 'TransientTransactionError', 'UnknownTransactionCommitResult',
  ];
  const transientCodes = [
    6, 7, 89, 91, 112, 134, 189, 262, 9001, 10107, 11600, 11602, 13435, 13436,
  ];
  const transientNames = [
    'MongoNetworkError', 'MongoNetworkTimeoutError', 'MongoServerSelectionError',
    'MongoServerClosedError', 'MongoPoolClearedError', 'NotWritablePrimary', 'PrimarySteppedDown',
    'WriteConflict', 'NetworkTimeout', 'HostUnreachable', 'ShutdownInProgress',
  ];
  const { code, codeName, name, errorLabels } = (error ?? {}) as { code?: unknown; codeName?: unknown; name?: unknown; errorLabels?: unknown };
  if (Array.isArray(errorLabels) && errorLabels.some((label) => transientLabels.includes(label))) return true;
  if (typeof code === 'number' && transientCodes.includes(code)) return true;
  return transientNames.some((transient) => transient === codeName || transient === name);
}

const orders = new MongoClient(url).db().collection('orders');
export async function add(order) {
  let attempt = 0;
  while (true) {
    try {
      await orders.insertOne(order);
      return;
    } catch (e) {
      if (++attempt > 3) throw e;
      if (!isTransientMongoError(e)) throw e;
    }
  }
}`,
            },
          ],
        },
      ],
    },
    {
      // exponential-backoff predicate that retries everything, pg read.
      code: `import { backOff } from 'exponential-backoff';
import { Pool } from 'pg';
const pool = new Pool();
await backOff(() => pool.query('SELECT * FROM orders'), { retry: (e) => true });`,
      errors: [
        {
          messageId: 'retriesEveryError',
          data: { origin: '',
            database: 'PostgreSQL',
            operation: 'query',
            examples: '42601 syntax_error, 42P01 undefined_table',
            transient: POSTGRES_TRANSIENT,
          },
          line: 4,
          column: 59,
          endLine: 4,
          endColumn: 64,
        },
      ],
    },
    {
      // node-retry: operation.retry(err) for any error.
      code: `const retry = require('retry');
const { Pool } = require('pg');
const pool = new Pool();
function insert(row) {
  return new Promise((resolve, reject) => {
    const operation = retry.operation({ retries: 5, randomize: true });
    operation.attempt(async () => {
      try {
        resolve(await pool.query('INSERT INTO t (id) VALUES ($1)', [row.id]));
      } catch (err) {
        if (operation.retry(err)) return;
        reject(operation.mainError());
      }
    });
  });
}`,
      errors: [
        {
          messageId: 'retriesEveryError',
          data: { origin: '', ...POSTGRES_WRITE, operation: 'query' },
          line: 10,
          column: 9,
          endLine: 10,
          endColumn: 20,
          suggestions: [
            {
              messageId: 'rethrowPermanentErrors',
              output: `const retry = require('retry');
const { Pool } = require('pg');

/** Whether a PostgreSQL error may pass on retry: a lost or refused connection, a serialization failure, a deadlock. */
function isTransientPgError(error: unknown): boolean {
  const transientCodes = [
    '57P01', '57P02', '57P03', '40001', '40P01', '53300', 'ECONNRESET', 'ECONNREFUSED',
    'ETIMEDOUT', 'EPIPE', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND',
  ];
  const transientClasses = ['08'];
  const transientMessages = [
    'Connection terminated', 'timeout exceeded when trying to connect',
    'Client has encountered a connection error', 'the database system is starting up',
    'the database system is shutting down', 'terminating connection',
  ];
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  if (typeof code === 'string' && (transientCodes.includes(code) || transientClasses.includes(code.slice(0, 2)))) return true;
  return typeof message === 'string' && transientMessages.some((part) => message.includes(part));
}

const pool = new Pool();
function insert(row) {
  return new Promise((resolve, reject) => {
    const operation = retry.operation({ retries: 5, randomize: true });
    operation.attempt(async () => {
      try {
        resolve(await pool.query('INSERT INTO t (id) VALUES ($1)', [row.id]));
      } catch (err) {
        if (!isTransientPgError(err)) throw err;
        if (operation.retry(err)) return;
        reject(operation.mainError());
      }
    });
  });
}`,
            },
          ],
        },
      ],
    },
    {
      // SDK v2 with a callback: the function calls itself from the error branch.
      code: `const AWS = require('aws-sdk');
const db = new AWS.DynamoDB.DocumentClient();
function save(item, attempt, done) {
  db.put({ TableName: 't', Item: item }, (err) => {
    if (err) {
      if (attempt < 3) return setTimeout(() => save(item, attempt + 1, done), 100 * 2 ** attempt);
      return done(err);
    }
    done();
  });
}`,
      errors: [
        {
          messageId: 'retriesEveryError',
          data: { origin: '', ...DYNAMODB_WRITE, operation: 'PutItem' },
          line: 4,
          column: 6,
          endLine: 4,
          endColumn: 9,
        },
      ],
    },
    {
      // promise-retry: `.catch(retry)` hands every error back (postgres.js).
      code: `const promiseRetry = require('promise-retry');
const postgres = require('postgres');
const sql = postgres();
promiseRetry((retry) => sql\`update jobs set done = true where id = \${id}\`.catch(retry), { retries: 3 });`,
      errors: [
        {
          messageId: 'retriesEveryError',
          data: { origin: '', ...POSTGRES_WRITE, operation: 'query' },
          line: 4,
          column: 81,
          endLine: 4,
          endColumn: 86,
        },
      ],
    },
    {
      // do { retry = false; try … catch { retry = true; } } while (retry && n++ < 5): every error sets the flag.
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
          messageId: 'retriesEveryError',
          data: { origin: '', ...POSTGRES_WRITE, operation: 'query' },
          line: 10,
          column: 7,
          endLine: 10,
          endColumn: 16,
          suggestions: [
            {
              messageId: 'rethrowPermanentErrors',
              output: `import { Pool } from 'pg';

/** Whether a PostgreSQL error may pass on retry: a lost or refused connection, a serialization failure, a deadlock. */
function isTransientPgError(error: unknown): boolean {
  const transientCodes = [
    '57P01', '57P02', '57P03', '40001', '40P01', '53300', 'ECONNRESET', 'ECONNREFUSED',
    'ETIMEDOUT', 'EPIPE', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND',
  ];
  const transientClasses = ['08'];
  const transientMessages = [
    'Connection terminated', 'timeout exceeded when trying to connect',
    'Client has encountered a connection error', 'the database system is starting up',
    'the database system is shutting down', 'terminating connection',
  ];
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  if (typeof code === 'string' && (transientCodes.includes(code) || transientClasses.includes(code.slice(0, 2)))) return true;
  return typeof message === 'string' && transientMessages.some((part) => message.includes(part));
}

const pool = new Pool();
export async function upd(id: string) {
  let retry = false;
  let n = 0;
  do {
    retry = false;
    try {
      await pool.query('UPDATE orders SET x = 1 WHERE id = $1', [id]);
    } catch (e) {
      if (!isTransientPgError(e)) throw e;
      retry = true;
    }
  } while (retry && n++ < 5);
}
`,
            },
          ],
        },
      ],
    },
  ],
});

createTypedRuleTester().run('no-retry-on-permanent-error (typed)', rule, {
  valid: [
    {
      // A repository class with an insertOne method: not a MongoDB collection.
      filename: typedFilename,
      code: `class Store { async insertOne(doc: object) { return doc; } }
export async function add(store: Store, doc: object) {
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      return await store.insertOne(doc);
    } catch (error) {
      if (attempt === 2) throw error;
    }
  }
}`,
    },
  ],
  invalid: [
    {
      // A collection known only from its type.
      filename: typedFilename,
      code: `import type { Collection } from 'mongodb';
export async function add(repo: { orders: Collection<{ total: number }> }, total: number) {
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      return await repo.orders.insertOne({ total });
    } catch (error) {
      if (attempt === 2) throw error;
    }
  }
}`,
      errors: [
        {
          messageId: 'retriesEveryError',
          data: { origin: '',
            database: 'MongoDB',
            operation: 'insertOne',
            examples: '11000 duplicate key',
            transient: 'errors labelled `RetryableWriteError` or `TransientTransactionError`',
          },
          line: 6,
          column: 7,
          endLine: 6,
          endColumn: 20,
          suggestions: [
            {
              messageId: 'rethrowPermanentErrors',
              output: `import type { Collection } from 'mongodb';

/** Whether a MongoDB error may pass on retry: labelled so by the driver, a network error, a primary election. */
function isTransientMongoError(error: unknown): boolean {
  const transientLabels = [
    'RetryableWriteError', 'TransientTransactionError', 'UnknownTransactionCommitResult',
  ];
  const transientCodes = [
    6, 7, 89, 91, 112, 134, 189, 262, 9001, 10107, 11600, 11602, 13435, 13436,
  ];
  const transientNames = [
    'MongoNetworkError', 'MongoNetworkTimeoutError', 'MongoServerSelectionError',
    'MongoServerClosedError', 'MongoPoolClearedError', 'NotWritablePrimary', 'PrimarySteppedDown',
    'WriteConflict', 'NetworkTimeout', 'HostUnreachable', 'ShutdownInProgress',
  ];
  const { code, codeName, name, errorLabels } = (error ?? {}) as { code?: unknown; codeName?: unknown; name?: unknown; errorLabels?: unknown };
  if (Array.isArray(errorLabels) && errorLabels.some((label) => transientLabels.includes(label))) return true;
  if (typeof code === 'number' && transientCodes.includes(code)) return true;
  return transientNames.some((transient) => transient === codeName || transient === name);
}

export async function add(repo: { orders: Collection<{ total: number }> }, total: number) {
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      return await repo.orders.insertOne({ total });
    } catch (error) {
      if (attempt === 2) throw error;
      if (!isTransientMongoError(error)) throw error;
    }
  }
}`,
            },
          ],
        },
      ],
    },
  ],
});
