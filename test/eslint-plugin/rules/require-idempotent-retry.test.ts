import rule from '../../../eslint-plugin/src/rules/require-idempotent-retry';
import { createRuleTester } from '../rule-tester';

const ruleTester = createRuleTester();

const keyData = (generator: string, database: string, operation: string) => ({ generator, database, operation });

ruleTester.run('require-idempotent-retry', rule, {
  valid: [
    // The key is created once, outside the loop.
    `import { randomUUID } from 'node:crypto';
import { DynamoDBClient, PutItemCommand } from '@aws-sdk/client-dynamodb';
const client = new DynamoDBClient({});
export async function createOrder(order) {
  const orderId = randomUUID();
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      return await client.send(new PutItemCommand({ TableName: 'orders', Item: { pk: { S: orderId } } }));
    } catch (err) {
      if (err.name !== 'ThrottlingException') throw err;
    }
  }
}`,
    // A timestamp that is not a key.
    `import { Pool } from 'pg';
const pool = new Pool();
export async function touch(id) {
  for (let attempt = 0; attempt < 3; attempt++) {
    const updatedAt = Date.now();
    try {
      await pool.query('UPDATE items SET updated_at = $1 WHERE id = $2', [updatedAt, id]);
      return;
    } catch (err) {
      if (err.code !== 'ECONNRESET') throw err;
    }
  }
}`,
    // A new value in a plain SET / $set is harmless on retry.
    `import { randomUUID } from 'node:crypto';
import { DynamoDBDocumentClient, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { MongoClient } from 'mongodb';
const doc = DynamoDBDocumentClient.from(client);
const sessions = new MongoClient(url).db().collection('sessions');
export async function rotate(pk) {
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      await doc.send(new UpdateCommand({ TableName: 't', Key: { pk }, UpdateExpression: 'SET token = :t', ExpressionAttributeValues: { ':t': randomUUID() } }));
      await sessions.updateOne({ pk }, { $set: { token: randomUUID() } });
      return;
    } catch (err) {
      if (err.name !== 'ThrottlingException') throw err;
    }
  }
}`,
    // A uuid used for logging only, not written.
    `import { randomUUID } from 'crypto';
import { MongoClient } from 'mongodb';
const orders = new MongoClient(url).db().collection('orders');
export async function add(order) {
  for (let attempt = 0; attempt < 3; attempt++) {
    const traceId = randomUUID();
    try {
      await orders.insertOne(order);
      return;
    } catch (e) {
      console.warn('retrying', traceId, e);
      if (!e.hasErrorLabel('RetryableWriteError')) throw e;
    }
  }
}`,
    // A read-only transaction retried on a new connection.
    `import { Pool } from 'pg';
const pool = new Pool();
export async function report() {
  for (let attempt = 0; attempt < 3; attempt++) {
    const client = await pool.connect();
    try {
      await client.query('BEGIN READ ONLY');
      const { rows } = await client.query('SELECT * FROM orders');
      await client.query('COMMIT');
      return rows;
    } catch (err) {
      await client.query('ROLLBACK');
    } finally {
      client.release();
    }
  }
}`,
    // The whole write transaction retried right: key from outside, 23505 means "already done".
    `import { Pool } from 'pg';
const pool = new Pool();
export async function pay(requestId, accountId, amount) {
  for (let attempt = 0; attempt < 5; attempt++) {
    const client = await pool.connect();
    try {
      await client.query('BEGIN');
      await client.query('INSERT INTO processed_requests (id) VALUES ($1)', [requestId]);
      await client.query('UPDATE accounts SET balance = balance - $1 WHERE id = $2', [amount, accountId]);
      await client.query('COMMIT');
      return;
    } catch (err) {
      await client.query('ROLLBACK').catch(() => {});
      if (err.code === '23505') return;
      if (attempt === 4) throw err;
    } finally {
      client.release();
    }
  }
}`,
    // ON CONFLICT with a key from outside (postgres.js).
    `import postgres from 'postgres';
const sql = postgres();
export async function record(id, body) {
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      await sql\`insert into events (id, body) values (\${id}, \${body}) on conflict (id) do nothing\`;
      return;
    } catch (err) {
      if (err.code !== 'ECONNRESET') throw err;
    }
  }
}`,
    // A keyed insert (ON CONFLICT on a client-generated id) guards the relative UPDATE of the same transaction.
    `import { randomUUID } from 'node:crypto';
import { Pool } from 'pg';
const pool = new Pool();
export async function refund(orderId, amount) {
  const refundId = randomUUID();
  for (let retry = 0; ; retry++) {
    const client = await pool.connect();
    try {
      await client.query('BEGIN');
      const inserted = await client.query('INSERT INTO refunds (id, order_id) VALUES ($1, $2) ON CONFLICT (id) DO NOTHING', [refundId, orderId]);
      if (inserted.rowCount === 1) await client.query('UPDATE orders SET refunded = refunded + $2 WHERE id = $1', [orderId, amount]);
      await client.query('COMMIT');
      return refundId;
    } catch (err) {
      await client.query('ROLLBACK');
      if (retry >= 5) throw err;
    } finally {
      client.release();
    }
  }
}`,
    // One statement retried inside a transaction opened before the retry: nothing committed on its
    // own (pg-require-whole-transaction-retry reports that retry).
    `import { Pool } from 'pg';
const pool = new Pool();
export async function ship(orderId) {
  const client = await pool.connect();
  await client.query('BEGIN');
  for (let attempt = 1; attempt <= 3; attempt++) {
    try {
      await client.query('INSERT INTO shipments (order_id) VALUES ($1)', [orderId]);
      break;
    } catch (err) {
      if (attempt === 3) throw err;
    }
  }
  await client.query('COMMIT');
  client.release();
}`,
    // Retrying only on 23505 with a new code per attempt: the server rejected the INSERT, nothing was applied.
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
    // Retrying only serialization failures: PostgreSQL rolled the transaction back.
    `import { Pool } from 'pg';
const pool = new Pool();
export async function transfer(a, b) {
  const client = await pool.connect();
  for (let attempt = 0; attempt < 5; attempt++) {
    try {
      await client.query('BEGIN ISOLATION LEVEL SERIALIZABLE');
      await client.query('UPDATE accounts SET balance = balance - 1 WHERE id = $1', [a]);
      await client.query('COMMIT');
      return;
    } catch (err) {
      await client.query('ROLLBACK');
      if (err.code !== '40001') throw err;
    }
  }
}`,
    // TransactWriteItems with a token created once (SDK v3 and v2).
    `import { randomUUID } from 'node:crypto';
import { DynamoDBClient, TransactWriteItemsCommand } from '@aws-sdk/client-dynamodb';
const client = new DynamoDBClient({});
export async function transfer(items) {
  const token = randomUUID();
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      return await client.send(new TransactWriteItemsCommand({ TransactItems: items, ClientRequestToken: token }));
    } catch (err) {
      if (err.name !== 'TransactionConflictException') throw err;
    }
  }
}`,
    `const AWS = require('aws-sdk');
const db = new AWS.DynamoDB.DocumentClient();
const params = { TransactItems: [], ClientRequestToken: process.env.TOKEN };
async function run() {
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      return await db.transactWrite(params).promise();
    } catch (err) {
      if (err.code !== 'TransactionConflictException') throw err;
    }
  }
}`,
    // Optimistic retry on TransactionCanceledException only: the cancelled transaction applied
    // nothing, and each attempt builds its request anew (a token would be wrong here).
    `const { TransactionCanceledException } = require('@aws-sdk/client-dynamodb');
const { TransactWriteCommand } = require('@aws-sdk/lib-dynamodb');
class Counter {
  constructor(props) { this.props = props; }
  async put(item) {
    for (;;) {
      const { puts, next } = await this.next(item);
      try {
        await this.props.doc.send(new TransactWriteCommand({ TransactItems: puts.map((Put) => ({ Put })) }));
      } catch (e) {
        if (e instanceof TransactionCanceledException) {
          continue;
        } else {
          throw e;
        }
      }
      return next;
    }
  }
}
module.exports = { Counter };`,
    `import { DynamoDBClient, TransactWriteItemsCommand } from '@aws-sdk/client-dynamodb';
const client = new DynamoDBClient({});
export async function claim(read) {
  for (let attempt = 0; attempt < 5; attempt++) {
    const items = await read();
    try {
      return await client.send(new TransactWriteItemsCommand({ TransactItems: items }));
    } catch (err) {
      if (err.name !== 'TransactionCanceledException') throw err;
    }
  }
}`,
    // An input built elsewhere (spread): it may carry a token.
    `import { DynamoDBClient, TransactWriteItemsCommand } from '@aws-sdk/client-dynamodb';
const client = new DynamoDBClient({});
for (let attempt = 0; attempt < 3; attempt++) {
  try {
    await client.send(new TransactWriteItemsCommand({ ...base, TransactItems: [] }));
    break;
  } catch (err) {
    if (err.name !== 'TransactionConflictException') throw err;
  }
}`,
    // A computed key may be the token.
    `import { DynamoDBClient, TransactWriteItemsCommand } from '@aws-sdk/client-dynamodb';
const client = new DynamoDBClient({});
for (let attempt = 0; attempt < 3; attempt++) {
  try {
    await client.send(new TransactWriteItemsCommand({ [TOKEN_FIELD]: token, TransactItems: [] }));
    break;
  } catch (err) {
    if (err.name !== 'TransactionConflictException') throw err;
  }
}`,
    // A TransactWriteItems outside any retry: the SDK's own retries reuse the token.
    `import { DynamoDBClient, TransactWriteItemsCommand } from '@aws-sdk/client-dynamodb';
const client = new DynamoDBClient({});
await client.send(new TransactWriteItemsCommand({ TransactItems: [] }));`,
    // S3 and SQS writes with a new id per attempt: not a database.
    `import { randomUUID } from 'node:crypto';
import { SQSClient, SendMessageCommand } from '@aws-sdk/client-sqs';
const sqs = new SQSClient({});
for (let attempt = 0; attempt < 3; attempt++) {
  try {
    await sqs.send(new SendMessageCommand({ QueueUrl: 'q', MessageBody: 'x', MessageDeduplicationId: randomUUID() }));
    break;
  } catch (err) {
    await sleep(100);
  }
}`,
    // mysql2 and Prisma.
    `import { randomUUID } from 'node:crypto';
import mysql from 'mysql2/promise';
const conn = await mysql.createConnection({});
for (let attempt = 0; attempt < 3; attempt++) {
  try {
    await conn.query('INSERT INTO t (id) VALUES (?)', [randomUUID()]);
    break;
  } catch (err) {
    await sleep(100);
  }
}`,
    `import { randomUUID } from 'node:crypto';
import { PrismaClient } from '@prisma/client';
const prisma = new PrismaClient();
for (let attempt = 0; attempt < 3; attempt++) {
  try {
    await prisma.order.create({ data: { id: randomUUID() } });
    break;
  } catch (err) {
    await sleep(100);
  }
}`,
    // A local function named like a generator.
    `import { DynamoDBClient, PutItemCommand } from '@aws-sdk/client-dynamodb';
const client = new DynamoDBClient({});
const randomUUID = () => 'fixed';
for (let attempt = 0; attempt < 3; attempt++) {
  try {
    await client.send(new PutItemCommand({ TableName: 't', Item: { pk: { S: randomUUID() } } }));
    break;
  } catch (err) {
    if (err.name !== 'ThrottlingException') throw err;
  }
}`,
  ],
  invalid: [
    {
      // Cancelled transactions and time-outs retried: after a time-out the transaction may have
      // committed, so the token is still needed.
      code: `import { randomUUID } from 'node:crypto';
import { DynamoDBClient, TransactWriteItemsCommand } from '@aws-sdk/client-dynamodb';
const client = new DynamoDBClient({});
const params = { TransactItems: [] };
export async function save() {
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      return await client.send(new TransactWriteItemsCommand(params));
    } catch (err) {
      if (err.name !== 'TransactionCanceledException' && err.name !== 'TimeoutError') throw err;
    }
  }
}`,
      errors: [
        {
          messageId: 'missingClientRequestToken',
          line: 8,
          suggestions: [
            {
              messageId: 'addClientRequestToken',
              output: `import { randomUUID } from 'node:crypto';
import { DynamoDBClient, TransactWriteItemsCommand } from '@aws-sdk/client-dynamodb';
const client = new DynamoDBClient({});
const params = { ClientRequestToken: randomUUID(), TransactItems: [] };
export async function save() {
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      return await client.send(new TransactWriteItemsCommand(params));
    } catch (err) {
      if (err.name !== 'TransactionCanceledException' && err.name !== 'TimeoutError') throw err;
    }
  }
}`,
            },
          ],
        },
      ],
    },
    {
      // A key declared in the loop: moved above it.
      code: `import { randomUUID } from 'node:crypto';
import { DynamoDBClient, PutItemCommand } from '@aws-sdk/client-dynamodb';
const client = new DynamoDBClient({});
export async function createOrder(order) {
  for (let attempt = 0; attempt < 3; attempt++) {
    const orderId = randomUUID();
    try {
      return await client.send(new PutItemCommand({ TableName: 'orders', Item: { pk: { S: orderId } } }));
    } catch (err) {
      if (err.name !== 'ThrottlingException') throw err;
    }
  }
}`,
      errors: [
        {
          messageId: 'keyCreatedPerAttempt',
          data: keyData('randomUUID()', 'DynamoDB', 'PutItem'),
          line: 6,
          column: 21,
          endLine: 6,
          endColumn: 33,
          suggestions: [
            {
              messageId: 'hoistKey',
              data: { declaration: 'const orderId = randomUUID();' },
              output: `import { randomUUID } from 'node:crypto';
import { DynamoDBClient, PutItemCommand } from '@aws-sdk/client-dynamodb';
const client = new DynamoDBClient({});
export async function createOrder(order) {
  const orderId = randomUUID();
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      return await client.send(new PutItemCommand({ TableName: 'orders', Item: { pk: { S: orderId } } }));
    } catch (err) {
      if (err.name !== 'ThrottlingException') throw err;
    }
  }
}`,
            },
          ],
        },
      ],
    },
    {
      // uuid v4 from require, inline in pg parameters (CJS); a comment inside the replaced range stays.
      code: `const { v4: uuid } = require('uuid');
const { Pool } = require('pg');
const pool = new Pool();
async function addEvent(event) {
  let attempt = 0;
  while (attempt < 5) {
    try {
      await pool.query('INSERT INTO events (id, body) VALUES ($1, $2) ON CONFLICT (id) DO NOTHING', [uuid(/* v4 */), event]);
      return;
    } catch (error) {
      attempt++;
      if (error.code !== 'ECONNRESET') throw error;
    }
  }
}`,
      errors: [
        {
          messageId: 'keyCreatedPerAttempt',
          data: keyData('uuid()', 'PostgreSQL', 'query'),
          line: 8,
          column: 102,
          endLine: 8,
          endColumn: 116,
          suggestions: [
            {
              messageId: 'hoistKey',
              data: { declaration: 'const idempotencyKey = uuid(/* v4 */);' },
              output: `const { v4: uuid } = require('uuid');
const { Pool } = require('pg');
const pool = new Pool();
async function addEvent(event) {
  let attempt = 0;
  const idempotencyKey = uuid(/* v4 */);
  while (attempt < 5) {
    try {
      await pool.query('INSERT INTO events (id, body) VALUES ($1, $2) ON CONFLICT (id) DO NOTHING', [idempotencyKey, event]);
      return;
    } catch (error) {
      attempt++;
      if (error.code !== 'ECONNRESET') throw error;
    }
  }
}`,
            },
          ],
        },
      ],
    },
    {
      // new ObjectId() in the document: the property becomes shorthand.
      code: `import { MongoClient, ObjectId } from 'mongodb';
const orders = new MongoClient(url).db().collection('orders');
export async function add(order) {
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      await orders.insertOne({ _id: new ObjectId(), ...order });
      return;
    } catch (e) {
      if (!e.hasErrorLabel('RetryableWriteError')) throw e;
    }
  }
}`,
      errors: [
        {
          messageId: 'keyCreatedPerAttempt',
          data: keyData('new ObjectId()', 'MongoDB', 'insertOne'),
          line: 6,
          column: 37,
          endLine: 6,
          endColumn: 51,
          suggestions: [
            {
              messageId: 'hoistKey',
              data: { declaration: 'const _id = new ObjectId();' },
              output: `import { MongoClient, ObjectId } from 'mongodb';
const orders = new MongoClient(url).db().collection('orders');
export async function add(order) {
  const _id = new ObjectId();
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      await orders.insertOne({ _id, ...order });
      return;
    } catch (e) {
      if (!e.hasErrorLabel('RetryableWriteError')) throw e;
    }
  }
}`,
            },
          ],
        },
      ],
    },
    {
      // Date.now() as a request id, through an object held in a variable; the name is taken outside.
      code: `import { DynamoDBDocumentClient, PutCommand } from '@aws-sdk/lib-dynamodb';
const doc = DynamoDBDocumentClient.from(client);
export async function save(requestId, body) {
  for (let attempt = 0; attempt < 3; attempt++) {
    const item = { requestId: Date.now(), body };
    try {
      return await doc.send(new PutCommand({ TableName: 't', Item: item }));
    } catch (err) {
      if (err.name !== 'ThrottlingException') throw err;
    }
  }
}`,
      errors: [
        {
          messageId: 'keyCreatedPerAttempt',
          data: keyData('Date.now()', 'DynamoDB', 'PutItem'),
          line: 5,
          column: 31,
          endLine: 5,
          endColumn: 41,
          suggestions: [
            {
              messageId: 'hoistKey',
              data: { declaration: 'const idempotencyKey = Date.now();' },
              output: `import { DynamoDBDocumentClient, PutCommand } from '@aws-sdk/lib-dynamodb';
const doc = DynamoDBDocumentClient.from(client);
export async function save(requestId, body) {
  const idempotencyKey = Date.now();
  for (let attempt = 0; attempt < 3; attempt++) {
    const item = { requestId: idempotencyKey, body };
    try {
      return await doc.send(new PutCommand({ TableName: 't', Item: item }));
    } catch (err) {
      if (err.name !== 'ThrottlingException') throw err;
    }
  }
}`,
            },
          ],
        },
      ],
    },
    {
      // Keys made per item inside the attempt: reported, no suggestion (one key per item is needed).
      code: `import { nanoid } from 'nanoid';
import { MongoClient } from 'mongodb';
const events = new MongoClient(url).db().collection('events');
export async function addAll(list) {
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      await events.insertMany(list.map((event) => ({ _id: nanoid(), ...event })));
      return;
    } catch (e) {
      if (!e.hasErrorLabel('RetryableWriteError')) throw e;
    }
  }
}`,
      errors: [
        {
          messageId: 'keyCreatedPerAttempt',
          data: keyData('nanoid()', 'MongoDB', 'insertMany'),
          line: 7,
          column: 59,
          endLine: 7,
          endColumn: 67,
          suggestions: [],
        },
      ],
    },
    {
      // A ClientRequestToken made inside a do…while retry (crypto import): hoisted under its own name.
      code: `import { randomUUID } from 'crypto';
import { DynamoDBClient, TransactWriteItemsCommand } from '@aws-sdk/client-dynamodb';
const client = new DynamoDBClient({});
export async function transfer(items) {
  let attempt = 0;
  do {
    try {
      return await client.send(new TransactWriteItemsCommand({ TransactItems: items, ClientRequestToken: randomUUID() }));
    } catch (err) {
      if (err.name !== 'TransactionConflictException') throw err;
    }
  } while (++attempt < 3);
}`,
      errors: [
        {
          messageId: 'keyCreatedPerAttempt',
          data: keyData('randomUUID()', 'DynamoDB', 'TransactWriteItems'),
          line: 8,
          column: 106,
          endLine: 8,
          endColumn: 118,
          suggestions: [
            {
              messageId: 'hoistKey',
              data: { declaration: 'const clientRequestToken = randomUUID();' },
              output: `import { randomUUID } from 'crypto';
import { DynamoDBClient, TransactWriteItemsCommand } from '@aws-sdk/client-dynamodb';
const client = new DynamoDBClient({});
export async function transfer(items) {
  let attempt = 0;
  const clientRequestToken = randomUUID();
  do {
    try {
      return await client.send(new TransactWriteItemsCommand({ TransactItems: items, ClientRequestToken: clientRequestToken }));
    } catch (err) {
      if (err.name !== 'TransactionConflictException') throw err;
    }
  } while (++attempt < 3);
}`,
            },
          ],
        },
      ],
    },
    {
      // A uuid namespace import; the comment inside the moved declaration moves with it.
      code: `import * as uuid from 'uuid';
import { Pool } from 'pg';
const pool = new Pool();
export async function add(body) {
  for (let attempt = 0; attempt < 3; attempt++) {
    const eventId = /* one per event */ uuid.v4();
    try {
      await pool.query('INSERT INTO events (id, body) VALUES ($1, $2) ON CONFLICT DO NOTHING', [eventId, body]);
      return;
    } catch (err) {
      if (err.code !== 'ECONNRESET') throw err;
    }
  }
}`,
      errors: [
        {
          messageId: 'keyCreatedPerAttempt',
          data: keyData('uuid.v4()', 'PostgreSQL', 'query'),
          line: 6,
          column: 41,
          endLine: 6,
          endColumn: 50,
          suggestions: [
            {
              messageId: 'hoistKey',
              data: { declaration: 'const eventId = /* one per event */ uuid.v4();' },
              output: `import * as uuid from 'uuid';
import { Pool } from 'pg';
const pool = new Pool();
export async function add(body) {
  const eventId = /* one per event */ uuid.v4();
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      await pool.query('INSERT INTO events (id, body) VALUES ($1, $2) ON CONFLICT DO NOTHING', [eventId, body]);
      return;
    } catch (err) {
      if (err.code !== 'ECONNRESET') throw err;
    }
  }
}`,
            },
          ],
        },
      ],
    },
    {
      // The name is taken outside the loop (a parameter): the key gets a fresh name instead of shadowing it.
      code: `import { randomUUID } from 'node:crypto';
import { DynamoDBDocumentClient, PutCommand } from '@aws-sdk/lib-dynamodb';
const doc = DynamoDBDocumentClient.from(client);
export async function save(id, body) {
  for (let attempt = 0; attempt < 3; attempt++) {
    const id = randomUUID();
    try {
      return await doc.send(new PutCommand({ TableName: 't', Item: { id, body } }));
    } catch (err) {
      if (err.name !== 'ThrottlingException') throw err;
    }
  }
}`,
      errors: [
        {
          messageId: 'keyCreatedPerAttempt',
          data: keyData('randomUUID()', 'DynamoDB', 'PutItem'),
          line: 6,
          column: 16,
          endLine: 6,
          endColumn: 28,
          suggestions: [
            {
              messageId: 'hoistKey',
              data: { declaration: 'const idempotencyKey = randomUUID();' },
              output: `import { randomUUID } from 'node:crypto';
import { DynamoDBDocumentClient, PutCommand } from '@aws-sdk/lib-dynamodb';
const doc = DynamoDBDocumentClient.from(client);
export async function save(id, body) {
  const idempotencyKey = randomUUID();
  for (let attempt = 0; attempt < 3; attempt++) {
    const id = idempotencyKey;
    try {
      return await doc.send(new PutCommand({ TableName: 't', Item: { id, body } }));
    } catch (err) {
      if (err.name !== 'ThrottlingException') throw err;
    }
  }
}`,
            },
          ],
        },
      ],
    },
    {
      // A new key in an UpdateItem's Key creates a new item on each attempt (SDK v2 DocumentClient).
      code: `const AWS = require('aws-sdk');
const { v4 } = require('uuid');
const db = new AWS.DynamoDB.DocumentClient();
async function open(body) {
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      return await db.update({ TableName: 't', Key: { pk: v4() }, UpdateExpression: 'SET body = :b', ExpressionAttributeValues: { ':b': body } }).promise();
    } catch (err) {
      if (err.code !== 'ThrottlingException') throw err;
    }
  }
}`,
      errors: [
        {
          messageId: 'keyCreatedPerAttempt',
          data: keyData('v4()', 'DynamoDB', 'UpdateItem'),
          line: 7,
          column: 59,
          endLine: 7,
          endColumn: 63,
          suggestions: [
            {
              messageId: 'hoistKey',
              data: { declaration: 'const pk = v4();' },
              output: `const AWS = require('aws-sdk');
const { v4 } = require('uuid');
const db = new AWS.DynamoDB.DocumentClient();
async function open(body) {
  const pk = v4();
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      return await db.update({ TableName: 't', Key: { pk }, UpdateExpression: 'SET body = :b', ExpressionAttributeValues: { ':b': body } }).promise();
    } catch (err) {
      if (err.code !== 'ThrottlingException') throw err;
    }
  }
}`,
            },
          ],
        },
      ],
    },
    {
      // TransactWriteItems retried by p-retry without a token (v3): token created before the retry.
      code: `import pRetry from 'p-retry';
import { DynamoDBClient, TransactWriteItemsCommand } from '@aws-sdk/client-dynamodb';
const client = new DynamoDBClient({});
export async function transfer(from, to) {
  await pRetry(async () => {
    await client.send(new TransactWriteItemsCommand({
      TransactItems: [{ Update: from }, { Update: to }],
    }));
  }, { retries: 3, randomize: true });
}`,
      errors: [
        {
          messageId: 'missingClientRequestToken',
          line: 6,
          column: 27,
          endLine: 6,
          endColumn: 52,
          suggestions: [
            {
              messageId: 'addClientRequestToken',
              output: `import pRetry from 'p-retry';
import { DynamoDBClient, TransactWriteItemsCommand } from '@aws-sdk/client-dynamodb';
const client = new DynamoDBClient({});
export async function transfer(from, to) {
  const clientRequestToken = crypto.randomUUID();
  await pRetry(async () => {
    await client.send(new TransactWriteItemsCommand({
      ClientRequestToken: clientRequestToken,
      TransactItems: [{ Update: from }, { Update: to }],
    }));
  }, { retries: 3, randomize: true });
}`,
            },
          ],
        },
      ],
    },
    {
      // lib-dynamodb with the input made once before the loop: the token goes into it.
      code: `import { randomUUID } from 'node:crypto';
import { DynamoDBDocumentClient, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
const doc = DynamoDBDocumentClient.from(client);
export async function transfer(items) {
  const params = { TransactItems: items };
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      return await doc.send(new TransactWriteCommand(params));
    } catch (err) {
      if (err.name !== 'TransactionConflictException') throw err;
    }
  }
}`,
      errors: [
        {
          messageId: 'missingClientRequestToken',
          line: 8,
          column: 33,
          endLine: 8,
          endColumn: 53,
          suggestions: [
            {
              messageId: 'addClientRequestToken',
              output: `import { randomUUID } from 'node:crypto';
import { DynamoDBDocumentClient, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
const doc = DynamoDBDocumentClient.from(client);
export async function transfer(items) {
  const params = { ClientRequestToken: randomUUID(), TransactItems: items };
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      return await doc.send(new TransactWriteCommand(params));
    } catch (err) {
      if (err.name !== 'TransactionConflictException') throw err;
    }
  }
}`,
            },
          ],
        },
      ],
    },
    {
      // SDK v2 DocumentClient, params built per attempt.
      code: `const AWS = require('aws-sdk');
const db = new AWS.DynamoDB.DocumentClient();
async function run(items) {
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      return await db.transactWrite({ TransactItems: items }).promise();
    } catch (err) {
      if (err.code !== 'TransactionConflictException') throw err;
    }
  }
}`,
      errors: [
        {
          messageId: 'missingClientRequestToken',
          line: 6,
          column: 23,
          endLine: 6,
          endColumn: 36,
          suggestions: [
            {
              messageId: 'addClientRequestToken',
              output: `const AWS = require('aws-sdk');
const db = new AWS.DynamoDB.DocumentClient();
async function run(items) {
  const clientRequestToken = crypto.randomUUID();
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      return await db.transactWrite({ ClientRequestToken: clientRequestToken, TransactItems: items }).promise();
    } catch (err) {
      if (err.code !== 'TransactionConflictException') throw err;
    }
  }
}`,
            },
          ],
        },
      ],
    },
    {
      // SDK v2 with params made once before the retry: v2 also fills a new token into a copy per call.
      code: `const AWS = require('aws-sdk');
const db = new AWS.DynamoDB();
const params = {
  TransactItems: [],
};
async function run() {
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      return await db.transactWriteItems(params).promise();
    } catch (err) {
      if (err.code !== 'TransactionConflictException') throw err;
    }
  }
}`,
      errors: [
        {
          messageId: 'missingClientRequestToken',
          line: 9,
          column: 23,
          endLine: 9,
          endColumn: 41,
          suggestions: [
            {
              messageId: 'addClientRequestToken',
              output: `const AWS = require('aws-sdk');
const db = new AWS.DynamoDB();
const params = {
  ClientRequestToken: crypto.randomUUID(),
  TransactItems: [],
};
async function run() {
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      return await db.transactWriteItems(params).promise();
    } catch (err) {
      if (err.code !== 'TransactionConflictException') throw err;
    }
  }
}`,
            },
          ],
        },
      ],
    },
    {
      // A pg write transaction retried with no key: the relative UPDATE is reported.
      code: `import { Pool } from 'pg';
const pool = new Pool();
export async function debit(accountId, amount) {
  for (let attempt = 0; attempt < 3; attempt++) {
    const client = await pool.connect();
    try {
      await client.query('BEGIN');
      await client.query('UPDATE accounts SET balance = balance - $1 WHERE id = $2', [amount, accountId]);
      await client.query('INSERT INTO ledger (account_id, amount) VALUES ($1, $2)', [accountId, amount]);
      await client.query('COMMIT');
      return;
    } catch (err) {
      await client.query('ROLLBACK');
    } finally {
      client.release();
    }
  }
}`,
      errors: [
        {
          messageId: 'nonIdempotentPgWrite',
          data: { statement: 'UPDATE … SET balance = balance …' },
          line: 8,
          column: 20,
          endLine: 8,
          endColumn: 25,
          suggestions: [
            {
              messageId: 'retryOnlyNotApplied',
              data: { helper: 'isNotAppliedPgError', added: ', a function added to this file' },
              output: `import { Pool } from 'pg';

/** Whether PostgreSQL rolled the statement back or refused it before it ran: a serialization failure, a deadlock, too many connections, a server starting up. */
function isNotAppliedPgError(error: unknown): boolean {
  const notAppliedCodes: unknown[] = ['40001', '40P01', '53300', '57P03'];
  const code = (error as { code?: unknown } | null | undefined)?.code;
  return notAppliedCodes.includes(code);
}

const pool = new Pool();
export async function debit(accountId, amount) {
  for (let attempt = 0; attempt < 3; attempt++) {
    const client = await pool.connect();
    try {
      await client.query('BEGIN');
      await client.query('UPDATE accounts SET balance = balance - $1 WHERE id = $2', [amount, accountId]);
      await client.query('INSERT INTO ledger (account_id, amount) VALUES ($1, $2)', [accountId, amount]);
      await client.query('COMMIT');
      return;
    } catch (err) {
      await client.query('ROLLBACK');
      if (!isNotAppliedPgError(err)) throw err;
    } finally {
      client.release();
    }
  }
}`,
            },
          ],
        },
      ],
    },
    {
      // CommonJS, the file's own predicate of that name reused; the guard goes before the wait.
      code: `const { Pool } = require('pg');
const pool = new Pool();
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
function isNotAppliedPgError(error) {
  return error.code === '40001';
}
async function addEntry(entry) {
  for (let attempt = 1; ; attempt++) {
    try {
      await pool.query('INSERT INTO ledger (account_id, amount) VALUES ($1, $2)', [entry.account, entry.amount]);
      return;
    } catch (err) {
      if (attempt === 3) throw err;
      await sleep(Math.random() * Math.min(60000, 5000 * 2 ** attempt));
    }
  }
}
module.exports = { addEntry, isNotAppliedPgError };`,
      errors: [
        {
          messageId: 'nonIdempotentPgWrite',
          data: { statement: 'INSERT' },
          line: 10,
          suggestions: [
            {
              messageId: 'retryOnlyNotApplied',
              data: { helper: 'isNotAppliedPgError', added: '' },
              output: `const { Pool } = require('pg');
const pool = new Pool();
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
function isNotAppliedPgError(error) {
  return error.code === '40001';
}
async function addEntry(entry) {
  for (let attempt = 1; ; attempt++) {
    try {
      await pool.query('INSERT INTO ledger (account_id, amount) VALUES ($1, $2)', [entry.account, entry.amount]);
      return;
    } catch (err) {
      if (attempt === 3) throw err;
      if (!isNotAppliedPgError(err)) throw err;
      await sleep(Math.random() * Math.min(60000, 5000 * 2 ** attempt));
    }
  }
}
module.exports = { addEntry, isNotAppliedPgError };`,
            },
          ],
        },
      ],
    },
    {
      // The write is retried by an outer retry as well: narrowing the inner one would not
      // make it safe, so no suggestion.
      code: `import { Pool } from 'pg';
const pool = new Pool();
export async function debit(accountId, amount) {
  for (let round = 0; round < 3; round++) {
    try {
      for (let attempt = 0; attempt < 3; attempt++) {
        try {
          await pool.query('UPDATE accounts SET balance = balance - $1 WHERE id = $2', [amount, accountId]);
          return;
        } catch (err) {
          if (attempt === 2) throw err;
        }
      }
    } catch (err) {
      if (round === 2) throw err;
    }
  }
}`,
      errors: [{ messageId: 'nonIdempotentPgWrite', line: 8, suggestions: [] }],
    },
    {
      // postgres.js INSERT retried by async-retry.
      code: `import retry from 'async-retry';
import postgres from 'postgres';
const sql = postgres();
export async function add(order) {
  await retry(async () => {
    await sql\`insert into orders (customer, total) values (\${order.customer}, \${order.total})\`;
  }, { retries: 3 });
}`,
      errors: [
        {
          messageId: 'nonIdempotentPgWrite',
          data: { statement: 'INSERT' },
          line: 6,
          column: 11,
          endLine: 6,
          endColumn: 14,
        },
      ],
    },
  ],
});
