import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { InvalidTestCase } from '@typescript-eslint/rule-tester';
import { afterAll, describe, expect, it } from 'vitest';
import { createTypeChecker } from '../../../bench/fix-checks.mjs';
import rule from '../../../eslint-plugin/src/rules/mongo-no-non-retryable-write';
import { createRuleTester, createTypedRuleTester, typedFilename, typedFixtureDir } from '../rule-tester';

type MessageId = 'nonRetryableWrite' | 'nonRetryableBulkWrite' | 'rewriteAsSingleDocumentWrites' | 'retryOnTransientErrors' | 'retryThroughHelper';
type Options = [{ checkIdempotentWrites?: boolean }];

const IDEMPOTENT = 'It is idempotent: retry it yourself, or set `checkIdempotentWrites: false`.';
const UNKNOWN = 'If a rerun is safe, retry it yourself; if not, update one document at a time (by `_id`).';
const notIdempotent = (operators: string): string => `A rerun would apply ${operators} twice: update one document at a time (by \`_id\`).`;

const header = `import { MongoClient } from 'mongodb';
const orders = new MongoClient('mongodb://localhost').db('shop').collection('orders');
`;

/** The transient-error check a suggestion adds, in a JavaScript file. */
const transientCheckJs = `/** Whether a MongoDB error may pass on retry: labelled so by the driver, a network error, a primary election. */
function isTransientMongoError(error) {
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
  const { code, codeName, name, errorLabels } = error ?? {};
  if (Array.isArray(errorLabels) && errorLabels.some((label) => transientLabels.includes(label))) return true;
  if (typeof code === 'number' && transientCodes.includes(code)) return true;
  return transientNames.some((transient) => transient === codeName || transient === name);
}`;

/** The same in a TypeScript file. */
const transientCheckTs = transientCheckJs
  .replace('function isTransientMongoError(error) {', 'function isTransientMongoError(error: unknown): boolean {')
  .replace('= error ?? {};', '= (error ?? {}) as { code?: unknown; codeName?: unknown; name?: unknown; errorLabels?: unknown };');

const backoffWait = 'await new Promise((resolve) => setTimeout(resolve, Math.random() * Math.min(10000, 100 * 2 ** attempt)));';

/** The retry helper a suggestion adds after the transient-error check. */
function retryHelper(typescript: boolean, wait = backoffWait): string {
  const signature = typescript
    ? 'async function retryOnTransientMongoError<T>(call: () => PromiseLike<T>): Promise<T> {'
    : 'async function retryOnTransientMongoError(call) {';
  return `${typescript ? transientCheckTs : transientCheckJs}

/** Runs \`call\` again on transient MongoDB errors: up to 5 attempts, with capped, jittered exponential backoff. */
${signature}
  for (let attempt = 1; ; attempt++) {
    try {
      return await call();
    } catch (error) {
      if (attempt >= 5 || !isTransientMongoError(error)) throw error;
      ${wait}
    }
  }
}`;
}

createRuleTester().run('mongo-no-non-retryable-write', rule, {
  valid: [
    // Single-document writes are retryable.
    `${header}await orders.updateOne({ _id: 1 }, { $inc: { n: 1 } });`,
    `${header}await orders.deleteOne({ _id: 1 });`,
    `${header}await orders.bulkWrite([{ updateOne: { filter: {}, update: { $set: { a: 1 } } } }, { deleteOne: { filter: {} } }]);`,
    // bulkWrite whose operations are not written out cannot be judged.
    `${header}await orders.bulkWrite(operations);`,
    // An update of unknown idempotency that the code retries itself: the message's advice when a rerun is safe.
    `${header}export async function apply(filter, update) {
  for (let attempt = 1; ; attempt++) {
    try {
      await orders.updateMany(filter, update);
      return;
    } catch (error) {
      if (attempt >= 3) throw error;
      await new Promise((resolve) => setTimeout(resolve, Math.random() * Math.min(10000, 100 * 2 ** attempt)));
    }
  }
}`,
    // Look-alikes: Prisma, Redux entity adapters, arrays, Maps, repositories.
    `import { PrismaClient } from '@prisma/client';
const prisma = new PrismaClient();
await prisma.user.updateMany({ where: { active: false }, data: { archived: true } });
await prisma.user.deleteMany({ where: { archived: true } });`,
    `import { createEntityAdapter } from '@reduxjs/toolkit';
const adapter = createEntityAdapter();
export const reducer = (state, action) => adapter.updateMany(state, action.payload);`,
    `const items = []; items.deleteMany?.({});`,
    `const cache = new Map(); cache.updateMany?.({}, {});`,
    `export function f(repository) { return repository.updateMany({ id: 1 }, { active: false }); }`,
    `import { Repository } from 'typeorm'; export function f(repo) { return repo.updateMany({}, { $set: { a: 1 } }); }`,
    // Inside a transaction the whole transaction is what is retried.
    `${header}const session = new MongoClient('x').startSession();
await session.withTransaction(async () => { await orders.updateMany({}, { $inc: { n: 1 } }, { session }); });`,
    `${header}const session = new MongoClient('x').startSession();
session.startTransaction();
await orders.deleteMany({}, { session });
await session.commitTransaction();`,
    // An idempotent write that the code's own retry runs again (the suggested shape).
    `${header}for (let attempt = 1; ; attempt++) {
  try {
    await orders.deleteMany({ expired: true });
    break;
  } catch (error) {
    if (attempt >= 5 || !isTransientMongoError(error)) throw error;
    await new Promise((resolve) => setTimeout(resolve, Math.random() * Math.min(10000, 100 * 2 ** attempt)));
  }
}`,
    `${header}import pRetry from 'p-retry';
await pRetry(() => orders.updateMany({}, { $set: { a: 1 } }), { retries: 4, randomize: true, maxTimeout: 10000 });`,
    // … and one the code runs again through a function that retries the callback it is given (the other suggested shape).
    `${header}async function withRetry(write) {
  for (let attempt = 1; ; attempt++) {
    try {
      return await write();
    } catch (error) {
      if (attempt >= 5) throw error;
      await new Promise((resolve) => setTimeout(resolve, Math.random() * Math.min(10000, 100 * 2 ** attempt)));
    }
  }
}
export const purge = async () => (await withRetry(() => orders.deleteMany({ expired: true }))).deletedCount;`,
    // Idempotent writes when the user opts out of them.
    { code: `${header}await orders.deleteMany({ expired: true });`, options: [{ checkIdempotentWrites: false }] },
    { code: `${header}await orders.updateMany({}, { $set: { a: 1 } });`, options: [{ checkIdempotentWrites: false }] },
  ],
  invalid: [
    {
      // An event listener may become async (the emitter ignores what it returns); a timer callback is left alone.
      code: `${header}export function watch(broker: NodeJS.EventEmitter) {
  broker.on('disconnect', (client: { id: string }) => {
    orders.updateMany({ clientId: client.id }, { $inc: { disconnects: 1 } });
  });
  setTimeout(() => {
    orders.updateMany({ clientId: 'x' }, { $inc: { disconnects: 1 } });
  }, 10);
}`,
      errors: [
        {
          messageId: 'nonRetryableWrite',
          data: { method: 'updateMany', action: notIdempotent('`$inc`') },
          line: 5,
          suggestions: [{ messageId: 'rewriteAsSingleDocumentWrites', data: { operation: 'updateOne', inListener: ' The listener becomes `async`.' }, output: `${header}export function watch(broker: NodeJS.EventEmitter) {
  broker.on('disconnect', async (client: { id: string }) => {
    {
      const filter = { clientId: client.id } as const;
      const update = { $inc: { disconnects: 1 } } as const;
      const docs = await orders.find(filter, { projection: { _id: 1 } }).toArray();
      const ids = docs.map((doc: (typeof docs)[number]) => doc._id);
      if (ids.length > 0) {
        await orders.bulkWrite(ids.map((id2: (typeof ids)[number]) => ({ updateOne: { filter: { ...filter, _id: id2 }, update: update } })));
      }
    }
  });
  setTimeout(() => {
    orders.updateMany({ clientId: 'x' }, { $inc: { disconnects: 1 } });
  }, 10);
}` }],
        },
        { messageId: 'nonRetryableWrite', data: { method: 'updateMany', action: notIdempotent('`$inc`') }, line: 8, suggestions: [] },
      ],
    },
    {
      // A retry does not make a non-idempotent write safe: running it again adds 1 twice.
      code: `${header}for (let attempt = 1; ; attempt++) {
  try {
    await orders.updateMany({}, { $inc: { n: 1 } });
    break;
  } catch (error) {
    if (attempt >= 5) throw error;
  }
}`,
      errors: [
        {
          messageId: 'nonRetryableWrite',
          data: { method: 'updateMany', action: notIdempotent('`$inc`') },
          line: 5,
          column: 11,
          endLine: 5,
          endColumn: 52,
          suggestions: [
            {
              messageId: 'rewriteAsSingleDocumentWrites',
              output: `import { MongoClient } from 'mongodb';
const orders = new MongoClient('mongodb://localhost').db('shop').collection('orders');
for (let attempt = 1; ; attempt++) {
  try {
    {
      const filter = {} as const;
      const update = { $inc: { n: 1 } } as const;
      const docs = await orders.find(filter, { projection: { _id: 1 } }).toArray();
      const ids = docs.map((doc: (typeof docs)[number]) => doc._id);
      if (ids.length > 0) {
        await orders.bulkWrite(ids.map((id: (typeof ids)[number]) => ({ updateOne: { filter: { ...filter, _id: id }, update: update } })));
      }
    }
    break;
  } catch (error) {
    if (attempt >= 5) throw error;
  }
}`,
            },
          ],
        },
      ],
    },
    {
      code: `${header}await orders.updateMany({ status: 'new' }, { $set: { status: 'stale' } });`,
      errors: [
        {
          messageId: 'nonRetryableWrite',
          data: { method: 'updateMany', action: IDEMPOTENT },
          line: 3,
          column: 7,
          endLine: 3,
          endColumn: 74,
          suggestions: [
            {
              messageId: 'retryOnTransientErrors',
              output: `import { MongoClient } from 'mongodb';

${transientCheckTs}

const orders = new MongoClient('mongodb://localhost').db('shop').collection('orders');
for (let attempt = 1; ; attempt++) {
  try {
    await orders.updateMany({ status: 'new' }, { $set: { status: 'stale' } });
    break;
  } catch (error) {
    if (attempt >= 5 || !isTransientMongoError(error)) throw error;
    await new Promise((resolve) => setTimeout(resolve, Math.random() * Math.min(10000, 100 * 2 ** attempt)));
  }
}`,
            },
            {
              messageId: 'rewriteAsSingleDocumentWrites',
              output: `import { MongoClient } from 'mongodb';
const orders = new MongoClient('mongodb://localhost').db('shop').collection('orders');
{
  const filter = { status: 'new' } as const;
  const update = { $set: { status: 'stale' } } as const;
  const docs = await orders.find(filter, { projection: { _id: 1 } }).toArray();
  const ids = docs.map((doc: (typeof docs)[number]) => doc._id);
  if (ids.length > 0) {
    await orders.bulkWrite(ids.map((id: (typeof ids)[number]) => ({ updateOne: { filter: { ...filter, _id: id }, update: update } })));
  }
}`,
            },
          ],
        },
      ],
    },
    {
      // Non-idempotent update; names already used in the statement are avoided.
      code: `${header}export async function bump(filter, ids) {
  await orders.updateMany(filter, { $inc: { views: 1 }, $push: { log: ids } });
}`,
      errors: [
        {
          messageId: 'nonRetryableWrite',
          data: { method: 'updateMany', action: notIdempotent('`$inc`, `$push`') },
          line: 4,
          column: 9,
          endLine: 4,
          endColumn: 79,
          suggestions: [
            {
              messageId: 'rewriteAsSingleDocumentWrites',
              output: `import { MongoClient } from 'mongodb';
const orders = new MongoClient('mongodb://localhost').db('shop').collection('orders');
export async function bump(filter, ids) {
  {
    const update = { $inc: { views: 1 }, $push: { log: ids } } as const;
    const docs = await orders.find(filter, { projection: { _id: 1 } }).toArray();
    const ids2 = docs.map((doc: (typeof docs)[number]) => doc._id);
    if (ids2.length > 0) {
      await orders.bulkWrite(ids2.map((id: (typeof ids2)[number]) => ({ updateOne: { filter: { ...filter, _id: id }, update: update } })));
    }
  }
}`,
            },
          ],
        },
      ],
    },
    {
      // deleteMany; a comment inside the filter is kept.
      code: `${header}await orders.deleteMany({ /* old drafts */ status: 'draft' });`,
      errors: [
        {
          messageId: 'nonRetryableWrite',
          data: { method: 'deleteMany', action: IDEMPOTENT },
          line: 3,
          column: 7,
          endLine: 3,
          endColumn: 62,
          suggestions: [
            {
              // The retry loop would hold the comment in a rewritten statement; the helper keeps the call as written.
              messageId: 'retryThroughHelper',
              output: `import { MongoClient } from 'mongodb';

${retryHelper(true)}

const orders = new MongoClient('mongodb://localhost').db('shop').collection('orders');
await retryOnTransientMongoError(() => orders.deleteMany({ /* old drafts */ status: 'draft' }));`,
            },
            {
              messageId: 'rewriteAsSingleDocumentWrites',
              output: `import { MongoClient } from 'mongodb';
const orders = new MongoClient('mongodb://localhost').db('shop').collection('orders');
{
  const filter = { /* old drafts */ status: 'draft' } as const;
  const docs = await orders.find(filter, { projection: { _id: 1 } }).toArray();
  const ids = docs.map((doc: (typeof docs)[number]) => doc._id);
  if (ids.length > 0) {
    await orders.bulkWrite(ids.map((id: (typeof ids)[number]) => ({ deleteOne: { filter: { ...filter, _id: id } } })));
  }
}`,
            },
          ],
        },
      ],
    },
    {
      // A comment outside the arguments would be lost by the rewrite: only the retry through a helper, which keeps the call as written.
      code: `${header}await orders.deleteMany(/* all */ {});`,
      errors: [
        {
          messageId: 'nonRetryableWrite',
          data: { method: 'deleteMany', action: IDEMPOTENT },
          line: 3,
          column: 7,
          endLine: 3,
          endColumn: 38,
          suggestions: [
            {
              messageId: 'retryThroughHelper',
              output: `import { MongoClient } from 'mongodb';

${retryHelper(true)}

const orders = new MongoClient('mongodb://localhost').db('shop').collection('orders');
await retryOnTransientMongoError(() => orders.deleteMany(/* all */ {}));`,
            },
          ],
        },
      ],
    },
    {
      // Options (upsert, session…) or a result that is used: no suggestion.
      code: `${header}const result = await orders.updateMany({}, [{ $set: { n: { $add: ['$n', 1] } } }], { upsert: false });`,
      errors: [
        {
          messageId: 'nonRetryableWrite',
          data: { method: 'updateMany', action: notIdempotent('an aggregation pipeline') },
          line: 3,
          column: 22,
          endLine: 3,
          endColumn: 102,
          suggestions: [],
        },
      ],
    },
    {
      // An update read from a variable: whether a rerun is safe is unknown, and the title says it must be.
      code: `${header}orders.updateMany({}, update).catch(console.error);`,
      errors: [
        {
          messageId: 'nonRetryableWrite',
          data: { method: 'updateMany', action: UNKNOWN },
          line: 3,
          column: 1,
          endLine: 3,
          endColumn: 30,
          suggestions: [
            {
              messageId: 'retryThroughHelperIfRerunIsSafe',
              data: { method: 'updateMany', maxAttempts: '5', helper: 'retryOnTransientMongoError', added: ' (added to this file)' },
              output: `import { MongoClient } from 'mongodb';

${retryHelper(true)}

const orders = new MongoClient('mongodb://localhost').db('shop').collection('orders');
retryOnTransientMongoError(() => orders.updateMany({}, update)).catch(console.error);`,
            },
          ],
        },
      ],
    },
    {
      // A retry of its own does not make a non-idempotent update safe: still reported.
      code: `${header}export async function bump(filter) {
  for (let attempt = 1; ; attempt++) {
    try {
      await orders.updateMany(filter, { $inc: { n: 1 } }, { upsert: false });
      return;
    } catch (error) {
      if (attempt >= 3) throw error;
      await new Promise((resolve) => setTimeout(resolve, Math.random() * Math.min(10000, 100 * 2 ** attempt)));
    }
  }
}`,
      errors: [{ messageId: 'nonRetryableWrite', data: { method: 'updateMany', action: notIdempotent('`$inc`') }, line: 6, suggestions: [] }],
    },
    {
      code: `${header}await orders.bulkWrite([
  { insertOne: { document: { _id: 1 } } },
  { updateMany: { filter: {}, update: { $currentDate: { at: true } } } },
  { deleteMany: { filter: { gone: true } } },
]);`,
      errors: [
        {
          messageId: 'nonRetryableBulkWrite',
          data: { operations: '`updateMany` and `deleteMany`', action: notIdempotent('`$currentDate`') },
          line: 3,
          column: 7,
          endLine: 7,
          endColumn: 3,
        },
      ],
    },
    {
      code: `${header}await orders.bulkWrite([{ deleteMany: { filter: {} } }], { ordered: false });`,
      errors: [
        {
          messageId: 'nonRetryableBulkWrite', data: { operations: '`deleteMany`', action: IDEMPOTENT }, line: 3, column: 7, endLine: 3, endColumn: 77,
          suggestions: [
            {
              messageId: 'retryOnTransientErrors',
              output: `import { MongoClient } from 'mongodb';

${transientCheckTs}

const orders = new MongoClient('mongodb://localhost').db('shop').collection('orders');
for (let attempt = 1; ; attempt++) {
  try {
    await orders.bulkWrite([{ deleteMany: { filter: {} } }], { ordered: false });
    break;
  } catch (error) {
    if (attempt >= 5 || !isTransientMongoError(error)) throw error;
    await new Promise((resolve) => setTimeout(resolve, Math.random() * Math.min(10000, 100 * 2 ** attempt)));
  }
}`,
            },
          ],
        },
      ],
    },
    {
      // CommonJS, destructured and aliased require, class field.
      code: `const { MongoClient: Client } = require('mongodb');
class Jobs {
  constructor(url) { this.jobs = new Client(url).db().collection('jobs'); }
  async purge() { await this.jobs.deleteMany({ done: true }); }
}`,
      errors: [
        {
          messageId: 'nonRetryableWrite',
          data: { method: 'deleteMany', action: IDEMPOTENT },
          line: 4,
          column: 25,
          endLine: 4,
          endColumn: 61,
          suggestions: [
            {
              messageId: 'retryOnTransientErrors',
              output: `const { MongoClient: Client } = require('mongodb');

${transientCheckTs}

class Jobs {
  constructor(url) { this.jobs = new Client(url).db().collection('jobs'); }
  async purge() { for (let attempt = 1; ; attempt++) {
    try {
      await this.jobs.deleteMany({ done: true });
      break;
    } catch (error) {
      if (attempt >= 5 || !isTransientMongoError(error)) throw error;
      await new Promise((resolve) => setTimeout(resolve, Math.random() * Math.min(10000, 100 * 2 ** attempt)));
    }
  } }
}`,
            },
            {
              messageId: 'rewriteAsSingleDocumentWrites',
              output: `const { MongoClient: Client } = require('mongodb');
class Jobs {
  constructor(url) { this.jobs = new Client(url).db().collection('jobs'); }
  async purge() { {
    const filter = { done: true } as const;
    const docs = await this.jobs.find(filter, { projection: { _id: 1 } }).toArray();
    const ids = docs.map((doc: (typeof docs)[number]) => doc._id);
    if (ids.length > 0) {
      await this.jobs.bulkWrite(ids.map((id: (typeof ids)[number]) => ({ deleteOne: { filter: { ...filter, _id: id } } })));
    }
  } }
}`,
            },
          ],
        },
      ],
    },
    {
      // Mongoose: plain fields are wrapped in $set; no driver rewrite offered.
      code: `import mongoose from 'mongoose';
const User = mongoose.model('User', new mongoose.Schema({}));
await User.updateMany({ lastSeen: { $lt: cutoff } }, { active: false });`,
      errors: [
        {
          messageId: 'nonRetryableWrite', data: { method: 'updateMany', action: IDEMPOTENT }, line: 3, column: 7, endLine: 3, endColumn: 72,
          suggestions: [
            {
              messageId: 'retryOnTransientErrors',
              output: `import mongoose from 'mongoose';

${transientCheckTs}

const User = mongoose.model('User', new mongoose.Schema({}));
for (let attempt = 1; ; attempt++) {
  try {
    await User.updateMany({ lastSeen: { $lt: cutoff } }, { active: false });
    break;
  } catch (error) {
    if (attempt >= 5 || !isTransientMongoError(error)) throw error;
    await new Promise((resolve) => setTimeout(resolve, Math.random() * Math.min(10000, 100 * 2 ** attempt)));
  }
}`,
            },
          ],
        },
      ],
    },
    {
      // The result is read where the write stands: the write runs again through a helper added to the file.
      code: `${header}const { deletedCount } = await orders.deleteMany({ expired: true });
console.log(deletedCount);`,
      errors: [
        {
          messageId: 'nonRetryableWrite',
          data: { method: 'deleteMany', action: IDEMPOTENT },
          line: 3,
          column: 32,
          endLine: 3,
          endColumn: 68,
          suggestions: [
            {
              messageId: 'retryThroughHelper',
              data: { method: 'deleteMany', helper: 'retryOnTransientMongoError', added: ' (added to this file)', maxAttempts: '5' },
              output: `import { MongoClient } from 'mongodb';

${retryHelper(true)}

const orders = new MongoClient('mongodb://localhost').db('shop').collection('orders');
const { deletedCount } = await retryOnTransientMongoError(() => orders.deleteMany({ expired: true }));
console.log(deletedCount);`,
            },
          ],
        },
      ],
    },
    {
      // A promise chain in a function that is not async, in CommonJS; the file's own sleep() waits.
      filename: 'sessions.js',
      code: `const { MongoClient } = require('mongodb');

function sleep(ms) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

class Sessions {
  constructor(url) {
    this.sessions = new MongoClient(url).db().collection('sessions');
  }

  clear(owner) {
    return this.sessions.deleteMany({ owner }).then((result) => result.deletedCount);
  }
}
module.exports = { Sessions, sleep };`,
      errors: [
        {
          messageId: 'nonRetryableWrite',
          data: { method: 'deleteMany', action: IDEMPOTENT },
          line: 13,
          suggestions: [
            {
              messageId: 'retryThroughHelper',
              output: `const { MongoClient } = require('mongodb');

${retryHelper(false, 'await sleep(Math.random() * Math.min(10000, 100 * 2 ** attempt));')}

function sleep(ms) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

class Sessions {
  constructor(url) {
    this.sessions = new MongoClient(url).db().collection('sessions');
  }

  clear(owner) {
    return retryOnTransientMongoError(() => this.sessions.deleteMany({ owner })).then((result) => result.deletedCount);
  }
}
module.exports = { Sessions, sleep };`,
            },
          ],
        },
      ],
    },
    {
      // A Mongoose query run by exec(): the whole query runs again.
      filename: 'jobs.js',
      code: `import mongoose from 'mongoose';
const Job = mongoose.model('Job', new mongoose.Schema({ state: String }));
export async function markDone(name) {
  await Job.updateMany({ name }, { $set: { state: 'done' } }).exec();
}`,
      errors: [
        {
          messageId: 'nonRetryableWrite',
          data: { method: 'updateMany', action: IDEMPOTENT },
          line: 4,
          suggestions: [
            {
              messageId: 'retryThroughHelper',
              output: `import mongoose from 'mongoose';

${retryHelper(false)}

const Job = mongoose.model('Job', new mongoose.Schema({ state: String }));
export async function markDone(name) {
  await retryOnTransientMongoError(() => Job.updateMany({ name }, { $set: { state: 'done' } }).exec());
}`,
            },
          ],
        },
      ],
    },
    {
      // A retry helper the file imports is used as it is; a write it runs is handled (the valid case above).
      filename: 'archive.js',
      code: `import { MongoClient } from 'mongodb';
import { retryOnTransientMongoError } from './retry.js';
const orders = new MongoClient('mongodb://localhost').db('shop').collection('orders');
export const archive = (shop) => orders.updateMany({ shop }, { $set: { archived: true } });`,
      errors: [
        {
          messageId: 'nonRetryableWrite',
          data: { method: 'updateMany', action: IDEMPOTENT },
          line: 4,
          suggestions: [
            {
              messageId: 'retryThroughHelper',
              data: { method: 'updateMany', helper: 'retryOnTransientMongoError', added: '', maxAttempts: '5' },
              output: `import { MongoClient } from 'mongodb';
import { retryOnTransientMongoError } from './retry.js';
const orders = new MongoClient('mongodb://localhost').db('shop').collection('orders');
export const archive = (shop) => retryOnTransientMongoError(() => orders.updateMany({ shop }, { $set: { archived: true } }));`,
            },
          ],
        },
      ],
    },
    {
      // No suggestion where the write cannot be moved into \`() => …\` and run again as written:
      // an argument it awaits, a callback, a query builder's other method after it.
      filename: 'cleanup.js',
      code: `import { MongoClient } from 'mongodb';
import mongoose from 'mongoose';
const orders = new MongoClient('mongodb://localhost').db('shop').collection('orders');
const User = mongoose.model('User', new mongoose.Schema({}));
export async function cleanUp(session, currentUser) {
  const { deletedCount } = await orders.deleteMany({ owner: await currentUser() });
  orders.deleteMany({ old: true }, (error) => console.log(error));
  await User.updateMany({}, { $set: { seen: true } }).session(session);
  return deletedCount;
}`,
      errors: [
        { messageId: 'nonRetryableWrite', data: { method: 'deleteMany', action: IDEMPOTENT }, line: 6, suggestions: [] },
        { messageId: 'nonRetryableWrite', data: { method: 'deleteMany', action: IDEMPOTENT }, line: 7, suggestions: [] },
        { messageId: 'nonRetryableWrite', data: { method: 'updateMany', action: IDEMPOTENT }, line: 8, suggestions: [] },
      ],
    },
    {
      // No import trail: an update made only of $ operators is enough.
      filename: 'archive.js',
      code: `export const archive = (coll) => coll.updateMany({ old: true }, { $set: { archived: true } });`,
      errors: [
        {
          messageId: 'nonRetryableWrite',
          data: { method: 'updateMany', action: IDEMPOTENT },
          line: 1,
          column: 34,
          endLine: 1,
          endColumn: 94,
          suggestions: [
            {
              messageId: 'retryThroughHelper',
              output: `${retryHelper(false)}

export const archive = (coll) => retryOnTransientMongoError(() => coll.updateMany({ old: true }, { $set: { archived: true } }));`,
            },
          ],
        },
      ],
    },
  ],
});

const typedInvalid: InvalidTestCase<MessageId, Options>[] = [
  {
    filename: typedFilename,
    code: `import type { Collection } from 'mongodb';
export async function expire(sessions: { all: Collection<{ expiresAt: Date }> }) {
  await sessions.all.deleteMany({ expiresAt: { $lt: new Date() } });
}`,
    errors: [
      {
        messageId: 'nonRetryableWrite',
        data: { method: 'deleteMany', action: IDEMPOTENT },
        line: 3,
        column: 9,
        endLine: 3,
        endColumn: 68,
        suggestions: [
          {
            messageId: 'retryOnTransientErrors',
            output: `import type { Collection } from 'mongodb';

${transientCheckTs}

export async function expire(sessions: { all: Collection<{ expiresAt: Date }> }) {
  for (let attempt = 1; ; attempt++) {
    try {
      await sessions.all.deleteMany({ expiresAt: { $lt: new Date() } });
      break;
    } catch (error) {
      if (attempt >= 5 || !isTransientMongoError(error)) throw error;
      await new Promise((resolve) => setTimeout(resolve, Math.random() * Math.min(10000, 100 * 2 ** attempt)));
    }
  }
}`,
          },
          {
            messageId: 'rewriteAsSingleDocumentWrites',
            output: `import type { Collection } from 'mongodb';
export async function expire(sessions: { all: Collection<{ expiresAt: Date }> }) {
  {
    const filter = { expiresAt: { $lt: new Date() } } as const;
    const docs = await sessions.all.find(filter, { projection: { _id: 1 } }).toArray();
    const ids = docs.map((doc: (typeof docs)[number]) => doc._id);
    if (ids.length > 0) {
      await sessions.all.bulkWrite(ids.map((id: (typeof ids)[number]) => ({ deleteOne: { filter: { ...filter, _id: id } } })));
    }
  }
}`,
          },
        ],
      },
    ],
  },
  {
    // The result is read where the write stands: the helper keeps the write's result type.
    filename: typedFilename,
    code: `import type { Collection } from 'mongodb';
export async function closeAll(orders: Collection<{ open: boolean }>) {
  const { modifiedCount } = await orders.updateMany({ open: true }, { $set: { open: false } });
  return modifiedCount;
}`,
    errors: [
      {
        messageId: 'nonRetryableWrite',
        data: { method: 'updateMany', action: IDEMPOTENT },
        line: 3,
        suggestions: [
          {
            messageId: 'retryThroughHelper',
            output: `import type { Collection } from 'mongodb';

${retryHelper(true)}

export async function closeAll(orders: Collection<{ open: boolean }>) {
  const { modifiedCount } = await retryOnTransientMongoError(() => orders.updateMany({ open: true }, { $set: { open: false } }));
  return modifiedCount;
}`,
          },
        ],
      },
    ],
  },
  {
    // The driver's types are not used: the collection is `any`, and the rewrite's parameters must not be implicit anys.
    filename: typedFilename,
    code: `import { MongoClient } from 'mongodb';

export class TokenStore {
  private client: any = new (MongoClient as any)(process.env.MONGO_URL);

  private get tokens() {
    return this.client.db('auth').collection('tokens');
  }

  async revoke(owners: string[]) {
    await this.tokens.deleteMany({ owner: { $in: owners } });
  }
}`,
    errors: [
      {
        messageId: 'nonRetryableWrite',
        data: { method: 'deleteMany', action: IDEMPOTENT },
        line: 11,
        column: 11,
        endLine: 11,
        endColumn: 61,
        suggestions: [
          {
            messageId: 'retryOnTransientErrors',
            output: `import { MongoClient } from 'mongodb';

${transientCheckTs}

export class TokenStore {
  private client: any = new (MongoClient as any)(process.env.MONGO_URL);

  private get tokens() {
    return this.client.db('auth').collection('tokens');
  }

  async revoke(owners: string[]) {
    for (let attempt = 1; ; attempt++) {
      try {
        await this.tokens.deleteMany({ owner: { $in: owners } });
        break;
      } catch (error) {
        if (attempt >= 5 || !isTransientMongoError(error)) throw error;
        await new Promise((resolve) => setTimeout(resolve, Math.random() * Math.min(10000, 100 * 2 ** attempt)));
      }
    }
  }
}`,
          },
          {
            messageId: 'rewriteAsSingleDocumentWrites',
            output: `import { MongoClient } from 'mongodb';

export class TokenStore {
  private client: any = new (MongoClient as any)(process.env.MONGO_URL);

  private get tokens() {
    return this.client.db('auth').collection('tokens');
  }

  async revoke(owners: string[]) {
    {
      const filter = { owner: { $in: owners } } as const;
      const docs = await this.tokens.find(filter, { projection: { _id: 1 } }).toArray();
      const ids = docs.map((doc: (typeof docs)[number]) => doc._id);
      if (ids.length > 0) {
        await this.tokens.bulkWrite(ids.map((id: (typeof ids)[number]) => ({ deleteOne: { filter: { ...filter, _id: id } } })));
      }
    }
  }
}`,
          },
        ],
      },
    ],
  },
];

createTypedRuleTester().run('mongo-no-non-retryable-write (typed)', rule, {
  valid: [
    {
      filename: typedFilename,
      code: `const store = { updateMany(filter: object, update: object) { return [filter, update]; } };
store.updateMany({}, { $set: { a: 1 } });`,
    },
  ],
  invalid: typedInvalid,
});

// The suggested code type-checks under `strict` against the real driver types, whatever the collection's type.
describe('mongo-no-non-retryable-write (typed): suggested code type-checks', () => {
  const typeErrors = createTypeChecker({ tsconfigPath: path.join(typedFixtureDir, 'tsconfig.json') })(typedFilename);
  typedInvalid.forEach((test, index) => {
    const outputs = test.errors.flatMap((error) => error.suggestions ?? []).flatMap((suggestion) => suggestion.output);
    it(`invalid case ${index + 1}: ${outputs.length} suggested outputs add no type error`, () => {
      expect(outputs.length).toBeGreaterThan(0);
      const before = new Set(typeErrors(test.code));
      for (const output of outputs) expect(typeErrors(output).filter((error) => !before.has(error))).toEqual([]);
    });
  });
});

// A helper of the file that returns a collection or a model: its callers' writes are on it.
createRuleTester().run('mongo-no-non-retryable-write: local helpers that return a collection or model', rule, {
  valid: [
    {
      // The helper returns an array: its `deleteMany` is no database write.
      filename: 'queue.js',
      code: `import { MongoClient } from 'mongodb';
const client = new MongoClient('mongodb://localhost');
function pending() { return []; }
export async function drain() {
  await pending().deleteMany({});
}`,
    },
  ],
  invalid: [
    {
      filename: 'queue.js',
      code: `import mongoose from 'mongoose';
const jobModel = (connection, name) => connection.model(name, new mongoose.Schema({ name: String }));
export async function drain(connection) {
  await jobModel(connection, 'Job').deleteMany({ done: true }).exec();
}`,
      errors: [
        {
          messageId: 'nonRetryableWrite',
          data: { method: 'deleteMany', action: IDEMPOTENT },
          line: 4,
          suggestions: [
            {
              messageId: 'retryThroughHelper',
              output: `import mongoose from 'mongoose';

${retryHelper(false)}

const jobModel = (connection, name) => connection.model(name, new mongoose.Schema({ name: String }));
export async function drain(connection) {
  await retryOnTransientMongoError(() => jobModel(connection, 'Job').deleteMany({ done: true }).exec());
}`,
            },
          ],
        },
      ],
    },
  ],
});

// In a project whose package.json depends on the driver (and on no other library with
// `db.collection(name)`), a collection taken from a db passed in is the driver's.
const projectDir = (dependencies: Record<string, string>): string => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'retry-safety-project-'));
  writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: 'locks', dependencies }));
  return dir;
};
const mongoProject = projectDir({ mongodb: '^6.0.0' });
const firestoreProject = projectDir({ mongodb: '^6.0.0', '@google-cloud/firestore': '^7.0.0' });
afterAll(() => {
  for (const dir of [mongoProject, firestoreProject]) rmSync(dir, { recursive: true, force: true });
});
const lockModule = `async function getLocks(db, settings) {
  const locks = db.collection(settings.lockCollection);
  await locks.createIndex({ createdAt: 1 }, { expireAfterSeconds: settings.ttl });
  return locks;
}
export async function clear(db, settings) {
  const locks = await getLocks(db, settings);
  await locks.deleteMany({});
}`;

createRuleTester().run('mongo-no-non-retryable-write: db.collection(name) in a project that depends on mongodb', rule, {
  valid: [
    // The same code where the project also uses Firestore, whose db.collection(name) looks alike.
    { filename: path.join(firestoreProject, 'lock.js'), code: lockModule },
  ],
  invalid: [
    {
      filename: path.join(mongoProject, 'lock.js'),
      code: lockModule,
      errors: [
        {
          messageId: 'nonRetryableWrite',
          data: { method: 'deleteMany', action: IDEMPOTENT },
          line: 8,
          suggestions: [
            {
              messageId: 'retryOnTransientErrors',
              output: `${transientCheckJs}

${lockModule.replace(
  '  await locks.deleteMany({});',
  `  for (let attempt = 1; ; attempt++) {
    try {
      await locks.deleteMany({});
      break;
    } catch (error) {
      if (attempt >= 5 || !isTransientMongoError(error)) throw error;
      ${backoffWait}
    }
  }`,
)}`,
            },
            {
              messageId: 'rewriteAsSingleDocumentWrites',
              output: lockModule.replace(
                '  await locks.deleteMany({});',
                `  {
    const filter = {};
    const ids = (await locks.find(filter, { projection: { _id: 1 } }).toArray()).map((doc) => doc._id);
    if (ids.length > 0) {
      await locks.bulkWrite(ids.map((id) => ({ deleteOne: { filter: { ...filter, _id: id } } })));
    }
  }`,
              ),
            },
          ],
        },
      ],
    },
  ],
});

// A Mongoose query built on a known model runs the model's write: `Model.where(…).updateMany(…)`.
createRuleTester().run('mongo-no-non-retryable-write: query chains on a Mongoose model', rule, {
  valid: [
    {
      // A query builder of another library: the chain's root is no model.
      filename: 'migrations.js',
      code: `const knex = require('knex')({ client: 'pg' });
async function mark(name, state) {
  await knex('migrations').where({ name }).updateMany({ $set: { state } });
}
module.exports = { mark };`,
    },
  ],
  invalid: [
    {
      // `$inc` on the query's update: running it twice counts twice.
      filename: 'counters.js',
      code: `const mongoose = require('mongoose');
const Counter = mongoose.model('Counter', new mongoose.Schema({ name: String, runs: Number }));
async function bump(name) {
  await Counter.where({ name }).updateMany({ $inc: { runs: 1 } });
}
module.exports = { bump };`,
      errors: [{ messageId: 'nonRetryableWrite', data: { method: 'updateMany', action: notIdempotent('`$inc`') }, line: 4, suggestions: [] }],
    },
    {
      filename: 'migrations.js',
      code: `const mongoose = require('mongoose');
const Migration = mongoose.model('Migration', new mongoose.Schema({ name: String }));
async function mark(name, state) {
  await Migration.where({ name }).updateMany({ $set: { state } });
}
module.exports = { mark };`,
      errors: [
        {
          messageId: 'nonRetryableWrite',
          // The query's only argument is the update (the filter is the query's): `$set` reruns safely.
          data: { method: 'updateMany', action: IDEMPOTENT },
          line: 4,
          suggestions: [
            {
              messageId: 'retryOnTransientErrors',
              output: `const mongoose = require('mongoose');

${transientCheckJs}

const Migration = mongoose.model('Migration', new mongoose.Schema({ name: String }));
async function mark(name, state) {
  for (let attempt = 1; ; attempt++) {
    try {
      await Migration.where({ name }).updateMany({ $set: { state } });
      break;
    } catch (error) {
      if (attempt >= 5 || !isTransientMongoError(error)) throw error;
      ${backoffWait}
    }
  }
}
module.exports = { mark };`,
            },
          ],
        },
      ],
    },
  ],
});
