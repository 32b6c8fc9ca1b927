import rule from '../../../eslint-plugin/src/rules/pg-require-whole-transaction-retry';
import { createRuleTester } from '../rule-tester';

const ruleTester = createRuleTester();

ruleTester.run('pg-require-whole-transaction-retry', rule, {
  valid: [
    // The whole transaction retried, each attempt on a new connection.
    `import { Pool } from 'pg';
const pool = new Pool();
export async function transfer(from, to, amount) {
  for (let attempt = 0; attempt < 3; attempt++) {
    const client = await pool.connect();
    try {
      await client.query('BEGIN');
      await client.query('UPDATE accounts SET balance = balance - $1 WHERE id = $2', [amount, from]);
      await client.query('UPDATE accounts SET balance = balance + $1 WHERE id = $2', [amount, to]);
      await client.query('COMMIT');
      return;
    } catch (err) {
      await client.query('ROLLBACK').catch(() => {});
      if (attempt === 2) throw err;
    } finally {
      client.release();
    }
  }
}`,
    // Serialization failures leave the connection healthy: rerunning the transaction on it is right.
    `import { Pool } from 'pg';
const pool = new Pool();
export async function transfer(from, amount) {
  const client = await pool.connect();
  try {
    for (let attempt = 0; attempt < 5; attempt++) {
      try {
        await client.query('BEGIN ISOLATION LEVEL SERIALIZABLE');
        await client.query('UPDATE accounts SET balance = balance - $1 WHERE id = $2', [amount, from]);
        await client.query('COMMIT');
        return;
      } catch (err) {
        await client.query('ROLLBACK');
        if (err.code !== '40001' && err.code !== '40P01') throw err;
      }
    }
  } finally {
    client.release();
  }
}`,
    // A savepoint makes rerunning part of a transaction correct.
    `import { Pool } from 'pg';
const pool = new Pool();
export async function run(client) {
  const c = await pool.connect();
  await c.query('BEGIN');
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      await c.query('SAVEPOINT step');
      await c.query('INSERT INTO t VALUES (1)');
      await c.query('RELEASE SAVEPOINT step');
      break;
    } catch (err) {
      await c.query('ROLLBACK TO SAVEPOINT step');
    }
  }
  await c.query('COMMIT');
  c.release();
}`,
    // postgres.js: sql.begin inside the retry takes a new connection per attempt.
    `import postgres from 'postgres';
import pRetry from 'p-retry';
const sql = postgres();
export async function transfer(from, to, amount) {
  await pRetry(() => sql.begin(async (tx) => {
    await tx\`update accounts set balance = balance - \${amount} where id = \${from}\`;
    await tx\`update accounts set balance = balance + \${amount} where id = \${to}\`;
  }), { retries: 3, randomize: true });
}`,
    // postgres.js: a savepoint retried inside the transaction.
    `import postgres from 'postgres';
const sql = postgres();
await sql.begin(async (tx) => {
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      await tx.savepoint(async (sp) => sp\`insert into t values (1)\`);
      break;
    } catch (err) {
      if (err.code !== '40001') throw err;
    }
  }
});`,
    // The retry comes after COMMIT.
    `import { Pool } from 'pg';
const pool = new Pool();
const client = await pool.connect();
await client.query('BEGIN');
await client.query('INSERT INTO t VALUES (1)');
await client.query('COMMIT');
for (let attempt = 0; attempt < 3; attempt++) {
  try {
    await client.query('SELECT 1');
    break;
  } catch (err) {
    await sleep(1000);
  }
}
client.release();`,
    // Pool queries have no transaction.
    `import { Pool } from 'pg';
const pool = new Pool();
for (let attempt = 0; attempt < 3; attempt++) {
  try {
    await pool.query('UPDATE jobs SET done = true WHERE id = $1', [1]);
    break;
  } catch (err) {
    if (err.code !== 'ECONNRESET') throw err;
  }
}`,
    // mysql2: another database.
    `import mysql from 'mysql2/promise';
const conn = await mysql.createConnection({});
await conn.query('BEGIN');
for (let attempt = 0; attempt < 3; attempt++) {
  try {
    await conn.query('INSERT INTO t VALUES (1)');
    break;
  } catch (err) {
    await sleep(100);
  }
}
await conn.query('COMMIT');`,
  ],
  invalid: [
    {
      // One statement retried between BEGIN and COMMIT.
      code: `import { Pool } from 'pg';
const pool = new Pool();
export async function transfer(from, to, amount) {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    await client.query('UPDATE accounts SET balance = balance - $1 WHERE id = $2', [amount, from]);
    for (let attempt = 0; attempt < 3; attempt++) {
      try {
        await client.query('UPDATE accounts SET balance = balance + $1 WHERE id = $2', [amount, to]);
        break;
      } catch (err) {
        await sleep(100 * 2 ** attempt);
      }
    }
    await client.query('COMMIT');
  } finally {
    client.release();
  }
}`,
      errors: [
        {
          messageId: 'statementRetriedInTransaction',
          data: { begin: 'BEGIN', line: '6' },
          line: 10,
          column: 22,
          endLine: 10,
          endColumn: 27,
          suggestions: [
            {
              // The one attempt stays; the retries, which the aborted transaction would reject, go.
              messageId: 'keepSingleAttempt',
              output: `import { Pool } from 'pg';
const pool = new Pool();
export async function transfer(from, to, amount) {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    await client.query('UPDATE accounts SET balance = balance - $1 WHERE id = $2', [amount, from]);
    await client.query('UPDATE accounts SET balance = balance + $1 WHERE id = $2', [amount, to]);
    await client.query('COMMIT');
  } finally {
    client.release();
  }
}`,
            },
          ],
        },
      ],
    },
    {
      // postgres.js: a loop inside the sql.begin callback that leaves with \`return\`.
      code: `import postgres from 'postgres';
const sql = postgres();
export async function reserve(sku, quantity) {
  await sql.begin(async (tx) => {
    await tx\`update stock set reserved = reserved + \${quantity} where sku = \${sku}\`;
    for (let attempt = 1; ; attempt++) {
      try {
        await tx\`insert into reservations (sku, quantity) values (\${sku}, \${quantity})\`;
        return;
      } catch (err) {
        if (attempt === 3) throw err;
      }
    }
  });
}`,
      errors: [
        {
          messageId: 'statementRetriedInTransaction',
          data: { begin: 'sql.begin', line: '4' },
          line: 8,
          suggestions: [
            {
              messageId: 'keepSingleAttempt',
              output: `import postgres from 'postgres';
const sql = postgres();
export async function reserve(sku, quantity) {
  await sql.begin(async (tx) => {
    await tx\`update stock set reserved = reserved + \${quantity} where sku = \${sku}\`;
    await tx\`insert into reservations (sku, quantity) values (\${sku}, \${quantity})\`;
    return;
  });
}`,
            },
          ],
        },
      ],
    },
    {
      // No suggestion when the attempt reads the loop's counter: its one attempt would not stand alone.
      code: `import { Pool } from 'pg';
const pool = new Pool();
export async function tag(id) {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    for (let attempt = 0; attempt < 3; attempt++) {
      try {
        await client.query('UPDATE items SET tag = $2 WHERE id = $1', [id, 'try-' + attempt]);
        break;
      } catch (err) {
        if (attempt === 2) throw err;
      }
    }
    await client.query('COMMIT');
  } finally {
    client.release();
  }
}`,
      errors: [{ messageId: 'statementRetriedInTransaction', data: { begin: 'BEGIN', line: '6' }, line: 9, suggestions: [] }],
    },
    {
      // CJS, a \`new Client()\`, \`.catch(() => retry…())\` on one statement after BEGIN.
      code: `const { Client } = require('pg');
const client = new Client();
async function main(row) {
  await client.connect();
  await client.query('BEGIN');
  await client.query('INSERT INTO items (name) VALUES ($1)', [row.name]).catch((err) => retryInsert(row));
  await client.query('COMMIT');
}`,
      errors: [
        {
          messageId: 'statementRetriedInTransaction',
          data: { begin: 'BEGIN', line: '5' },
          line: 6,
          column: 16,
          endLine: 6,
          endColumn: 21,
        },
      ],
    },
    {
      // postgres.js: p-retry around one statement inside sql.begin.
      code: `import postgres from 'postgres';
import pRetry from 'p-retry';
const sql = postgres();
export async function transfer(from, to, amount) {
  await sql.begin(async (tx) => {
    await tx\`update accounts set balance = balance - \${amount} where id = \${from}\`;
    await pRetry(() => tx\`update accounts set balance = balance + \${amount} where id = \${to}\`, { retries: 3, randomize: true });
  });
}`,
      errors: [
        {
          messageId: 'statementRetriedInTransaction',
          data: { begin: 'sql.begin', line: '5' },
          line: 7,
          column: 24,
          endLine: 7,
          endColumn: 26,
        },
      ],
    },
    {
      // The whole transaction retried, but on the connection taken before the loop.
      code: `import { Pool } from 'pg';
const pool = new Pool();
export async function transfer(from, to, amount) {
  const client = await pool.connect();
  try {
    for (let attempt = 0; attempt < 3; attempt++) {
      try {
        await client.query('BEGIN');
        await client.query('UPDATE accounts SET balance = balance - $1 WHERE id = $2', [amount, from]);
        await client.query('COMMIT');
        return;
      } catch (err) {
        await client.query('ROLLBACK');
        if (attempt === 2) throw err;
      }
    }
  } finally {
    client.release();
  }
}`,
      errors: [
        {
          messageId: 'transactionRetriedOnSameConnection',
          data: { line: '4' },
          line: 8,
          column: 22,
          endLine: 8,
          endColumn: 27,
        },
      ],
    },
    {
      // A typed client parameter reused across attempts, retrying connection errors.
      code: `import type { PoolClient } from 'pg';
export async function save(client: PoolClient, id: string) {
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      await client.query('BEGIN; UPDATE jobs SET done = true WHERE id = $1; COMMIT', [id]);
      return;
    } catch (err) {
      if (err.code !== 'ECONNRESET' && !err.code?.startsWith('08')) throw err;
    }
  }
}`,
      errors: [
        {
          messageId: 'transactionRetriedOnSameConnection',
          data: { line: '2' },
          line: 5,
          column: 20,
          endLine: 5,
          endColumn: 25,
        },
      ],
    },
  ],
});
