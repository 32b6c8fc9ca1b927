import { describe, expect, it } from 'vitest';
import { findMongoCalls } from '../../../../eslint-plugin/src/analysis/clients/mongo-calls';
import {
  findBulkMultiDocumentWrites,
  getMultiDocumentWriteIdempotency,
  isMultiDocumentWrite,
} from '../../../../eslint-plugin/src/analysis/clients/mongo-multi-document-writes';
import type { UpdateIdempotency } from '../../../../eslint-plugin/src/analysis/clients/update-operators';
import { analyse } from '../../harness';

const describeIdempotency = ({ isIdempotent, nonIdempotentOperators }: UpdateIdempotency) =>
  `${isIdempotent === undefined ? 'unknown' : isIdempotent ? 'idempotent' : 'not idempotent'}${nonIdempotentOperators.length > 0 ? ` (${nonIdempotentOperators.join(', ')})` : ''}`;

describe('isMultiDocumentWrite', () => {
  it('is true for updateMany and deleteMany only', () => {
    expect(['updateMany', 'deleteMany', 'updateOne', 'deleteOne', 'bulkWrite', 'insertMany'].map(isMultiDocumentWrite)).toEqual([true, true, false, false, false, false]);
  });
});

describe('getMultiDocumentWriteIdempotency', () => {
  it('judges the update of a driver updateMany, and calls every deleteMany idempotent', () => {
    const code = `
      import { MongoClient } from 'mongodb';
      const orders = new MongoClient('mongodb://localhost').db().collection('orders');
      await orders.updateMany({ status: 'new' }, { $set: { status: 'queued' } });
      await orders.updateMany({ status: 'new' }, { $inc: { attempts: 1 } });
      await orders.updateMany({ status: 'new' }, update);
      await orders.deleteMany({ status: 'expired' });`;
    const found = analyse(code, (context) => findMongoCalls(context).map((call) => `${call.operation}: ${describeIdempotency(getMultiDocumentWriteIdempotency(call))}`));
    expect(found).toEqual([
      'updateMany: idempotent',
      'updateMany: not idempotent ($inc)',
      'updateMany: unknown',
      'deleteMany: idempotent',
    ]);
  });

  it('reads plain fields of a Mongoose update as $set, not those of a driver update', () => {
    const mongoose = `
      import mongoose from 'mongoose';
      const Order = mongoose.model('Order', new mongoose.Schema({}));
      await Order.updateMany({ status: 'new' }, { status: 'queued' });`;
    const driver = `
      import { MongoClient } from 'mongodb';
      const orders = new MongoClient('mongodb://localhost').db().collection('orders');
      await orders.updateMany({ status: 'new' }, { status: 'queued' });`;
    const judge = (code: string) => analyse(code, (context) => findMongoCalls(context).map((call) => describeIdempotency(getMultiDocumentWriteIdempotency(call))));
    expect(judge(mongoose)).toEqual(['idempotent']);
    expect(judge(driver)).toEqual(['unknown']);
  });
});

describe('findBulkMultiDocumentWrites', () => {
  it('lists the updateMany and deleteMany entries of a bulkWrite, in source order', () => {
    const code = `
      import { MongoClient } from 'mongodb';
      const orders = new MongoClient('mongodb://localhost').db().collection('orders');
      await orders.bulkWrite([
        { insertOne: { document: { _id: 1 } } },
        { updateMany: { filter: { status: 'new' }, update: { $inc: { attempts: 1 } } } },
        { deleteMany: { filter: { status: 'expired' } } },
        { updateOne: { filter: { _id: 1 }, update: { $inc: { n: 1 } } } },
        { updateMany: { filter: {}, update: { $set: { seen: true } } } },
        { updateMany: options },
      ]);
      await orders.bulkWrite(operations);`;
    const found = analyse(code, (context) =>
      findMongoCalls(context).map((call) => findBulkMultiDocumentWrites(call)?.map((write) => `${write.operation}: ${describeIdempotency(write.idempotency)}`)),
    );
    expect(found).toEqual([
      ['updateMany: not idempotent ($inc)', 'deleteMany: idempotent', 'updateMany: idempotent', 'updateMany: unknown'],
      undefined,
    ]);
  });
});
