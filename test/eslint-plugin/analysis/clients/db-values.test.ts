import { describe, expect, it } from 'vitest';
import type { TSESTree } from '@typescript-eslint/utils';
import { getDbValue, getDbValues } from '../../../../eslint-plugin/src/analysis/clients/db-values';
import { visitNodes } from '../../../../eslint-plugin/src/analysis/ast';
import type { AnyRuleContext } from '../../../../eslint-plugin/src/analysis/per-file-cache';
import { type AnalyseOptions, analyse, textOf } from '../../harness';

/** The arguments of every `probe(…)` call of the file, in source order. */
function findProbes(context: AnyRuleContext): TSESTree.Node[] {
  const probes: TSESTree.Node[] = [];
  visitNodes(context.sourceCode.ast, { skipTypeAnnotations: true }, (node) => {
    if (node.type === 'CallExpression' && node.callee.type === 'Identifier' && node.callee.name === 'probe' && node.arguments[0]) probes.push(node.arguments[0]);
  });
  return probes.sort((a, b) => a.range[0] - b.range[0]);
}

/** What `getDbValue` says of each probe: `database kind` (pg: `postgres library role`), or `-` when nothing. */
function values(code: string, options?: AnalyseOptions): string[] {
  return analyse(
    code,
    (context) =>
      findProbes(context).map((node) => {
        const value = getDbValue(context, node);
        if (!value) return '-';
        return value.database === 'postgres' ? `postgres ${value.library} ${value.role}` : `${value.database} ${value.kind}`;
      }),
    options,
  );
}

/** The source text of each probe's origin (`getOrigin`), or `-`. */
function origins(code: string): string[] {
  return analyse(code, (context) =>
    findProbes(context).map((node) => {
      const origin = getDbValues(context).getOrigin(node);
      return origin ? textOf(code, origin) : '-';
    }),
  );
}

describe('getDbValue: MongoDB', () => {
  it('follows the driver from the client to its databases, collections and sessions', () => {
    const code = `import { MongoClient } from 'mongodb';
const client = new MongoClient('mongodb://h');
const db = client.db('shop');
const orders = db.collection('orders');
probe(client); probe(db); probe(orders); probe(client.startSession());
await client.withSession(async (session) => probe(session));
const ready = Promise.resolve(orders);
ready.then((collection) => probe(collection));
function getOrders() { return db.collection('orders'); }
probe(getOrders());`;
    expect(values(code)).toEqual(['mongodb client', 'mongodb db', 'mongodb collection', 'mongodb session', 'mongodb session', '-', 'mongodb collection']);
  });

  it('reads Mongoose models, annotations, class fields and parameters every caller fills', () => {
    const code = `import mongoose, { type Model } from 'mongoose';
import type { Collection } from 'mongodb';
const Job = mongoose.model('Job', new mongoose.Schema({}));
class Queue {
  constructor(private readonly jobs: Model<unknown>) {}
  orders!: Collection;
  run() { probe(this.jobs); probe(this.orders); }
}
async function archive(model) { probe(model); }
await archive(Job);
probe(Job);`;
    expect(values(code)).toEqual(['mongodb model', 'mongodb collection', 'mongodb model', 'mongodb model']);
  });

  it('reads the properties of an object a class field holds, set in another method; a field also set to something else stays unknown', () => {
    const code = `const { MongoClient } = require('mongodb');
class Persistence {
  #cl;
  mixed;
  constructor() { this.#cl = null; this.mixed = null; }
  setup(url) {
    const db = new MongoClient(url).db();
    const incoming = db.collection('incoming');
    this.#cl = { incoming, will: db.collection('will') };
    this.mixed = { incoming };
  }
  reset(other) { this.mixed = other; }
  run() { probe(this.#cl.incoming); probe(this.#cl.will); probe(this.#cl.outgoing); probe(this.mixed.incoming); }
}
module.exports = Persistence;`;
    expect(values(code, { sourceType: 'commonjs' })).toEqual(['mongodb collection', 'mongodb collection', '-', '-']);
  });

  it('reads bindings and fields that start as null and are set when the app connects', () => {
    const code = `const { MongoClient } = require('mongodb');
let orders = null;
let users;
async function connect(url) {
  const db = new MongoClient(url).db();
  orders = db.collection('orders');
  users = db.collection('users');
}
class Store {
  jobs = null;
  constructor() { this.client = null; this.db = undefined; }
  async connect(url) { this.client = new MongoClient(url); this.db = this.client.db(); this.jobs = this.db.collection('jobs'); }
  run(ready) { probe(this.client); probe(this.db); probe(this.jobs); probe(ready ? this.jobs : null); probe(this.jobs ?? null); }
}
probe(orders); probe(users);
let cleared = orders;
cleared = 5;
probe(cleared);`;
    expect(values(code, { sourceType: 'commonjs' })).toEqual([
      'mongodb client',
      'mongodb db',
      'mongodb collection',
      'mongodb collection',
      'mongodb collection',
      'mongodb collection',
      'mongodb collection',
      '-',
    ]);
  });

  it('says nothing of look-alikes: arrays, maps, another library, unknown parameters', () => {
    const code = `import { Firestore } from '@google-cloud/firestore';
const list = [1, 2];
const map = new Map();
const store = new Firestore();
export function f(unknown) { probe(unknown); }
probe(list); probe(map); probe(store.collection('orders'));`;
    expect(values(code)).toEqual(['-', '-', '-', '-']);
  });
});

describe('getDbValue: DynamoDB', () => {
  it('knows the SDK v3 and v2 clients, document clients and annotations', () => {
    const code = `import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, DynamoDBDocument } from '@aws-sdk/lib-dynamodb';
import AWS from 'aws-sdk';
const client = new DynamoDBClient({});
const documents = DynamoDBDocumentClient.from(client);
const legacy = new AWS.DynamoDB.DocumentClient();
export function save(doc: DynamoDBDocument, raw: AWS.DynamoDB) { probe(doc); probe(raw); }
probe(client); probe(documents); probe(legacy); probe(new AWS.DynamoDB());`;
    expect(values(code)).toEqual([
      'dynamodb aggregated-document-client',
      'dynamodb v2-client',
      'dynamodb client',
      'dynamodb document-client',
      'dynamodb v2-document-client',
      'dynamodb v2-client',
    ]);
  });

  it('takes a helper that makes a client from what it is given, or returns it as it is, for a client maker', () => {
    const code = `import { DynamoDB } from 'aws-sdk';
function getDb(db) {
  if (db instanceof DynamoDB) return new DynamoDB.DocumentClient({ service: db });
  return db;
}
function same(db) { return db; }
function either(db, other) {
  if (db) return new DynamoDB.DocumentClient();
  return other.client;
}
export class Service {
  constructor(db) { this.db = getDb(db); this.raw = same(db); this.other = either(db, {}); }
  get(items) { probe(this.db); probe(this.raw); probe(this.other); }
}`;
    // Only the parameter itself counts as passed on: \`other.client\` is something else.
    expect(values(code)).toEqual(['dynamodb v2-document-client', '-', '-']);
  });

  it('reads the object a function of the file returns, made with or without `new`, from a `var`', () => {
    const code = `var AWS = require('aws-sdk');
function Store() {
  var lib = { client: new AWS.DynamoDB.DocumentClient() };
  return lib;
}
const arrow = () => ({ client: new AWS.DynamoDB.DocumentClient() });
var made = new Store();
var called = Store();
var changed = Store();
changed = {};
probe(made.client); probe(called.client); probe(changed.client); probe(arrow().client);`;
    expect(values(code)).toEqual(['dynamodb v2-document-client', 'dynamodb v2-document-client', '-', 'dynamodb v2-document-client']);
  });

  it('follows lazy getters, constructor parameters and the .promise() forwarding object', () => {
    const code = `import AWS from 'aws-sdk';
class Store {
  #client;
  get client() { return (this.#client ??= new AWS.DynamoDB.DocumentClient()); }
  run() { probe(this.client); }
}
class Repo {
  constructor(documents) { this.documents = documents; }
  run() { probe(this.documents); }
}
new Repo(new AWS.DynamoDB.DocumentClient());
const docs = new AWS.DynamoDB.DocumentClient();
const promised = { put: (params) => docs.put(params).promise(), batchWrite: (params) => docs.batchWrite(params).promise() };
const mixed = { put: (params) => docs.put(params).promise(), close: () => undefined };
probe(promised); probe(mixed);`;
    expect(values(code)).toEqual(['dynamodb v2-document-client', 'dynamodb v2-document-client', 'dynamodb aggregated-document-client', '-']);
  });

  it('reads the properties of objects the code builds: literals, properties written later, functions that return them', () => {
    const code = `const AWS = require('aws-sdk');
function initState(options) {
  const state = { prefix: options.prefix };
  if (options.client) state.client = options.client;
  else state.client = new AWS.DynamoDB.DocumentClient();
  return state;
}
const makeClients = () => ({ documents: new AWS.DynamoDB.DocumentClient(), table: 'orders' });
async function load() { return { raw: new AWS.DynamoDB() }; }
const state = initState({});
probe(state.client);
probe(initState({}).client);
const { documents, table } = makeClients();
probe(documents); probe(table);
async function run() { const { raw } = await load(); probe(raw); probe((await load()).raw); }
probe(state.prefix);
const other = somethingElse();
probe(other.client);
const deps = {};
deps.documents = new AWS.DynamoDB.DocumentClient();
probe(deps.documents);`;
    expect(values(code, { sourceType: 'commonjs' })).toEqual([
      'dynamodb v2-document-client',
      'dynamodb v2-document-client',
      'dynamodb v2-document-client',
      '-',
      'dynamodb v2-client',
      'dynamodb v2-client',
      '-',
      '-',
      'dynamodb v2-document-client',
    ]);
  });

  it('reads what the methods of objects the code builds return: literals, functions that return them, destructured methods', () => {
    const code = `const { MongoClient } = require('mongodb');
const db = new MongoClient('mongodb://localhost').db('app');
const conn = { getCollection: (name) => db.collection(name), name: () => 'app', getDb() { return db; } };
probe(conn.getCollection('orders'));
probe(conn.getDb());
probe(conn.name());
probe(conn.missing());
function connect() {
  return { client: db, collectionOf: (name) => db.collection(name) };
}
async function run() {
  const connection = connect();
  probe(connection.collectionOf('orders'));
  const { collectionOf } = connection;
  probe(collectionOf('jobs'));
  const users = { list: () => [] };
  probe(users.list());
}`;
    expect(values(code, { sourceType: 'commonjs' })).toEqual([
      'mongodb collection',
      'mongodb db',
      '-',
      '-',
      'mongodb collection',
      'mongodb collection',
      '-',
    ]);
  });

  it('reads the one object a variable declared empty is ever given, not one of several', () => {
    const code = `const { MongoClient } = require('mongodb');
async function connect() {
  const db = (await MongoClient.connect('mongodb://localhost')).db('app');
  return { db, migrations: () => db.collection('migrations') };
}
async function up() {
  let connection;
  try {
    connection = await connect();
  } catch (error) {
    throw new Error('cannot connect', { cause: error });
  }
  probe(connection.db);
  probe(connection.migrations());
}
async function either(flag) {
  let connection;
  if (flag) connection = await connect();
  else connection = { db: null, migrations: () => null };
  probe(connection.migrations());
}`;
    expect(values(code, { sourceType: 'commonjs' })).toEqual(['mongodb db', 'mongodb collection', '-']);
  });

  it('says nothing of other AWS clients and look-alike objects', () => {
    const code = `import { S3Client } from '@aws-sdk/client-s3';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
const s3 = new S3Client({});
const repo = { put() {}, batchWrite() {} };
export function f(client) { probe(client); }
f(new DynamoDBClient({}));
f(s3);
probe(s3); probe(repo);`;
    expect(values(code)).toEqual(['-', '-', '-']);
  });
});

describe('getDbValue: PostgreSQL', () => {
  it('knows pools, their clients (awaited, from the callback, from then) and annotations', () => {
    const code = `import pg, { type PoolClient } from 'pg';
const pool = new pg.Pool().on('error', () => {});
const client = await pool.connect();
pool.connect((err, fromCallback, done) => probe(fromCallback));
pool.connect().then((fromThen) => probe(fromThen));
export function run(typed: PoolClient, other: pg.Pool) { probe(typed); probe(other); }
probe(pool); probe(client); probe(new pg.Client());`;
    expect(values(code)).toEqual(['postgres pg client', 'postgres pg client', 'postgres pg client', 'postgres pg pool', 'postgres pg pool', 'postgres pg client', 'postgres pg client']);
  });

  it('knows postgres.js sql, its transactions and reserved connections', () => {
    const code = `import postgres from 'postgres';
const sql = postgres();
await sql.begin(async (tx) => probe(tx));
await sql.begin('read write', async (tx) => tx.savepoint(async (inner) => probe(inner)));
const reserved = await sql.reserve();
probe(sql); probe(reserved);`;
    expect(values(code)).toEqual(['postgres postgres sql-connection', 'postgres postgres sql-connection', 'postgres postgres sql', 'postgres postgres sql-connection']);
  });

  it('says nothing of a Pool of another library or of mysql2', () => {
    const code = `import { Pool } from 'generic-pool';
import mysql from 'mysql2/promise';
import 'pg';
const pool = new Pool();
const conn = await mysql.createPool({});
probe(pool); probe(conn);`;
    expect(values(code)).toEqual(['-', '-']);
  });

  it('gives one origin per connection: the awaited connect, the new Client, the callback parameter', () => {
    const code = `import pg from 'pg';
import postgres from 'postgres';
const pool = new pg.Pool();
const client = await pool.connect();
const single = new pg.Client();
const sql = postgres();
await sql.begin(async (tx) => probe(tx));
probe(client); probe(single);`;
    expect(origins(code)).toEqual(['tx', 'await pool.connect()', 'new pg.Client()']);
  });
});

describe('getDbValue: values of the project modules', () => {
  it('reads what another module exports, for each database', () => {
    const modules = {
      'db.js': `import { MongoClient } from 'mongodb';
import { Pool } from 'pg';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocument } from '@aws-sdk/lib-dynamodb';
export const orders = new MongoClient('mongodb://h').db().collection('orders');
export const pool = new Pool();
export const documents = DynamoDBDocument.from(new DynamoDBClient({}));
export const list = [];`,
    };
    const code = `import { orders, pool, documents, list } from './db.js';
await probe(orders).deleteMany({});
await probe(pool).query('SELECT 1');
await probe(documents).batchWrite({});
await probe(list).deleteMany({});`;
    expect(values(code, { modules })).toEqual(['mongodb collection', 'postgres pg pool', 'dynamodb aggregated-document-client', '-']);
  });

  it('reads the database values in the object another module\'s function returns', () => {
    const modules = {
      'state.js': `const AWS = require('aws-sdk');
const { Pool } = require('pg');
function initState(options) {
  const state = { prefix: options.prefix || '' };
  if (options.dynamoDBClient) state.client = options.dynamoDBClient;
  else state.client = new AWS.DynamoDB.DocumentClient(options.clientOptions);
  return state;
}
async function connect() { return { pool: new Pool(), name: 'main' }; }
function mixed(flag) { return flag ? { client: new AWS.DynamoDB() } : { client: new AWS.DynamoDB.DocumentClient() }; }
module.exports = { initState, connect, mixed };`,
    };
    const code = `const { initState, connect, mixed } = require('./state');
const state = initState({});
state.client.batchWrite(probe(state.client));
async function run() {
  const { pool } = await connect();
  await probe(pool).query('SELECT 1');
  await probe(mixed(true).client).batchWrite({});
  await probe(state.prefix).batchWrite({});
}`;
    expect(values(code, { modules, sourceType: 'commonjs' })).toEqual(['dynamodb v2-document-client', 'postgres pg pool', '-', '-']);
  });
});
