import rule from '../../../eslint-plugin/src/rules/mongo-prefer-projection-on-find-and-modify';
import { createRuleTester, createTypedRuleTester, typedFilename } from '../rule-tester';

const header = `import { MongoClient } from 'mongodb';
const orders = new MongoClient('mongodb://localhost').db('shop').collection('orders');
`;

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
  ],
  invalid: [
    {
      code: `${header}const updated = await orders.findOneAndUpdate({ _id: id }, { $inc: { n: 1 } }, { returnDocument: 'after' });`,
      errors: [{ messageId: 'missingProjection', data: { method: 'findOneAndUpdate' }, line: 3, column: 23, endLine: 3, endColumn: 108 }],
    },
    {
      code: `${header}await orders.findOneAndDelete({ _id: id });`,
      errors: [{ messageId: 'missingProjection', data: { method: 'findOneAndDelete' }, line: 3, column: 7, endLine: 3, endColumn: 43 }],
    },
    {
      code: `${header}await orders.findOneAndReplace({ _id: id }, { total: 1 }, { upsert: true });`,
      errors: [{ messageId: 'missingProjection', data: { method: 'findOneAndReplace' }, line: 3, column: 7, endLine: 3, endColumn: 76 }],
    },
    {
      code: `const mongoose = require('mongoose');
const User = mongoose.model('User', new mongoose.Schema({}));
User.findOneAndUpdate({ _id: id }, { a: 1 }, { new: true }).lean();`,
      errors: [{ messageId: 'missingProjection', data: { method: 'findOneAndUpdate' }, line: 3, column: 1, endLine: 3, endColumn: 60 }],
    },
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
      errors: [{ messageId: 'missingProjection', data: { method: 'findOneAndUpdate' }, line: 2, column: 44, endLine: 2, endColumn: 117 }],
    },
  ],
});
