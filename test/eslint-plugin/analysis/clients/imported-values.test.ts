import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { findDbCalls, findImportedCallSites, getImportedValues, getModuleIndexStats } from '../../../../eslint-plugin/src/analysis/clients';
import { mayExportImports } from '../../../../eslint-plugin/src/analysis/clients/imported-values';
import type { DbValue } from '../../../../eslint-plugin/src/analysis/clients/db-value';
import { analyse, textOf, writeModules } from '../../harness';

function describeValue(value: DbValue): string {
  return `${value.database}:${'kind' in value ? value.kind : value.role}`;
}

/** `node text → database:kind` of the file's imported values; `node text → { name: database:kind }` of imported objects. */
function importedValues(code: string, modules: Record<string, string>, language: 'typescript' | 'javascript' = 'javascript'): string[] {
  return analyse(
    code,
    (context) =>
      getImportedValues(context).map((imported) => {
        if ('value' in imported) return `${textOf(code, imported.node)} → ${describeValue(imported.value)}`;
        const properties = [...imported.properties].map(([name, value]) => `${name}: ${describeValue(value)}`);
        return `${textOf(code, imported.node)} → { ${properties.join(', ')} }`;
      }),
    { modules, language, sourceType: language === 'javascript' ? 'commonjs' : 'module' },
  );
}

function dbCalls(code: string, modules: Record<string, string>, language: 'typescript' | 'javascript' = 'javascript'): string[] {
  return analyse(code, (context) => findDbCalls(context).map((call) => `${call.database} ${call.operation}`), {
    modules,
    language,
    sourceType: language === 'javascript' ? 'commonjs' : 'module',
  });
}

const MONGO_MODULE = `
const { MongoClient } = require('mongodb');
const client = new MongoClient(process.env.MONGO_URL);
const db = client.db('shop');
const orders = db.collection('orders');
async function getDb() { await client.connect(); return db; }
module.exports = { orders, getDb, client };
`;

describe('getImportedValues', () => {
  it('reads collections, dbs and clients a CommonJS module exports', () => {
    const code = `const { orders, getDb } = require('./db/mongo');
async function f() { await orders.deleteMany({}); const d = await getDb(); return d; }`;
    expect(importedValues(code, { 'db/mongo.js': MONGO_MODULE })).toEqual(['orders → mongodb:collection', 'await getDb() → mongodb:db']);
  });

  it('follows ES module named, default and namespace imports, re-exports and `.js` names of `.ts` sources', () => {
    const modules = {
      'db/client.ts': `import { MongoClient } from 'mongodb';\nexport const client = new MongoClient('mongodb://localhost');\nexport default client.db('shop');`,
      'db/index.ts': `export { client } from './client.js';\nexport { default as db } from './client.js';\nexport * from './collections.js';`,
      'db/collections.ts': `import db from './client.js';\nexport const orders = db.collection('orders');\nexport function customers() { return db.collection('customers'); }`,
    };
    const code = `import { orders, customers, client } from './db/index.js';\nimport * as store from './db';\nawait orders.insertOne({});\ncustomers().deleteMany({});\nclient.startSession();\nstore.db.collection('x');`;
    expect(importedValues(code, modules, 'typescript')).toEqual(
      expect.arrayContaining([
        'orders → mongodb:collection',
        'customers() → mongodb:collection',
        'client → mongodb:client',
        'store.db → mongodb:db',
      ]),
    );
  });

  it('finds the calls made on imported clients of every database', () => {
    const modules = {
      'db/pool.js': `const { Pool } = require('pg');\nconst pool = new Pool();\nmodule.exports = { query: (text, params) => pool.query(text, params), pool };`,
      'db/dynamo.js': `const AWS = require('aws-sdk');\nmodule.exports = new AWS.DynamoDB.DocumentClient();`,
      'models/Record.js': `const mongoose = require('mongoose');\nmodule.exports = mongoose.model('Record', new mongoose.Schema({}));`,
    };
    const code = `const db = require('./db/pool');
const { pool } = require('./db/pool');
const documents = require('./db/dynamo');
const Record = require('./lib/../models/Record');
async function f() {
  await db.query('INSERT INTO t VALUES (1)');
  await pool.query('SELECT 1');
  await documents.batchWrite({}).promise();
  await Record.updateMany({}, { archived: true });
}`;
    expect(dbCalls(code, modules)).toEqual(['postgres query', 'postgres query', 'dynamodb BatchWriteItem', 'mongodb updateMany']);
  });

  it('reads the object a module\'s factory returns, called with or without `new`, kept in a `var` or `let`', () => {
    const modules = {
      'lib/dynamodb.js': `var AWS = require('aws-sdk');
module.exports = function (configure) {
  var docClient = new AWS.DynamoDB.DocumentClient({ region: configure.region });
  let lib = { docClient: docClient, get: (table, id, done) => docClient.get({ TableName: table, Key: { id } }, done) };
  return lib;
};`,
    };
    const code = `var dynamo = require('./lib/dynamodb');
module.exports = function (configure) {
  var dynamodb = new dynamo(configure);
  let other = dynamo(configure);
  return {
    load: (ids, done) => dynamodb.docClient.batchGet({ RequestItems: { t: { Keys: ids } } }, done),
    loadAgain: (ids, done) => other.docClient.batchGet({ RequestItems: { t: { Keys: ids } } }, done),
  };
};`;
    expect(importedValues(code, modules)).toEqual(['new dynamo(configure) → { docClient: dynamodb:v2-document-client }', 'dynamo(configure) → { docClient: dynamodb:v2-document-client }']);
    expect(dbCalls(code, modules)).toEqual(['dynamodb BatchGetItem', 'dynamodb BatchGetItem']);
    // Once the variable is given something else, what it holds is not known.
    expect(dbCalls(code.replace('let other = dynamo(configure);', 'let other = dynamo(configure);\n  other = {};'), modules)).toEqual(['dynamodb BatchGetItem']);
  });

  it('does not read a module for `new` of its export when the object is used only through methods and fields', () => {
    const modules = {
      'router.js': `const { Pool } = require('pg');\nmodule.exports = class Router { constructor() { this.pool = new Pool(); } handler() { return this.pool.query('SELECT 1'); } };`,
      'factory.js': `const { Pool } = require('pg');\nmodule.exports = function Store() { return { pool: new Pool() }; };`,
    };
    const parsedFor = (code: string): number => {
      const before = getModuleIndexStats().parsed;
      analyse(code, (context) => getImportedValues(context).length, { modules, language: 'javascript', sourceType: 'commonjs' });
      return getModuleIndexStats().parsed - before;
    };
    // An instance: its methods are called, its fields written and passed on.
    expect(parsedFor(`const Router = require('./router');
const router = new Router();
router.label = 'main';
app.use(router.handler(), router.label);
app.use(new Router().handler());
process.on('exit', () => router.query('SELECT 1'));`)).toBe(0);
    // A property of the object with a database method called on it: the module is read.
    expect(parsedFor(`const Store = require('./factory');
const store = new Store();
store.pool.query('SELECT 1');`)).toBe(1);
  });

  it('knows the database calls of another module\'s functions, class methods and instances', () => {
    const modules = {
      'db.js': `const { Pool } = require('pg');\nmodule.exports = new Pool();`,
      'orders.js': `const pool = require('./db');
async function insert(o) { await pool.query('INSERT INTO orders VALUES ($1)', [o.id]); }
exports.saveOrder = async (o) => insert(o);
exports.ping = () => pool.query('SELECT 1');
exports.format = (o) => JSON.stringify(o);`,
      'decoding.js': `const { Client } = require('pg');
class Decoding {
  constructor() { this.client = new Client(); }
  async getChanges() { return this.read(); }
  async read() { const { rows } = await this.client.query('SELECT * FROM pg_logical_slot_get_changes($1, NULL, NULL)', ['s']); return rows; }
  describe() { return 'decoding'; }
}
exports.default = Decoding;
exports.shared = new Decoding();`,
    };
    const code = `const orders = require('./orders');
const { saveOrder } = require('./orders');
const decoding_1 = require('./decoding');
const client = new decoding_1.default();
async function run(o) {
  try {
    await saveOrder(o); await orders.saveOrder(o); await orders.ping(); orders.format(o);
    await client.getChanges(); client.describe(); await decoding_1.shared.getChanges();
  } catch (e) { console.error(e); }
}`;
    const options = { modules, language: 'javascript', sourceType: 'commonjs' } as const;
    const targets = analyse(
      code,
      (context) =>
        [...findImportedCallSites(context)]
          .filter(([, site]) => site.calls.length > 0)
          .map(([node, site]) => `${textOf(code, node)} → ${site.calls.map((call) => `${call.database} ${call.operation}${call.probe ? ' (probe)' : ''}`).join(', ')}`),
      options,
    );
    expect(targets.sort()).toEqual([
      'client.getChanges() → postgres query',
      'decoding_1.shared.getChanges() → postgres query',
      'orders.ping() → postgres query (probe)',
      'orders.saveOrder(o) → postgres query',
      'saveOrder(o) → postgres query',
    ]);
    // A file that catches nothing retries nothing: its calls are not looked up.
    const quiet = analyse(code.replace('} catch (e) { console.error(e); }', '} finally {}'), (context) => findImportedCallSites(context).size, options);
    expect(quiet).toBe(0);
    // Finding the calls reads no module; asking what one does reads the modules it needs.
    const parsed = analyse(
      code,
      (context) => {
        const before = getModuleIndexStats().parsed;
        const sites = findImportedCallSites(context);
        const whenFound = getModuleIndexStats().parsed - before;
        void sites.values().next().value?.calls;
        return { sites: sites.size, whenFound, whenAsked: getModuleIndexStats().parsed - before };
      },
      options,
    );
    expect(parsed).toEqual({ sites: 7, whenFound: 0, whenAsked: 2 });
  });

  it("reads TypeScript's compiled calls of imported functions, `(0, db_1.getDb)()`", () => {
    const code = `"use strict";
const mongo_1 = require("./db/mongo");
const orders_1 = require("./orders");
async function purge(o) {
  const d = await (0, mongo_1.getDb)();
  await d.collection('carts').deleteMany({});
  try { await (0, orders_1.saveOrder)(o); } catch (e) { console.error(e); }
}`;
    const modules = {
      'db/mongo.js': MONGO_MODULE,
      'db.js': `const { Pool } = require('pg');\nmodule.exports = new Pool();`,
      'orders.js': `const pool = require('./db');\nexports.saveOrder = async (o) => pool.query('INSERT INTO orders VALUES ($1)', [o.id]);`,
    };
    expect(importedValues(code, modules)).toEqual(['await (0, mongo_1.getDb)() → mongodb:db']);
    const sites = analyse(
      code,
      (context) => [...findImportedCallSites(context)].filter(([, site]) => site.calls.length > 0).map(([node, site]) => `${textOf(code, node)} → ${site.calls.map((call) => `${call.database} ${call.operation}`).join(', ')}`),
      { modules, language: 'javascript', sourceType: 'commonjs' },
    );
    expect(sites).toEqual(['(0, mongo_1.getDb)() → mongodb connect', '(0, orders_1.saveOrder)(o) → postgres query']);
  });

  it('lists no call of a module whose current summary knows of no database call, until it makes one', async () => {
    const { setOpenModuleText } = await import('../../../../eslint-plugin/src/analysis/modules');
    const dir = writeModules({ 'orders.js': `exports.saveOrder = async (o) => JSON.stringify(o);` });
    const code = `const { saveOrder } = require('./orders');
async function run(o) {
  try { await saveOrder(o); } catch (e) { console.error(e); }
}`;
    const sites = (): string[] =>
      analyse(code, (context) => [...findImportedCallSites(context)].map(([node, site]) => `${textOf(code, node)} → ${site.calls.length}`), {
        projectDir: dir,
        language: 'javascript',
        sourceType: 'commonjs',
      });
    // Not known yet: listed, and asking reads the module.
    expect(sites()).toEqual(['saveOrder(o) → 0']);
    // Now known to call no database: not even listed.
    expect(sites()).toEqual([]);
    // The module's (unsaved) text now writes: its summary no longer holds, and the call counts.
    const file = `${dir}/orders.js`;
    setOpenModuleText(file, `const { Pool } = require('pg');\nconst pool = new Pool();\nexports.saveOrder = async (o) => pool.query('INSERT INTO orders VALUES ($1)', [o.id]);`);
    try {
      expect(sites()).toEqual(['saveOrder(o) → 1']);
    } finally {
      setOpenModuleText(file, undefined);
    }
  });

  it("sees a change of a module a summary read in turn, once that module's earlier read is old", () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      const dir = writeModules({
        'db.js': `module.exports = require('./pool');`,
        'pool.js': `const { Pool } = require('pg');\nmodule.exports = new Pool();`,
      });
      const code = `const pool = require('./db');\nasync function save(o) { await pool.query('INSERT INTO orders VALUES ($1)', [o.id]); }`;
      const calls = (): string[] =>
        analyse(code, (context) => findDbCalls(context).map((call) => `${call.database} ${call.operation}`), { projectDir: dir, language: 'javascript', sourceType: 'commonjs' });
      expect(calls()).toEqual(['postgres query']);
      // Asked again at once: db.js's summary holds without reading pool.js again.
      expect(calls()).toEqual(['postgres query']);
      writeFileSync(path.join(dir, 'pool.js'), `module.exports = { query() {} };`);
      // Later than the disk is trusted: pool.js is looked at again, and db.js's summary no longer holds.
      vi.setSystemTime(Date.now() + 10_000);
      expect(calls()).toEqual([]);
    } finally {
      vi.useRealTimers();
    }
  });

  it('asks a module for its calls after its values without parsing it again', () => {
    const modules = {
      'db.js': `const { Pool } = require('pg');\nmodule.exports = new Pool();`,
      'orders.js': `const pool = require('./db');\nexports.pool = pool;\nexports.saveOrder = async (o) => pool.query('INSERT INTO orders VALUES ($1)', [o.id]);`,
    };
    const code = `const { pool, saveOrder } = require('./orders');
async function run(o) {
  await pool.query('SELECT 1');
  try { await saveOrder(o); } catch (e) { console.error(e); }
}`;
    const found = analyse(
      code,
      (context) => {
        const before = getModuleIndexStats();
        const values = getImportedValues(context).map((imported) => textOf(code, imported.node));
        const calls = [...findImportedCallSites(context)]
          .filter(([, site]) => site.calls.length > 0)
          .map(([node, site]) => `${textOf(code, node)} → ${site.calls.map((call) => `${call.database} ${call.operation}`).join(', ')}`);
        const after = getModuleIndexStats();
        return { values, calls, parsed: after.parsed - before.parsed, parsedAgain: after.parsedAgainForCalls - before.parsedAgainForCalls };
      },
      { modules, language: 'javascript', sourceType: 'commonjs' },
    );
    // orders.js once (its values, then its calls from the same parse), db.js once.
    expect(found).toEqual({ values: ['pool'], calls: ['saveOrder(o) → postgres query'], parsed: 2, parsedAgain: 0 });
  });

  it.each([
    ['an object of requires', `module.exports = { User: require('./user') };`],
    ['a shorthand property', `const User = require('./user');\nmodule.exports = {\n  User,\n};`],
    ['a named export', `exports.User = require('./user');`],
    ['module.exports.name', `const User = require('./user');\nmodule.exports.User = User;`],
    ['the whole module', `module.exports = require('./user');`],
  ])('reads a model exported again by a CommonJS barrel: %s', (_name, barrel) => {
    const modules = {
      'models/user.js': `const mongoose = require('mongoose');\nmodule.exports = mongoose.model('User', new mongoose.Schema({}));`,
      'models/index.js': barrel,
    };
    const code = barrel.includes('module.exports = require')
      ? `const User = require('./models');\nasync function run() { await User.updateMany({}, { $set: { a: 1 } }); }`
      : `const { User } = require('./models');\nasync function run() { await User.updateMany({}, { $set: { a: 1 } }); }`;
    expect(importedValues(code, modules, 'javascript')).toEqual(['User → mongodb:model']);
  });

  it('reads a client exported again by an ES module barrel (export { x }, export default x)', () => {
    const modules = {
      'db/client.ts': `import { MongoClient } from 'mongodb';\nexport const orders = new MongoClient('mongodb://h').db().collection('orders');`,
      'db/index.ts': `import { orders } from './client';\nexport { orders };`,
      'db/default.ts': `import { orders } from './client';\nexport default orders;`,
    };
    const code = `import { orders } from './db';\nimport again from './db/default';\nawait orders.deleteMany({});\nawait again.deleteMany({});`;
    expect(importedValues(code, modules, 'typescript')).toEqual(['orders → mongodb:collection', 'again → mongodb:collection']);
  });

  it('tells by text which modules may export again what they import', () => {
    expect(mayExportImports(`const { a, b: c } = require('./user');\nexports.c = c;`)).toBe(true);
    expect(mayExportImports(`import x, { a as b } from './user';\nexport { b };`)).toBe(true);
    expect(mayExportImports(`import * as ns from './user';\nexport default ns;`)).toBe(true);
    expect(mayExportImports(`import { a } from './a';\nexport {\n  // the pool, for the jobs module\n  a,\n};`)).toBe(true);
    // Exports of its own, or of a package: nothing of the project's modules passes through.
    expect(mayExportImports(`const { a, b: c } = require('./user');\nexports.b = b;`)).toBe(false);
    expect(mayExportImports(`const util = require('./util');\nfunction run() {}\nmodule.exports = { run };`)).toBe(false);
    expect(mayExportImports(`const util = require('util');\nmodule.exports = { util };`)).toBe(false);
    expect(mayExportImports(`import { a } from './a';\nconst b = a + 1;`)).toBe(false);
  });

  // 400 kB to 1 MB each: a scan that grew with the square of the length would take minutes.
  it.each([
    ['unclosed objects given to module.exports', 'module.exports = {'.repeat(40_000)],
    ['import without from', 'import '.repeat(100_000) + 'exports = 1'],
    ['a binding list without its brace', `const { ${'a, '.repeat(150_000)}`],
    ['export lists without their brace', `const x = require('./x'); export {`.repeat(20_000)],
    ['named exports on one line', 'exports.x = y; '.repeat(40_000)],
    ['export lists that never close', `import { a } from './a';\n${'export { b, '.repeat(40_000)}}`],
  ])('reads text by a linear scan: %s', (_name, text) => {
    const started = performance.now();
    expect(typeof mayExportImports(text)).toBe('boolean');
    expect(performance.now() - started).toBeLessThan(10_000);
  }, 30_000);

  it('stays silent on modules that export look-alikes (Prisma, arrays, other libraries)', () => {
    const modules = {
      'db/prisma.js': `const { PrismaClient } = require('@prisma/client');\nmodule.exports = new PrismaClient();`,
      'db/list.js': `module.exports = { orders: [], deleteMany: () => {} };`,
      'db/mysql.js': `const mysql = require('mysql2/promise');\nmodule.exports = mysql.createPool({});`,
    };
    const code = `const prisma = require('./db/prisma');
const { orders } = require('./db/list');
const pool = require('./db/mysql');
async function f() {
  await prisma.order.updateMany({ where: {}, data: {} });
  await orders.deleteMany({});
  await pool.query('INSERT INTO t VALUES (1)');
}`;
    expect(importedValues(code, modules)).toEqual([]);
    expect(dbCalls(code, modules)).toEqual([]);
  });

  it("follows a tsconfig.json's paths aliases to the project's files, not to packages", () => {
    const modules = {
      'tsconfig.json': `{\n  // comments are allowed here\n  "compilerOptions": { "baseUrl": ".", "paths": { "@/*": ["src/*"], "#db": ["src/lib/db.ts"] } }\n}`,
      'src/lib/db.ts': `import { MongoClient } from 'mongodb';\nexport const orders = new MongoClient('mongodb://h').db().collection('orders');`,
    };
    const code = `import { orders } from '@/lib/db';\nimport { orders as again } from '#db';\nimport { MongoClient } from 'mongodb';\nawait orders.deleteMany({});\nawait again.deleteMany({});\nvoid MongoClient;`;
    expect(importedValues(code, modules, 'typescript')).toEqual(['orders → mongodb:collection', 'again → mongodb:collection']);
    expect(importedValues(code, { 'src/lib/db.ts': modules['src/lib/db.ts'] }, 'typescript')).toEqual([]);
  });

  it('reads an imported module only where its value may be used as a database value', async () => {
    const { getModuleIndexStats } = await import('../../../../eslint-plugin/src/analysis/clients');
    const modules = { 'util.js': `const { MongoClient } = require('mongodb');\nexports.format = (x) => String(x);\nexports.client = new MongoClient('mongodb://h');` };
    const parsedBefore = getModuleIndexStats().parsed;
    expect(importedValues(`const util = require('./util');\nconsole.log(util.format(1));\nfoo.deleteMany({});`, modules)).toEqual([]);
    expect(getModuleIndexStats().parsed).toBe(parsedBefore);
    expect(importedValues(`const util = require('./util');\nutil.client.db().collection('x').deleteMany({});`, modules)).toEqual(['util.client → mongodb:client']);
    expect(getModuleIndexStats().parsed).toBe(parsedBefore + 1);
  });

  it('reads the editor text of an open module instead of the file', async () => {
    const { setOpenModuleText } = await import('../../../../eslint-plugin/src/analysis/modules');
    const code = `const { orders } = require('./db');\norders.deleteMany({});`;
    // On disk `db.js` exports nothing; the open document exports a collection.
    const modules = { 'db.js': 'module.exports = {};' };
    expect(dbCalls(code, modules)).toEqual([]);
    const withOpenText = analyse(
      code,
      (context) => {
        const file = (context.physicalFilename ?? context.filename).replace(/file\.js$/, 'db.js');
        setOpenModuleText(file, `const { MongoClient } = require('mongodb');\nexports.orders = new MongoClient('mongodb://h').db().collection('o');`);
        try {
          return findDbCalls(context).map((call) => call.operation);
        } finally {
          setOpenModuleText(file, undefined);
        }
      },
      { modules, language: 'javascript', sourceType: 'commonjs' },
    );
    expect(withOpenText).toEqual(['deleteMany']);
  });
});
