// Database clients kept in a module of their own, imported or required by the code that
// uses them: the real `eslint` CLI on small projects on disk, ESM and CommonJS, JavaScript
// and TypeScript, with and without type information.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { createProject, findingsOf, removeProjects, repo, runEslint } from './project';

beforeAll(() => {
  if (!existsSync(path.join(repo, 'eslint-plugin', 'dist', 'index.cjs'))) throw new Error('Build the plugin first: npm run build');
});
afterAll(removeProjects);

const settings = `{ settings: { 'retry-safety': { documentdb: { engineVersion: '8.0.2' } } } }`;

const esmConfig = (typed: boolean): string => `import tsParser from '@typescript-eslint/parser';
import retrySafety from 'eslint-plugin-retry-safety';
export default [
  { files: ['**/*.ts'], languageOptions: { parser: tsParser${typed ? ', parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname }' : ''} } },
  ...retrySafety.configs.all,
  ${settings},
];
`;

const tsconfig = JSON.stringify({ compilerOptions: { strict: true, module: 'NodeNext', moduleResolution: 'NodeNext', skipLibCheck: true, noEmit: true }, include: ['src'] });

const mongoModule = `import { MongoClient, type Collection } from 'mongodb';
interface Order { _id?: string; total: number }
const client = new MongoClient(process.env.MONGO_URL ?? 'mongodb://localhost');
export const orders: Collection<Order> = client.db('shop').collection<Order>('orders');
export const customers = client.db('shop').collection('customers');
export { client };
`;

const mongoApp = `import { client, customers, orders } from './db/mongo.js';
export async function place(total: number) {
  for (let attempt = 0; ; attempt++) {
    try { return await orders.insertOne({ total }); } catch (err) { if (attempt >= 3) throw err; }
  }
}
export async function purge() { await customers.deleteMany({ inactive: true }); }
export async function transfer() {
  const session = client.startSession();
  session.startTransaction();
  for (let i = 0; i < 3; i++) { try { await orders.updateOne({}, { $inc: { total: 1 } }, { session }); break; } catch { continue; } }
  await session.commitTransaction();
}
`;

/** `rule@line` of the findings of one file, rule ids without the prefix, sorted. */
function ruleLines(results: ReturnType<typeof runEslint>, file: string): string[] {
  return findingsOf(results, file)
    .map((message) => `${(message.ruleId ?? 'fatal').replace('retry-safety/', '')}@${message.line}`)
    .sort();
}

describe('clients in their own module, ES modules in TypeScript', () => {
  it.each([false, true])('finds the writes on imported collections and the session of an imported client (typed: %s)', (typed) => {
    const dir = createProject(
      { 'package.json': '{ "type": "module" }', 'tsconfig.json': tsconfig, 'eslint.config.js': esmConfig(typed), 'src/db/mongo.ts': mongoModule, 'src/app.ts': mongoApp },
      'eslint',
    );
    const found = ruleLines(runEslint(dir, ['src']), 'src/app.ts');
    expect(found).toEqual(
      expect.arrayContaining(['mongo-require-insert-id@4', 'require-retry-backoff@3', 'mongo-no-non-retryable-write@7', 'mongo-no-retry-in-transaction@11']),
    );
    expect(found.some((entry) => entry.startsWith('fatal'))).toBe(false);
  });
});

describe('clients in their own module, CommonJS in JavaScript (ESLint 9, its default parser)', () => {
  it('follows require() to a pg query wrapper, a Mongoose model, and a DynamoDB store class', () => {
    const dir = createProject(
      {
        'eslint.config.cjs': `const retrySafety = require('eslint-plugin-retry-safety');\nmodule.exports = [...retrySafety.configs.all, ${settings}];\n`,
        'db/index.js': `const { Pool } = require('pg');\nconst pool = new Pool();\npool.on('error', () => {});\nmodule.exports = { query: (text, params) => pool.query(text, params) };\n`,
        'models/Record.js': `const mongoose = require('mongoose');\nconst schema = new mongoose.Schema({ name: String });\nmodule.exports = mongoose.model('Record', schema);\n`,
        'lib/store.js': `const AWS = require('aws-sdk');
class ItemStore {
  constructor(client) { this.client = client; }
  async saveAll(items) { await this.client.batchWrite({ RequestItems: { items: items.map((Item) => ({ PutRequest: { Item } })) } }).promise(); }
}
module.exports = { store: new ItemStore(new AWS.DynamoDB.DocumentClient()), documents: new AWS.DynamoDB.DocumentClient() };
`,
        'app.js': `const db = require('./db');
const Record = require('./models/Record');
const { documents } = require('./lib/store');
async function save(order) {
  for (let attempt = 0; attempt < 5; attempt++) {
    try { return await db.query('INSERT INTO orders (id) VALUES ($1)', [order.id]); } catch (err) { if (attempt === 4) throw err; }
  }
}
async function archive(name) { await Record.updateMany({ name }, { archived: true }); }
async function load(items) { await documents.batchWrite({ RequestItems: { items } }).promise(); }
module.exports = { save, archive, load };
`,
      },
      'eslint9',
    );
    const results = runEslint(dir, ['.']);
    const found = ruleLines(results, 'app.js');
    expect(found).toEqual(expect.arrayContaining(['require-retry-backoff@5', 'mongo-no-non-retryable-write@9', 'dynamodb-require-unprocessed-items-handling@10']));
    // The store class's own call: the client given to its constructor.
    expect(ruleLines(results, 'lib/store.js')).toContain('dynamodb-require-unprocessed-items-handling@4');
  });
});

describe('clients exported again by a barrel module', () => {
  it('CommonJS: models gathered in models/index.js, a pool exported again by db/index.js; a barrel of helpers stays unread', () => {
    const dir = createProject(
      {
      'eslint.config.cjs': `const retrySafety = require('eslint-plugin-retry-safety');\nmodule.exports = [...retrySafety.configs.all, ${settings}];\n`,
      'models/User.js': `const mongoose = require('mongoose');\nmodule.exports = mongoose.model('User', new mongoose.Schema({ name: String }));\n`,
      'models/Order.js': `const mongoose = require('mongoose');\nmodule.exports = mongoose.model('Order', new mongoose.Schema({ total: Number }));\n`,
      'models/index.js': `const User = require('./User');\nmodule.exports = {\n  User,\n  Order: require('./Order'),\n};\n`,
      'db/pool.js': `const { Pool } = require('pg');\nconst pool = new Pool();\npool.on('error', () => {});\nmodule.exports = pool;\n`,
      'db/index.js': `const pool = require('./pool');\nexports.pool = pool;\n`,
      'lib/format.js': `module.exports = { updateMany: (list) => list.map((item) => ({ ...item, seen: true })) };\n`,
      'lib/index.js': `const format = require('./format');\nmodule.exports = { format };\n`,
      'app.js': `const { User, Order } = require('./models');
const { pool } = require('./db');
const { format } = require('./lib');
async function archive(name) { await User.updateMany({ name }, { archived: true }); }
async function purge() { await Order.deleteMany({ total: 0 }); }
async function save(order) {
  for (let attempt = 0; attempt < 5; attempt++) {
    try { return await pool.query('INSERT INTO orders (id) VALUES ($1)', [order.id]); } catch (err) { if (attempt === 4) throw err; }
  }
}
function mark(list) { return format.updateMany(list); }
module.exports = { archive, purge, save, mark };
`,
      },
      'eslint',
    );
    const found = ruleLines(runEslint(dir, ['.']), 'app.js');
    expect(found).toEqual(expect.arrayContaining(['mongo-no-non-retryable-write@4', 'mongo-no-non-retryable-write@5', 'require-retry-backoff@7']));
    expect(found.filter((finding) => finding.endsWith('@11'))).toEqual([]);
  });
});

describe('batch results returned to callers in other modules', () => {
  it.each(['eslint', 'eslint9'] as const)('reports a result every caller drops, not one a caller reads, and not for callers in tests (%s)', (eslintPackage) => {
    const dir = createProject(
      {
        'package.json': '{ "name": "orders", "private": true }',
        'eslint.config.cjs': `const retrySafety = require('eslint-plugin-retry-safety');\nmodule.exports = [...retrySafety.configs.all, ${settings}];\n`,
        'src/store.js': `const AWS = require('aws-sdk');
const documents = new AWS.DynamoDB.DocumentClient();
async function saveAll(items) {
  return documents.batchWrite({ RequestItems: { orders: items.map((Item) => ({ PutRequest: { Item } })) } }).promise();
}
async function loadAll(keys) {
  return documents.batchGet({ RequestItems: { orders: { Keys: keys } } }).promise();
}
function removeAll(keys) {
  return documents.batchWrite({ RequestItems: { orders: keys.map((Key) => ({ DeleteRequest: { Key } })) } }).promise();
}
module.exports = { saveAll, loadAll, removeAll };
`,
        'src/handler.js': `const { saveAll, loadAll } = require('./store');
exports.handler = async (event) => {
  await saveAll(event.items);
  const { Responses, UnprocessedKeys } = await loadAll(event.keys);
  if (UnprocessedKeys && Object.keys(UnprocessedKeys).length > 0) throw new Error('DynamoDB left reads unprocessed');
  return Responses;
};
`,
        // Only a test drops removeAll's result: its callers in the application are unknown.
        'test/store.test.js': `const { removeAll } = require('../src/store');\nremoveAll([{ id: '1' }]);\n`,
      },
      eslintPackage,
    );
    const results = runEslint(dir, ['.']);
    expect(ruleLines(results, 'src/store.js')).toEqual(['dynamodb-require-unprocessed-items-handling@4']);
    // The message names where the result is dropped: the store itself returns it.
    expect(findingsOf(results, 'src/store.js')[0]?.message).toContain('callers that drop it (handler.js:3)');
    expect(ruleLines(results, 'src/handler.js')).toEqual([]);
  });
});

describe('a retry helper in a module of its own, handed database work by other modules', () => {
  const retryHelper = `const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
async function withRetry(fn, retries = 3) {
  try {
    return await fn();
  } catch (err) {
    if (retries === 0) throw err;
    await sleep(1000);
    return withRetry(fn, retries - 1);
  }
}
module.exports = { withRetry };
`;
  const project = (orders: string, helper = retryHelper) =>
    createProject(
      {
        'package.json': '{ "name": "shop", "private": true, "dependencies": { "pg": "8.0.0" } }',
        'eslint.config.cjs': `const retrySafety = require('eslint-plugin-retry-safety');\nmodule.exports = [...retrySafety.configs.all, ${settings}];\n`,
        'src/db.js': "const { Pool } = require('pg');\nconst pool = new Pool();\npool.on('error', (err) => console.error(err));\nmodule.exports = pool;\n",
        'src/utils/retry.js': helper,
        'src/orders.js': orders,
        // A test that hands it database work does not count.
        'test/orders.test.js': "const pool = require('../src/db');\nconst { withRetry } = require('../src/utils/retry');\nwithRetry(() => pool.query('DELETE FROM orders'));\n",
      },
      'eslint',
    );

  it('reports the helper’s retry of the calls its callers pass, where the helper is', () => {
    const dir = project(`const pool = require('./db');
const { withRetry } = require('./utils/retry');
async function addOrder(order) {
  return withRetry(() => pool.query('SELECT id FROM orders WHERE id = $1', [order.id]));
}
module.exports = { addOrder };
`);
    const results = runEslint(dir, ['src']);
    expect(ruleLines(results, 'src/utils/retry.js')).toEqual(['no-retry-on-permanent-error@5', 'require-retry-backoff@7']);
    // Nothing in retry.js shows which work is retried: the message names where it is passed in.
    expect(findingsOf(results, 'src/utils/retry.js')[1]?.message).toContain('PostgreSQL `query` (passed in at ../orders.js:4)');
    expect(findingsOf(results, 'src/utils/retry.js')[0]?.message).toContain('(passed in at ../orders.js:4)');
    expect(ruleLines(results, 'src/orders.js')).toEqual([]);
  });

  it('names where the work is passed in when the helper’s last attempt ends silently', () => {
    const silentHelper = `async function withRetry(fn, retries = 3) {
  try {
    return await fn();
  } catch (err) {
    if (retries === 0) return undefined;
    return withRetry(fn, retries - 1);
  }
}
module.exports = { withRetry };
`;
    const dir = project(
      `const pool = require('./db');
const { withRetry } = require('./utils/retry');
module.exports = {
  countOrders: () => withRetry(() => pool.query('SELECT count(*) FROM orders')),
};
`,
      silentHelper,
    );
    const results = runEslint(dir, ['src']);
    const swallowed = findingsOf(results, 'src/utils/retry.js').filter((finding) => finding.ruleId === 'retry-safety/no-swallowed-db-error');
    expect(swallowed.map((finding) => finding.message)).toEqual([
      expect.stringContaining('this retry of the PostgreSQL call `query` (passed in at ../orders.js:4) ends silently'),
    ]);
  });

  it('names every module that hands it the same work', () => {
    const dir = project(`const pool = require('./db');
const { withRetry } = require('./utils/retry');
async function addOrder(order) {
  return withRetry(() => pool.query('SELECT id FROM orders WHERE id = $1', [order.id]));
}
module.exports = { addOrder };
`);
    writeFileSync(
      path.join(dir, 'src/users.js'),
      "const pool = require('./db');\nconst { withRetry } = require('./utils/retry');\nexports.findUser = (id) => withRetry(() => pool.query('SELECT * FROM users WHERE id = $1', [id]));\n",
    );
    const results = runEslint(dir, ['src']);
    const backoff = findingsOf(results, 'src/utils/retry.js').find((finding) => finding.ruleId === 'retry-safety/require-retry-backoff');
    expect(backoff?.message).toMatch(/PostgreSQL `query` \(passed in at (\.\.\/orders\.js:4; \.\.\/users\.js:3|\.\.\/users\.js:3; \.\.\/orders\.js:4)\)/);
  });

  it('stays silent when the project hands it no database work (outside its tests)', () => {
    const dir = project(`const { withRetry } = require('./utils/retry');
async function fetchRates() {
  return withRetry(() => fetch('https://rates.example/today'));
}
module.exports = { fetchRates };
`);
    const results = runEslint(dir, ['src']);
    expect(ruleLines(results, 'src/utils/retry.js')).toEqual([]);
  });
});

describe('look-alikes in modules of their own stay silent', () => {
  it('a Prisma client, a mysql2 pool, an array-like wrapper and an S3 client', () => {
    const dir = createProject(
      {
        'package.json': '{ "type": "module" }',
        'eslint.config.js': esmConfig(false),
        'src/prisma.ts': `import { PrismaClient } from '@prisma/client';\nexport const prisma = new PrismaClient();\n`,
        'src/mysql.ts': `import mysql from 'mysql2/promise';\nexport const pool = mysql.createPool({});\n`,
        'src/list.ts': `export const orders = { items: [] as unknown[], deleteMany(filter: unknown) { void filter; this.items = []; } };\n`,
        'src/s3.ts': `import { S3Client } from '@aws-sdk/client-s3';\nexport const s3 = new S3Client({});\n`,
        'src/app.ts': `import { prisma } from './prisma.js';
import { pool } from './mysql.js';
import { orders } from './list.js';
import { s3 } from './s3.js';
import { PutObjectCommand } from '@aws-sdk/client-s3';
export async function run() {
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      await prisma.order.updateMany({ where: {}, data: { archived: true } });
      await pool.query('INSERT INTO orders VALUES (1)');
      orders.deleteMany({});
      await s3.send(new PutObjectCommand({ Bucket: 'b', Key: 'k' }));
      return;
    } catch (err) { if (attempt === 2) throw err; }
  }
}
`,
      },
      'eslint',
    );
    expect(ruleLines(runEslint(dir, ['src']), 'src/app.ts')).toEqual([]);
  });
});

describe('connection-string hosts kept in a module of their own', () => {
  it('judges a template host by the fallback another module gives it (ESM and CommonJS), and stays silent on an environment variable alone', () => {
    const dir = createProject(
      {
        'package.json': '{ "type": "module" }',
        'eslint.config.js': esmConfig(false),
        'src/config.ts': `export const DB_HOST = process.env.DB_HOST ?? 'orders.cluster-abc.us-east-1.docdb.amazonaws.com';\nexport const OTHER_HOST = process.env.OTHER_HOST;\n`,
        'src/settings.cjs': `exports.host = 'orders.cluster-abc.us-east-1.docdb.amazonaws.com';\n`,
        'src/connect.ts': `import { MongoClient } from 'mongodb';
import { DB_HOST, OTHER_HOST } from './config.js';
export const orders = new MongoClient(\`mongodb://\${DB_HOST}:27017/?tls=true&retryWrites=false\`);
export const other = new MongoClient(\`mongodb://\${OTHER_HOST}:27017/?tls=true&retryWrites=false\`);
`,
        'src/legacy.cjs': `const { MongoClient } = require('mongodb');
const { host } = require('./settings.cjs');
module.exports = new MongoClient(\`mongodb://\${host}:27017/?tls=true&retryWrites=false\`);
`,
      },
      'eslint',
    );
    const results = runEslint(dir, ['src']);
    expect(ruleLines(results, 'src/connect.ts')).toEqual(['mongo-retry-writes-connection-string@3']);
    expect(ruleLines(results, 'src/legacy.cjs')).toEqual(['mongo-retry-writes-connection-string@3']);
  });
});

describe('clients passed into exported functions and classes by other modules', () => {
  it.each([false, true])('TypeScript ES modules: a pg client and a DynamoDB document client given as parameters (typed: %s)', (typed) => {
    const dir = createProject(
      {
        'package.json': '{ "type": "module", "dependencies": { "pg": "8.0.0", "@aws-sdk/client-dynamodb": "3.0.0", "@aws-sdk/lib-dynamodb": "3.0.0" } }',
        'tsconfig.json': tsconfig,
        'eslint.config.js': esmConfig(typed),
        'src/lib/orders.ts': `export async function transfer(client: any, id: string) {
  await client.query('BEGIN');
  for (let attempt = 0; attempt < 3; attempt++) {
    try { await client.query('UPDATE accounts SET balance = balance + 1 WHERE id = $1', [id]); break; }
    catch { await new Promise((resolve) => setTimeout(resolve, Math.random() * 100 * 2 ** attempt)); }
  }
  await client.query('COMMIT');
}
export class ItemStore {
  constructor(private readonly options: { documents: any }) {}
  async saveAll(items: object[]) {
    await this.options.documents.batchWrite({ RequestItems: { items: items.map((Item) => ({ PutRequest: { Item } })) } });
  }
}
`,
        'src/app.ts': `import pg from 'pg';
import { DynamoDBDocument } from '@aws-sdk/lib-dynamodb';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { ItemStore, transfer } from './lib/orders.js';
const pool = new pg.Pool();
pool.on('error', () => {});
export const store = new ItemStore({ documents: DynamoDBDocument.from(new DynamoDBClient({})) });
export async function credit(id: string) {
  const client = await pool.connect();
  try { await transfer(client, id); } finally { client.release(); }
}
`,
      },
      'eslint',
    );
    const results = runEslint(dir, ['src']);
    expect(ruleLines(results, 'src/lib/orders.ts')).toEqual(['dynamodb-require-unprocessed-items-handling@12', 'no-retry-on-permanent-error@5', 'pg-require-whole-transaction-retry@4']);
    expect(ruleLines(results, 'src/app.ts')).toEqual([]);
  });

  it('a project that itself sits in a folder named tests still reads its callers; its own test files do not count', () => {
    const project = {
      'package.json': '{ "type": "module", "dependencies": { "@aws-sdk/client-dynamodb": "3.0.0", "@aws-sdk/lib-dynamodb": "3.0.0" } }',
      'eslint.config.js': esmConfig(false),
      'src/lib/items.ts': `export class ItemStore {
  constructor(private readonly options: { documents: any }) {}
  async saveAll(items: object[]) {
    await this.options.documents.batchWrite({ RequestItems: { items: items.map((Item) => ({ PutRequest: { Item } })) } });
  }
}
`,
      'src/app.ts': `import { DynamoDBDocument } from '@aws-sdk/lib-dynamodb';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { ItemStore } from './lib/items.js';
export const store = new ItemStore({ documents: DynamoDBDocument.from(new DynamoDBClient({})) });
`,
      // A test's stand-in does not make the parameter unknown.
      'src/lib/items.test.ts': `import { ItemStore } from './items.js';\nexport const stub = new ItemStore({ documents: { batchWrite: async () => ({}) } });\n`,
    };
    const dir = createProject(Object.fromEntries(Object.entries(project).map(([name, text]) => [`tests/app/${name}`, text])), 'eslint');
    const results = runEslint(dir, ['tests/app/src']);
    expect(ruleLines(results, 'tests/app/src/lib/items.ts')).toEqual(['dynamodb-require-unprocessed-items-handling@4']);
  });

  it('compiled TypeScript: a collection from a method of the object another module returns, passed to an exported function; a Prisma look-alike stays silent', () => {
    const dir = createProject(
      {
        'package.json': '{ "name": "migrate", "private": true, "dependencies": { "mongodb": "6.0.0", "@prisma/client": "5.0.0" } }',
        'eslint.config.cjs': `const retrySafety = require('eslint-plugin-retry-safety');\nmodule.exports = [...retrySafety.configs.all, ${settings}];\n`,
        'dist/database.js': `"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.insertMigration = exports.mongoConnect = void 0;
const mongodb_1 = require("mongodb");
const mongoConnect = async (uri, database) => {
    const client = await mongodb_1.MongoClient.connect(uri);
    const db = client.db(database);
    return { client, db, getMigrationsCollection: (name) => db.collection(name) };
};
exports.mongoConnect = mongoConnect;
const insertMigration = async (collection, migration) => {
    await collection.insertOne({ file: migration.file, timestamp: +new Date() });
};
exports.insertMigration = insertMigration;
`,
        'dist/up.js': `"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
const database_1 = require("./database");
const up = async (uri, migrations) => {
    let connection;
    try {
        connection = await (0, database_1.mongoConnect)(uri, "app");
    }
    catch (e) {
        throw new Error("cannot connect", { cause: e });
    }
    const collection = connection.getMigrationsCollection("migrations");
    for (const migration of migrations) await (0, database_1.insertMigration)(collection, migration);
};
exports.up = up;
`,
        'dist/users.js': `"use strict";
const client_1 = require("@prisma/client");
const prisma = new client_1.PrismaClient();
const repository = { users: () => prisma.user };
exports.purge = async () => { await repository.users().deleteMany({ where: { active: false } }); };
`,
      },
      'eslint',
    );
    const results = runEslint(dir, ['dist']);
    expect(ruleLines(results, 'dist/database.js')).toEqual(['mongo-require-insert-id@12']);
    expect(ruleLines(results, 'dist/up.js')).toEqual([]);
    expect(ruleLines(results, 'dist/users.js')).toEqual([]);
  });

  it('ESM: methods of an object exported as default take what other modules pass; one called through this with something else, and an object handed on whole, stay unknown', () => {
    const dir = createProject(
      {
        'package.json': '{ "name": "jobs", "private": true, "type": "module", "dependencies": { "mongodb": "6.0.0" } }',
        'eslint.config.js': `import retrySafety from 'eslint-plugin-retry-safety';\nexport default [...retrySafety.configs.all, ${settings}];\n`,
        'lib/jobs.js': `export default {
  async archive(jobs, before) {
    await jobs.deleteMany({ finishedAt: { $lt: before } });
  },
  async record(jobs, job) {
    await jobs.insertOne({ name: job.name, at: new Date() });
  },
  async sweep(store) {
    await store.deleteMany({ stale: true });
  },
  async sweepLocal() {
    await this.sweep(new Map());
  },
};
`,
        'lib/tasks.js': `export default {
  async clear(tasks) {
    await tasks.deleteMany({ done: true });
  },
};
`,
        'index.js': `import { MongoClient } from 'mongodb';
import jobs from './lib/jobs.js';
import tasks from './lib/tasks.js';
const collection = new MongoClient(process.env.MONGO_URL).db('app').collection('jobs');
export const registry = [tasks];
export async function nightly() {
  await jobs.archive(collection, new Date());
  await jobs.record(collection, { name: 'nightly' });
  await jobs.sweep(collection);
  await tasks.clear(collection);
}
`,
      },
      'eslint',
    );
    const results = runEslint(dir, ['.']);
    expect(ruleLines(results, 'lib/jobs.js')).toEqual(['mongo-no-non-retryable-write@3', 'mongo-require-insert-id@6']);
    expect(ruleLines(results, 'lib/tasks.js')).toEqual([]);
    expect(ruleLines(results, 'index.js')).toEqual([]);
  });

  it('Compiled TypeScript: methods of exports.default = { … } and of module.exports = { … } imported through __importDefault take what the importer passes', () => {
    const dir = createProject(
      {
        'package.json': '{ "name": "shop", "private": true, "dependencies": { "mongodb": "6.0.0" } }',
        'eslint.config.cjs': `const retrySafety = require('eslint-plugin-retry-safety');\nmodule.exports = [...retrySafety.configs.all, ${settings}];\n`,
        'dist/store.js': `"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.default = {
    async save(orders, order) {
        await orders.insertOne({ total: order.total });
    },
};
`,
        'dist/queue.js': `"use strict";
module.exports = {
    async purge(collection) {
        await collection.insertOne({ state: 'purged' });
    },
};
`,
        'dist/index.js': `"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) { return (mod && mod.__esModule) ? mod : { "default": mod }; };
Object.defineProperty(exports, "__esModule", { value: true });
exports.checkout = void 0;
const mongodb_1 = require("mongodb");
const store_1 = __importDefault(require("./store"));
const queue_1 = __importDefault(require("./queue"));
const orders = new mongodb_1.MongoClient(process.env.MONGO_URL).db('shop').collection('orders');
async function checkout(order) {
    await store_1.default.save(orders, order);
    await queue_1.default.purge(orders);
}
exports.checkout = checkout;
`,
      },
      'eslint',
    );
    const results = runEslint(dir, ['.']);
    expect(ruleLines(results, 'dist/store.js')).toEqual(['mongo-require-insert-id@5']);
    expect(ruleLines(results, 'dist/queue.js')).toEqual(['mongo-require-insert-id@4']);
    expect(ruleLines(results, 'dist/index.js')).toEqual([]);
  });

  it('CommonJS: functions written straight into exports take what other modules pass; one the file also calls with something else stays unknown', () => {
    const dir = createProject(
      {
        'package.json': '{ "name": "jobs", "private": true, "dependencies": { "mongodb": "6.0.0" } }',
        'eslint.config.cjs': `const retrySafety = require('eslint-plugin-retry-safety');\nmodule.exports = [...retrySafety.configs.all, ${settings}];\n`,
        'lib/jobs.js': `exports.archive = async (jobs, before) => {
  await jobs.deleteMany({ finishedAt: { $lt: before } });
};
module.exports.record = async function (jobs, job) {
  await jobs.insertOne({ name: job.name, at: new Date() });
};
exports.sweep = async (store) => {
  await store.deleteMany({ stale: true });
};
exports.sweep(new Map());
`,
        'lib/queue.js': `module.exports = {
  async enqueue(collection, name) {
    await collection.insertOne({ name, state: 'queued' });
  },
};
`,
        'index.js': `const { MongoClient } = require('mongodb');
const jobs = require('./lib/jobs');
const queue = require('./lib/queue');
const collection = new MongoClient(process.env.MONGO_URL).db('app').collection('jobs');
async function nightly() {
  await jobs.archive(collection, new Date());
  await jobs.record(collection, { name: 'nightly' });
  await jobs.sweep(collection);
  await queue.enqueue(collection, 'report');
}
module.exports = { nightly };
`,
      },
      'eslint',
    );
    const results = runEslint(dir, ['.']);
    expect(ruleLines(results, 'lib/jobs.js')).toEqual(['mongo-no-non-retryable-write@2', 'mongo-require-insert-id@5']);
    expect(ruleLines(results, 'lib/queue.js')).toEqual(['mongo-require-insert-id@3']);
    expect(ruleLines(results, 'index.js')).toEqual([]);
  });

  it('CommonJS in JavaScript: a factory module wrapping the DocumentClient, and look-alikes passed in stay silent', () => {
    const dir = createProject(
      {
        'package.json': '{ "name": "orders", "private": true, "dependencies": { "aws-sdk": "2.0.0", "mysql2": "3.0.0" } }',
        'eslint.config.cjs': `const retrySafety = require('eslint-plugin-retry-safety');\nmodule.exports = [...retrySafety.configs.all, ${settings}];\n`,
        'lib/factory.js': `const AWS = require('aws-sdk');
module.exports = exports = {
  create(options) {
    const documentClient = options.documentClient || new AWS.DynamoDB.DocumentClient();
    return { batchWrite: (params) => documentClient.batchWrite(params).promise(), get: (params) => documentClient.get(params).promise() };
  },
};
`,
        'index.js': `const factory = require('./lib/factory');
function writeAll(params, documentClient) {
  return documentClient.batchWrite(params).then(() => undefined);
}
module.exports = function (options) {
  const documentClient = factory.create(options || {});
  return { writeAll: (params) => writeAll(params, documentClient), get: (params) => documentClient.get(params) };
};
`,
        'lib/helpers.js': `function clear(db) { return db.query('DELETE FROM sessions'); }
function saveAll(client, items) { return client.batchWrite({ RequestItems: { t: items } }).promise(); }
module.exports = { clear, saveAll };
`,
        'app.js': `const mysql = require('mysql2');
const { PrismaClient } = require('@prisma/client');
const { clear, saveAll } = require('./lib/helpers');
clear(mysql.createPool({}));
saveAll(new PrismaClient(), []);
saveAll({ batchWrite() { return { promise: async () => ({}) }; } }, []);
`,
      },
      'eslint9',
    );
    const results = runEslint(dir, ['.']);
    expect(ruleLines(results, 'index.js')).toEqual(['dynamodb-require-unprocessed-items-handling@3']);
    expect(ruleLines(results, 'lib/helpers.js')).toEqual([]);
    expect(ruleLines(results, 'lib/factory.js')).toEqual([]);
  });
});

describe('collections and models handed over by helpers, in a project that depends on the driver', () => {
  const config = `const retrySafety = require('eslint-plugin-retry-safety');\nmodule.exports = [...retrySafety.configs.all, ${settings}];\n`;
  const lock = `async function getLocks(db, settings) {
  const locks = db.collection(settings.lockCollection);
  await locks.createIndex({ createdAt: 1 }, { expireAfterSeconds: settings.ttl });
  return locks;
}
async function activate(db, settings) {
  const locks = await getLocks(db, settings);
  await locks.insertOne({ createdAt: new Date() });
}
async function clear(db, settings) {
  const locks = await getLocks(db, settings);
  await locks.deleteMany({});
}
module.exports = { activate, clear };
`;
  const migrations = `const makeModel = require('./model');
let Migration;
function connect(connection) { Migration = makeModel(connection); }
async function mark(name, state) { await Migration.where({ name }).updateMany({ $set: { state } }); }
module.exports = { connect, mark };
`;
  const model = `const mongoose = require('mongoose');
module.exports = (connection) => connection.model('Migration', new mongoose.Schema({ name: String, state: String }));
`;

  it('CommonJS in JavaScript: db.collection(name) of a db passed in, a local helper returning it, a query chain on a model from a factory module', () => {
    const dir = createProject(
      {
        'package.json': JSON.stringify({ name: 'locks', dependencies: { mongodb: '^6.0.0', mongoose: '^8.0.0' } }),
        'eslint.config.cjs': config,
        'lib/lock.js': lock,
        'lib/model.js': model,
        'lib/migrations.js': migrations,
      },
      'eslint9',
    );
    const results = runEslint(dir, ['.']);
    expect(ruleLines(results, 'lib/lock.js')).toEqual(['mongo-no-non-retryable-write@12', 'mongo-require-insert-id@8']);
    expect(ruleLines(results, 'lib/migrations.js')).toEqual(['mongo-no-non-retryable-write@4']);
  });

  it('stays silent where the project also uses Firestore, whose db.collection(name) looks alike', () => {
    const dir = createProject(
      {
        'package.json': JSON.stringify({ name: 'locks', dependencies: { mongodb: '^6.0.0', 'firebase-admin': '^12.0.0' } }),
        'eslint.config.cjs': config,
        'lib/lock.js': lock,
      },
      'eslint9',
    );
    expect(ruleLines(runEslint(dir, ['.']), 'lib/lock.js')).toEqual([]);
  });
});

describe('compiled TypeScript (CommonJS output with interop helpers)', () => {
  const config = `const retrySafety = require('eslint-plugin-retry-safety');\nmodule.exports = [...retrySafety.configs.all, ${settings}];\n`;

  it('follows tslib_1.__importDefault(require("mongoose")) to a model a class keeps and hands to another module', () => {
    const dir = createProject(
      {
        'package.json': JSON.stringify({ name: 'jobs', peerDependencies: { mongoose: '>=8' } }),
        'eslint.config.cjs': config,
        'lib/schema.js': `"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
const tslib_1 = require("tslib");
const mongoose_1 = tslib_1.__importDefault(require("mongoose"));
exports.JobSchema = new mongoose_1.default.Schema({ name: String });
`,
        'lib/repository.js': `"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
class JobsRepository {
    jobModel;
    constructor(options) {
        this.jobModel = options.jobModel;
    }
    async deleteJobs(ids) {
        await this.jobModel.deleteMany({ _id: { $in: ids } });
    }
    async lockNext() {
        return this.jobModel.findOneAndUpdate({ lockedAt: null }, { lockedAt: new Date() }, { sort: { nextRunAt: 1 } }).lean();
    }
}
exports.JobsRepository = JobsRepository;
`,
        'lib/cache.js': `"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
class Cache {
    constructor(options) {
        this.entries = options.entries;
    }
    clear() {
        this.entries.deleteMany({});
    }
}
exports.Cache = Cache;
`,
        'lib/jobs.js': `"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
const tslib_1 = require("tslib");
const mongoose_1 = tslib_1.__importDefault(require("mongoose"));
const prisma_1 = tslib_1.__importDefault(require("@prisma/client"));
const repository_1 = require("./repository");
const cache_1 = require("./cache");
const schema_1 = require("./schema");
class Jobs {
    constructor(options = {}) {
        this.connection = options.connection ?? mongoose_1.default.connection;
        this.jobModel = this.connection.model("Job", schema_1.JobSchema);
        this.repository = new repository_1.JobsRepository({ jobModel: this.jobModel });
        this.cache = new cache_1.Cache({ entries: { deleteMany() { return 0; } } });
        this.prisma = new prisma_1.default.PrismaClient();
    }
    async archive() {
        await this.prisma.job.updateMany({ where: {}, data: { archived: true } });
    }
}
exports.Jobs = Jobs;
`,
      },
      'eslint9',
    );
    const results = runEslint(dir, ['.']);
    expect(ruleLines(results, 'lib/repository.js')).toEqual(['mongo-no-non-retryable-write@9', 'mongo-prefer-projection-on-find-and-modify@12']);
    expect(ruleLines(results, 'lib/cache.js')).toEqual([]);
    expect(ruleLines(results, 'lib/jobs.js')).toEqual([]);
  });
});

describe('functions another module binds to a class instance (this from elsewhere)', () => {
  const config = `const retrySafety = require('eslint-plugin-retry-safety');\nmodule.exports = [...retrySafety.configs.all, ${settings}];\n`;
  const header = `"use strict";\nObject.defineProperty(exports, "__esModule", { value: true });\n`;

  it('compiled CommonJS: this._collection written by one bound function, used by others, through a re-exporting index and f.call(this)', () => {
    const dir = createProject(
      {
        'package.json': JSON.stringify({ name: 'scheduler', dependencies: { mongodb: '^6.0.0' } }),
        'eslint.config.cjs': config,
        'dist/scheduler/index.js': `${header}const cancel_1 = require("./cancel");
const db_init_1 = require("./db-init");
const save_job_1 = require("./save-job");
class Scheduler {
    _collection;
    constructor(config = {}) {
        this._lazy = {};
        this.dbInit(config.db, config.name);
    }
    get cancel() { return this.bindMethod('cancel', cancel_1.cancel); }
    get dbInit() { return this.bindMethod('dbInit', db_init_1.dbInit); }
    get saveJob() { return this.bindMethod('saveJob', save_job_1.saveJob); }
    bindMethod(name, fn) {
        if (!this._lazy[name]) this._lazy[name] = fn.bind(this);
        return this._lazy[name];
    }
}
exports.Scheduler = Scheduler;
`,
        'dist/scheduler/db-init.js': `${header}const dbInit = function (db, name = 'jobs') {
    this._collection = db.collection(name);
};
exports.dbInit = dbInit;
`,
        'dist/scheduler/cancel.js': `${header}const cancel = async function (query) {
    const { deletedCount } = await this._collection.deleteMany(query);
    return deletedCount;
};
exports.cancel = cancel;
`,
        'dist/scheduler/save-job.js': `${header}const utils_1 = require("../utils");
const afterSave = async function (job) {
    await utils_1.processJobs.call(this, job);
};
const saveJob = async function (job) {
    const result = await this._collection.findOneAndUpdate({ _id: job.id }, { $set: job.props }, { returnDocument: 'after' });
    await afterSave.call(this, job);
    return result;
};
exports.saveJob = saveJob;
`,
        'dist/utils/index.js': `${header}const tslib_1 = require("tslib");\ntslib_1.__exportStar(require("./process-jobs"), exports);\n`,
        'dist/utils/process-jobs.js': `${header}const processJobs = async function (job) {
    const self = this;
    const locked = await self._collection.findOneAndUpdate({ _id: job.id, lockedAt: null }, { $set: { lockedAt: new Date() } }, { returnDocument: 'after' });
    return locked;
};
exports.processJobs = processJobs;
`,
        // Look-alikes: a class whose bound function gives the field an in-memory store, and a function also called plainly.
        'dist/memory/index.js': `${header}const clear_1 = require("./clear");
const init_1 = require("./init");
class MemoryQueue {
    constructor() { this.init = init_1.init.bind(this); this.clear = clear_1.clear.bind(this); }
}
exports.MemoryQueue = MemoryQueue;
`,
        'dist/memory/init.js': `${header}const init = function () {\n    this._collection = new Map();\n};\nexports.init = init;\n`,
        'dist/memory/clear.js': `${header}const clear = function () {\n    return this._collection.deleteMany({});\n};\nexports.clear = clear;\n`,
        'dist/plain.js': `${header}const cancel_1 = require("./scheduler/cancel");\nexports.cancelAll = () => cancel_1.cancel({});\n`,
      },
      'eslint9',
    );
    const results = runEslint(dir, ['.']);
    expect(ruleLines(results, 'dist/scheduler/save-job.js')).toEqual(['mongo-prefer-projection-on-find-and-modify@8']);
    expect(ruleLines(results, 'dist/utils/process-jobs.js')).toEqual(['mongo-prefer-projection-on-find-and-modify@5']);
    expect(ruleLines(results, 'dist/memory/clear.js')).toEqual([]);
    // cancel() is also called plainly (dist/plain.js): its `this` is not known to be a Scheduler.
    expect(ruleLines(results, 'dist/scheduler/cancel.js')).toEqual([]);
  });

  it('compiled CommonJS, pg and DynamoDB: this.pool and this.documents written by bound functions, used by another; in-memory look-alikes stay silent', () => {
    const dir = createProject(
      {
        'package.json': JSON.stringify({ name: 'ledger', dependencies: { pg: '^8.11.0', 'aws-sdk': '^2.1500.0' } }),
        'eslint.config.cjs': config,
        'dist/ledger/index.js': `${header}const open_1 = require("./open");
const record_1 = require("./record");
class Ledger {
    constructor(config = {}) {
        this.open = open_1.open.bind(this);
        this.record = record_1.record.bind(this);
        this.open(config);
    }
}
exports.Ledger = Ledger;
`,
        'dist/ledger/open.js': `${header}const pg_1 = require("pg");
const aws_sdk_1 = require("aws-sdk");
const open = function (config) {
    this.pool = new pg_1.Pool(config.pg);
    this.documents = new aws_sdk_1.DynamoDB.DocumentClient(config.dynamo);
};
exports.open = open;
`,
        'dist/ledger/record.js': `${header}const record = async function (entry, items) {
    try {
        await this.pool.query('INSERT INTO entries (id, amount) VALUES ($1, $2)', [entry.id, entry.amount]);
    }
    catch (err) { }
    await this.documents.batchWrite({ RequestItems: { entries: items } }).promise();
};
exports.record = record;
`,
        // Look-alike: the same shape with in-memory stores (`query('entries')` is no SQL text).
        'dist/memory/index.js': `${header}const setup_1 = require("./setup");
const add_1 = require("./add");
class MemoryLedger {
    constructor() { this.setup = setup_1.setup.bind(this); this.add = add_1.add.bind(this); }
}
exports.MemoryLedger = MemoryLedger;
`,
        'dist/memory/setup.js': `${header}const setup = function () {\n    this.pool = { query: async () => ({ rows: [] }) };\n    this.documents = { batchWrite: () => ({ promise: async () => ({}) }) };\n};\nexports.setup = setup;\n`,
        'dist/memory/add.js': `${header}const add = async function (entry, items) {
    try {
        await this.pool.query('entries', entry);
    }
    catch (err) { }
    await this.documents.batchWrite({ RequestItems: { entries: items } }).promise();
};
exports.add = add;
`,
      },
      'eslint9',
    );
    const results = runEslint(dir, ['.']);
    expect(ruleLines(results, 'dist/ledger/record.js')).toEqual(['dynamodb-require-unprocessed-items-handling@8', 'no-swallowed-db-error@7']);
    expect(ruleLines(results, 'dist/memory/add.js')).toEqual([]);
  });

  it('TypeScript ES modules: a function bound by a class whose field is annotated as a driver collection', () => {
    const dir = createProject(
      {
        'package.json': JSON.stringify({ name: 'scheduler', type: 'module', dependencies: { mongodb: '^6.0.0' } }),
        'eslint.config.js': esmConfig(false),
        'src/scheduler.ts': `import type { Collection } from 'mongodb';
import { cancel } from './cancel.js';
export class Scheduler {
  _collection!: Collection;
  cancel = cancel;
}
`,
        'src/cancel.ts': `import type { Scheduler } from './scheduler.js';
export const cancel = async function (this: Scheduler, query: object) {
  const { deletedCount } = await this._collection.deleteMany(query);
  return deletedCount;
};
`,
        'src/list.ts': `import { remove } from './remove.js';
export class List {
  _collection: { deleteMany(query: object): number } = { deleteMany: () => 0 };
  remove = remove;
}
`,
        'src/remove.ts': `import type { List } from './list.js';
export function remove(this: List, query: object) {
  return this._collection.deleteMany(query);
}
`,
      },
      'eslint',
    );
    const results = runEslint(dir, ['src']);
    expect(ruleLines(results, 'src/cancel.ts')).toEqual(['mongo-no-non-retryable-write@3']);
    expect(ruleLines(results, 'src/remove.ts')).toEqual([]);
  });
});

describe('a postgres.js sql tag kept in its own module and passed into functions of another', () => {
  it.each([false, true])('TypeScript ES modules: a retried insert through the passed tag; a tag of another library stays silent (typed: %s)', (typed) => {
    const dir = createProject(
      {
        'package.json': JSON.stringify({ name: 'shop', type: 'module', dependencies: { postgres: '^3.4.0', 'sql-template-strings': '^2.2.0' } }),
        'tsconfig.json': tsconfig,
        'eslint.config.js': esmConfig(typed),
        'src/db.ts': `import postgres from 'postgres';\nexport const sql = postgres(process.env.DATABASE_URL ?? 'postgres://localhost/shop');\n`,
        'src/orders.ts': `export async function save(sql: any, order: { id: string; total: number }) {
  for (let attempt = 0; ; attempt++) {
    try { return await sql\`insert into orders (id, total) values (\${order.id}, \${order.total})\`; } catch (err) { if (attempt >= 4) throw err; }
  }
}
export async function render(tag: any, order: { id: string }) {
  for (let attempt = 0; ; attempt++) {
    try { return await tag\`insert into orders (id) values (\${order.id})\`; } catch (err) { if (attempt >= 4) throw err; }
  }
}
`,
        'src/app.ts': `import SQL from 'sql-template-strings';
import { sql } from './db.js';
import { render, save } from './orders.js';
export const place = (order: { id: string; total: number }) => save(sql, order);
export const preview = (order: { id: string }) => render(SQL, order);
`,
      },
      'eslint',
    );
    const results = runEslint(dir, ['src']);
    expect(ruleLines(results, 'src/orders.ts')).toEqual(['no-retry-on-permanent-error@3', 'require-idempotent-retry@3', 'require-retry-backoff@2']);
    expect(ruleLines(results, 'src/app.ts')).toEqual([]);
  });
});

describe('a find-and-modify result returned to callers in other modules', () => {
  it('the projection suggested holds the fields every module reads from it', () => {
    const dir = createProject(
      {
        'package.json': JSON.stringify({ name: 'queue', dependencies: { mongodb: '^6.0.0' } }),
        'eslint.config.cjs': `const retrySafety = require('eslint-plugin-retry-safety');\nmodule.exports = [...retrySafety.configs.all];\n`,
        'lib/jobs.js': `const { MongoClient } = require('mongodb');
const jobs = new MongoClient('mongodb://localhost').db('queue').collection('jobs');
async function claim() {
  return jobs.findOneAndUpdate({ state: 'ready' }, { $set: { state: 'running' } }, { returnDocument: 'after' });
}
async function release(id) {
  const job = await jobs.findOneAndUpdate({ _id: id }, { $set: { state: 'ready' } }, { includeResultMetadata: true });
  return job;
}
module.exports = { claim, release };
`,
        'lib/worker.js': `const { claim, release } = require('./jobs');
async function work() {
  const job = await claim();
  if (job) console.info(job.name, job.attempts);
  const released = await release(job._id);
  return released.ok ? released.value.owner : undefined;
}
module.exports = { work };
`,
      },
      'eslint9',
    );
    const findings = findingsOf(runEslint(dir, ['lib']), 'lib/jobs.js').filter((message) => message.ruleId === 'retry-safety/mongo-prefer-projection-on-find-and-modify');
    expect(findings.map((message) => [message.line, message.suggestions?.map((suggestion) => suggestion.desc)])).toEqual([
      [4, ['Add `projection: { name: 1, attempts: 1, _id: 1 }` (the fields this code reads from the result).']],
      [7, ['Add `projection: { owner: 1 }` (the fields this code reads from the result).']],
    ]);
  });
});
