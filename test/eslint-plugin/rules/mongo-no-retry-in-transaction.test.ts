import rule from '../../../eslint-plugin/src/rules/mongo-no-retry-in-transaction';
import { createRuleTester, createTypedRuleTester, typedFilename } from '../rule-tester';

const header = `import { MongoClient } from 'mongodb';
const client = new MongoClient('mongodb://localhost');
const orders = client.db('shop').collection('orders');
const stock = client.db('shop').collection('stock');
`;

const data = (method: string, retry: string) => ({ method, retry });

const moved = `${header}export async function move(session) {
  await session.withTransaction(async () => {
    let tries = 0;
    // both writes or none
    await orders.updateOne({ _id: 1 }, { $set: { state: 'moved' } }, { session });
    await stock.updateOne({ _id: 'sku' }, { $inc: { n: 1 } }, { session });
  });
}`;

/** A commit retried in a loop while the error's labels hold `label` (double quotes kept by the suggestion). */
const commitLoop = (label: string) => `${header}export async function commit() {
  const session = client.startSession();
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      await session.commitTransaction();
      break;
    } catch (error) {
      if (!error.errorLabels?.includes("${label}")) throw error;
    }
  }
}`;

createRuleTester().run('mongo-no-retry-in-transaction', rule, {
  valid: [
    // Retrying the whole transaction is the right shape.
    `${header}export async function place(order) {
  for (let attempt = 1; attempt <= 3; attempt++) {
    const session = client.startSession();
    try {
      session.startTransaction();
      await orders.insertOne(order, { session });
      await session.commitTransaction();
      return;
    } catch (error) {
      await session.abortTransaction();
      if (attempt === 3) throw error;
    } finally {
      await session.endSession();
    }
  }
}`,
    // A transaction with no hand-written retry.
    `${header}await client.withSession((session) => session.withTransaction(async () => {
  await orders.insertOne({ _id: 1 }, { session });
}));`,
    // A retry that only reads.
    `${header}const session = client.startSession();
await session.withTransaction(async () => {
  for (let attempt = 0; attempt < 3; attempt++) {
    try { return await orders.findOne({ _id: 1 }, { session }); } catch { continue; }
  }
});`,
    // A retry after the transaction committed.
    `${header}const session = client.startSession();
session.startTransaction();
await orders.insertOne({ _id: 1 }, { session });
await session.commitTransaction();
for (let attempt = 0; attempt < 3; attempt++) {
  try { await stock.updateOne({ _id: 1 }, { $inc: { n: -1 } }); break; } catch { continue; }
}`,
    // MongoDB's own pattern: the commit alone retried on UnknownTransactionCommitResult, the
    // whole transaction on TransientTransactionError.
    `${header}async function commitWithRetry(session) {
  try {
    await session.commitTransaction();
  } catch (error) {
    if (error.hasErrorLabel('UnknownTransactionCommitResult')) {
      await commitWithRetry(session);
    } else throw error;
  }
}
async function runTransactionWithRetry(work, session) {
  for (;;) {
    try {
      await work(session);
      break;
    } catch (error) {
      if (error.hasErrorLabel('TransientTransactionError')) continue;
      throw error;
    }
  }
}
export async function place(order) {
  const session = client.startSession();
  await runTransactionWithRetry(async (s) => {
    s.startTransaction();
    await orders.insertOne(order, { session: s });
    await commitWithRetry(s);
  }, session);
}`,
    // A commit retried on TransientTransactionError by TypeORM's query runner (a look-alike).
    `import { DataSource } from 'typeorm';
const runner = new DataSource({}).createQueryRunner();
for (let attempt = 0; attempt < 3; attempt++) {
  try {
    await runner.commitTransaction();
    break;
  } catch (error) {
    if (error.code !== 'TransientTransactionError') throw error;
  }
}`,
    // A commit not retried: the label only decides what to log.
    `export async function commit(session, log) {
  try {
    await session.commitTransaction();
  } catch (error) {
    if (error.hasErrorLabel('TransientTransactionError')) log('aborted');
    throw error;
  }
}`,
    // TypeORM's query runner has the same method names.
    `import { DataSource } from 'typeorm';
const runner = new DataSource({}).createQueryRunner();
await runner.startTransaction();
for (let attempt = 0; attempt < 3; attempt++) {
  try { await runner.manager.updateOne({}, { $set: { a: 1 } }); break; } catch { continue; }
}
await runner.commitTransaction();`,
  ],
  invalid: [
    {
      // parse-server's shape: a `.catch` retry of the commit on TransientTransactionError, the session a parameter.
      code: `export function commitTransactionalSession(session) {
  const commit = (retries) =>
    session.commitTransaction().catch((error) => {
      if (error && error.hasErrorLabel('TransientTransactionError') && retries > 0) {
        return commit(retries - 1);
      }
      throw error;
    });
  return commit(5);
}`,
      errors: [
        {
          messageId: 'commitRetriedOnTransientError',
          line: 3,
          column: 5,
          endLine: 3,
          endColumn: 32,
          suggestions: [
            {
              messageId: 'retryCommitOnUnknownResult',
              output: `export function commitTransactionalSession(session) {
  const commit = (retries) =>
    session.commitTransaction().catch((error) => {
      if (error && error.hasErrorLabel('UnknownTransactionCommitResult') && retries > 0) {
        return commit(retries - 1);
      }
      throw error;
    });
  return commit(5);
}`,
            },
          ],
        },
      ],
    },
    {
      // A loop reading `errorLabels`, on a session from the driver; the quotes are kept.
      code: commitLoop('TransientTransactionError'),
      errors: [
        {
          messageId: 'commitRetriedOnTransientError',
          line: 9,
          suggestions: [{ messageId: 'retryCommitOnUnknownResult', output: commitLoop('UnknownTransactionCommitResult') }],
        },
      ],
    },
    {
      // Both labels retried: no suggestion (dropping one label is the author's call).
      code: `async function commitWithRetry(session) {
  try {
    await session.commitTransaction();
  } catch (error) {
    if (error.hasErrorLabel('UnknownTransactionCommitResult') || error.hasErrorLabel('TransientTransactionError')) {
      return commitWithRetry(session);
    }
    throw error;
  }
}`,
      errors: [{ messageId: 'commitRetriedOnTransientError', line: 3, suggestions: [] }],
    },
    {
      code: `${header}const session = client.startSession();
await session.withTransaction(async () => {
  await orders.insertOne({ _id: 1 }, { session });
  for (let attempt = 1; attempt <= 3; attempt++) {
    try {
      await stock.updateOne({ _id: 'sku' }, { $inc: { n: -1 } }, { session });
      break;
    } catch (error) {
      if (attempt === 3) throw error;
    }
  }
});`,
      errors: [
        {
          messageId: 'retryInsideTransaction',
          data: data('updateOne', 'a retry loop'),
          line: 10,
          column: 13,
          endLine: 10,
          endColumn: 78,
          suggestions: [
            {
              messageId: 'keepSingleAttempt',
              output: `${header}const session = client.startSession();
await session.withTransaction(async () => {
  await orders.insertOne({ _id: 1 }, { session });
  await stock.updateOne({ _id: 'sku' }, { $inc: { n: -1 } }, { session });
});`,
            },
          ],
        },
      ],
    },
    {
      // Several statements per attempt, a comment kept; the loop's counter unused by the attempt.
      code: `${header}export async function move(session) {
  await session.withTransaction(async () => {
    let tries = 0;
    while (tries < 3) {
      try {
        // both writes or none
        await orders.updateOne({ _id: 1 }, { $set: { state: 'moved' } }, { session });
        await stock.updateOne({ _id: 'sku' }, { $inc: { n: 1 } }, { session });
        break;
      } catch (error) {
        tries++;
      }
    }
  });
}`,
      errors: [
        {
          messageId: 'retryInsideTransaction',
          line: 11,
          suggestions: [
            {
              messageId: 'keepSingleAttempt',
              output: `${header}export async function move(session) {
  await session.withTransaction(async () => {
    let tries = 0;
    // both writes or none
    await orders.updateOne({ _id: 1 }, { $set: { state: 'moved' } }, { session });
    await stock.updateOne({ _id: 'sku' }, { $inc: { n: 1 } }, { session });
  });
}`,
            },
          ],
        },
        // The second write of the same attempt: the same edit.
        { messageId: 'retryInsideTransaction', line: 12, suggestions: [{ messageId: 'keepSingleAttempt', output: moved }] },
      ],
    },
    {
      // The attempt reads the loop's counter: removing the loop would leave it undefined.
      code: `${header}await client.startSession().withTransaction(async (session) => {
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      await orders.insertOne({ _id: attempt }, { session });
      break;
    } catch {}
  }
});`,
      errors: [{ messageId: 'retryInsideTransaction', suggestions: [] }],
    },
    {
      // An explicit transaction (startTransaction … commitTransaction) has no retry of its own.
      code: `${header}const session = client.startSession();
session.startTransaction();
for (let attempt = 0; attempt < 3; attempt++) {
  try {
    await orders.insertOne({ _id: 1 }, { session });
    break;
  } catch {}
}
await session.commitTransaction();`,
      errors: [{ messageId: 'retryInsideTransaction', suggestions: [] }],
    },
    {
      code: `${header}const session = client.startSession();
session.startTransaction();
try {
  const retry = async (attempt) => {
    try {
      await orders.deleteOne({ _id: 1 }, { session });
    } catch (error) {
      if (attempt < 3) return retry(attempt + 1);
      throw error;
    }
  };
  await retry(1);
  await session.commitTransaction();
} catch (error) {
  await session.abortTransaction();
}`,
      errors: [{ messageId: 'retryInsideTransaction', data: data('deleteOne', 'a recursive retry'), line: 10, column: 13, endLine: 10, endColumn: 54, suggestions: [] }],
    },
    {
      // CommonJS, a retry library, Mongoose connection.transaction.
      code: `const mongoose = require('mongoose');
const pRetry = require('p-retry');
const Order = mongoose.model('Order', new mongoose.Schema({}));
mongoose.connection.transaction(async (session) => {
  await pRetry(() => Order.updateOne({ _id: 1 }, { paid: true }, { session }), { retries: 2 });
});`,
      errors: [{ messageId: 'retryInsideTransaction', data: data('updateOne', '`p-retry`'), line: 5, column: 22, endLine: 5, endColumn: 78, suggestions: [] }],
    },
  ],
});

createTypedRuleTester().run('mongo-no-retry-in-transaction (typed)', rule, {
  valid: [],
  invalid: [
    {
      filename: typedFilename,
      code: `import type { ClientSession, Collection } from 'mongodb';
export async function pay(s: ClientSession, payments: Collection) {
  await s.withTransaction(async () => {
    for (let attempt = 0; attempt < 3; attempt++) {
      try { await payments.insertOne({ _id: 'p1' } as never, { session: s }); return; } catch { continue; }
    }
  });
}`,
      errors: [
        {
          messageId: 'retryInsideTransaction',
          data: data('insertOne', 'a retry loop'),
          line: 5,
          column: 19,
          endLine: 5,
          endColumn: 77,
          suggestions: [
            {
              messageId: 'keepSingleAttempt',
              output: `import type { ClientSession, Collection } from 'mongodb';
export async function pay(s: ClientSession, payments: Collection) {
  await s.withTransaction(async () => {
    await payments.insertOne({ _id: 'p1' } as never, { session: s }); return;
  });
}`,
            },
          ],
        },
      ],
    },
  ],
});
