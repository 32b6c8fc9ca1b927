import { describe, expect, it } from 'vitest';
import { findMongoCalls } from '../../../../eslint-plugin/src/analysis/clients/mongo-calls';
import { type AnalyseOptions, analyse } from '../../harness';

/** A CommonJS file parsed by ESLint's own JavaScript parser. */
const COMMONJS_JS: AnalyseOptions = { language: 'javascript', sourceType: 'commonjs' };

/** `operation@line library/evidence` for each call found. */
function calls(code: string, options: AnalyseOptions = {}): string[] {
  return analyse(code, findMongoCalls, options).map(
    (call) => `${call.operation}@${call.node.loc.start.line} ${call.library}/${call.evidence}${call.isWrite ? ' write' : ''}`,
  );
}

describe('findMongoCalls: driver collections from imports', () => {
  it('follows new MongoClient → db() → collection() through variables', () => {
    const code = `
      import { MongoClient } from 'mongodb';
      const client = new MongoClient(process.env.MONGO_URL!);
      const db = client.db('shop');
      const orders = db.collection('orders');
      await orders.updateMany({ status: 'new' }, { $set: { status: 'old' } });
      await orders.find({}).toArray();
    `;
    expect(calls(code)).toEqual(['updateMany@6 mongodb/import write', 'find@7 mongodb/import']);
  });

  it('follows aliased, namespace and default imports and chained calls', () => {
    expect(calls(`import { MongoClient as Client } from 'mongodb'; new Client('x').db().collection('a').deleteMany({});`)).toEqual([
      'deleteMany@1 mongodb/import write',
    ]);
    expect(calls(`import * as mongo from 'mongodb'; const c = await mongo.MongoClient.connect('x'); c.db().collection('a').insertOne({});`)).toEqual([
      'insertOne@1 mongodb/import write',
    ]);
    expect(calls(`import mongodb from 'mongodb'; const c = new mongodb.MongoClient('x'); await c.connect(); c.db('d').collection('a').bulkWrite([]);`)).toEqual([
      'bulkWrite@1 mongodb/import write',
    ]);
  });

  it('follows require, destructured require and member require', () => {
    const code = `
      const { MongoClient: Client } = require('mongodb');
      const mongodb = require('mongodb');
      const a = new Client('x').db().collection('a');
      const b = new mongodb.MongoClient('x').db().collection('b');
      const c = new (require('mongodb').MongoClient)('x').db().collection('c');
      a.updateOne({ _id: 1 }, { $set: { x: 1 } });
      b.deleteOne({ _id: 1 });
      c.findOneAndUpdate({ _id: 1 }, { $inc: { n: 1 } });
    `;
    expect(calls(code, COMMONJS_JS)).toEqual([
      'updateOne@7 mongodb/import write',
      'deleteOne@8 mongodb/import write',
      'findOneAndUpdate@9 mongodb/import write',
    ]);
  });

  it('reads Collection<T> annotations on variables, parameters, class fields and parameter properties', () => {
    const code = `
      import type { Collection, Db } from 'mongodb';
      import { Collection as Coll } from 'mongodb';
      export async function purge(orders: Collection<{ n: number }>, db: Db) {
        await orders.deleteMany({});
        await db.collection('x').deleteMany({});
      }
      class Repo {
        private readonly items: Coll;
        #audit?: Collection;
        constructor(private readonly orders: Collection<{ n: number }>, items: Coll) { this.items = items; }
        run() {
          this.orders.updateMany({}, { $inc: { n: 1 } });
          this.items.insertOne({});
          this.#audit?.insertOne({});
        }
      }
      let later: Collection | undefined;
      later?.replaceOne({}, {});
    `;
    expect(calls(code)).toEqual([
      'deleteMany@5 mongodb/import write',
      'deleteMany@6 mongodb/import write',
      'updateMany@13 mongodb/import write',
      'insertOne@14 mongodb/import write',
      'insertOne@15 mongodb/import write',
      'replaceOne@19 mongodb/import write',
    ]);
  });

  it('follows this.field = db.collection(…) assignments and functions returning collections', () => {
    const code = `
      import { MongoClient, type Collection } from 'mongodb';
      class OrderStore {
        orders;
        constructor(client: MongoClient) { this.orders = client.db().collection('orders'); }
        async close() { await this.orders.drop(); }
      }
      function getOrders(): Promise<Collection> { return null!; }
      (await getOrders()).countDocuments();
      const collections = { orders: new MongoClient('x').db().collection('orders') };
      collections.orders.estimatedDocumentCount();
    `;
    expect(calls(code)).toEqual([
      'drop@6 mongodb/import write',
      'countDocuments@9 mongodb/import',
      'estimatedDocumentCount@11 mongodb/import',
    ]);
  });

  it('accepts db.collection("…") on an imported db when the file uses mongodb', () => {
    const code = `
      import type { ObjectId } from 'mongodb';
      import { db } from './db';
      const orders = db.collection<{ _id: ObjectId }>('orders');
      await orders.insertMany([{}]);
    `;
    expect(calls(code)).toEqual(['insertMany@5 mongodb/import write']);
    // A client passed in: `con.db(name).collection(name)` in a file that uses mongodb.
    expect(calls(`const mongodb = require('mongodb'); export const f = (con, o) => con.db(o.db).collection(o.name).deleteMany({});`)).toEqual([
      'deleteMany@1 mongodb/import write',
    ]);
    expect(calls(`export const f = (con, o) => con.db(o.db).collection(o.name).deleteMany({});`)).toEqual([]);
    // A db from an untyped method, a collection name from a variable.
    const jobs = `
      import { MongoClient } from 'mongodb';
      export class Jobs {
        collection;
        async connect() { const db = await this.open(); this.collection = db.collection(this.name); }
        async purge() { await this.collection.deleteMany({}); }
      }
    `;
    expect(calls(jobs)).toEqual(['deleteMany@6 mongodb/import write']);
    expect(calls(`import 'mongodb'; db.collection(() => 1).deleteMany({}); db.collection().deleteMany({});`)).toEqual([]);
    // Without any mongodb import, `db.collection('x')` could be anything (Firestore, …).
    expect(calls(`import { db } from './db'; await db.collection('orders').insertMany([{}]);`)).toEqual([]);
  });
});

describe('findMongoCalls: helpers of the file and projects that depend on the driver', () => {
  it('follows a local function that returns a collection or model (its returns agree, it is never reassigned)', () => {
    const code = `
      import { MongoClient } from 'mongodb';
      import mongoose, { Schema } from 'mongoose';
      const db = new MongoClient('x').db();
      async function getAudit(name) {
        if (!name) return null;
        const audit = db.collection(name);
        return audit;
      }
      const makeModel = (connection, name) => connection.model(name, new Schema({}));
      export async function purge() {
        const audit = await getAudit('audit');
        await audit.deleteMany({});
        await makeModel(mongoose.connection, 'Job').deleteMany({}).exec();
      }
    `;
    expect(calls(code)).toEqual(['deleteMany@13 mongodb/import write', 'deleteMany@14 mongoose/import write']);
  });

  it('stays silent on a local helper that returns something else, returns two kinds, or is reassigned', () => {
    const code = `
      import { MongoClient } from 'mongodb';
      const db = new MongoClient('x').db();
      function getItems() { return []; }
      function either(flag) { return flag ? db.collection('a') : db; }
      let swapped = () => db.collection('a');
      swapped = () => [];
      getItems().deleteMany({});
      either(true).deleteMany({});
      swapped().deleteMany({});
    `;
    expect(calls(code)).toEqual([]);
  });

  it('reads db.collection(name) on a value from elsewhere as a collection when the nearest package.json depends on mongodb', () => {
    const code = `
      export async function clear(db, settings) {
        const locks = db.collection(settings.lockName);
        await locks.deleteMany({});
      }
      export class Logger {
        constructor(options) { if (options.db) this.logs = options.db.collection(options.name); }
        setDb(db) { this.logs = db.collection(this.name); }
        async clearLogs(filter) { return this.logs.deleteMany(filter); }
      }
    `;
    const found = (manifest: object): string[] => calls(code, { ...COMMONJS_JS, sourceType: 'module', modules: { 'package.json': JSON.stringify(manifest) } });
    expect(found({ dependencies: { mongodb: '^6.0.0' } })).toEqual(['deleteMany@4 mongodb/import write', 'deleteMany@9 mongodb/import write']);
    expect(found({ peerDependencies: { mongoose: '^8.0.0' } })).toHaveLength(2);
    // Firestore, ArangoDB and others answer db.collection(name) too; a project without the driver says nothing.
    expect(found({ dependencies: { mongodb: '^6.0.0', 'firebase-admin': '^12.0.0' } })).toEqual([]);
    expect(found({ dependencies: { arangojs: '^8.0.0' } })).toEqual([]);
    expect(found({ dependencies: {} })).toEqual([]);
  });
});

describe('findMongoCalls: Mongoose models', () => {
  it('follows mongoose.model, model(), connection.model and mongoose.models', () => {
    const code = `
      import mongoose, { model, Schema } from 'mongoose';
      const User = mongoose.model('User', new Schema({}));
      const Order = model('Order', new Schema({}));
      const conn = mongoose.createConnection('x');
      const Item = conn.model('Item', new Schema({}));
      const Cached = mongoose.models.Cached || mongoose.model('Cached', new Schema({}));
      await User.updateMany({}, { active: false });
      await Order.create({});
      await Item.findByIdAndUpdate('id', {});
      await Cached.findOne({});
      await mongoose.connection.collection('raw').insertOne({});
    `;
    expect(calls(code)).toEqual([
      'updateMany@8 mongoose/import write',
      'create@9 mongoose/import write',
      'findByIdAndUpdate@10 mongoose/import write',
      'findOne@11 mongoose/import',
      'insertOne@12 mongodb/import write',
    ]);
  });

  it('follows query chains built on a model (Model.where(…).updateMany(…)), and no other chain', () => {
    const code = `
      import mongoose from 'mongoose';
      const Migration = mongoose.model('Migration', new mongoose.Schema({ name: String }));
      export async function mark(name, state) {
        await Migration.where({ name }).updateMany({ $set: { state } });
        await Migration.where('state').equals('down').session(null).deleteMany();
        await Migration.where({ name }).insertMany([{}]);
        await Migration.find({ name }).deleteMany();
        await knex('migrations').where({ name }).updateMany({ state });
        await [].where?.({ name }).deleteMany();
      }
    `;
    // `find(…)` is the model's own read; what follows it is not followed.
    expect(calls(code)).toEqual(['updateMany@5 mongoose/import write', 'deleteMany@6 mongoose/import write', 'find@8 mongoose/import']);
  });

  it('follows require("mongoose") and Model annotations', () => {
    expect(calls(`const mongoose = require('mongoose'); const U = mongoose.model('U', {}); U.deleteMany({});`, COMMONJS_JS)).toEqual([
      'deleteMany@1 mongoose/import write',
    ]);
    expect(calls(`import type { Model } from 'mongoose'; export function f(m: Model<unknown>) { return m.bulkWrite([]); }`)).toEqual([
      'bulkWrite@1 mongoose/import write',
    ]);
  });
});

describe('findMongoCalls: structural evidence and look-alikes', () => {
  it('accepts updateMany/updateOne whose update is made only of $ operators', () => {
    expect(calls(`export async function f(orders) { await orders.updateMany({ a: 1 }, { $set: { b: 2 }, $inc: { n: 1 } }); }`)).toEqual([
      'updateMany@1 mongodb/structure write',
    ]);
    expect(calls(`export function f(orders) { return orders.updateOne(filter, { '$set': { b: 2 } }); }`)).toEqual(['updateOne@1 mongodb/structure write']);
  });

  it('accepts a receiver its code names a MongoDB collection, for MongoDB-only methods, not under a look-alike import', () => {
    const code = `
      export class Adapter {
        constructor(mongoCollection) { this.mongoCollection = mongoCollection; }
        take(pid) { return this.mongoCollection.findOneAndDelete({ pid }); }
        drop(filter, _mongoCollection) { return _mongoCollection.deleteMany(filter); }
        clear() { return this.store._mongoCollection.updateMany({}, update); }
      }
    `;
    expect(calls(code)).toEqual(['findOneAndDelete@4 mongodb/structure write', 'deleteMany@5 mongodb/structure write', 'updateMany@6 mongodb/structure write']);
    // Other names, a computed key, or a file that imports another data library: no evidence.
    expect(calls(`export const f = (collection, mongo, mongoCollections, m) => [collection.findOneAndDelete({}), mongo.deleteMany({}), mongoCollections.deleteMany({}), m['mongoCollection'].deleteMany({})];`)).toEqual([]);
    expect(calls(`import { PrismaClient } from '@prisma/client'; export const f = (mongoCollection) => mongoCollection.deleteMany({});`)).toEqual([]);
  });

  it('never reports Prisma, Redux entity adapters, arrays, Maps or other receivers', () => {
    const code = `
      import { PrismaClient } from '@prisma/client';
      import { createEntityAdapter } from '@reduxjs/toolkit';
      const prisma = new PrismaClient();
      await prisma.user.updateMany({ where: { a: 1 }, data: { b: 2 } });
      await prisma.user.deleteMany({ where: {} });
      const adapter = createEntityAdapter();
      adapter.updateMany(state, [{ id: 1, changes: {} }]);
      adapter.updateOne(state, { id: 1, changes: {} });
      [1, 2].find((x) => x > 1);
      new Map().find?.();
      const items = [];
      items.insertOne?.({});
      repo.updateOne({ id: 1 }, { $set: { a: 1 } });
    `;
    expect(calls(code)).toEqual([]);
  });

  it('does not take structure as evidence where a known non-Mongo annotation says otherwise', () => {
    const code = `
      import type { Repository } from './repo';
      export function f(repo: Repository) { return repo.updateMany({}, { $set: { a: 1 } }); }
    `;
    expect(calls(code)).toEqual([]);
    expect(calls(`import { Repository } from 'typeorm'; export function f(r) { return r.updateMany({}, { $set: { a: 1 } }); }`)).toEqual([]);
  });

  it('ignores method names in comments and strings, and computed members whose name is unknown', () => {
    const code = `
      import { MongoClient } from 'mongodb';
      const c = new MongoClient('x').db().collection('a');
      // c.updateMany({}, {})
      const s = 'c.deleteMany({})';
      c[s]({}, {});
      c['updateMany']({}, {});
    `;
    // A computed member with a known name is that method.
    expect(calls(code)).toEqual(['updateMany@7 mongodb/import write']);
  });

  it('does not crash on odd shapes', () => {
    const code = `
      import { MongoClient } from 'mongodb';
      let a = new MongoClient('x').db().collection('a');
      a = a;
      const { b } = a;
      b.updateMany();
      (0, a).updateMany();
      a?.db?.().collection?.('x')?.deleteMany();
      this.x.updateMany({}, { $set: {} });
      function g() { return this.y.updateMany({}, {}); }
      class K { static s = this.updateMany(); }
    `;
    expect(() => calls(code)).not.toThrow();
  });
});

describe('findMongoCalls: typed linting', () => {
  it('confirms the receiver type is the driver Collection', () => {
    const code = `
      import { MongoClient, type Collection } from 'mongodb';
      declare const orders: Collection<{ n: number }>;
      declare function getAny(): any;
      const client = new MongoClient('mongodb://localhost');
      async function run(store: { orders: Collection }) {
        await store.orders.updateMany({}, { $inc: { n: 1 } });
        await orders.deleteMany({});
        await client.db().collection('x').insertOne({});
        await getAny().updateMany({}, { $set: { a: 1 } });
      }
      const fake = { updateMany(a: object, b: object) { return [a, b]; } };
      fake.updateMany({}, { $set: { a: 1 } });
      void run;
    `;
    expect(calls(code, { typed: 'mongodb' })).toEqual([
      'updateMany@7 mongodb/type write',
      'deleteMany@8 mongodb/type write',
      'insertOne@9 mongodb/type write',
      'updateMany@10 mongodb/structure write',
    ]);
  });
});
