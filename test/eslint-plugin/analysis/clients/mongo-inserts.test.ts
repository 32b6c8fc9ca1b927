import { describe, expect, it } from 'vitest';
import { findInsertsWithoutId } from '../../../../eslint-plugin/src/analysis/clients/mongo-inserts';
import { analyse, textOf } from '../../harness';

/** `operation: document text [forced]` for each insert without `_id`. */
function inserts(code: string): string[] {
  return analyse(code, (context) =>
    findInsertsWithoutId(context).map(
      (insert) => `${insert.call.operation}: ${textOf(code, insert.document)}${insert.forceServerObjectId ? ' [forced]' : ''}`,
    ),
  );
}

const COLLECTION = `
  import { MongoClient } from 'mongodb';
  const orders = new MongoClient('mongodb://localhost').db('shop').collection('orders');`;

describe('findInsertsWithoutId', () => {
  it('finds insertOne, insertMany and bulkWrite insertOne documents without _id', () => {
    const code = `${COLLECTION}
      const draft = { total: 10 };
      await orders.insertOne({ total: 5, status: 'new' });
      await orders.insertOne(draft);
      await orders.insertMany([{ total: 1 }, { _id: 'b', total: 2 }]);
      await orders.insertMany(items.map((item) => ({ total: item.total })));
      await orders.bulkWrite([{ insertOne: { document: { total: 3 } } }, { deleteOne: { filter: { total: 0 } } }]);`;
    expect(inserts(code)).toEqual([
      "insertOne: { total: 5, status: 'new' }",
      'insertOne: draft',
      'insertMany: { total: 1 }',
      'insertMany: { total: item.total }',
      'bulkWrite: { total: 3 }',
    ]);
  });

  it('leaves out documents that have an _id, may have one, or are changed before the insert', () => {
    const code = `${COLLECTION}
      const base = { _id: new ObjectId() };
      const order = { total: 1 };
      order._id = makeId();
      await orders.insertOne({ _id: 'a', total: 5 });
      await orders.insertOne({ ...base, total: 5 });
      await orders.insertOne({ ...input, total: 5 });
      await orders.insertOne({ [key]: 1 });
      await orders.insertOne(order);
      await orders.insertOne(build());
      await orders.updateOne({ total: 1 }, { $set: { total: 2 } });`;
    expect(inserts(code)).toEqual([]);
  });

  it('marks inserts whose call or client asks the server to make the _id', () => {
    const code = `
      import { MongoClient } from 'mongodb';
      const options = { forceServerObjectId: true };
      const forced = new MongoClient('mongodb://localhost', options).db().collection('events');
      const plain = new MongoClient('mongodb://localhost').db().collection('events');
      await forced.insertOne({ kind: 'a' });
      await plain.insertOne({ kind: 'b' }, { forceServerObjectId: true });
      await plain.insertOne({ kind: 'c' });`;
    expect(inserts(code)).toEqual(["insertOne: { kind: 'a' } [forced]", "insertOne: { kind: 'b' } [forced]", "insertOne: { kind: 'c' }"]);
  });

  it('ignores Mongoose models, Prisma and arrays', () => {
    const code = `
      import mongoose from 'mongoose';
      import { PrismaClient } from '@prisma/client';
      const Order = mongoose.model('Order', new mongoose.Schema({}));
      await Order.insertMany([{ total: 1 }]);
      await new PrismaClient().order.create({ data: { total: 1 } });
      const list = [];
      list.insertOne?.({ total: 1 });`;
    expect(inserts(code)).toEqual([]);
  });
});
