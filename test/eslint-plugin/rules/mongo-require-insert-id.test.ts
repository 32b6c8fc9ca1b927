import rule from '../../../eslint-plugin/src/rules/mongo-require-insert-id';
import { createRuleTester, createTypedRuleTester, typedFilename } from '../rule-tester';

const header = `import { MongoClient } from 'mongodb';
const orders = new MongoClient('mongodb://localhost').db('shop').collection('orders');
`;
const withObjectId = `import { MongoClient, ObjectId } from 'mongodb';
const orders = new MongoClient('mongodb://localhost').db('shop').collection('orders');
`;

createRuleTester().run('mongo-require-insert-id', rule, {
  valid: [
    `${header}await orders.insertOne({ _id: new ObjectId(), total: 1 });`,
    `${header}await orders.insertOne({ '_id': id, total: 1 });`,
    `${header}await orders.insertMany([{ _id: 1 }, { _id: 2 }]);`,
    // The array may change before the insert: not judged.
    `${header}const docs = [{ total: 1 }];\ndocs.push(next);\nawait orders.insertMany(docs);`,
    `${header}let docs = [{ total: 1 }];\ndocs = withIds(docs);\nawait orders.insertMany(docs);`,
    `${header}await orders.bulkWrite([{ insertOne: { document: { _id: 1 } } }, { updateOne: { filter: {}, update: { $set: { a: 1 } } } }]);`,
    // Spreads of unknown objects may carry `_id`.
    `${header}export const save = (order) => orders.insertOne({ ...order, savedAt: new Date() });`,
    // A spread of a known object that has `_id`.
    `${header}const base = { _id: 'a' }; await orders.insertOne({ ...base, n: 1 });`,
    // Documents that are not literals are not judged.
    `${header}export const save = (order) => orders.insertOne(order);`,
    `${header}export const saveAll = (list) => orders.insertMany(list);`,
    `${header}export const saveAll = (list) => orders.insertMany(list.map((item) => ({ _id: item.id, ...item })));`,
    `${header}export const saveAll = (list) => orders.insertMany(list.map((item) => { if (item.a) return { a: 1 }; return { b: 1 }; }));`,
    // A conditional whose branches both carry _id, or whose branch is not a literal.
    `${header}export const log = (entry, hashed) => orders.insertOne(hashed ? { _id: entry.id, hash: entry.hash } : { _id: entry.id });`,
    `${header}export const log = (entry, hashed) => orders.insertOne(hashed ? entry : { ...entry });`,
    // A const whose _id is, or may be, set before the insert.
    `${header}const order = { total: 1 }; order._id = makeId(); await orders.insertOne(order);`,
    `${header}const order = { total: 1 }; order[key] = value; await orders.insertOne(order);`,
    `${header}const order = { total: 1 }; Object.assign(order, extra); await orders.insertOne(order);`,
    // Documents mapped into a const that later changes, or whose map callback sets _id.
    `${header}export async function saveAll(list) { const docs = list.map((item) => ({ n: item.n })); docs.push(extra); await orders.insertMany(docs); }`,
    `${header}export async function saveAll(list) { const docs = list.map((item) => ({ _id: item.id, n: item.n })); await orders.insertMany(docs); }`,
    // Mongoose gives documents an _id itself.
    `import mongoose from 'mongoose'; const User = mongoose.model('User', new mongoose.Schema({})); await User.insertMany([{ name: 'a' }]);`,
    // Built outside the retry: the driver sets `_id` on the object on the first attempt and every retry reuses it.
    `${withObjectId}export async function place(total) {
  const order = { _id: new ObjectId(), total };
  for (let attempt = 1; attempt <= 3; attempt++) {
    try { await orders.insertOne(order); return; } catch (error) { if (attempt === 3) throw error; }
  }
}`,
    // Look-alikes.
    `const list = []; list.insertOne?.({ a: 1 });`,
    `export function f(repo) { return repo.insertOne({ name: 'x' }); }`,
  ],
  invalid: [
    {
      // One insert, two possible documents: each literal without _id is reported, with its own fix.
      code: `${header}export const log = (entry, hashed) => orders.insertOne(hashed ? { name: entry.name, hash: entry.hash } : { _id: entry.id, name: entry.name });
export const note = (entry, hashed) => orders.insertOne(hashed ? { name: entry.name, hash: entry.hash } : { name: entry.name });`,
      errors: [
        {
          messageId: 'missingId',
          line: 3,
          column: 65,
          suggestions: [
            {
              messageId: 'addObjectId',
              output: `${withObjectId}export const log = (entry, hashed) => orders.insertOne(hashed ? { _id: new ObjectId(), name: entry.name, hash: entry.hash } : { _id: entry.id, name: entry.name });
export const note = (entry, hashed) => orders.insertOne(hashed ? { name: entry.name, hash: entry.hash } : { name: entry.name });`,
            },
          ],
        },
        {
          messageId: 'missingId',
          line: 4,
          column: 66,
          suggestions: [
            {
              messageId: 'addObjectId',
              output: `${withObjectId}export const log = (entry, hashed) => orders.insertOne(hashed ? { name: entry.name, hash: entry.hash } : { _id: entry.id, name: entry.name });
export const note = (entry, hashed) => orders.insertOne(hashed ? { _id: new ObjectId(), name: entry.name, hash: entry.hash } : { name: entry.name });`,
            },
          ],
        },
        {
          messageId: 'missingId',
          line: 4,
          column: 107,
          suggestions: [
            {
              messageId: 'addObjectId',
              output: `${withObjectId}export const log = (entry, hashed) => orders.insertOne(hashed ? { name: entry.name, hash: entry.hash } : { _id: entry.id, name: entry.name });
export const note = (entry, hashed) => orders.insertOne(hashed ? { name: entry.name, hash: entry.hash } : { _id: new ObjectId(), name: entry.name });`,
            },
          ],
        },
      ],
    },
    {
      code: `${header}await orders.insertOne({ total: 10 });`,
      errors: [
        {
          messageId: 'missingId',
          data: { method: 'insertOne' },
          line: 3,
          column: 24,
          endLine: 3,
          endColumn: 37,
          suggestions: [
            {
              messageId: 'addObjectId',
              output: `import { MongoClient, ObjectId } from 'mongodb';
const orders = new MongoClient('mongodb://localhost').db('shop').collection('orders');
await orders.insertOne({ _id: new ObjectId(), total: 10 });`,
            },
          ],
        },
      ],
    },
    {
      // ObjectId already imported (aliased); multi-line literal; a comment inside the literal.
      code: `import { MongoClient, ObjectId as Oid } from 'mongodb';
const orders = new MongoClient('mongodb://localhost').db().collection('orders');
const order = {
  // the customer
  customer: 'c1',
};
await orders.insertOne(order);`,
      errors: [
        {
          messageId: 'missingId',
          data: { method: 'insertOne' },
          line: 7,
          column: 24,
          endLine: 7,
          endColumn: 29,
          suggestions: [
            {
              messageId: 'addObjectId',
              output: `import { MongoClient, ObjectId as Oid } from 'mongodb';
const orders = new MongoClient('mongodb://localhost').db().collection('orders');
const order = {
  // the customer
  _id: new Oid(),
  customer: 'c1',
};
await orders.insertOne(order);`,
            },
          ],
        },
      ],
    },
    {
      // insertMany: each literal without _id; empty literal.
      code: `${withObjectId}await orders.insertMany([{ _id: 1 }, {}]);`,
      errors: [
        {
          messageId: 'missingId',
          data: { method: 'insertMany' },
          line: 3,
          column: 38,
          endLine: 3,
          endColumn: 40,
          suggestions: [{ messageId: 'addObjectId', output: `${withObjectId}await orders.insertMany([{ _id: 1 }, { _id: new ObjectId() }]);` }],
        },
      ],
    },
    {
      // insertMany of an array literal held in a const of the same scope: judged like an inline array.
      code: `${withObjectId}const docs = [{ _id: 1 }, { total: 2 }];\nawait orders.insertMany(docs);`,
      errors: [
        {
          messageId: 'missingId',
          data: { method: 'insertMany' },
          line: 3,
          column: 27,
          endLine: 3,
          endColumn: 39,
          suggestions: [{ messageId: 'addObjectId', output: `${withObjectId}const docs = [{ _id: 1 }, { _id: new ObjectId(), total: 2 }];\nawait orders.insertMany(docs);` }],
        },
      ],
    },
    {
      // bulkWrite insertOne; forceServerObjectId on the call.
      code: `${withObjectId}await orders.bulkWrite([{ insertOne: { document: { n: 1 } } }], { forceServerObjectId: true });`,
      errors: [
        {
          messageId: 'missingIdServerGenerated',
          data: { method: 'bulkWrite' },
          line: 3,
          column: 50,
          endLine: 3,
          endColumn: 58,
          suggestions: [
            {
              messageId: 'addObjectId',
              output: `${withObjectId}await orders.bulkWrite([{ insertOne: { document: { _id: new ObjectId(), n: 1 } } }], { forceServerObjectId: true });`,
            },
          ],
        },
      ],
    },
    {
      // forceServerObjectId on the client (through an options const); namespace import.
      code: `import * as mongodb from 'mongodb';
const options = { forceServerObjectId: true };
const client = new mongodb.MongoClient(process.env.URL, options);
await client.db().collection('events').insertOne({ kind: 'x' });`,
      errors: [
        {
          messageId: 'missingIdServerGenerated',
          data: { method: 'insertOne' },
          line: 4,
          column: 50,
          endLine: 4,
          endColumn: 63,
          suggestions: [
            {
              messageId: 'addObjectId',
              output: `import * as mongodb from 'mongodb';
const options = { forceServerObjectId: true };
const client = new mongodb.MongoClient(process.env.URL, options);
await client.db().collection('events').insertOne({ _id: new mongodb.ObjectId(), kind: 'x' });`,
            },
          ],
        },
      ],
    },
    {
      // forceServerObjectId is set on another client than the one the collection comes from.
      code: `import { MongoClient, ObjectId } from 'mongodb';
const audit = new MongoClient('mongodb://audit', { forceServerObjectId: true });
const main = new MongoClient('mongodb://main');
class Store {
  constructor() { this.events = main.db().collection('events'); }
  log() { return this.events.insertOne({ kind: 'x' }); }
}`,
      errors: [
        {
          messageId: 'missingId',
          data: { method: 'insertOne' },
          line: 6,
          column: 40,
          endLine: 6,
          endColumn: 53,
          suggestions: [
            {
              messageId: 'addObjectId',
              output: `import { MongoClient, ObjectId } from 'mongodb';
const audit = new MongoClient('mongodb://audit', { forceServerObjectId: true });
const main = new MongoClient('mongodb://main');
class Store {
  constructor() { this.events = main.db().collection('events'); }
  log() { return this.events.insertOne({ _id: new ObjectId(), kind: 'x' }); }
}`,
            },
          ],
        },
      ],
    },
    {
      // ObjectId imported for types only: the import becomes a value import.
      code: `import { MongoClient, type ObjectId } from 'mongodb';
import type { ObjectId as Id } from 'mongodb';
new MongoClient('x').db().collection('a').insertOne({ n: 1 });`,
      errors: [
        {
          messageId: 'missingId',
          data: { method: 'insertOne' },
          line: 3,
          column: 53,
          endLine: 3,
          endColumn: 61,
          suggestions: [
            {
              messageId: 'addObjectId',
              output: `import { MongoClient, ObjectId } from 'mongodb';
import type { ObjectId as Id } from 'mongodb';
new MongoClient('x').db().collection('a').insertOne({ _id: new ObjectId(), n: 1 });`,
            },
          ],
        },
      ],
    },
    {
      code: `import type { ObjectId } from 'mongodb';
import { MongoClient } from 'mongodb';
new MongoClient('x').db().collection('a').insertOne({ n: 1 });`,
      errors: [
        {
          messageId: 'missingId',
          data: { method: 'insertOne' },
          line: 3,
          column: 53,
          endLine: 3,
          endColumn: 61,
          suggestions: [
            {
              messageId: 'addObjectId',
              output: `import { ObjectId } from 'mongodb';
import { MongoClient } from 'mongodb';
new MongoClient('x').db().collection('a').insertOne({ _id: new ObjectId(), n: 1 });`,
            },
          ],
        },
      ],
    },
    {
      // A type-only import of several names: no edit is clearly safe, so no suggestion.
      code: `import type { Collection, ObjectId } from 'mongodb';
export const f = (c: Collection) => c.insertOne({ n: 1 });`,
      errors: [{ messageId: 'missingId', data: { method: 'insertOne' }, line: 2, column: 49, endLine: 2, endColumn: 57, suggestions: [] }],
    },
    {
      // Documents built by a map callback.
      code: `${withObjectId}export const addLines = (skus) => orders.insertMany(skus.map((sku) => ({ sku, qty: 1 })));`,
      errors: [
        {
          messageId: 'missingId',
          data: { method: 'insertMany' },
          line: 3,
          column: 72,
          endLine: 3,
          endColumn: 87,
          suggestions: [
            {
              messageId: 'addObjectId',
              output: `${withObjectId}export const addLines = (skus) => orders.insertMany(skus.map((sku) => ({ _id: new ObjectId(), sku, qty: 1 })));`,
            },
          ],
        },
      ],
    },
    {
      // Documents built by a map callback into a const, inserted later.
      code: `${withObjectId}export async function enqueue(subs, packet) {
  const packets = subs.map((sub) => ({ clientId: sub.clientId, packet }));
  await orders.insertMany(packets);
}`,
      errors: [
        {
          messageId: 'missingId',
          data: { method: 'insertMany' },
          line: 4,
          suggestions: [
            {
              messageId: 'addObjectId',
              output: `${withObjectId}export async function enqueue(subs, packet) {
  const packets = subs.map((sub) => ({ _id: new ObjectId(), clientId: sub.clientId, packet }));
  await orders.insertMany(packets);
}`,
            },
          ],
        },
      ],
    },
    {
      // A const document given other properties before the insert: none of them is _id.
      code: `${withObjectId}export async function log(info) {
  const entry = { timestamp: new Date(), level: info.level };
  entry.message = info.message;
  await orders.insertOne(entry);
}`,
      errors: [
        {
          messageId: 'missingId',
          data: { method: 'insertOne' },
          line: 6,
          suggestions: [
            {
              messageId: 'addObjectId',
              output: `${withObjectId}export async function log(info) {
  const entry = { _id: new ObjectId(), timestamp: new Date(), level: info.level };
  entry.message = info.message;
  await orders.insertOne(entry);
}`,
            },
          ],
        },
      ],
    },
    {
      // CommonJS: the ObjectId goes into the existing destructured require.
      code: `const { MongoClient } = require('mongodb');
const events = new MongoClient(url).db().collection('events');
events.insertOne({ kind: 'x' });`,
      errors: [
        {
          messageId: 'missingId',
          data: { method: 'insertOne' },
          line: 3,
          column: 18,
          endLine: 3,
          endColumn: 31,
          suggestions: [
            {
              messageId: 'addObjectId',
              output: `const { MongoClient, ObjectId } = require('mongodb');
const events = new MongoClient(url).db().collection('events');
events.insertOne({ _id: new ObjectId(), kind: 'x' });`,
            },
          ],
        },
      ],
    },
    {
      // Only a type import of mongodb: a new import line is added.
      code: `import type { Collection } from 'mongodb';
export const log = (events: Collection) => events.insertOne({ kind: 'x' });`,
      errors: [
        {
          messageId: 'missingId',
          data: { method: 'insertOne' },
          line: 2,
          column: 61,
          endLine: 2,
          endColumn: 74,
          suggestions: [
            {
              messageId: 'addObjectId',
              output: `import type { Collection } from 'mongodb';
import { ObjectId } from 'mongodb';
export const log = (events: Collection) => events.insertOne({ _id: new ObjectId(), kind: 'x' });`,
            },
          ],
        },
      ],
    },
    {
      // A retry library: the id is declared above the statement that calls it.
      code: `import pRetry from 'p-retry';
${withObjectId}export async function place(total) {
  await pRetry(() => orders.insertOne({ total }), { retries: 3 });
}`,
      errors: [
        {
          messageId: 'missingIdRebuiltPerAttempt',
          data: { method: 'insertOne' },
          line: 5,
          column: 39,
          endLine: 5,
          endColumn: 48,
          suggestions: [
            {
              messageId: 'addObjectIdBeforeRetry',
              data: { name: 'id' },
              output: `import pRetry from 'p-retry';
${withObjectId}export async function place(total) {
  const id = new ObjectId();
  await pRetry(() => orders.insertOne({ _id: id, total }), { retries: 3 });
}`,
            },
          ],
        },
      ],
    },
    {
      // A recursive retry: the id would have to be passed along, so no suggestion; \`id\` is taken.
      code: `${withObjectId}export async function place(total, id, attempt = 0) {
  try {
    await orders.insertOne({ total, ref: id });
  } catch (error) {
    if (attempt < 3) return place(total, id, attempt + 1);
    throw error;
  }
}`,
      errors: [{ messageId: 'missingIdRebuiltPerAttempt', data: { method: 'insertOne' }, line: 5, column: 28, endLine: 5, endColumn: 46, suggestions: [] }],
    },
    {
      // CommonJS with a namespace require.
      code: `const mongodb = require('mongodb');
new mongodb.MongoClient(url).db().collection('events').insertOne({ kind: 'x' });`,
      errors: [
        {
          messageId: 'missingId',
          data: { method: 'insertOne' },
          line: 2,
          column: 66,
          endLine: 2,
          endColumn: 79,
          suggestions: [
            {
              messageId: 'addObjectId',
              output: `const mongodb = require('mongodb');
new mongodb.MongoClient(url).db().collection('events').insertOne({ _id: new mongodb.ObjectId(), kind: 'x' });`,
            },
          ],
        },
      ],
    },
    {
      // Built by a map callback inside a retry: one id for all documents would be wrong, so no suggestion.
      code: `${withObjectId}export async function addLines(skus) {
  for (let attempt = 1; ; attempt++) {
    try { return await orders.insertMany(skus.map((sku) => ({ sku }))); } catch (error) { if (attempt === 3) throw error; }
  }
}`,
      errors: [{ messageId: 'missingIdRebuiltPerAttempt', data: { method: 'insertMany' }, line: 5, column: 61, endLine: 5, endColumn: 68, suggestions: [] }],
    },
    {
      // Built inside a retry loop: a fresh _id per attempt duplicates the write.
      code: `${withObjectId}export async function place(total) {
  for (let attempt = 1; attempt <= 3; attempt++) {
    try {
      await orders.insertOne({ total, createdAt: new Date() });
      return;
    } catch (error) {
      if (attempt === 3) throw error;
    }
  }
}`,
      errors: [
        {
          messageId: 'missingIdRebuiltPerAttempt',
          data: { method: 'insertOne' },
          line: 6,
          column: 30,
          endLine: 6,
          endColumn: 62,
          suggestions: [
            {
              messageId: 'addObjectIdBeforeRetry',
              data: { name: 'id' },
              output: `${withObjectId}export async function place(total) {
  const id = new ObjectId();
  for (let attempt = 1; attempt <= 3; attempt++) {
    try {
      await orders.insertOne({ _id: id, total, createdAt: new Date() });
      return;
    } catch (error) {
      if (attempt === 3) throw error;
    }
  }
}`,
            },
          ],
        },
      ],
    },
    {
      // Several retried inserts in one file: the names the file uses (read once per file,
      // later ones included) rule out \`id\` and \`id2\` for every suggestion alike.
      code: `${header}export async function first(total) {
  for (let attempt = 1; attempt <= 3; attempt++) {
    try { await orders.insertOne({ total }); return; } catch (error) { if (attempt === 3) throw error; }
  }
}
export async function second(total) {
  for (let attempt = 1; attempt <= 3; attempt++) {
    try { await orders.insertOne({ total }); return; } catch (error) { if (attempt === 3) throw error; }
  }
}
export const id = 1, id2 = 2;`,
      errors: [
        {
          messageId: 'missingIdRebuiltPerAttempt',
          data: { method: 'insertOne' },
          line: 5,
          column: 34,
          endLine: 5,
          endColumn: 43,
          suggestions: [
            {
              messageId: 'addObjectIdBeforeRetry',
              data: { name: 'id3' },
              output: `import { MongoClient, ObjectId } from 'mongodb';
const orders = new MongoClient('mongodb://localhost').db('shop').collection('orders');
export async function first(total) {
  const id3 = new ObjectId();
  for (let attempt = 1; attempt <= 3; attempt++) {
    try { await orders.insertOne({ _id: id3, total }); return; } catch (error) { if (attempt === 3) throw error; }
  }
}
export async function second(total) {
  for (let attempt = 1; attempt <= 3; attempt++) {
    try { await orders.insertOne({ total }); return; } catch (error) { if (attempt === 3) throw error; }
  }
}
export const id = 1, id2 = 2;`,
            },
          ],
        },
        {
          messageId: 'missingIdRebuiltPerAttempt',
          data: { method: 'insertOne' },
          line: 10,
          column: 34,
          endLine: 10,
          endColumn: 43,
          suggestions: [
            {
              messageId: 'addObjectIdBeforeRetry',
              data: { name: 'id3' },
              output: `import { MongoClient, ObjectId } from 'mongodb';
const orders = new MongoClient('mongodb://localhost').db('shop').collection('orders');
export async function first(total) {
  for (let attempt = 1; attempt <= 3; attempt++) {
    try { await orders.insertOne({ total }); return; } catch (error) { if (attempt === 3) throw error; }
  }
}
export async function second(total) {
  const id3 = new ObjectId();
  for (let attempt = 1; attempt <= 3; attempt++) {
    try { await orders.insertOne({ _id: id3, total }); return; } catch (error) { if (attempt === 3) throw error; }
  }
}
export const id = 1, id2 = 2;`,
            },
          ],
        },
      ],
    },
  ],
});

createTypedRuleTester().run('mongo-require-insert-id (typed)', rule, {
  valid: [
    {
      filename: typedFilename,
      code: `const audit = { insertOne(doc: object) { return doc; } };
audit.insertOne({ kind: 'x' });`,
    },
  ],
  invalid: [
    {
      filename: typedFilename,
      code: `import { ObjectId, type Db } from 'mongodb';
export async function log(db: Db) {
  const events = db.collection<{ _id?: ObjectId; kind: string }>('events');
  await events.insertOne({ kind: 'x' });
}`,
      errors: [
        {
          messageId: 'missingId',
          data: { method: 'insertOne' },
          line: 4,
          column: 26,
          endLine: 4,
          endColumn: 39,
          suggestions: [
            {
              messageId: 'addObjectId',
              output: `import { ObjectId, type Db } from 'mongodb';
export async function log(db: Db) {
  const events = db.collection<{ _id?: ObjectId; kind: string }>('events');
  await events.insertOne({ _id: new ObjectId(), kind: 'x' });
}`,
            },
          ],
        },
      ],
    },
  ],
});
