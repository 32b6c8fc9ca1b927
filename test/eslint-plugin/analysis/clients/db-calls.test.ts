import { describe, expect, it } from 'vitest';
import { findDbCalls, findDbCallsWithin, hasDatabaseCode } from '../../../../eslint-plugin/src/analysis/clients/db-calls';
import { analyse, lintWithPlugin, nodesOfType, textOf } from '../../harness';

// Odd but valid code around DynamoDB and PostgreSQL clients: the tracking and the
// DynamoDB / PostgreSQL rules must not throw, and report only the pools that really
// have no 'error' listener.
const ODD_SNIPPETS: [code: string, expected: string[]][] = [
  [
  `import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
const args = [{ maxAttempts: 1 }] as const;
const a = new DynamoDBClient(...args);
const b = new DynamoDBClient({ ...{ maxAttempts: 1 } });
const c = new DynamoDBClient({ ['max' + 'Attempts']: 1 });
const d = new DynamoDBClient(undefined);`,
    [],
  ],
  [
  `import { DynamoDBClient, BatchWriteItemCommand } from '@aws-sdk/client-dynamodb';
const client = new DynamoDBClient({});
const method = 'send';
await client[method](new BatchWriteItemCommand({ RequestItems: {} }));
await client?.send?.(new BatchWriteItemCommand({ RequestItems: {} }))?.then?.((r) => r.UnprocessedItems);
const results = [await client.send(new BatchWriteItemCommand({ RequestItems: {} }))];
export const all = { ...(await client.send(new BatchWriteItemCommand({ RequestItems: {} }))) };`,
    [],
  ],
  [
  `const AWS = require('aws-sdk');
const name = 'DynamoDB';
const db = new AWS[name]({ maxRetries: 0 });
require();
require(name);
const docs = new AWS.DynamoDB.DocumentClient();
docs.batchWrite({ RequestItems: {} }, ...callbacks);
docs.batchWrite({ RequestItems: {} }, function (err, ...rest) { console.log(rest); });`,
    [],
  ],
  [
  `import { Pool } from 'pg';
const pools = [new Pool()];
const { query } = new Pool();
const pool = new Pool();
pool.on();
pool.on(...events);
pool.on(\`\${'er'}ror\`, () => {});
new Pool().query('SELECT 1');`,
    ['3: retry-safety/pg-require-pool-error-listener', '8: retry-safety/pg-require-pool-error-listener'],
  ],
  [
  `import postgres from 'postgres';
const sql = postgres();
sql\`\`;
sql.unsafe();
sql.begin();
sql.begin(async ([tx]) => tx);
const fragment = sql\`a \${sql\`b \${sql\`c\`}\`}\`;`,
    [],
  ],
  [
  `import pg from 'pg';
let client;
client = new pg.Client();
client.query();
client.query(123);
client.query({ ['text']: 'BEGIN' });
(await new pg.Pool().connect()).query('COMMIT');
pg.Pool.prototype.query.call(null, 'x');`,
    ['7: retry-safety/pg-require-pool-error-listener'],
  ],
];

describe('odd shapes', () => {
  it.each(ODD_SNIPPETS.map(([code, expected], index) => [index, code, expected] as const))('snippet %i', (_index, code, expected) => {
    const messages = lintWithPlugin(code, [
      'dynamodb-no-disabled-retries',
      'dynamodb-require-unprocessed-items-handling',
      'pg-require-pool-error-listener',
    ]);
    expect(messages.filter((message) => message.fatal || !message.ruleId)).toEqual([]);
    expect(messages.map((message) => `${message.line}: ${message.ruleId}`)).toEqual(expected);
  });
});

describe('findDbCalls', () => {
  it('lists the MongoDB, DynamoDB and PostgreSQL calls of a file in source order', () => {
    const code = `
      import { MongoClient } from 'mongodb';
      import { DynamoDBClient, PutItemCommand } from '@aws-sdk/client-dynamodb';
      import { Pool } from 'pg';
      const orders = new MongoClient('mongodb://localhost').db('shop').collection('orders');
      const ddb = new DynamoDBClient({});
      const pool = new Pool();
      export async function save(order) {
        await pool.query('INSERT INTO orders (id) VALUES ($1)', [order.id]);
        await orders.find({ id: order.id }).toArray();
        await ddb.send(new PutItemCommand({ TableName: 'orders', Item: order }));
      }`;
    expect(analyse(code, (context) => findDbCalls(context).map((call) => `${call.database} ${call.operation}${call.isWrite ? ' write' : ''} @${call.node.loc.start.line}`))).toEqual([
      'postgres query write @9',
      'mongodb find @10',
      'dynamodb PutItem write @11',
    ]);
  });

  it('finds nothing in code that only looks like database code', () => {
    const code = `
      import { PrismaClient } from '@prisma/client';
      const prisma = new PrismaClient();
      export async function save(order) {
        await prisma.order.updateMany({ where: { id: order.id }, data: { paid: true } });
        const items = [order];
        items.find((item) => item.id);
        await fetch('/orders', { method: 'POST' });
      }`;
    expect(analyse(code, findDbCalls)).toEqual([]);
  });
});

describe('findDbCallsWithin', () => {
  it('keeps the calls inside the given node', () => {
    const code = `
      import { Pool } from 'pg';
      const pool = new Pool();
      await pool.query('SELECT 1');
      export async function pay(id) {
        await pool.query('UPDATE orders SET paid = true WHERE id = $1', [id]);
      }
      await pool.query('SELECT 2');`;
    const inside = analyse(code, (context) => {
      const [fn] = nodesOfType(context, 'FunctionDeclaration');
      if (!fn) throw new Error('no function');
      return findDbCallsWithin(context, fn).map((call) => textOf(code, call.node));
    });
    expect(inside).toEqual(["pool.query('UPDATE orders SET paid = true WHERE id = $1', [id])"]);
  });
});

describe('hasDatabaseCode', () => {
  it('is true for a database call, and for a client or pool made without calls', () => {
    const has = (code: string) => analyse(code, hasDatabaseCode);
    expect(has(`import { MongoClient } from 'mongodb'; new MongoClient('mongodb://h').db().collection('c').insertOne({});`)).toBe(true);
    expect(has(`import { DynamoDBClient } from '@aws-sdk/client-dynamodb'; export const ddb = new DynamoDBClient({ maxAttempts: 1 });`)).toBe(true);
    expect(has(`import { Pool } from 'pg'; export const pool = new Pool();`)).toBe(true);
  });

  it('is false for files without database code, retry loops included', () => {
    const has = (code: string) => analyse(code, hasDatabaseCode);
    expect(has(`import { PrismaClient } from '@prisma/client'; new PrismaClient().user.deleteMany({});`)).toBe(false);
    expect(
      has(`
        export async function get(url) {
          for (let attempt = 0; attempt < 3; attempt++) {
            try { return await fetch(url); } catch { await new Promise((r) => setTimeout(r, 100)); }
          }
        }`),
    ).toBe(false);
  });
});
