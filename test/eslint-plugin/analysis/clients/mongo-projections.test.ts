import { describe, expect, it } from 'vitest';
import { findMongoCalls } from '../../../../eslint-plugin/src/analysis/clients/mongo-calls';
import { hasProjection, isFindAndModify } from '../../../../eslint-plugin/src/analysis/clients/mongo-projections';
import { analyse, textOf } from '../../harness';

describe('isFindAndModify', () => {
  it('is true for the three find-and-modify methods only', () => {
    expect(['findOneAndUpdate', 'findOneAndReplace', 'findOneAndDelete', 'findOne', 'updateOne', 'findByIdAndUpdate'].map(isFindAndModify)).toEqual([
      true,
      true,
      true,
      false,
      false,
      false,
    ]);
  });
});

describe('hasProjection', () => {
  /** `call text: projection?` for each find-and-modify call of the file. */
  function projections(code: string): string[] {
    return analyse(code, (context) =>
      findMongoCalls(context)
        .filter((call) => isFindAndModify(call.operation))
        .map((call) => `${textOf(code, call.node)}: ${hasProjection(call)}`),
    );
  }

  it('reads the driver options: a projection, or options it cannot read', () => {
    const code = `
      import { MongoClient } from 'mongodb';
      const orders = new MongoClient('mongodb://localhost').db().collection('orders');
      await orders.findOneAndUpdate({ _id: id }, { $set: { paid: true } });
      await orders.findOneAndUpdate({ _id: id }, { $set: { paid: true } }, { returnDocument: 'after' });
      await orders.findOneAndUpdate({ _id: id }, { $set: { paid: true } }, { projection: { status: 1 } });
      await orders.findOneAndDelete({ _id: id }, { projection: { _id: 1 } });
      await orders.findOneAndReplace({ _id: id }, doc, options);
      await orders.findOneAndUpdate({ _id: id }, { $set: { paid: true } }, { ...defaults });
      await orders.findOneAndUpdate({ _id: id }, { $set: { paid: true } }, { select: 'status' });`;
    expect(projections(code).map((line) => line.endsWith(': true'))).toEqual([false, false, true, true, true, true, false]);
  });

  it("takes Mongoose's select and fields options, and a .select() chained after the call", () => {
    const code = `
      import mongoose from 'mongoose';
      const Order = mongoose.model('Order', new mongoose.Schema({}));
      await Order.findOneAndUpdate({ _id: id }, { paid: true }, { new: true });
      await Order.findOneAndUpdate({ _id: id }, { paid: true }, { select: 'status' });
      await Order.findOneAndUpdate({ _id: id }, { paid: true }, { fields: { status: 1 } });
      await Order.findOneAndUpdate({ _id: id }, { paid: true }).select('status').lean();
      await Order.findOneAndUpdate({ _id: id }, { paid: true }).lean();`;
    expect(projections(code).map((line) => line.endsWith(': true'))).toEqual([false, true, true, true, false]);
  });

  it('is false for calls that are not find-and-modify', () => {
    const code = `
      import { MongoClient } from 'mongodb';
      const orders = new MongoClient('mongodb://localhost').db().collection('orders');
      await orders.findOne({ _id: id }, { projection: { status: 1 } });`;
    expect(analyse(code, (context) => findMongoCalls(context).map(hasProjection))).toEqual([false]);
  });
});
