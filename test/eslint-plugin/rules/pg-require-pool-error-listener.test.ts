import rule from '../../../eslint-plugin/src/rules/pg-require-pool-error-listener';
import type { InvalidTestCase } from '@typescript-eslint/rule-tester';
import { commonJsWithEspree, createRuleTester } from '../rule-tester';

const ruleTester = createRuleTester();

/** A CommonJS file (ESLint's own parser) whose pool at `line` gets the listener suggestion that turns `code` into `output`. */
function commonJsPoolCase(line: number, code: string, output: string): InvalidTestCase<'missingErrorListener' | 'addErrorListener', []> {
  return {
    code,
    filename: 'db.js',
    languageOptions: commonJsWithEspree,
    errors: [{ messageId: 'missingErrorListener', line, suggestions: [{ messageId: 'addErrorListener', data: { name: 'pool' }, output }] }],
  };
}

/** The listener the suggestion adds after `const pool = new Pool();` in a JavaScript file. */
const poolListenerJs = `pool.on('error', (err) => {
  console.error('Unexpected error on an idle PostgreSQL client', err);
});`;



/** A pool made for a class of the file that keeps it in a field; `extra` goes in that class, `outside` in the class that makes the pool. */
const heldPool = (extra: string, outside = '') => `const Pg = require('pg');
class SharedPool {
  constructor(pool) {
    this.pool = pool;
  }
  async use(body) {
    const conn = await this.pool.connect();
    try { return await body(conn); } finally { conn.release(); }
  }
  get idleCount() { return this.pool.idleCount; }
${extra}
}
class OwnPool {
  constructor(config) {
    this.underlying = new SharedPool(new Pg.Pool(config));
    this.underlying.pool.on('connect', (conn) => conn.query('SET search_path TO app'));
${outside}
  }
  close() { return this.underlying.pool.end(); }
}
module.exports = { OwnPool };`;

/** The listener the suggestion adds after a pool stored in a function of a TypeScript file. */
const SPLIT_LISTENER = `
  pool.on('error', (err: Error) => {
    console.error('Unexpected error on an idle PostgreSQL client', err);
  });`;

/** Two pools a conditional picks between, handed to the file's `SharedPool`. */
const PICKED_POOLS = 'config.url ? new Pg.Pool({ connectionString: config.url }) : new Pg.Pool(config)';

/** The report on the picked pool `made` (at `column` of line 15), whose suggestion chains the listener onto it. */
function pickedPoolError(column: number, made: string) {
  const listened = `${made}.on('error', (err) => {\n      console.error('Unexpected error on an idle PostgreSQL client', err);\n    })`;
  return {
    messageId: 'missingErrorListener' as const,
    line: 15,
    column,
    suggestions: [
      {
        messageId: 'addErrorListener' as const,
        data: { name: 'pool' },
        output: heldPool('').replace('new SharedPool(new Pg.Pool(config));', `new SharedPool(${PICKED_POOLS.replace(made, listened)});`),
      },
    ],
  };
}

ruleTester.run('pg-require-pool-error-listener', rule, {
  valid: [
    // The class that keeps the pool listens on its field, or the code that made it does, or the field is handed on.
    heldPool("  watch() { this.pool.on('error', (err) => console.error(err)); }"),
    heldPool('', "    this.underlying.pool.once('error', (err) => console.error(err));"),
    heldPool('  get pool2() { return this.pool; }'),
    heldPool('  share(registry) { registry.add(this.pool); }'),
    heldPool('', '    const shared = this.underlying.pool;\n    register(shared);'),
    // A class whose constructor does more with the pool than keep it.
    `const { Pool } = require('pg');
class Holder { constructor(pool) { this.pool = pool; attach(pool); } }
module.exports = new Holder(new Pool());`,
    // A pool with a listener.
    `import { Pool } from 'pg';
const pool = new Pool({ connectionString: process.env.DATABASE_URL });
pool.on('error', (err) => console.error('idle client error', err));`,
    // once / addListener, a chained listener, CommonJS.
    `const { Pool } = require('pg');
const pool = new Pool();
pool.once("error", onError);`,
    `const pg = require('pg');
const pool = new pg.Pool().on('error', (err) => logger.error(err));`,
    `import Pool from 'pg-pool';
const pool = new Pool();
pool.addListener('error', report);`,
    // Exported pool whose listener is attached in the same file.
    `import pg from 'pg';
export const pool = new pg.Pool();
pool.on('error', (err) => { console.error(err); });`,
    // A class field whose listener is attached in the constructor.
    `import { Pool } from 'pg';
export class Db {
  private readonly pool = new Pool();
  constructor() { this.pool.on('error', (err) => this.log(err)); }
  log(err: Error) { console.error(err); }
}`,
    // The event name is not known statically: it may be 'error'.
    `import { Pool } from 'pg';
const pool = new Pool();
for (const event of EVENTS) pool.on(event, log);`,
    // The pool is handed to code that may attach the listener, or returned by a factory.
    `import { Pool } from 'pg';
const pool = new Pool();
attachErrorHandlers(pool);`,
    `import { Pool } from 'pg';
export const db = new Kysely({ dialect: new PostgresDialect({ pool: new Pool() }) });`,
    // The same through a conditional or a default: the pool goes where the whole expression goes.
    `import { Pool } from 'pg';
import { DatabaseCore } from './database-core';
export class Store {
  constructor(config) {
    this.core = new DatabaseCore(typeof config.connection === 'string' ? new Pool({ connectionString: config.connection }) : new Pool(config.connection));
  }
}`,
    `import { Pool } from 'pg';
export const db = createDb({ pool: options.pool ?? new Pool(options.config) });`,
    // A conditional picks the pool kept in the variable that gets the listener.
    `import { Pool } from 'pg';
export const pool = url ? new Pool({ connectionString: url }) : new Pool();
pool.on('error', (err) => console.error(err));`,
    `import { Pool } from 'pg';
const pool = new Pool();
const options = { pool, schema: 'app' };
export const store = createStore(options);`,
    `import { Pool } from 'pg';
export function createPool(config) { const pool = new Pool(config); return pool; }`,
    `import { Pool } from 'pg';
export const createPool = (config) => new Pool(config);`,
    // CommonJS: a pool made anew by each call of a factory is its caller's.
    {
      code: `const { Pool } = require('pg');
function makePool(config) { const pool = new Pool(config); return pool; }
module.exports = { makePool };`,
      languageOptions: commonJsWithEspree,
    },
    // Not a pg Pool: generic-pool, mysql2, a local class, Prisma.
    `import { Pool } from 'generic-pool';
const pool = new Pool();`,
    `import mysql from 'mysql2';
const pool = mysql.createPool({});`,
    `class Pool {}
const pool = new Pool();`,
    `import { PrismaClient } from '@prisma/client';
const prisma = new PrismaClient();`,
    // A pg Client is not a Pool (out of scope).
    `import { Client } from 'pg';
const client = new Client();`,
  ],
  invalid: [
    {
      // A class of the file keeps the pool that a conditional picks: nothing listens for 'error' on either.
      filename: 'pools.js',
      code: heldPool('').replace('new SharedPool(new Pg.Pool(config));', `new SharedPool(${PICKED_POOLS});`),
      errors: [
        pickedPoolError(51, 'new Pg.Pool({ connectionString: config.url })'),
        pickedPoolError(99, 'new Pg.Pool(config)'),
      ],
    },
    {
      // Either pool a conditional picks is kept in the variable: one listener there serves both, so one report.
      code: `import { Pool } from 'pg';
export const pool = url ? new Pool({ connectionString: url }) : new Pool();`,
      errors: [27].map((column) => ({
        messageId: 'missingErrorListener' as const,
        line: 2,
        column,
        suggestions: [
          {
            messageId: 'addErrorListener' as const,
            data: { name: 'pool' },
            output: `import { Pool } from 'pg';
export const pool = url ? new Pool({ connectionString: url }) : new Pool();
pool.on('error', (err: Error) => {
  console.error('Unexpected error on an idle PostgreSQL client', err);
});`,
          },
        ],
      })),
    },
    {
      // Two statements each store a new pool in one variable: each needs its listener, each is reported.
      code: `import { Pool } from 'pg';
let pool;
export function usePrimary() {
  pool = new Pool({ host: 'a' });
}
export function useReplica() {
  pool = new Pool({ host: 'b' });
}
export const query = (text) => pool.query(text);`,
      errors: ['Primary', 'Replica'].map((which, index) => ({
        messageId: 'missingErrorListener' as const,
        line: 4 + 3 * index,
        suggestions: [
          {
            messageId: 'addErrorListener' as const,
            data: { name: 'pool' },
            output: `import { Pool } from 'pg';
let pool;
export function usePrimary() {
  pool = new Pool({ host: 'a' });${which === 'Primary' ? SPLIT_LISTENER : ''}
}
export function useReplica() {
  pool = new Pool({ host: 'b' });${which === 'Replica' ? SPLIT_LISTENER : ''}
}
export const query = (text) => pool.query(text);`,
          },
        ],
      })),
    },
    // CommonJS with ESLint's own parser: the module's own pool, handed out by a getter (the file's top scope is a function scope there).
    commonJsPoolCase(
      2,
      `const { Pool } = require('pg');
const pool = new Pool();
function getPool() { return pool; }
module.exports = { getPool };`,
      `const { Pool } = require('pg');
const pool = new Pool();
${poolListenerJs}
function getPool() { return pool; }
module.exports = { getPool };`,
    ),
    // A lazy singleton that starts as null.
    commonJsPoolCase(
      5,
      `const { Pool } = require('pg');
let pool = null;
function getPool() {
  if (!pool) {
    pool = new Pool();
  }
  return pool;
}
module.exports = { getPool };`,
      `const { Pool } = require('pg');
let pool = null;
function getPool() {
  if (!pool) {
    pool = new Pool();
    pool.on('error', (err) => {
      console.error('Unexpected error on an idle PostgreSQL client', err);
    });
  }
  return pool;
}
module.exports = { getPool };`,
    ),
    {
      // The pool goes into a class of the file that keeps it in a field: nothing listens for 'error' on it.
      filename: 'pools.js',
      code: heldPool(''),
      errors: [
        {
          messageId: 'missingErrorListener',
          line: 15,
          suggestions: [
            {
              messageId: 'addErrorListener',
              data: { name: 'pool' },
              output: heldPool('').replace(
                'new SharedPool(new Pg.Pool(config));',
                "new SharedPool(new Pg.Pool(config).on('error', (err) => {\n      console.error('Unexpected error on an idle PostgreSQL client', err);\n    }));",
              ),
            },
          ],
        },
      ],
    },
    {
      // TypeScript: a parameter property keeps it.
      code: `import { Pool } from 'pg';
class Store {
  constructor(private readonly pool: Pool) {}
  rows() { return this.pool.query('SELECT 1'); }
}
export const store = new Store(new Pool());`,
      errors: [{ messageId: 'missingErrorListener', line: 6, suggestions: [{ messageId: 'addErrorListener', data: { name: 'pool' }, output: `import { Pool } from 'pg';
class Store {
  constructor(private readonly pool: Pool) {}
  rows() { return this.pool.query('SELECT 1'); }
}
export const store = new Store(new Pool().on('error', (err: Error) => {
  console.error('Unexpected error on an idle PostgreSQL client', err);
}));` }] }],
    },
    {
      // JavaScript: the listener's parameter gets no type.
      filename: 'db.js',
      code: `const { Pool } = require('pg');
const pool = new Pool();
module.exports = { query: (text) => pool.query(text) };`,
      errors: [
        {
          messageId: 'missingErrorListener',
          suggestions: [
            {
              messageId: 'addErrorListener',
              data: { name: 'pool' },
              output: `const { Pool } = require('pg');
const pool = new Pool();
${poolListenerJs}
module.exports = { query: (text) => pool.query(text) };`,
            },
          ],
        },
      ],
    },
    {
      code: `import { Pool } from 'pg';
const pool = new Pool({ connectionString: process.env.DATABASE_URL });
export async function getOrder(id) {
  return pool.query('SELECT * FROM orders WHERE id = $1', [id]);
}`,
      errors: [
        {
          messageId: 'missingErrorListener',
          data: { name: 'pool' },
          line: 2,
          column: 14,
          endLine: 2,
          endColumn: 70,
          suggestions: [
            {
              messageId: 'addErrorListener',
              data: { name: 'pool' },
              output: `import { Pool } from 'pg';
const pool = new Pool({ connectionString: process.env.DATABASE_URL });
pool.on('error', (err: Error) => {
  console.error('Unexpected error on an idle PostgreSQL client', err);
});
export async function getOrder(id) {
  return pool.query('SELECT * FROM orders WHERE id = $1', [id]);
}`,
            },
          ],
        },
      ],
    },
    {
      // Exported, CommonJS, a listener for another event only.
      code: `const pg = require('pg');
const pool = new pg.Pool();
pool.on('connect', (client) => client.query('SET search_path TO app'));
module.exports = pool;`,
      errors: [
        {
          messageId: 'missingErrorListener',
          data: { name: 'pool' },
          line: 2,
          column: 14,
          endLine: 2,
          endColumn: 27,
          suggestions: [
            {
              messageId: 'addErrorListener',
              output: `const pg = require('pg');
const pool = new pg.Pool();
pool.on('error', (err: Error) => {
  console.error('Unexpected error on an idle PostgreSQL client', err);
});
pool.on('connect', (client) => client.query('SET search_path TO app'));
module.exports = pool;`,
            },
          ],
        },
      ],
    },
    {
      // Exported inside the CommonJS exports object: still this module's pool.
      code: `const { Pool } = require('pg');
const pool = new Pool();
module.exports = { pool, query: (text, values) => pool.query(text, values) };`,
      errors: [
        {
          messageId: 'missingErrorListener',
          data: { name: 'pool' },
          line: 2,
          column: 14,
          endLine: 2,
          endColumn: 24,
          suggestions: [
            {
              messageId: 'addErrorListener',
              output: `const { Pool } = require('pg');
const pool = new Pool();
pool.on('error', (err: Error) => {
  console.error('Unexpected error on an idle PostgreSQL client', err);
});
module.exports = { pool, query: (text, values) => pool.query(text, values) };`,
            },
          ],
        },
      ],
    },
    {
      // pg-pool, exported declaration, aliased default import.
      code: `import PgPool from 'pg-pool';
export const pool = new PgPool({ max: 10 });`,
      errors: [
        {
          messageId: 'missingErrorListener',
          line: 2,
          column: 21,
          endLine: 2,
          endColumn: 44,
          suggestions: [
            {
              messageId: 'addErrorListener',
              output: `import PgPool from 'pg-pool';
export const pool = new PgPool({ max: 10 });
pool.on('error', (err: Error) => {
  console.error('Unexpected error on an idle PostgreSQL client', err);
});`,
            },
          ],
        },
      ],
    },
    {
      // this.pool assigned in a constructor: the listener goes after the assignment, indented.
      code: `import { Pool } from 'pg';
export class OrdersRepository {
  constructor(config) {
    this.pool = new Pool(config);
  }
  find(id) { return this.pool.query('SELECT 1'); }
}`,
      errors: [
        {
          messageId: 'missingErrorListener',
          data: { name: 'this.pool' },
          line: 4,
          column: 17,
          endLine: 4,
          endColumn: 33,
          suggestions: [
            {
              messageId: 'addErrorListener',
              data: { name: 'this.pool' },
              output: `import { Pool } from 'pg';
export class OrdersRepository {
  constructor(config) {
    this.pool = new Pool(config);
    this.pool.on('error', (err: Error) => {
      console.error('Unexpected error on an idle PostgreSQL client', err);
    });
  }
  find(id) { return this.pool.query('SELECT 1'); }
}`,
            },
          ],
        },
      ],
    },
    {
      // A class field: the listener is chained onto the construction (a comment inside the pool's arguments stays).
      code: `import { Pool } from 'pg';
export class Db {
  readonly #pool = new Pool({ max: 5 /* per instance */ });
}`,
      errors: [
        {
          messageId: 'missingErrorListener',
          data: { name: 'this.#pool' },
          line: 3,
          column: 20,
          endLine: 3,
          endColumn: 59,
          suggestions: [
            {
              messageId: 'addErrorListener',
              output: `import { Pool } from 'pg';
export class Db {
  readonly #pool = new Pool({ max: 5 /* per instance */ }).on('error', (err: Error) => {
    console.error('Unexpected error on an idle PostgreSQL client', err);
  });
}`,
            },
          ],
        },
      ],
    },
    {
      // Exported as the default export without a name.
      code: `import { Pool } from 'pg';
export default new Pool();`,
      errors: [
        {
          messageId: 'missingErrorListener',
          data: { name: 'new Pool()' },
          line: 2,
          column: 16,
          endLine: 2,
          endColumn: 26,
          suggestions: [
            {
              messageId: 'addErrorListener',
              data: { name: 'pool' },
              output: `import { Pool } from 'pg';
export default new Pool().on('error', (err: Error) => {
  console.error('Unexpected error on an idle PostgreSQL client', err);
});`,
            },
          ],
        },
      ],
    },
    {
      // Without parentheses no suggestion is offered (chaining would change the meaning).
      code: `import { Pool } from 'pg';
export default new Pool;`,
      errors: [{ messageId: 'missingErrorListener', line: 2, column: 16, endLine: 2, endColumn: 24, suggestions: [] }],
    },
    {
      // A lazily created module-level pool returned by a getter (as in @keyv/postgres):
      // still this module's pool; the listener is chained so it is attached once.
      code: `import pg from 'pg';
let cached;
export const getPool = (uri) => {
  cached ??= new pg.Pool({ connectionString: uri });
  return cached;
};`,
      errors: [
        {
          messageId: 'missingErrorListener',
          data: { name: 'cached' },
          line: 4,
          column: 14,
          endLine: 4,
          endColumn: 52,
          suggestions: [
            {
              messageId: 'addErrorListener',
              data: { name: 'cached' },
              output: `import pg from 'pg';
let cached;
export const getPool = (uri) => {
  cached ??= new pg.Pool({ connectionString: uri }).on('error', (err: Error) => {
    console.error('Unexpected error on an idle PostgreSQL client', err);
  });
  return cached;
};`,
            },
          ],
        },
      ],
    },
    {
      // A pool created inside a function, statements without semicolons.
      code: `import { Pool } from 'pg'
export async function main() {
  const pool = new Pool()
  await pool.query('SELECT 1')
}`,
      errors: [
        {
          messageId: 'missingErrorListener',
          line: 3,
          column: 16,
          endLine: 3,
          endColumn: 26,
          suggestions: [
            {
              messageId: 'addErrorListener',
              output: `import { Pool } from 'pg'
export async function main() {
  const pool = new Pool()
  pool.on('error', (err: Error) => {
    console.error('Unexpected error on an idle PostgreSQL client', err);
  });
  await pool.query('SELECT 1')
}`,
            },
          ],
        },
      ],
    },
  ],
});
