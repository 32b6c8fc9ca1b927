import rule from '../../../eslint-plugin/src/rules/no-swallowed-db-error';
import { createRuleTester } from '../rule-tester';

const ruleTester = createRuleTester();

const MONGO = `import { MongoClient } from 'mongodb';\nconst coll = new MongoClient(process.env.MONGO_URL).db().collection('orders');\n`;
const PG = `import { Pool } from 'pg';\nconst pool = new Pool();\n`;
const DDB = `import { DynamoDBClient, PutItemCommand } from '@aws-sdk/client-dynamodb';\nconst client = new DynamoDBClient({});\n`;

/** A class whose init awaits its own methods that query PostgreSQL, and ignores what they throw. */
const LOCK = `${PG}export class Lock {
  async createSchema() {
    await pool.query('CREATE SCHEMA IF NOT EXISTS locks');
  }
  async createTable() {
    return pool.query('CREATE TABLE IF NOT EXISTS locks.t (id int)');
  }
  async tryCreate() {
    try {
      await pool.query('CREATE TABLE locks.t (id int)');
    } catch (error) {
      console.warn('exists already', error);
    }
  }
  notify() {
    pool.query("NOTIFY locks");
  }
  async init() {
    try {
      await Promise.all([this.createSchema(), this.createTable()]);
    } catch (e) { /* ignore */ }
  }
}
`;

ruleTester.run('no-swallowed-db-error', rule, {
  valid: [
    // Through a function: one that handles its own failure, one that does not wait for its query, one not awaited.
    `${PG}async function tryCreate() { try { await pool.query('CREATE TABLE t (id int)'); } catch (error) { console.warn(error); } }
export async function init() { try { await tryCreate(); } catch {} }`,
    `${PG}async function notify() { pool.query('NOTIFY jobs'); }
export async function init() { try { await notify(); } catch {} }`,
    `${PG}async function create() { await pool.query('CREATE TABLE t (id int)'); }
export async function init() { try { create(); } catch {} }`,
    `${PG}async function create() { await pool.query('CREATE TABLE t (id int)'); }
export async function init() { try { await Promise.allSettled([create()]); } catch {} }`,
    {
      name: 'a recursive retry that returns early on an error it means to ignore: no count in the test',
      code: `import { MongoClient } from 'mongodb';
const coll = new MongoClient(process.env.MONGO_URL).db().collection('orders');
export async function save(doc, attempt = 0) {
  try {
    return await coll.insertOne(doc);
  } catch (err) {
    if (err.code === 11000) return;
    await new Promise((resolve) => setTimeout(resolve, Math.random() * Math.min(10000, 100 * 2 ** attempt)));
    return save(doc, attempt + 1);
  }
}
`,
    },
    {
      name: 'a recursive retry that returns early while a flag named like a retry is set: no count compared',
      code: `import { MongoClient } from 'mongodb';
const coll = new MongoClient(process.env.MONGO_URL).db().collection('orders');
let retrying = false;
export async function save(doc, attempt = 0) {
  try {
    return await coll.insertOne(doc);
  } catch (err) {
    if (retrying) return;
    await new Promise((resolve) => setTimeout(resolve, Math.random() * Math.min(10000, 100 * 2 ** attempt)));
    return save(doc, attempt + 1);
  }
}
`,
    },
    {
      name: 'leftovers re-sent while the response has some, bounded by a throw in the body: never ends silently',
      code: `import { BatchWriteItemCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
const client = new DynamoDBClient({});
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
export async function saveOrders(pending) {
  for (let attempt = 0; pending && Object.keys(pending).length > 0; attempt++) {
    if (attempt === 8) throw new Error('DynamoDB left writes unprocessed after 8 attempts');
    if (attempt > 0) await sleep(Math.random() * Math.min(20_000, 100 * 2 ** attempt));
    const result = await client.send(new BatchWriteItemCommand({ RequestItems: pending }));
    pending = result.UnprocessedItems;
  }
}`,
    },
    {
      name: 'a catch that logs the error',
      code: MONGO + `export async function save(doc) {
  try { await coll.insertOne(doc); } catch (err) { console.error('insert failed', err); }
}`,
    },
    {
      name: 'an empty catch around code that is not a database call',
      code: `export function parse(text) {
  try { return JSON.parse(text); } catch {}
}`,
    },
    {
      name: 'an empty catch around an S3 call',
      code: `import { S3Client, PutObjectCommand } from '@aws-sdk/client-s3';
const s3 = new S3Client({});
export async function upload(params) {
  try { await s3.send(new PutObjectCommand(params)); } catch {}
}`,
    },
    {
      name: 'an empty catch around Prisma and mysql2 calls',
      code: `import { PrismaClient } from '@prisma/client';
import mysql from 'mysql2/promise';
const prisma = new PrismaClient();
const db = mysql.createPool({});
export async function touch(where, data) {
  try { await prisma.user.updateMany({ where, data }); } catch {}
  try { await db.query('SELECT 1'); } catch {}
}`,
    },
    {
      name: 'an empty catch whose database call runs later, in a callback the try does not guard',
      code: PG + `export function schedule(id) {
  try { setTimeout(() => pool.query('SELECT 1'), 10); } catch {}
}`,
    },
    {
      name: 'a ROLLBACK whose failure is ignored while the original error is rethrown',
      code: PG + `export async function pay(id) {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    await client.query('UPDATE orders SET paid = true WHERE id = $1', [id]);
    await client.query('COMMIT');
  } catch (err) {
    await client.query('ROLLBACK').catch(() => {});
    try { await client.query(\`ROLLBACK\`); } catch {}
    throw err;
  } finally {
    client.release();
  }
}`,
    },
    {
      name: '.catch with a handler that logs',
      code: PG + `export const touch = (id) => pool.query('SELECT $1', [id]).catch((err) => console.error(err));`,
    },
    {
      name: 'a retry loop that throws after the last attempt',
      code: MONGO + `export async function save(doc) {
  for (let attempt = 0; attempt < 3; attempt++) {
    try { return await coll.insertOne(doc); } catch (err) {
      if (attempt === 2) throw err;
      await sleep(Math.random() * Math.min(10000, 100 * 2 ** attempt));
    }
  }
}`,
    },
    {
      name: 'a retry loop that keeps the last error and throws it after the loop',
      code: PG + `export async function ping() {
  let lastError;
  for (let attempt = 0; attempt < 5; attempt++) {
    try { return await pool.query('SELECT 1'); } catch (err) { lastError = err; }
  }
  throw lastError;
}`,
    },
    {
      name: 'a retry loop that throws a new error after the loop',
      code: MONGO + `export async function save(doc) {
  for (let attempt = 0; attempt < 3; attempt++) {
    try { return await coll.insertOne(doc); } catch (err) { await sleep(100); }
  }
  throw new Error('insert failed after 3 attempts');
}`,
    },
    {
      name: 'a retry loop that returns a failure value',
      code: MONGO + `export async function save(doc) {
  for (let attempt = 0; attempt < 3; attempt++) {
    try { await coll.insertOne(doc); return true; } catch (err) { await sleep(100); }
  }
  return false;
}`,
    },
    {
      name: 'the seed loop followed by a check of its flag',
      code: `import { DynamoDBClient, DescribeTableCommand } from '@aws-sdk/client-dynamodb';
const client = new DynamoDBClient({});
export async function waitForActive(TableName: string) {
  let retries = 0;
  let retry = false;
  do {
    await sleep(Math.random() * Math.min(Math.pow(3, retries) * 100, 20000));
    const { Table } = await client.send(new DescribeTableCommand({ TableName }));
    retry = Table?.TableStatus !== 'ACTIVE';
  } while (retry && retries++ < 5);
  if (retry) throw new Error(TableName + ' did not become active');
}`,
    },
    {
      name: 'a per-item loop that logs and moves on',
      code: MONGO + `export async function importAll(docs) {
  for (const doc of docs) {
    try { await coll.insertOne(doc); } catch (err) { console.warn('skipped', err); }
  }
}`,
    },
    {
      name: 'a pagination loop',
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
}`,
    },
    {
      name: 'an endless retry never ends silently (require-retry-backoff reports it)',
      code: PG + `export async function ping() {
  while (true) {
    try { await pool.query('SELECT 1'); break; } catch (err) { await sleep(1000); }
  }
}`,
    },
    {
      name: 'a recursive retry that rethrows past the last attempt',
      code: DDB + `export async function put(item, attempt = 0) {
  try {
    return await client.send(new PutItemCommand(item));
  } catch (err) {
    if (attempt < 3) return put(item, attempt + 1);
    throw err;
  }
}`,
    },
    {
      name: 'p-retry rethrows the last error itself',
      code: PG + `import pRetry from 'p-retry';
export const load = () => pRetry(() => pool.query('SELECT 1'), { retries: 3, randomize: true });`,
    },
    {
      name: 'a catch that continues on 40001 and rethrows otherwise',
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
    },
    {
      name: 'a retry flag loop that throws after its last attempt',
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
      if (n >= 5) throw e;
    }
  } while (retry && n++ < 5);
}
`,
    },
    {
      name: "the same retry helper rethrowing on its last attempt",
      code: `import { Pool } from 'pg';
const pool = new Pool();
async function withRetry(fn, retries = 3) {
  for (let i = 0; i < retries; i++) {
    try {
      return await fn();
    } catch (err) {
      if (i === retries - 1) throw err;
      await new Promise((resolve) => setTimeout(resolve, Math.random() * Math.min(60000, 5000 * 2 ** i)));
    }
  }
}
export const load = (id) => withRetry(() => pool.query('SELECT * FROM t WHERE id = $1', [id]));`,
    },
    {
      name: "a retry helper that resolves undefined, fed no database call",
      code: `async function withRetry(fn, retries = 3) {
  for (let i = 0; i < retries; i++) {
    try {
      return await fn();
    } catch (err) {
      if (i === retries - 1) return undefined;
    }
  }
}
export const load = (url) => withRetry(() => fetch(url));`,
    },
    {
      name: "an empty catch around dropping a collection or an index that may not exist",
      code: `import { MongoClient } from 'mongodb';
const db = new MongoClient(process.env.MONGO_URL).db();
export async function reset() {
  try { await db.collection('tmp').drop(); } catch {}
  try { await db.collection('tmp').dropIndex('a_1'); } catch (err) {}
}`,
    },
    {
      name: "an empty catch around resetting session state in finally (set_config, RESET, DISCARD)",
      code: `import { Pool } from 'pg';
const pool = new Pool();
export async function asUser(user, sql) {
  const client = await pool.connect();
  try {
    await client.query("SELECT set_config('app.user', $1, false)", [user]);
    return await client.query(sql);
  } finally {
    try { await client.query("SELECT set_config('app.user', '', false)"); } catch {}
    try { await client.query('RESET ROLE'); } catch {}
    try { await client.query('DISCARD ALL'); } catch {}
    client.release();
  }
}`,
    },
    {
      name: "a status polled until done ends only on success: nothing to swallow",
      code: `import { DynamoDBClient, DescribeTableCommand } from '@aws-sdk/client-dynamodb';
const client = new DynamoDBClient({});
export async function waitActive(TableName) {
  let status;
  do {
    await new Promise((resolve) => setTimeout(resolve, Math.random() * 1000));
    const out = await client.send(new DescribeTableCommand({ TableName }));
    status = out.Table.TableStatus;
  } while (status !== 'ACTIVE');
}`,
    },
  ],
  invalid: [
    {
      name: 'an empty catch around methods of the class that the try awaits, through Promise.all',
      code: LOCK,
      errors: [
        {
          messageId: 'emptyCatch',
          line: 23,
          data: { database: 'PostgreSQL', operation: 'query' },
          suggestions: [
            { messageId: 'rethrow', output: LOCK.replace('} catch (e) { /* ignore */ }', '} catch (e) { /* ignore */ throw e; }') },
            { messageId: 'logAndRethrow', output: LOCK.replace('} catch (e) { /* ignore */ }', "} catch (e) { /* ignore */ console.error('PostgreSQL query failed', e); throw e; }") },
          ],
        },
      ],
    },
    {
      name: 'an empty catch around an awaited local function that awaits its query',
      code: `${PG}async function createSchema(client) {
  await client.query('CREATE SCHEMA IF NOT EXISTS locks');
}
export async function init() {
  try {
    await createSchema(pool);
  } catch {}
}
`,
      errors: [
        {
          messageId: 'emptyCatch',
          line: 9,
          data: { database: 'PostgreSQL', operation: 'query' },
          suggestions: [
            { messageId: 'rethrow', output: `${PG}async function createSchema(client) {
  await client.query('CREATE SCHEMA IF NOT EXISTS locks');
}
export async function init() {
  try {
    await createSchema(pool);
  } catch (error) {
    throw error;
  }
}
` },
            { messageId: 'logAndRethrow', output: `${PG}async function createSchema(client) {
  await client.query('CREATE SCHEMA IF NOT EXISTS locks');
}
export async function init() {
  try {
    await createSchema(pool);
  } catch (error) {
    console.error('PostgreSQL query failed', error);
    throw error;
  }
}
` },
          ],
        },
      ],
    },
    {
      name: "empty-catch-mongo",
      code: `import { MongoClient } from 'mongodb';
const coll = new MongoClient(process.env.MONGO_URL).db().collection('orders');
export async function save(doc) {
  try {
    await coll.insertOne(doc);
  } catch (err) {}
}
`,
      errors: [
        {
          messageId: 'emptyCatch',
          line: 6, column: 5, endLine: 6, endColumn: 19,
          data: { database: 'MongoDB', operation: "insertOne" },
          suggestions: [
            { messageId: 'rethrow', output: `import { MongoClient } from 'mongodb';
const coll = new MongoClient(process.env.MONGO_URL).db().collection('orders');
export async function save(doc) {
  try {
    await coll.insertOne(doc);
  } catch (err) {
    throw err;
  }
}
` },
            { messageId: 'logAndRethrow', output: `import { MongoClient } from 'mongodb';
const coll = new MongoClient(process.env.MONGO_URL).db().collection('orders');
export async function save(doc) {
  try {
    await coll.insertOne(doc);
  } catch (err) {
    console.error('MongoDB insertOne failed', err);
    throw err;
  }
}
` },
          ],
        },
      ],
    },
    {
      name: "empty-catch-no-param",
      code: `import { Pool } from 'pg';
const pool = new Pool();
export async function touch(id) {
  try {
    await pool.query('UPDATE t SET seen = now() WHERE id = $1', [id]);
  } catch {}
}
`,
      errors: [
        {
          messageId: 'emptyCatch',
          line: 6, column: 5, endLine: 6, endColumn: 13,
          data: { database: 'PostgreSQL', operation: "query" },
          suggestions: [
            { messageId: 'rethrow', output: `import { Pool } from 'pg';
const pool = new Pool();
export async function touch(id) {
  try {
    await pool.query('UPDATE t SET seen = now() WHERE id = $1', [id]);
  } catch (error) {
    throw error;
  }
}
` },
            { messageId: 'logAndRethrow', output: `import { Pool } from 'pg';
const pool = new Pool();
export async function touch(id) {
  try {
    await pool.query('UPDATE t SET seen = now() WHERE id = $1', [id]);
  } catch (error) {
    console.error('PostgreSQL query failed', error);
    throw error;
  }
}
` },
          ],
        },
      ],
    },
    {
      name: "comment-only-catch",
      code: `import { DynamoDBClient, PutItemCommand } from '@aws-sdk/client-dynamodb';
const client = new DynamoDBClient({});
export async function put(item) {
  try {
    await client.send(new PutItemCommand(item));
  } catch (e) {
    // ignore: best effort
  }
}
`,
      errors: [
        {
          messageId: 'emptyCatch',
          line: 6, column: 5, endLine: 8, endColumn: 4,
          data: { database: 'DynamoDB', operation: "PutItem" },
          suggestions: [
            { messageId: 'rethrow', output: `import { DynamoDBClient, PutItemCommand } from '@aws-sdk/client-dynamodb';
const client = new DynamoDBClient({});
export async function put(item) {
  try {
    await client.send(new PutItemCommand(item));
  } catch (e) {
    // ignore: best effort
    throw e;
  }
}
` },
            { messageId: 'logAndRethrow', output: `import { DynamoDBClient, PutItemCommand } from '@aws-sdk/client-dynamodb';
const client = new DynamoDBClient({});
export async function put(item) {
  try {
    await client.send(new PutItemCommand(item));
  } catch (e) {
    // ignore: best effort
    console.error('DynamoDB PutItem failed', e);
    throw e;
  }
}
` },
          ],
        },
      ],
    },
    {
      name: "comment-only-inline",
      code: `import { MongoClient } from 'mongodb';
const coll = new MongoClient(process.env.MONGO_URL).db().collection('orders');
export async function save(doc) {
  try { await coll.insertOne(doc); } catch (e) { /* ignore */ }
}
`,
      errors: [
        {
          messageId: 'emptyCatch',
          line: 4, column: 38, endLine: 4, endColumn: 64,
          data: { database: 'MongoDB', operation: "insertOne" },
          suggestions: [
            { messageId: 'rethrow', output: `import { MongoClient } from 'mongodb';
const coll = new MongoClient(process.env.MONGO_URL).db().collection('orders');
export async function save(doc) {
  try { await coll.insertOne(doc); } catch (e) { /* ignore */ throw e; }
}
` },
            { messageId: 'logAndRethrow', output: `import { MongoClient } from 'mongodb';
const coll = new MongoClient(process.env.MONGO_URL).db().collection('orders');
export async function save(doc) {
  try { await coll.insertOne(doc); } catch (e) { /* ignore */ console.error('MongoDB insertOne failed', e); throw e; }
}
` },
          ],
        },
      ],
    },
    {
      name: "catch-callback",
      code: `import { Pool } from 'pg';
const pool = new Pool();
export function touch(id) {
  pool.query('UPDATE t SET seen = now() WHERE id = $1', [id]).catch(() => {});
}
`,
      errors: [
        {
          messageId: 'emptyCatchCallback',
          line: 4, column: 69, endLine: 4, endColumn: 77,
          data: { database: 'PostgreSQL', operation: "query" },
          suggestions: [
            { messageId: 'logError', output: `import { Pool } from 'pg';
const pool = new Pool();
export function touch(id) {
  pool.query('UPDATE t SET seen = now() WHERE id = $1', [id]).catch((error) => console.error('PostgreSQL query failed', error));
}
` },
          ],
        },
      ],
    },
    {
      name: "then-reject-v2-cjs",
      code: `const AWS = require('aws-sdk');
const docClient = new AWS.DynamoDB.DocumentClient();
function put(params) {
  return docClient.put(params).promise().then((out) => out, function () {});
}
module.exports = { put };
`,
      errors: [
        {
          messageId: 'emptyCatchCallback',
          line: 4, column: 61, endLine: 4, endColumn: 75,
          data: { database: 'DynamoDB', operation: "PutItem" },
          suggestions: [
            { messageId: 'rethrowFromCallback', output: `const AWS = require('aws-sdk');
const docClient = new AWS.DynamoDB.DocumentClient();
function put(params) {
  return docClient.put(params).promise().then((out) => out, (error) => { throw error; });
}
module.exports = { put };
` },
            { messageId: 'logError', output: `const AWS = require('aws-sdk');
const docClient = new AWS.DynamoDB.DocumentClient();
function put(params) {
  return docClient.put(params).promise().then((out) => out, (error) => console.error('DynamoDB PutItem failed', error));
}
module.exports = { put };
` },
          ],
        },
      ],
    },
    {
      name: "ddb-seed",
      code: `import { DynamoDBClient, DescribeTableCommand } from '@aws-sdk/client-dynamodb';
const client = new DynamoDBClient({});
const MAX_RETRIES = 5;
export async function waitForActive(TableName: string) {
  try {
    let retries = 0;
    let retry = false;
    do {
      await sleep(Math.min(Math.pow(3, retries) * 100, 20000));
      const { Table } = await client.send(new DescribeTableCommand({ TableName }));
      retry = Table?.TableStatus !== 'ACTIVE';
    } while (retry && retries++ < MAX_RETRIES);
  } catch (ex) {
  }
}
`,
      errors: [
        {
          messageId: 'silentRetryEnd',
          line: 12, column: 7, endLine: 12, endColumn: 47,
          data: { origin: '', database: 'DynamoDB', operation: "DescribeTable" },
          suggestions: [
            { messageId: 'throwWhenFlagStillSet', output: `import { DynamoDBClient, DescribeTableCommand } from '@aws-sdk/client-dynamodb';
const client = new DynamoDBClient({});
const MAX_RETRIES = 5;
export async function waitForActive(TableName: string) {
  try {
    let retries = 0;
    let retry = false;
    do {
      await sleep(Math.min(Math.pow(3, retries) * 100, 20000));
      const { Table } = await client.send(new DescribeTableCommand({ TableName }));
      retry = Table?.TableStatus !== 'ACTIVE';
    } while (retry && retries++ < MAX_RETRIES);
    if (retry) throw new Error('DynamoDB DescribeTable did not succeed before the last attempt');
  } catch (ex) {
  }
}
` },
          ],
        },
        {
          messageId: 'emptyCatch',
          line: 13, column: 5, endLine: 14, endColumn: 4,
          data: { database: 'DynamoDB', operation: "DescribeTable" },
          suggestions: [
            { messageId: 'rethrow', output: `import { DynamoDBClient, DescribeTableCommand } from '@aws-sdk/client-dynamodb';
const client = new DynamoDBClient({});
const MAX_RETRIES = 5;
export async function waitForActive(TableName: string) {
  try {
    let retries = 0;
    let retry = false;
    do {
      await sleep(Math.min(Math.pow(3, retries) * 100, 20000));
      const { Table } = await client.send(new DescribeTableCommand({ TableName }));
      retry = Table?.TableStatus !== 'ACTIVE';
    } while (retry && retries++ < MAX_RETRIES);
  } catch (ex) {
    throw ex;
  }
}
` },
            { messageId: 'logAndRethrow', output: `import { DynamoDBClient, DescribeTableCommand } from '@aws-sdk/client-dynamodb';
const client = new DynamoDBClient({});
const MAX_RETRIES = 5;
export async function waitForActive(TableName: string) {
  try {
    let retries = 0;
    let retry = false;
    do {
      await sleep(Math.min(Math.pow(3, retries) * 100, 20000));
      const { Table } = await client.send(new DescribeTableCommand({ TableName }));
      retry = Table?.TableStatus !== 'ACTIVE';
    } while (retry && retries++ < MAX_RETRIES);
  } catch (ex) {
    console.error('DynamoDB DescribeTable failed', ex);
    throw ex;
  }
}
` },
          ],
        },
      ],
    },
    {
      name: "silent-loop-end",
      code: `import { MongoClient } from 'mongodb';
const coll = new MongoClient(process.env.MONGO_URL).db().collection('orders');
export async function save(doc) {
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      await coll.insertOne(doc);
      return;
    } catch (err) {
      await sleep(Math.random() * Math.min(10000, 100 * 2 ** attempt));
    }
  }
}
`,
      errors: [
        {
          messageId: 'silentRetryEnd',
          line: 4, column: 3, endLine: 4, endColumn: 48,
          data: { origin: '', database: 'MongoDB', operation: "insertOne" },
          suggestions: [
            { messageId: 'throwAfterLastAttempt', output: `import { MongoClient } from 'mongodb';
const coll = new MongoClient(process.env.MONGO_URL).db().collection('orders');
export async function save(doc) {
  let lastError: unknown;
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      await coll.insertOne(doc);
      return;
    } catch (err) {
      lastError = err;
      await sleep(Math.random() * Math.min(10000, 100 * 2 ** attempt));
    }
  }
  throw new Error('MongoDB insertOne failed after retrying', { cause: lastError });
}
` },
          ],
        },
      ],
    },
    {
      name: "silent-loop-end-inspects-code",
      code: `import { Pool } from 'pg';
const pool = new Pool();
export async function ping() {
  let attempt = 0;
  while (attempt < 5) {
    try {
      return await pool.query('SELECT 1');
    } catch (err) {
      if (err.code !== 'ECONNRESET') break;
      attempt++;
    }
  }
}
`,
      errors: [
        {
          messageId: 'silentRetryEnd',
          line: 5, column: 3, endLine: 5, endColumn: 22,
          data: { origin: '', database: 'PostgreSQL', operation: "query" },
          suggestions: [
            { messageId: 'throwAfterLastAttempt', output: `import { Pool } from 'pg';
const pool = new Pool();
export async function ping() {
  let attempt = 0;
  let lastError: unknown;
  while (attempt < 5) {
    try {
      return await pool.query('SELECT 1');
    } catch (err) {
      lastError = err;
      if (err.code !== 'ECONNRESET') break;
      attempt++;
    }
  }
  throw new Error('PostgreSQL query failed after retrying', { cause: lastError });
}
` },
          ],
        },
      ],
    },
    {
      name: "silent-recursion-end",
      code: `import { DynamoDBClient, PutItemCommand } from '@aws-sdk/client-dynamodb';
const client = new DynamoDBClient({});
export async function put(item, attempt = 0) {
  try {
    return await client.send(new PutItemCommand(item));
  } catch (err) {
    if (attempt < 3) {
      return put(item, attempt + 1);
    }
  }
}
`,
      errors: [
        {
          messageId: 'silentRetryEnd',
          line: 6, column: 5, endLine: 10, endColumn: 4,
          data: { origin: '', database: 'DynamoDB', operation: "PutItem" },
          suggestions: [
            { messageId: 'rethrow', output: `import { DynamoDBClient, PutItemCommand } from '@aws-sdk/client-dynamodb';
const client = new DynamoDBClient({});
export async function put(item, attempt = 0) {
  try {
    return await client.send(new PutItemCommand(item));
  } catch (err) {
    if (attempt < 3) {
      return put(item, attempt + 1);
    }
    throw err;
  }
}
` },
          ],
        },
      ],
    },
    {
      name: "silent-loop-end-js-no-semicolons",
      filename: 'file.js',
      code: `import { Pool } from "pg"
const pool = new Pool()
export async function ping() {
  let lastError
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      return await pool.query("SELECT 1")
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 100 * 2 ** attempt))
    }
  }
}
`,
      errors: [
        {
          messageId: 'silentRetryEnd',
          line: 5, column: 3, endLine: 5, endColumn: 48,
          suggestions: [
            { messageId: 'throwAfterLastAttempt', output: `import { Pool } from "pg"
const pool = new Pool()
export async function ping() {
  let lastError
  let lastError2
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      return await pool.query("SELECT 1")
    } catch (error) {
      lastError2 = error
      await new Promise((resolve) => setTimeout(resolve, 100 * 2 ** attempt))
    }
  }
  throw new Error("PostgreSQL query failed after retrying", { cause: lastError2 })
}
` },
          ],
        },
      ],
    },
    {
      name: "silent-loop-end-success-breaks",
      code: `import { Pool } from 'pg';
const pool = new Pool();
export async function ping() {
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      await pool.query('SELECT 1');
      break;
    } catch (err) {
      await sleep(100 * 2 ** attempt);
    }
  }
}
`,
      errors: [
        {
          messageId: 'silentRetryEnd',
          line: 4, column: 3, endLine: 4, endColumn: 48,
          suggestions: [],
        },
      ],
    },
    {
      name: "silent-retry-flag-end",
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
          messageId: 'silentRetryEnd',
          line: 13, column: 5, endLine: 13, endColumn: 29,
          data: { origin: '', database: 'PostgreSQL', operation: "query" },
          suggestions: [],
        },
      ],
    },
    {
      name: "a retry helper whose last attempt resolves undefined, fed a database call",
      code: `import { Pool } from 'pg';
const pool = new Pool();
async function withRetry(fn, retries = 3) {
  for (let i = 0; i < retries; i++) {
    try {
      return await fn();
    } catch (err) {
      if (i === retries - 1) return undefined;
      await new Promise((resolve) => setTimeout(resolve, Math.random() * Math.min(60000, 5000 * 2 ** i)));
    }
  }
}
export const load = (id) => withRetry(() => pool.query('SELECT * FROM t WHERE id = $1', [id]));
`,
      errors: [
        {
          messageId: 'silentRetryEnd',
          line: 4, column: 3, endLine: 4, endColumn: 36,
          data: { origin: '', database: 'PostgreSQL', operation: "query" },
          suggestions: [{ messageId: "throwAfterLastAttempt", output: `import { Pool } from 'pg';
const pool = new Pool();
async function withRetry(fn, retries = 3) {
  let lastError: unknown;
  for (let i = 0; i < retries; i++) {
    try {
      return await fn();
    } catch (err) {
      lastError = err;
      if (i === retries - 1) return undefined;
      await new Promise((resolve) => setTimeout(resolve, Math.random() * Math.min(60000, 5000 * 2 ** i)));
    }
  }
  throw new Error('PostgreSQL query failed after retrying', { cause: lastError });
}
export const load = (id) => withRetry(() => pool.query('SELECT * FROM t WHERE id = $1', [id]));
` }],
        },
      ],
    },
    {
      name: "a recursive retry that ends with a bare return past its last attempt",
      code: `import { Pool } from 'pg';
const pool = new Pool();
async function retry(fn, retries = 3) {
  try {
    return await fn();
  } catch (err) {
    if (retries > 0) {
      await new Promise((resolve) => setTimeout(resolve, Math.random() * Math.min(60000, 5000 * 2 ** (3 - retries))));
      return retry(fn, retries - 1);
    }
    return;
  }
}
export const load = (id) => retry(() => pool.query('SELECT * FROM t WHERE id = $1', [id]));
`,
      errors: [
        {
          messageId: 'silentRetryEnd',
          line: 6, column: 5, endLine: 12, endColumn: 4,
          data: { origin: '', database: 'PostgreSQL', operation: "query" },
          suggestions: [{ messageId: "rethrow", output: `import { Pool } from 'pg';
const pool = new Pool();
async function retry(fn, retries = 3) {
  try {
    return await fn();
  } catch (err) {
    if (retries > 0) {
      await new Promise((resolve) => setTimeout(resolve, Math.random() * Math.min(60000, 5000 * 2 ** (3 - retries))));
      return retry(fn, retries - 1);
    }
    throw err;
  }
}
export const load = (id) => retry(() => pool.query('SELECT * FROM t WHERE id = $1', [id]));
` }],
        },
      ],
    },
    {
      name: "a recursive retry that gives up with a bare return when its count runs out",
      code: `import { MongoClient } from 'mongodb';
const coll = new MongoClient(process.env.MONGO_URL).db().collection('orders');
export async function save(doc, retries = 3) {
  try {
    return await coll.insertOne(doc);
  } catch (err) {
    if (retries === 0) return undefined;
    await new Promise((resolve) => setTimeout(resolve, Math.random() * Math.min(10000, 100 * 2 ** (3 - retries))));
    return save(doc, retries - 1);
  }
}
`,
      errors: [
        {
          messageId: 'silentRetryEnd',
          line: 6, column: 5, endLine: 10, endColumn: 4,
          data: { origin: '', database: 'MongoDB', operation: "insertOne" },
          suggestions: [{ messageId: "rethrow", output: `import { MongoClient } from 'mongodb';
const coll = new MongoClient(process.env.MONGO_URL).db().collection('orders');
export async function save(doc, retries = 3) {
  try {
    return await coll.insertOne(doc);
  } catch (err) {
    if (retries === 0) throw err;
    await new Promise((resolve) => setTimeout(resolve, Math.random() * Math.min(10000, 100 * 2 ** (3 - retries))));
    return save(doc, retries - 1);
  }
}
` }],
        },
      ],
    },
    {
      name: "a retry whose last attempt resolves undefined around a direct database call",
      code: `import { MongoClient } from 'mongodb';
const coll = new MongoClient(process.env.MONGO_URL).db().collection('orders');
export async function save(doc) {
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      return await coll.insertOne(doc);
    } catch (err) {
      if (attempt === 2) return;
      await new Promise((resolve) => setTimeout(resolve, Math.random() * Math.min(10000, 100 * 2 ** attempt)));
    }
  }
}
`,
      errors: [
        {
          messageId: 'silentRetryEnd',
          line: 4, column: 3, endLine: 4, endColumn: 48,
          data: { origin: '', database: 'MongoDB', operation: "insertOne" },
          suggestions: [{ messageId: "throwAfterLastAttempt", output: `import { MongoClient } from 'mongodb';
const coll = new MongoClient(process.env.MONGO_URL).db().collection('orders');
export async function save(doc) {
  let lastError: unknown;
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      return await coll.insertOne(doc);
    } catch (err) {
      lastError = err;
      if (attempt === 2) return;
      await new Promise((resolve) => setTimeout(resolve, Math.random() * Math.min(10000, 100 * 2 ** attempt)));
    }
  }
  throw new Error('MongoDB insertOne failed after retrying', { cause: lastError });
}
` }],
        },
      ],
    },
    {
      name: "RESET outside a finally is not the clean-up exemption",
      code: `import { Pool } from 'pg';
const pool = new Pool();
export async function touch() {
  const client = await pool.connect();
  try { await client.query('RESET ROLE'); } catch {}
  client.release();
}
`,
      errors: [
        {
          messageId: 'emptyCatch',
          line: 5, column: 45, endLine: 5, endColumn: 53,
          data: { database: 'PostgreSQL', operation: "query" },
          suggestions: [
            { messageId: 'rethrow', output: `import { Pool } from 'pg';
const pool = new Pool();
export async function touch() {
  const client = await pool.connect();
  try { await client.query('RESET ROLE'); } catch (error) {
    throw error;
  }
  client.release();
}
` },
            { messageId: 'logAndRethrow', output: `import { Pool } from 'pg';
const pool = new Pool();
export async function touch() {
  const client = await pool.connect();
  try { await client.query('RESET ROLE'); } catch (error) {
    console.error('PostgreSQL query failed', error);
    throw error;
  }
  client.release();
}
` },
          ],
        },
      ],
    },
  ],
});
