import { describe, expect, it } from 'vitest';
import { findDbCalls } from '../../../../eslint-plugin/src/analysis/clients';
import { analyse, textOf } from '../../harness';

/** `receiver.method` text of each database call of the file. */
function dbCalls(code: string): string[] {
  return analyse(code, (context) => findDbCalls(context).map((call) => `${call.database} ${textOf(code, call.node).split('(')[0]}`));
}

describe('parameters filled by every caller', () => {
  it('a MongoDB collection passed to a function, also through a destructured parameter', () => {
    const code = `import { MongoClient } from 'mongodb';
const db = new MongoClient('mongodb://h').db();
async function archive(orders, { carts }) {
  await orders.deleteMany({ archived: true });
  await carts.updateMany({}, { archived: true });
}
await archive(db.collection('orders'), { carts: db.collection('carts') });
await archive(db.collection('old'), { carts: db.collection('x') });`;
    expect(dbCalls(code)).toEqual(['mongodb orders.deleteMany', 'mongodb carts.updateMany']);
  });

  it('a pg client passed to a transaction helper is one connection', () => {
    const code = `import { Pool } from 'pg';
const pool = new Pool();
async function withTransaction(client, work) {
  await client.query('BEGIN');
  await work(client);
  await client.query('COMMIT');
}
export async function save(order) {
  const client = await pool.connect();
  try { await withTransaction(client, (c) => c.query('INSERT INTO orders VALUES ($1)', [order.id])); } finally { client.release(); }
}`;
    expect(dbCalls(code)).toEqual(['postgres client.query', 'postgres client.query', 'postgres pool.connect']);
  });

  it('a DynamoDB client given to a constructor, read back as this.client; and one passed in an object', () => {
    const code = `import AWS from 'aws-sdk';
class ItemStore {
  constructor(client) { this.client = client; }
  saveAll(items) { return this.client.batchWrite({ RequestItems: { t: items } }).promise(); }
}
const store = new ItemStore(new AWS.DynamoDB.DocumentClient());
const execute = async ({ client, input }) => client.batchWriteItem(input);
await execute({ client: new AWS.DynamoDB(), input: {} });
store.saveAll([]);`;
    expect(dbCalls(code)).toEqual(['dynamodb this.client.batchWrite', 'dynamodb client.batchWriteItem']);
  });

  it('a computed method call on a known client is that operation when every caller names the same one', () => {
    const code = `import AWS from 'aws-sdk';
const OPERATION = 'put';
class Store {
  constructor(client) { this.client = client; }
  run(operation, params) { return this.client[operation](params).promise(); }
  save(item) { return this.client[OPERATION]({ TableName: 't', Item: item }).promise(); }
}
const store = new Store(new AWS.DynamoDB.DocumentClient());
store.run('batchWrite', { RequestItems: {} });
store.run('batchWrite', { RequestItems: {} });`;
    expect(analyse(code, (context) => findDbCalls(context).map((call) => call.operation))).toEqual(['BatchWriteItem', 'PutItem']);
  });

  it('a computed method call stays unknown when callers name different operations or the name is not known', () => {
    const code = `import AWS from 'aws-sdk';
class Store {
  constructor(client) { this.client = client; }
  run(operation, params) { return this.client[operation](params).promise(); }
  any(params) { return this.client[params.operation](params).promise(); }
}
const store = new Store(new AWS.DynamoDB.DocumentClient());
store.run('batchWrite', {});
store.run('batchGet', {});
store.any({});`;
    expect(dbCalls(code)).toEqual([]);
  });

  it('stays silent when callers disagree, pass nothing, or the function is used otherwise', () => {
    const code = `import { MongoClient } from 'mongodb';
import { Pool } from 'pg';
const db = new MongoClient('mongodb://h').db();
async function clear(list) { await list.deleteMany({}); }
await clear(db.collection('orders'));
await clear(someArrayWrapper);
async function purge(list) { await list.deleteMany({}); }
await purge();
export async function drop(list) { await list.deleteMany({}); }
await drop(db.collection('orders'));
const run = (q) => q.query('DELETE FROM t');
run(new Pool());
setTimeout(run, 10);`;
    expect(dbCalls(code)).toEqual([]);
  });
});

describe('parameters of exported functions and classes, filled by callers in other modules', () => {
  const collectionModule = `const { MongoClient } = require('mongodb');\nconst db = new MongoClient('mongodb://h').db();\n`;
  const calls = (code: string, modules: Record<string, string>): string[] =>
    analyse(code, (context) => findDbCalls(context).map((call) => `${call.database} ${textOf(code, call.node).split('(')[0]}`), {
      // The linted file is on disk too: its importers name it.
      modules: { 'package.json': '{}', 'file.js': code, ...modules },
      language: 'javascript',
      sourceType: 'commonjs',
    });

  const store = `class Store {
  constructor(collection, options) { this.collection = collection; this.model = options.model; }
  purge() { return this.collection.deleteMany({}); }
  archive() { return this.model.updateMany({}, { archived: true }); }
}
module.exports = Store;`;

  it('a collection and a model passed to an exported class by the modules that construct it', () => {
    const modules = {
      'adapter.js': `${collectionModule}const mongoose = require('mongoose');\nconst Store = require('./file');\nmodule.exports = new Store(db.collection('jobs'), { model: mongoose.model('Job', new mongoose.Schema({})) });`,
    };
    expect(calls(store, modules)).toEqual(['mongodb this.collection.deleteMany', 'mongodb this.model.updateMany']);
  });

  it('stays silent when a caller passes something else, passes it on, or no module calls it', () => {
    expect(calls(store, { 'a.js': `${collectionModule}const Store = require('./file');\nnew Store(db.collection('x'), {});\nnew Store([], {});` })).toEqual([]);
    expect(calls(store, { 'a.js': `const Store = require('./file');\nmodule.exports = { Store };` })).toEqual([]);
    expect(calls(store, {})).toEqual([]);
    // Tests construct it with stand-ins: they do not count, production callers do.
    expect(
      calls(store, {
        'lib/a.js': `${collectionModule}const mongoose = require('mongoose');\nconst Store = require('../file');\nnew Store(db.collection('x'), { model: mongoose.model('J', new mongoose.Schema({})) });`,
        'test/store.test.js': `const Store = require('../file');\nnew Store({ deleteMany() {} }, { model: {} });`,
      }),
    ).toEqual(['mongodb this.collection.deleteMany', 'mongodb this.model.updateMany']);
  });
});
