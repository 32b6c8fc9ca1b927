import { describe, expect, it } from 'vitest';
import { findPgConnections, findPgPools, findPostgresCalls, getPostgresReportNode } from '../../../../eslint-plugin/src/analysis/clients/pg-calls';
import { analyse, textOf } from '../../harness';

function calls(code: string, sourceType: 'module' | 'commonjs' = 'module') {
  return analyse(code, findPostgresCalls, { sourceType }).map((call) => ({
    text: textOf(code, call.node),
    operation: call.operation,
    receiver: call.receiver,
    kind: call.statement?.kind,
    isWrite: call.isWrite,
    connection: call.connection && textOf(code, call.connection),
  }));
}

describe('findPostgresCalls: pg', () => {
  it('finds pool.query, pool.connect and the awaited client with its statements', () => {
    const code = `
      import { Pool } from 'pg';
      const pool = new Pool({ connectionString: process.env.DATABASE_URL });
      export async function pay(id) {
        await pool.query('SELECT 1');
        const client = await pool.connect();
        try {
          await client.query('BEGIN');
          await client.query('UPDATE orders SET paid = true WHERE id = $1', [id]);
          await client.query('COMMIT');
        } finally {
          client.release();
        }
      }`;
    expect(calls(code)).toEqual([
      { text: "pool.query('SELECT 1')", operation: 'query', receiver: 'pool', kind: 'read', isWrite: false, connection: undefined },
      { text: 'pool.connect()', operation: 'connect', receiver: 'pool', kind: undefined, isWrite: false, connection: undefined },
      { text: "client.query('BEGIN')", operation: 'query', receiver: 'client', kind: 'begin', isWrite: false, connection: 'await pool.connect()' },
      {
        text: "client.query('UPDATE orders SET paid = true WHERE id = $1', [id])",
        operation: 'query',
        receiver: 'client',
        kind: 'write',
        isWrite: true,
        connection: 'await pool.connect()',
      },
      { text: "client.query('COMMIT')", operation: 'query', receiver: 'client', kind: 'commit', isWrite: false, connection: 'await pool.connect()' },
    ]);
    const connections = analyse(code, findPgConnections);
    expect(connections.map((connection) => connection.releaseCalls.map((call) => textOf(code, call)))).toEqual([['client.release()']]);
  });

  it('follows require, the default export, pg-pool, new Client and the connect callback', () => {
    const code = `
      const pg = require('pg');
      const PgPool = require('pg-pool');
      const pool = new pg.Pool();
      const other = new PgPool({ max: 5 });
      const single = new pg.Client();
      single.connect();
      single.query({ text: 'INSERT INTO t VALUES ($1)', values: [1] });
      pool.connect((err, client, done) => {
        client.query('DELETE FROM t', () => done());
      });
      other.query('select now()');`;
    expect(calls(code, 'commonjs').map((call) => [call.text.split('(')[0], call.operation, call.receiver, call.kind, call.connection])).toEqual([
      ['single.connect', 'connect', 'client', undefined, 'new pg.Client()'],
      ['single.query', 'query', 'client', 'write', 'new pg.Client()'],
      ['pool.connect', 'connect', 'pool', undefined, undefined],
      ['client.query', 'query', 'client', 'write', 'client'],
      ['other.query', 'query', 'pool', 'read', undefined],
    ]);
  });

  it('finds calls on values typed Pool / PoolClient and on this.pool', () => {
    const code = `
      import pg, { type PoolClient } from 'pg';
      export class Orders {
        private readonly pool = new pg.Pool();
        async insert(client: PoolClient) {
          await client.query('INSERT INTO t VALUES (1)');
          return this.pool.query('SELECT 1');
        }
      }
      export function count(pool: pg.Pool) { return pool.query('SELECT count(*) FROM t'); }`;
    expect(calls(code).map((call) => [call.text, call.receiver])).toEqual([
      ["client.query('INSERT INTO t VALUES (1)')", 'client'],
      ["this.pool.query('SELECT 1')", 'pool'],
      ["pool.query('SELECT count(*) FROM t')", 'pool'],
    ]);
  });

  it('follows pool.connect().then(client => …)', () => {
    const code = `
      import { Pool } from 'pg';
      const pool = new Pool();
      pool.connect().then((client) => client.query('BEGIN'));`;
    expect(calls(code).map((call) => [call.text, call.kind])).toEqual([
      ['pool.connect()', undefined],
      ["client.query('BEGIN')", 'begin'],
    ]);
  });
});

describe('findPostgresCalls: postgres.js', () => {
  it('finds tagged templates, unsafe, begin with its transaction sql, but not fragments or helpers', () => {
    const code = `
      import postgres from 'postgres';
      const sql = postgres(process.env.DATABASE_URL, { max: 10 });
      export async function f(user, where) {
        await sql\`select * from users where \${sql\`id = \${user.id}\`}\`;
        await sql\`insert into users \${sql(user, 'name')}\`;
        await sql.unsafe('truncate audit');
        await sql.begin(async (tx) => {
          await tx\`update accounts set balance = balance - 1\`;
          await tx\`select 1\`;
        });
        await sql.begin('read write', async (sql) => sql\`select 2\`);
      }`;
    expect(calls(code).map((call) => [call.text.slice(0, 30), call.operation, call.receiver, call.kind, call.isWrite])).toEqual([
      ['sql`select * from users where ', 'query', 'sql', 'read', false],
      ["sql`insert into users ${sql(us", 'query', 'sql', 'write', true],
      ["sql.unsafe('truncate audit')", 'unsafe', 'sql', 'write', true],
      ['sql.begin(async (tx) => {\n    ', 'begin', 'sql', undefined, true],
      ['tx`update accounts set balance', 'query', 'client', 'write', true],
      ['tx`select 1`', 'query', 'client', 'read', false],
      ["sql.begin('read write', async ", 'begin', 'sql', undefined, false],
      ['sql`select 2`', 'query', 'client', 'read', false],
    ]);
  });

  it('works with require', () => {
    const code = `
      const postgres = require('postgres');
      const sql = postgres();
      sql\`delete from t\`.then(() => {});`;
    expect(calls(code, 'commonjs').map((call) => [call.operation, call.kind])).toEqual([['query', 'write']]);
  });
});

describe('findPostgresCalls: look-alikes stay out', () => {
  it('ignores mysql2, Prisma, knex and local objects with query methods', () => {
    const code = `
      import mysql from 'mysql2/promise';
      import { PrismaClient } from '@prisma/client';
      const conn = await mysql.createPool({});
      await conn.query('INSERT INTO t VALUES (1)');
      const prisma = new PrismaClient();
      await prisma.$queryRaw\`SELECT 1\`;
      const db = { query(text) { return text; } };
      db.query('BEGIN');
      const sql = (strings) => strings;
      sql\`select 1\`;`;
    expect(calls(code)).toEqual([]);
  });

  it('ignores a Pool class that is not from pg', () => {
    const code = `
      import { Pool } from 'generic-pool';
      import 'pg';
      const pool = new Pool();
      pool.query('SELECT 1');`;
    expect(calls(code)).toEqual([]);
  });
});

describe('findPgPools', () => {
  it('reports pools with their binding and references', () => {
    const code = `
      import { Pool } from 'pg';
      import PgPool from 'pg-pool';
      export const pool = new Pool({ max: 10 });
      pool.on('error', () => {});
      class Db { constructor() { this.pool = new PgPool(); } close() { return this.pool.end(); } }
      makeDb(new Pool());`;
    expect(
      analyse(code, findPgPools).map((site) => ({
        text: textOf(code, site.node),
        library: site.library,
        config: site.config && textOf(code, site.config),
        binding: site.binding && `${site.binding.kind}:${site.binding.name}`,
        references: site.references.map((node) => textOf(code, node)),
      })),
    ).toEqual([
      { text: 'new Pool({ max: 10 })', library: 'pg', config: '{ max: 10 }', binding: 'variable:pool', references: ['new Pool({ max: 10 })', 'pool'] },
      { text: 'new PgPool()', library: 'pg-pool', config: undefined, binding: 'member:pool', references: ['new PgPool()', 'this.pool'] },
      { text: 'new Pool()', library: 'pg', config: undefined, binding: undefined, references: ['new Pool()'] },
    ]);
  });
});

describe('findPostgresCalls with types', () => {
  it('recognises a pool, its clients and a postgres.js sql imported from another module', () => {
    const code = `
      import { pool, sql } from './db.js';
      import type { PoolClient } from 'pg';
      export async function run(getClient: () => Promise<PoolClient>) {
        await pool.query('SELECT 1');
        const client = await getClient();
        await client.query('BEGIN');
        await client.query('INSERT INTO t VALUES (1)');
        await sql\`delete from t\`;
        const local = { query: (text: string) => text };
        local.query('BEGIN');
      }`;
    const found = analyse(code, findPostgresCalls, { typed: 'db' });
    expect(found.map((call) => [textOf(code, call.node), call.receiver, call.statement?.kind, call.connection && textOf(code, call.connection)])).toEqual([
      ["pool.query('SELECT 1')", 'pool', 'read', undefined],
      ["client.query('BEGIN')", 'client', 'begin', 'client'],
      ["client.query('INSERT INTO t VALUES (1)')", 'client', 'write', 'client'],
      ['sql`delete from t`', 'sql', 'write', undefined],
    ]);
  });
});

describe('types of the project that extend a driver class', () => {
  it('a parameter typed as a class of the project that extends Pool is a pool', () => {
    const code = `
      import { Pool } from 'pg';
      class OrdersPool extends Pool {}
      interface Jobs { query(text: string): Promise<unknown> }
      export async function run(pool: OrdersPool, jobs: Jobs) {
        await pool.query('DELETE FROM orders');
        await jobs.query('DELETE FROM jobs');
      }`;
    const found = analyse(code, findPostgresCalls, { typed: 'db' });
    expect(found.map((call) => textOf(code, call.node))).toEqual(["pool.query('DELETE FROM orders')"]);
  });
});

describe('the module index checked by types', () => {
  it('a value the module index calls a pool, typed as something else, is not one', () => {
    const code = `
      import { cache, pool } from './db.js';
      export async function run() {
        await cache.query('DELETE FROM t');
        await pool.query('SELECT 1');
      }`;
    const found = analyse(code, findPostgresCalls, { typed: 'db' });
    expect(found.map((call) => textOf(code, call.node))).toEqual(["pool.query('SELECT 1')"]);
  });
});

describe('getPostgresReportNode', () => {
  it('points at the method name of a call and at the tag of a tagged template', () => {
    const code = `
      import { Pool } from 'pg';
      import postgres from 'postgres';
      const pool = new Pool();
      const sql = postgres();
      export async function run() {
        await pool.query('INSERT INTO t VALUES (1)');
        const client = await pool.connect();
        await client
          .query('BEGIN');
        await sql\`delete from t\`;
        await sql.begin(async (tx) => tx\`select 1\`);
      }`;
    const found = analyse(code, (context) =>
      findPostgresCalls(context).map((call) => {
        const node = getPostgresReportNode(call);
        return `${textOf(code, node)}@${node.loc.start.line}`;
      }),
    );
    expect(found).toEqual(['query@7', 'connect@8', 'query@10', 'sql@11', 'begin@12', 'tx@12']);
  });
});

describe('SQL text as evidence, in a project whose only SQL driver is PostgreSQL', () => {
  const code = `export async function save(db, order, text) {
  await db.query('INSERT INTO orders (id) VALUES ($1)', [order.id]);
  await db.query(\`UPDATE orders SET total = $1\`, [order.total]);
  await db.query(text);
  await cache.query({ key: order.id });
}`;
  const calls = (manifest: object): string[] =>
    analyse(code, (context) => findPostgresCalls(context).map((call) => `${call.database} ${textOf(code, call.node).slice(0, 20)}`), {
      modules: { 'package.json': JSON.stringify(manifest) },
      language: 'javascript',
    });

  it('reads query() calls with SQL text as PostgreSQL calls when the nearest package.json depends on pg', () => {
    expect(calls({ dependencies: { pg: '^8.0.0', express: '^5' } })).toEqual(['postgres db.query(\'INSERT INT', 'postgres db.query(`UPDATE ord']);
    expect(calls({ devDependencies: { postgres: '^3.4.0' } })).toHaveLength(2);
  });

  it('stays silent on receivers the file shows to be something else', () => {
    const others = `import knex from 'knex';
const local = { query: (text) => text };
class Store { query(text) { return text; } }
export function run(list) {
  local.query('DELETE FROM t');
  knex.query('DELETE FROM t');
  Store.query('DELETE FROM t');
  new Store().query('DELETE FROM t');
}`;
    const found = analyse(others, findPostgresCalls, { modules: { 'package.json': JSON.stringify({ dependencies: { pg: '^8' } }) }, language: 'javascript' });
    expect(found).toEqual([]);
  });

  it('takes only SQL keywords for SQL text: a store queried by a name is not PostgreSQL', () => {
    const store = `export async function load(store, db, id) {
  await store.query('entries', id);
  await store.query('orders by date');
  await db.query('CALL refresh_totals($1)', [id]);
  await db.query('SELECT 1');
}`;
    const found = analyse(store, (context) => findPostgresCalls(context).map((call) => textOf(store, call.node).slice(0, 20)), {
      modules: { 'package.json': JSON.stringify({ dependencies: { pg: '^8' } }) },
      language: 'javascript',
    });
    expect(found).toEqual(["db.query('CALL refre", "db.query('SELECT 1')"]);
  });

  it('stays silent when the project also has another SQL package, or none', () => {
    expect(calls({ dependencies: { pg: '^8', mysql2: '^3' } })).toEqual([]);
    expect(calls({ dependencies: { pg: '^8', sequelize: '^6' } })).toEqual([]);
    expect(calls({ dependencies: { mysql2: '^3' } })).toEqual([]);
    expect(calls({ dependencies: {} })).toEqual([]);
  });
});
