import { describe, expect, it } from 'vitest';
import { findDbCalls, getFunctionCallers, getFunctionExportNames, getModuleIndexStats } from '../../../../eslint-plugin/src/analysis/clients';
import { isFunctionNode, type FunctionNode } from '../../../../eslint-plugin/src/analysis/ast';
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

  it("a method of an exported class: the class's own calls fill its parameter", () => {
    const code = `import { MongoClient } from 'mongodb';
export class SessionStore {
  constructor(url) {
    this.collectionP = MongoClient.connect(url).then(async (con) => {
      const collection = con.db().collection('sessions');
      await this.setAutoRemove(collection);
      return collection;
    });
  }
  setAutoRemove(collection) {
    return collection.deleteMany({ expires: { $lt: new Date() } });
  }
  clear(target) {
    return target.deleteMany({});
  }
  mixed(target) {
    return target.deleteMany({});
  }
  seed() {
    this.mixed([]);
  }
}`;
    // `clear` has no call in the class: its callers are elsewhere, unknown. `mixed` is given an array.
    expect(dbCalls(code)).toEqual(['mongodb collection.deleteMany']);
  });

  it("a method of a class exported by module.exports, called by the class's own code", () => {
    const code = `const AWS = require('aws-sdk');
class Loader {
  constructor() { this.client = new AWS.DynamoDB.DocumentClient(); }
  load(items) { return this.write(this.client, items); }
  write(client, items) { return client.batchWrite({ RequestItems: { t: items } }).promise(); }
}
module.exports = Loader;`;
    expect(dbCalls(code)).toEqual(['dynamodb client.batchWrite']);
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

  it("TypeScript's compiled calls of an imported function, `(0, db_1.insertMigration)(collection, m)`, are its callers", () => {
    const exported = `"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.insertMigration = void 0;
const insertMigration = async (collection, migration) => {
    await collection.insertOne({ file: migration.file, timestamp: +new Date() });
};
exports.insertMigration = insertMigration;`;
    const caller = (callee: string) => `"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
const file_1 = require("./file");
${collectionModule}exports.up = async (migration) => {
    const collection = db.collection('migrations');
    await ${callee}(collection, migration);
};`;
    expect(calls(exported, { 'up.js': caller('(0, file_1.insertMigration)') })).toEqual(['mongodb collection.insertOne']);
    expect(calls(exported, { 'up.js': caller('file_1.insertMigration') })).toEqual(['mongodb collection.insertOne']);
    // Only `(0, f)` is that form: another sequence's value is not known to be the callee.
    expect(calls(exported, { 'up.js': caller('(log(), file_1.insertMigration)') })).toEqual([]);
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

describe('pg and DynamoDB parameters of exported functions and classes, filled by callers in other modules', () => {
  // The project declares the drivers its code imports: a project that cannot make a client passes none in.
  const PROJECT_MANIFEST = JSON.stringify({ dependencies: { pg: '8.0.0', '@aws-sdk/client-dynamodb': '3.0.0', '@aws-sdk/lib-dynamodb': '3.0.0', 'aws-sdk': '2.0.0' } });
  const callsIn = (code: string, modules: Record<string, string>, sourceType: 'commonjs' | 'module' = 'commonjs', manifest = PROJECT_MANIFEST): string[] =>
    analyse(code, (context) => findDbCalls(context).map((call) => `${call.database} ${textOf(code, call.node).split('(')[0]}`), {
      modules: { 'package.json': manifest, 'file.js': code, ...modules },
      language: 'javascript',
      sourceType,
    });
  const calls = (code: string, modules: Record<string, string>, sourceType: 'commonjs' | 'module' = 'commonjs'): string[] => callsIn(code, modules, sourceType);

  const helpers = `async function saveAll(client, items) {
  await client.batchWrite({ RequestItems: { t: items } }).promise();
}
async function withTransaction({ db }, work) {
  await db.query('BEGIN');
  await work();
  await db.query('COMMIT');
}
class Store {
  constructor(options) { this.documents = options.documents; }
  load(keys) { return this.documents.batchGet({ RequestItems: { t: { Keys: keys } } }).promise(); }
}
module.exports = { saveAll, withTransaction, Store };`;

  it('a DocumentClient passed to an exported function and to a class constructor; a pg client passed in an object', () => {
    const modules = {
      'app.js': `const AWS = require('aws-sdk');
const { Pool } = require('pg');
const { saveAll, withTransaction, Store } = require('./file');
const documents = new AWS.DynamoDB.DocumentClient();
const pool = new Pool();
saveAll(documents, []);
new Store({ documents });
async function run() { const client = await pool.connect(); await withTransaction({ db: client }, async () => {}); client.release(); }
module.exports = { run };`,
    };
    expect(calls(helpers, modules)).toEqual([
      'dynamodb client.batchWrite',
      'postgres db.query',
      'postgres db.query',
      'dynamodb this.documents.batchGet',
    ]);
  });

  it('a DocumentClient kept in the state object a helper of the module builds, passed on by the modules that import both', () => {
    const code = `const AWS = require('aws-sdk');
function initState(options) {
  const state = { prefix: options.prefix || '' };
  if (options.dynamoDBClient) {
    state.client = options.dynamoDBClient;
  } else {
    state.client = new AWS.DynamoDB.DocumentClient(options.clientOptions);
  }
  return state;
}
function batchWrite(client, tableName, ops) {
  return ops.map((op) => new Promise((resolve, reject) => {
    client.batchWrite({ RequestItems: { [tableName]: [op] } }, (err) => (err ? reject(err) : resolve()));
  }));
}
module.exports = { initState, batchWrite };`;
    const modules = {
      'store.js': `const { initState, batchWrite } = require('./file');
function Store(options) {
  const state = initState(options);
  const dynamoDBClient = state.client;
  return { init: (ops) => Promise.all(batchWrite(dynamoDBClient, options.tableName, ops)) };
}
module.exports = Store;`,
    };
    expect(calls(code, modules)).toEqual(['dynamodb client.batchWrite']);
    // A caller that passes something else keeps the parameter unknown.
    expect(calls(code, { ...modules, 'other.js': `const { batchWrite } = require('./file');\nbatchWrite({ batchWrite() {} }, 't', []);` })).toEqual([]);
  });

  it('parses each importer once, however many parameters ask about it', () => {
    // Twelve modules call an exported function whose three parameters are receivers: each
    // parameter asks every importer, and the importers stay parsed between the questions.
    const code = `async function copy(source, target, audit) {
  await source.query('SELECT 1');
  await target.query('INSERT INTO t VALUES (1)');
  await audit.query('INSERT INTO audit VALUES (1)');
}
module.exports = { copy };`;
    const modules: Record<string, string> = {};
    for (let index = 0; index < 12; index++) {
      modules[`caller${index}.js`] = `const { Pool } = require('pg');\nconst { copy } = require('./file');\nconst pool = new Pool();\ncopy(pool, pool, pool);`;
    }
    const before = getModuleIndexStats().parsed;
    expect(calls(code, modules)).toEqual(['postgres source.query', 'postgres target.query', 'postgres audit.query']);
    expect(getModuleIndexStats().parsed - before).toBe(12);
  });

  it('parses only the importers whose text names the export asked about', () => {
    const code = `async function copy(target, items) {\n  await target.batchWrite({ RequestItems: { t: items } }).promise();\n}\nfunction label() { return 'copy'; }\nmodule.exports = { copy, label };`;
    const modules: Record<string, string> = {
      'caller.js': `const AWS = require('aws-sdk');\nconst { copy } = require('./file');\ncopy(new AWS.DynamoDB.DocumentClient(), []);`,
      'renamed.js': `const AWS = require('aws-sdk');\nconst { copy: run } = require('./file');\nrun(new AWS.DynamoDB.DocumentClient(), []);`,
    };
    // Eight modules that take the other export: never parsed for a question about `copy`.
    for (let index = 0; index < 8; index++) modules[`other${index}.js`] = `const { label } = require('./file');\nconsole.log(label());`;
    const before = getModuleIndexStats().parsed;
    expect(calls(code, modules)).toEqual(['dynamodb target.batchWrite']);
    expect(getModuleIndexStats().parsed - before).toBe(2);
    // A module that names it and passes something else still decides.
    const mixed = { ...modules, 'fake.js': `const { copy } = require('./file');\ncopy({ batchWrite() {} }, []);` };
    expect(calls(code, mixed)).toEqual([]);
  });

  it('asks no caller in a project whose package.json names no pg or AWS SDK package (it cannot make those clients)', () => {
    const modules = { 'app.js': `const { Pool } = require('pg');\nconst { withTransaction } = require('./file');\nconst pool = new Pool();\npool.connect().then((client) => withTransaction({ db: client }, () => {}));` };
    expect(calls(helpers, modules)).toContain('postgres db.query');
    // No caller is asked: the pg queries are not known; the batch requests are DynamoDB's whoever sends them.
    expect(callsIn(helpers, modules, 'commonjs', JSON.stringify({ dependencies: { mongodb: '6.0.0' } }))).toEqual(['dynamodb client.batchWrite', 'dynamodb this.documents.batchGet']);
  });

  it('the two queries on one passed-in client share its connection', () => {
    const modules = { 'app.js': `const { Pool } = require('pg');\nconst { withTransaction } = require('./file');\nconst pool = new Pool();\npool.connect().then((client) => withTransaction({ db: client }, () => {}));` };
    const connections = analyse(helpers, (context) => new Set(findDbCalls(context).flatMap((call) => (call.database === 'postgres' && 'connection' in call ? [call.connection] : []))).size, {
      modules: { 'package.json': PROJECT_MANIFEST, 'file.js': helpers, ...modules },
      language: 'javascript',
      sourceType: 'commonjs',
    });
    expect(connections).toBe(1);
  });

  it('stays silent when one caller passes something else: a plain object, a mysql2 pool, a Prisma client', () => {
    const client = `const AWS = require('aws-sdk');\nconst { Pool } = require('pg');\nconst { saveAll, withTransaction, Store } = require('./file');\n`;
    // It also uses mysql2 and Prisma, so SQL text alone is no evidence of pg: only what the callers pass decides.
    const manifest = JSON.stringify({ dependencies: { ...JSON.parse(PROJECT_MANIFEST).dependencies, mysql2: '3.0.0', '@prisma/client': '5.0.0' } });
    const calls = (code: string, modules: Record<string, string>): string[] => callsIn(code, modules, 'commonjs', manifest);
    expect(calls(helpers, { 'a.js': `${client}saveAll(new AWS.DynamoDB.DocumentClient(), []);\nsaveAll({ batchWrite() {} }, []);` })).toEqual([]);
    expect(calls(helpers, { 'a.js': `${client}const mysql = require('mysql2/promise');\nconst pool = mysql.createPool({});\nwithTransaction({ db: pool }, () => {});` })).toEqual([]);
    expect(calls(helpers, { 'a.js': `${client}const { PrismaClient } = require('@prisma/client');\nnew Store({ documents: new PrismaClient() });` })).toEqual([]);
    // A caller passing a pool and another a pool's client: not one kind.
    expect(calls(helpers, { 'a.js': `${client}const pool = new Pool();\nwithTransaction({ db: pool }, () => {});\npool.connect().then((c) => withTransaction({ db: c }, () => {}));` })).toEqual([]);
  });

  it('ES modules: a pg pool passed to an exported function with a computed method name', () => {
    const code = `export async function run(pool, sql) {\n  const method = 'query';\n  return pool[method](sql);\n}`;
    const modules = { 'app.js': `import { Pool } from 'pg';\nimport { run } from './file.js';\nconst pool = new Pool();\nawait run(pool, 'DELETE FROM t');` };
    expect(calls(code, modules, 'module')).toEqual(['postgres pool[method]']);
  });
});

describe('clients made in the module itself and passed down', () => {
  it("another module's factory that returns an object of .promise() forwarders answers like the v3 client, through a local helper", () => {
    const factory = `const AWS = require('aws-sdk');
module.exports = exports = {
  create(options) {
    const documentClient = options.documentClient || new AWS.DynamoDB.DocumentClient();
    return {
      batchWrite: (params) => documentClient.batchWrite(params).promise(),
      get: (params) => documentClient.get(params).promise(),
    };
  },
};`;
    const code = `const factory = require('./lib/factory');
function writeAll(params, client) { return client.batchWrite(params).then((data) => data); }
const wrapped = factory.create({});
writeAll({ RequestItems: {} }, wrapped);
module.exports = { get: (Key) => wrapped.get({ TableName: 't', Key }) };`;
    const describe = (source: string) => (context: Parameters<typeof findDbCalls>[0]) =>
      findDbCalls(context).map((call) => `${textOf(source, call.node).split('(')[0]} ${call.operation} v${'sdkVersion' in call ? String(call.sdkVersion) : ''}`);
    expect(analyse(factory, describe(factory))).toEqual(['documentClient.batchWrite BatchWriteItem v2', 'documentClient.get GetItem v2']);
    const options = { modules: { 'package.json': '{}', 'lib/factory.js': factory }, language: 'javascript', sourceType: 'commonjs' } as const;
    expect(analyse(code, describe(code), options)).toEqual(['client.batchWrite BatchWriteItem v3', 'wrapped.get GetItem v3']);
  });

  it('an object with a property that does not forward is not a client', () => {
    const code = `const AWS = require('aws-sdk');
const documentClient = new AWS.DynamoDB.DocumentClient();
const api = { batchWrite: (params) => documentClient.batchWrite(params).promise(), other: (x) => x };
function writeAll(params, client) { return client.batchWrite(params); }
writeAll({}, api);`;
    expect(analyse(code, (context) => findDbCalls(context).map((call) => textOf(code, call.node).split('(')[0]))).toEqual(['documentClient.batchWrite']);
  });

  it('options.destination.client through two functions, the default the module makes', () => {
    const code = `const AWS = require('aws-sdk');
function copy(values) {
  var options = { destination: { client: values.client || new AWS.DynamoDB.DocumentClient() } };
  start(options);
}
function start(options) { put(options); }
function put(options) {
  options.destination.client.batchWrite({ RequestItems: {} }, (err) => { if (!err) setTimeout(() => put(options), 100); });
}
module.exports = { copy };`;
    expect(analyse(code, (context) => findDbCalls(context).map((call) => textOf(code, call.node).split('(')[0]))).toEqual(['options.destination.client.batchWrite']);
  });

  it('the path stays unknown when the property is written elsewhere or a caller passes another object', () => {
    const written = `const AWS = require('aws-sdk');
function copy() { const options = { destination: { client: new AWS.DynamoDB.DocumentClient() } }; put(options); put({ destination: {} }); }
function put(options) { options.destination.client.batchWrite({}); }
copy();`;
    expect(analyse(written, (context) => findDbCalls(context).length)).toBe(0);
    const reassigned = `const AWS = require('aws-sdk');
function copy() { const options = { destination: { client: new AWS.DynamoDB.DocumentClient() } }; options.destination.client = other; put(options); }
function put(options) { options.destination.client.batchWrite({}); }
copy();`;
    expect(analyse(reassigned, (context) => findDbCalls(context).length)).toBe(0);
  });

  it('a client from a lazy getter', () => {
    const code = `const AWS = require('aws-sdk');
class Seeder {
  get documents() {
    if (!this._documents) this._documents = new AWS.DynamoDB.DocumentClient();
    return this._documents;
  }
  async seed(items) { await this.documents.batchWrite({ RequestItems: { t: items } }).promise(); }
}
module.exports = Seeder;`;
    expect(analyse(code, (context) => findDbCalls(context).map((call) => textOf(code, call.node).split('(')[0]))).toEqual(['this.documents.batchWrite']);
  });

  it('a MongoDB collection called by a computed method name; unknown names and receivers stay silent', () => {
    const code = `import { MongoClient } from 'mongodb';
const orders = new MongoClient('mongodb://h').db().collection('orders');
const list = { deleteMany() {} };
function clear(method, filter) { return orders[method](filter); }
clear('deleteMany', {});
list['deleteMany']({});
function any(method) { return orders[method]({}); }
any('deleteMany');
any('insertOne');`;
    expect(analyse(code, (context) => findDbCalls(context).map((call) => `${textOf(code, call.node).split('(')[0]} ${call.operation}`))).toEqual(['orders[method] deleteMany']);
  });
});

describe('this beyond classes', () => {
  const mongoCalls = (code: string): string[] =>
    analyse(code, (context) => findDbCalls(context).map((call) => `${call.database} ${textOf(code, call.node).split('(')[0]}`), { sourceType: 'commonjs', language: 'javascript' });

  it('a constructor function and its prototype methods share this.<field>, also through var self = this', () => {
    const code = `const { MongoClient } = require('mongodb');
function Queue(db, name) {
  this.col = db.collection(name);
  var self = this;
  this.ops = { remove: callbackify(function (query) { return self.col.deleteMany(query); }) };
}
Queue.prototype.clean = function () { return this.col.deleteMany({ done: true }); };
Object.assign(Queue.prototype, { purge() { return this.col.deleteMany({}); } });
module.exports = (db, name) => new Queue(db, name);
const client = new MongoClient('mongodb://h');`;
    expect(mongoCalls(code)).toEqual(['mongodb self.col.deleteMany', 'mongodb this.col.deleteMany', 'mongodb this.col.deleteMany']);
  });

  it('a file with many names for this still finds the fields written through them', () => {
    // Past 16 aliases the writes are found for any holder name, then checked on the tree.
    const aliases = Array.from({ length: 18 }, (_, index) => `function F${index}() { var s${index} = this; }`).join('\n');
    const code = `const { MongoClient } = require('mongodb');
${aliases}
function Queue(db, name) {
  var self = this;
  self . col
    = db.collection(name);
  self.other == db.collection(name);
  self.count += 1;
  a.self.shadow = db.collection(name);
  this.clear = function () { return self.col.deleteMany({}); };
  this.wipe = function () { return self.shadow.deleteMany({}); };
}
module.exports = (db, name) => new Queue(db, name);
const client = new MongoClient('mongodb://h');`;
    expect(mongoCalls(code)).toEqual(['mongodb self.col.deleteMany']);
  });

  it('a field is known by its own writes: those of other fields, and writes in strings or comments, do not count', () => {
    const code = `const { MongoClient } = require('mongodb');
function Queue(db, name) {
  this.col = db.collection(name);
  this.note = "this.other = db.collection(name)"; // this.other = db.collection(name)
  this.other = null;
  this.count = 0;
}
Queue.prototype.clean = function () { return this.col.deleteMany({ done: true }); };
Queue.prototype.wipe = function () { return this.other.deleteMany({}); };
module.exports = (db, name) => new Queue(db, name);
const client = new MongoClient('mongodb://h');`;
    expect(mongoCalls(code)).toEqual(['mongodb this.col.deleteMany']);
  });

  it('a local function used only as f.call(this) runs with the caller’s this', () => {
    const code = `const { MongoClient } = require('mongodb');
class Store {
  constructor() { this.orders = new MongoClient('mongodb://h').db().collection('orders'); }
  async purge() { await clear.call(this, {}); }
}
async function clear(filter) { await this.orders.deleteMany(filter); }
module.exports = Store;`;
    expect(mongoCalls(code)).toEqual(['mongodb this.orders.deleteMany']);
  });

  it('stays silent on a field that is not a collection, a function that is not a constructor, a reassigned self, and a function also called plainly', () => {
    const code = `const { MongoClient } = require('mongodb');
const db = new MongoClient('mongodb://h').db();
function Cache() {
  this.items = new Map();
  var self = this;
  this.clear = function () { return self.items.deleteMany({}); };
}
Cache.prototype.reset = function () { return this.items.deleteMany({}); };
function handler() { return this.col.deleteMany({}); }
function Other() {
  this.col = db.collection('other');
  var self = this;
  self = {};
  this.clear = function () { return self.col.deleteMany({}); };
}
async function clear(filter) { await this.orders.deleteMany(filter); }
class Store {
  constructor() { this.orders = db.collection('orders'); }
  async purge() { await clear.call(this, {}); }
}
clear({});
module.exports = { Cache, handler, Other, Store };`;
    expect(mongoCalls(code)).toEqual([]);
  });
});

describe('postgres.js tags from parameters', () => {
  it('a sql tag passed to a local function is a postgres.js call there; a tag of another library is not', () => {
    const code = `import postgres from 'postgres';
import SQL from 'sql-template-strings';
const sql = postgres();
async function save(tag, id) { await tag\`insert into orders (id) values (\${id})\`; }
async function render(tag, id) { return tag\`insert into orders (id) values (\${id})\`; }
await save(sql, 1);
await render(SQL, 1);`;
    expect(analyse(code, (context) => findDbCalls(context).map((call) => `${call.database} ${textOf(code, call.node).split('`')[0]}`))).toEqual(['postgres tag']);
  });
});

describe('getFunctionExportNames', () => {
  it('names the exports of a function, as its callers do, and none for a method', () => {
    const code = `export async function withRetry(work) { return work(); }
const helper = async (work) => work();
export { helper as retrying };
function local(work) { return work(); }
export class Store { async run(work) { return work(); } }
local(() => 1);`;
    const names = analyse(code, (context) => {
      const functions: FunctionNode[] = [];
      const visit = (node: unknown): void => {
        if (!node || typeof node !== 'object') return;
        if (isFunctionNode(node as never)) functions.push(node as FunctionNode);
        for (const [key, value] of Object.entries(node)) if (key !== 'parent') (Array.isArray(value) ? value : [value]).forEach(visit);
      };
      visit(context.sourceCode.ast);
      return functions.map((fn) => ({
        fn: textOf(code, fn).split('{')[0]?.trim(),
        names: [...getFunctionExportNames(context, fn)],
        callers: [...(getFunctionCallers(context, fn)?.exportNames ?? [])],
      }));
    });
    // The same names as the callers' analysis gives, without it for the method.
    for (const { names: exportNames, callers } of names) expect(exportNames).toEqual(callers);
    expect(names.map(({ fn, names: exportNames }) => `${fn} → ${exportNames.join(', ') || '-'}`)).toEqual([
      'async function withRetry(work) → withRetry',
      'async (work) => work() → retrying',
      'function local(work) → -',
      '(work) → -',
      '() => 1 → -',
    ]);
  });
});
