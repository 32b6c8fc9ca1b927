import rule from '../../../eslint-plugin/src/rules/mongo-prefer-projection-on-find-and-modify';
import { createRuleTester, createTypedRuleTester, typedFilename } from '../rule-tester';

const header = `import { MongoClient } from 'mongodb';
const orders = new MongoClient('mongodb://localhost').db('shop').collection('orders');
`;

/** Two saves whose includeResultMetadata results a local function reads through f.call / f.apply; `first` and `second` end their options. */
const savedJobCode = (first: string, second: string): string => `${header}const applySaved = async function (job, result) {
  let saved = result.insertedId ? result.insertedId : result.value;
  if (saved) {
    if (Array.isArray(saved)) {
      saved = saved[0];
    }
    job.id = saved._id;
    job.nextRunAt = saved.nextRunAt;
  }
  return job;
};
export const saveJob = async function (job) {
  const result = await orders.findOneAndUpdate({ name: job.name }, { $set: job.props }, { includeResultMetadata: true, upsert: true, returnDocument: 'after'${first} });
  return await applySaved.call(this, job, result);
};
export const saveJobs = async function (job) {
  const result = await orders.findOneAndUpdate({ name: job.name }, { $set: job.props }, { includeResultMetadata: true${second} });
  return applySaved.apply(this, [job, result]);
};`;

createRuleTester().run('mongo-prefer-projection-on-find-and-modify', rule, {
  valid: [
    `${header}await orders.findOneAndUpdate({ _id: id }, { $set: { a: 1 } }, { projection: { status: 1 }, returnDocument: 'after' });`,
    `${header}await orders.findOneAndDelete({ _id: id }, { 'projection': { _id: 1 } });`,
    `${header}await orders.findOneAndReplace({ _id: id }, doc, { projection, upsert: true });`,
    // Options we cannot read.
    `${header}await orders.findOneAndUpdate({ _id: id }, update, options);`,
    `${header}await orders.findOneAndUpdate({ _id: id }, update, { ...defaults });`,
    `${header}await orders.findOneAndDelete(...args);`,
    // Other methods.
    `${header}await orders.updateOne({ _id: id }, { $set: { a: 1 } });`,
    // Mongoose: select/fields options or a .select() after the call.
    `import mongoose from 'mongoose'; const User = mongoose.model('User', new mongoose.Schema({}));
await User.findOneAndUpdate({ _id: id }, { a: 1 }, { new: true, select: 'a' });
await User.findOneAndDelete({ _id: id }).select('_id');
await User.findOneAndUpdate({ _id: id }, { a: 1 }).lean().select({ a: 1 });`,
    // Look-alikes.
    `export function f(store) { return store.findOneAndUpdate({ id: 1 }, { name: 'x' }); }`,
    // Options any store may take are not the driver's own.
    `export function f(store) { return store.findOneAndDelete({ id: 1 }, { sort: { at: 1 } }); }`,
    `export function f(store) { return store.findOneAndUpdate({ id: 1 }, patch, { upsert: true }); }`,
    // The same arguments in a file of an ORM.
    `import { Repository } from 'typeorm'; export function f(repo) { return repo.findOneAndUpdate({ id: 1 }, { $set: { a: 1 } }, { returnDocument: 'after' }); }`,
    // A name that only mentions MongoDB, or a collection of another library's file, is no evidence.
    `export function f(mongo, collection) { return [mongo.findOneAndDelete({ id: 1 }), collection.findOneAndDelete({ id: 1 })]; }`,
    `import { PrismaClient } from '@prisma/client'; export function f(mongoCollection) { return mongoCollection.findOneAndDelete({ id: 1 }); }`,
  ],
  invalid: [
    // A collection its user passes in, in a package that names no MongoDB package: the arguments only the driver takes say what it is.
    {
      code: `export async function elect(leases, id) {
  const result = await leases.findOneAndUpdate({}, { $setOnInsert: { holder: id } }, { upsert: true, includeResultMetadata: true });
  return result.lastErrorObject.updatedExisting;
}`,
      errors: [
        {
          messageId: 'missingProjection',
          data: { method: 'findOneAndUpdate' },
          line: 2,
          suggestions: [
            {
              messageId: 'addProjection',
              data: { projection: '{ _id: 1 }' },
              output: `export async function elect(leases, id) {
  const result = await leases.findOneAndUpdate({}, { $setOnInsert: { holder: id } }, { upsert: true, includeResultMetadata: true, projection: { _id: 1 } });
  return result.lastErrorObject.updatedExisting;
}`,
            },
          ],
        },
      ],
    },
    {
      // A library handed its collection by its user: the receiver's name is the evidence.
      code: `export class Adapter {
  constructor(mongoCollection) { this.mongoCollection = mongoCollection; }
  findSession(pid) {
    return this.mongoCollection.findOneAndDelete({ type: 'session', pid }).then((result) => result?.data);
  }
}`,
      errors: [
        {
          messageId: 'missingProjection',
          data: { method: 'findOneAndDelete' },
          line: 4,
          suggestions: [
            {
              messageId: 'addProjection',
              data: { projection: '{ data: 1 }' },
              output: `export class Adapter {
  constructor(mongoCollection) { this.mongoCollection = mongoCollection; }
  findSession(pid) {
    return this.mongoCollection.findOneAndDelete({ type: 'session', pid }, { projection: { data: 1 } }).then((result) => result?.data);
  }
}`,
            },
          ],
        },
      ],
    },
    {
      code: `export const take = (jobs) => jobs.findOneAndDelete({ state: 'ready' }, { returnDocument: 'before' }).then((job) => job?.name);`,
      errors: [
        {
          messageId: 'missingProjection',
          data: { method: 'findOneAndDelete' },
          suggestions: [
            {
              messageId: 'addProjection',
              data: { projection: '{ name: 1 }' },
              output: `export const take = (jobs) => jobs.findOneAndDelete({ state: 'ready' }, { returnDocument: 'before', projection: { name: 1 } }).then((job) => job?.name);`,
            },
          ],
        },
      ],
    },
    {
      code: `${header}const updated = await orders.findOneAndUpdate({ _id: id }, { $inc: { n: 1 } }, { returnDocument: 'after' });`,
      errors: [
        {
          messageId: 'missingProjection',
          data: { method: 'findOneAndUpdate' },
          line: 3,
          column: 23,
          endLine: 3,
          endColumn: 108,
          suggestions: [
            {
              messageId: 'addProjection',
              data: { projection: '{ _id: 1 }' },
              output: `${header}const updated = await orders.findOneAndUpdate({ _id: id }, { $inc: { n: 1 } }, { returnDocument: 'after', projection: { _id: 1 } });`,
            },
          ],
        },
      ],
    },
    {
      code: `${header}await orders.findOneAndDelete({ _id: id });`,
      errors: [
        {
          messageId: 'missingProjection',
          data: { method: 'findOneAndDelete' },
          line: 3,
          column: 7,
          endLine: 3,
          endColumn: 43,
          suggestions: [
            { messageId: 'addProjection', data: { projection: '{ _id: 1 }' }, output: `${header}await orders.findOneAndDelete({ _id: id }, { projection: { _id: 1 } });` },
          ],
        },
      ],
    },
    {
      code: `${header}await orders.findOneAndReplace({ _id: id }, { total: 1 }, { upsert: true });`,
      errors: [
        {
          messageId: 'missingProjection',
          data: { method: 'findOneAndReplace' },
          line: 3,
          column: 7,
          endLine: 3,
          endColumn: 76,
          suggestions: [
            {
              messageId: 'addProjection',
              data: { projection: '{ _id: 1 }' },
              output: `${header}await orders.findOneAndReplace({ _id: id }, { total: 1 }, { upsert: true, projection: { _id: 1 } });`,
            },
          ],
        },
      ],
    },
    {
      code: `const mongoose = require('mongoose');
const User = mongoose.model('User', new mongoose.Schema({}));
User.findOneAndUpdate({ _id: id }, { a: 1 }, { new: true }).lean();`,
      errors: [
        {
          messageId: 'missingProjection',
          data: { method: 'findOneAndUpdate' },
          line: 3,
          column: 1,
          endLine: 3,
          endColumn: 60,
          suggestions: [
            {
              messageId: 'addProjection',
              data: { projection: '{ _id: 1 }' },
              output: `const mongoose = require('mongoose');
const User = mongoose.model('User', new mongoose.Schema({}));
User.findOneAndUpdate({ _id: id }, { a: 1 }, { new: true, projection: { _id: 1 } }).lean();`,
            },
          ],
        },
      ],
    },
    // The fields read from the result, through a variable, destructuring and a Mongoose `.exec()`.
    {
      code: `${header}async function next(key) {
  const counter = await orders.findOneAndUpdate({ _id: key }, { $inc: { seq: 1 } }, {
    upsert: true,
    returnDocument: 'after',
  });
  if (!counter) throw new Error('no counter');
  return counter.seq + counter.step;
}`,
      errors: [
        {
          messageId: 'missingProjection',
          line: 4,
          suggestions: [
            {
              messageId: 'addProjection',
              data: { projection: '{ seq: 1, step: 1 }' },
              output: `${header}async function next(key) {
  const counter = await orders.findOneAndUpdate({ _id: key }, { $inc: { seq: 1 } }, {
    upsert: true,
    returnDocument: 'after',
    projection: { seq: 1, step: 1 },
  });
  if (!counter) throw new Error('no counter');
  return counter.seq + counter.step;
}`,
            },
          ],
        },
      ],
    },
    {
      code: `import mongoose from "mongoose";
const Job = mongoose.model("Job", new mongoose.Schema({}));
export async function claim() {
  const { name, "data.pid": pid } = await Job.findOneAndUpdate({ state: "ready" }, { state: "running" }).exec();
  return [name, pid];
}`,
      errors: [
        {
          messageId: 'missingProjection',
          line: 4,
          suggestions: [
            {
              messageId: 'addProjection',
              data: { projection: '{ name: 1, "data.pid": 1 }' },
              output: `import mongoose from "mongoose";
const Job = mongoose.model("Job", new mongoose.Schema({}));
export async function claim() {
  const { name, "data.pid": pid } = await Job.findOneAndUpdate({ state: "ready" }, { state: "running" }, { projection: { name: 1, "data.pid": 1 } }).exec();
  return [name, pid];
}`,
            },
          ],
        },
      ],
    },
    // The wrapper of includeResultMetadata: only `ok` is read, so the document needs no field.
    {
      code: `${header}const { ok } = await orders.findOneAndDelete({ _id: id }, { includeResultMetadata: true });`,
      errors: [
        {
          messageId: 'missingProjection',
          suggestions: [
            {
              messageId: 'addProjection',
              data: { projection: '{ _id: 1 }' },
              output: `${header}const { ok } = await orders.findOneAndDelete({ _id: id }, { includeResultMetadata: true, projection: { _id: 1 } });`,
            },
          ],
        },
      ],
    },
    {
      // The document goes to a local function that reads fields of its parameter; assert() only tests it is there.
      code: `${header}import assert from 'node:assert';
function toJob(doc, now) {
  return { id: doc._id.toHexString(), state: doc.state ?? 'new', late: doc.dueAt < now };
}
export async function claim(now) {
  const claimed = await orders.findOneAndUpdate({ state: 'new' }, { $set: { state: 'claimed' } }, { returnDocument: 'after' });
  assert(claimed, 'no job to claim');
  return toJob(claimed, now);
}`,
      errors: [
        {
          messageId: 'missingProjection',
          line: 8,
          suggestions: [
            {
              messageId: 'addProjection',
              data: { projection: '{ _id: 1, state: 1, dueAt: 1 }' },
              output: `${header}import assert from 'node:assert';
function toJob(doc, now) {
  return { id: doc._id.toHexString(), state: doc.state ?? 'new', late: doc.dueAt < now };
}
export async function claim(now) {
  const claimed = await orders.findOneAndUpdate({ state: 'new' }, { $set: { state: 'claimed' } }, { returnDocument: 'after', projection: { _id: 1, state: 1, dueAt: 1 } });
  assert(claimed, 'no job to claim');
  return toJob(claimed, now);
}`,
            },
          ],
        },
      ],
    },
    {
      // The document goes to a method of the same class (this.toObject) that reads fields of its parameter.
      code: `${header}export class Tasks {
  async claim(kind) {
    const task = await orders.findOneAndUpdate({ kind, status: 'pending' }, { $set: { status: 'claimed' } }, {
      returnDocument: 'after',
    });
    return task ? this.toObject(task) : undefined;
  }
  toObject(document) {
    return { id: document._id.toHexString(), kind: document.kind, status: document.status };
  }
}`,
      errors: [
        {
          messageId: 'missingProjection',
          line: 5,
          suggestions: [{ messageId: 'addProjection', data: { projection: '{ _id: 1, kind: 1, status: 1 }' }, output: `${header}export class Tasks {
  async claim(kind) {
    const task = await orders.findOneAndUpdate({ kind, status: 'pending' }, { $set: { status: 'claimed' } }, {
      returnDocument: 'after',
      projection: { _id: 1, kind: 1, status: 1 },
    });
    return task ? this.toObject(task) : undefined;
  }
  toObject(document) {
    return { id: document._id.toHexString(), kind: document.kind, status: document.status };
  }
}` }],
        },
      ],
    },
    {
      // A long field list: the title names its first fields and how many there are.
      code: `${header}const toRow = (order) => [order.customerName, order.shippingAddress, order.billingAddress, order.paymentMethod, order.createdAt];
export const close = async (id) => toRow(await orders.findOneAndUpdate({ _id: id }, { $set: { open: false } }));`,
      errors: [
        {
          messageId: 'missingProjection',
          line: 4,
          suggestions: [
            {
              messageId: 'addLongProjection',
              data: { count: '5', fields: '`customerName`, `shippingAddress`, `billingAddress`' },
              output: `${header}const toRow = (order) => [order.customerName, order.shippingAddress, order.billingAddress, order.paymentMethod, order.createdAt];
export const close = async (id) => toRow(await orders.findOneAndUpdate({ _id: id }, { $set: { open: false } }, { projection: { customerName: 1, shippingAddress: 1, billingAddress: 1, paymentMethod: 1, createdAt: 1 } }));`,
            },
          ],
        },
      ],
    },
    {
      // With includeResultMetadata the document is the wrapper's `value`: the fields read from it.
      code: `${header}const r = await orders.findOneAndDelete({ s: 1 }, { includeResultMetadata: true }); if (r.ok) use(r.value.name);`,
      errors: [
        {
          messageId: 'missingProjection',
          suggestions: [
            {
              messageId: 'addProjection',
              data: { projection: '{ name: 1 }' },
              output: `${header}const r = await orders.findOneAndDelete({ s: 1 }, { includeResultMetadata: true, projection: { name: 1 } }); if (r.ok) use(r.value.name);`,
            },
          ],
        },
      ],
    },
    {
      // A job scheduler's save: the wrapper goes to a local function through f.call(this, …), which reads the document's
      // fields (taking the first item if it were an array, which a document never is) and returns the job, not the result.
      code: savedJobCode('', ''),
      errors: [
        { line: 15, output: savedJobCode(', projection: { _id: 1, nextRunAt: 1 }', '') },
        { line: 19, output: savedJobCode('', ', projection: { _id: 1, nextRunAt: 1 }') },
      ].map(({ line, output }) => ({
        messageId: 'missingProjection' as const,
        line,
        suggestions: [{ messageId: 'addProjection' as const, data: { projection: '{ _id: 1, nextRunAt: 1 }' }, output }],
      })),
    },
    {
      // The local function returns the wrapper it was given: its callers' use is not followed through f.call.
      code: `${header}function check(job, result) { if (!result.ok) throw new Error('not saved'); return result; }
export async function save(job) {
  const result = await orders.findOneAndUpdate({ name: job.name }, { $set: job.props }, { includeResultMetadata: true });
  return check.call(this, job, result);
}`,
      errors: [{ messageId: 'usedWhole', suggestions: [] }],
    },
    // The whole document may be used: no projection can be derived, so no suggestion, and the message says why.
    ...[
      `${header}export async function claim() { return orders.findOneAndUpdate({ s: 1 }, { $set: { s: 2 } }); }`,
      `${header}const job = await orders.findOneAndUpdate({ s: 1 }, { $set: { s: 2 } }); handle(job);`,
      // A method of an exported class: its own call reads one field, callers elsewhere may read any.
      `${header}export class Queue {
  async claim() { return orders.findOneAndUpdate({ s: 1 }, { $set: { s: 2 } }); }
  async run() { const job = await this.claim(); return job?.name; }
}`,
      // A local function that passes its parameter on, a method, assert's other checks, an argument after a spread.
      `${header}function keep(doc) { cache.set(doc._id, doc); }
keep(await orders.findOneAndUpdate({ s: 1 }, { $set: { s: 2 } }));`,
      `${header}const job = await orders.findOneAndUpdate({ s: 1 }, { $set: { s: 2 } }); this.toJob(job);`,
      // A method of the same class that keeps the document, and a method of an object the file does not make.
      `${header}export class Tasks {
  cache = new Map();
  async claim() { const task = await orders.findOneAndUpdate({ s: 1 }, { $set: { s: 2 } }); this.keep(task); }
  keep(document) { this.cache.set(document._id, document); }
}`,
      `${header}export async function claim(store) { const task = await orders.findOneAndUpdate({ s: 1 }, { $set: { s: 2 } }); return store.toObject(task); }`,
      `${header}import assert from 'node:assert';
const job = await orders.findOneAndUpdate({ s: 1 }, { $set: { s: 2 } }); assert.deepEqual(job, expected);`,
      `${header}function pick(a, doc) { return doc.s; }
const job = await orders.findOneAndUpdate({ s: 1 }, { $set: { s: 2 } }); pick(...args, job);`,
      `${header}const job = await orders.findOneAndUpdate({ s: 1 }, { $set: { s: 2 } }); console.log(job);`,
      `${header}const job = await orders.findOneAndUpdate({ s: 1 }, { $set: { s: 2 } }); const { a, ...rest } = job; use(a, rest);`,
      `${header}const job = await orders.findOneAndUpdate({ s: 1 }, { $set: { s: 2 } }); job[field];`,
      // With includeResultMetadata, the document read from .value passed on, or the wrapper as the this of f.call.
      `${header}const r = await orders.findOneAndDelete({ s: 1 }, { includeResultMetadata: true }); use(r.value);`,
      `${header}function save() { return this.value.name; }
const r = await orders.findOneAndDelete({ s: 1 }, { includeResultMetadata: true }); save.call(r);`,
      `import mongoose from 'mongoose'; const User = mongoose.model('User', new mongoose.Schema({}));
const user = await User.findOneAndUpdate({ _id: id }, { a: 1 }); await user.save();`,
    ].map((code) => ({ code, errors: [{ messageId: 'usedWhole' as const, data: { method: code.includes('findOneAndDelete') ? 'findOneAndDelete' : 'findOneAndUpdate' }, suggestions: [] }] })),
    // No suggestion either, with the plain message: \`.value\` without the option (a driver before 6.0 wraps the
    // document, a newer one does not), and a call with no place for the options.
    ...[
      `${header}const { value } = await orders.findOneAndUpdate({ s: 1 }, { $set: { s: 2 } });`,
      `${header}await orders.findOneAndUpdate({ s: 1 });`,
    ].map((code) => ({ code, errors: [{ messageId: 'missingProjection' as const, suggestions: [] }] })),
  ],
});

createTypedRuleTester().run('mongo-prefer-projection-on-find-and-modify (typed)', rule, {
  valid: [
    {
      filename: typedFilename,
      code: `const cache = { findOneAndDelete(key: string) { return key; } };
cache.findOneAndDelete('k');`,
    },
  ],
  invalid: [
    {
      filename: typedFilename,
      code: `import type { Collection } from 'mongodb';
export const claim = (jobs: Collection) => jobs.findOneAndUpdate({ state: 'ready' }, { $set: { state: 'running' } });`,
      errors: [{ messageId: 'usedWhole', data: { method: 'findOneAndUpdate' }, line: 2, column: 44, endLine: 2, endColumn: 117 }],
    },
  ],
});
