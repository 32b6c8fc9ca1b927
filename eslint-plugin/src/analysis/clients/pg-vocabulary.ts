import { CALL, CONSTRUCT, type TraceMap } from '../modules';
import type { CallbackParameter, DbVocabulary } from './db-vocabulary';
import type { DbValue, PgRole } from './db-value';

/** PostgreSQL's vocabulary for the value analysis: node-postgres (`pg`, `pg-pool`) and postgres.js (`postgres`). */

export const POSTGRES_MODULES = ['pg', 'pg-pool', 'postgres'] as const;

const pg = (role: PgRole): DbValue => ({ database: 'postgres', role, library: 'pg' });
const postgresJs = (role: PgRole): DbValue => ({ database: 'postgres', role, library: 'postgres' });

const pgTypes = { Pool: pg('pool'), PoolClient: pg('client'), Client: pg('client'), ClientBase: pg('client') };
const postgresTypes = { Sql: postgresJs('sql'), TransactionSql: postgresJs('sql-connection'), ReservedSql: postgresJs('sql-connection') };

/** `sql.begin([options,] async (sql) => …)`, `sql.savepoint(…)`: the callback's `sql` is a transaction, a connection of its own. */
const transaction: CallbackParameter = { argument: 'last', parameter: 0, value: postgresJs('sql-connection') };
const transactionCallbacks = { begin: transaction, savepoint: transaction };
/** `pool.on('error', …)` returns the pool. */
const emitter = (value: DbValue): Record<string, DbValue> => ({ on: value, once: value });

export const POSTGRES_VOCABULARY: DbVocabulary = {
  modules: POSTGRES_MODULES,
  seeds: {
    pg: {
      Pool: { [CONSTRUCT]: pg('pool') },
      Client: { [CONSTRUCT]: pg('client') },
      native: { Pool: { [CONSTRUCT]: pg('pool') }, Client: { [CONSTRUCT]: pg('client') } },
    },
    'pg-pool': { [CONSTRUCT]: pg('pool') },
    postgres: { [CALL]: postgresJs('sql') },
  } as unknown as TraceMap<DbValue>,
  typeNames: { pg: pgTypes, 'pg-pool': { '': pg('pool') }, postgres: postgresTypes },
  declaredTypes: { pg: pgTypes, 'pg-pool': { Pool: pg('pool') }, postgres: postgresTypes },
  methodResults: {
    // `await pool.connect()`: a client of the pool (values do not tell a value from its promise).
    'postgres:pg:pool': { connect: pg('client'), ...emitter(pg('pool')) },
    'postgres:pg:client': emitter(pg('client')),
    // `await sql.reserve()`: a connection of its own.
    'postgres:postgres:sql': { reserve: postgresJs('sql-connection') },
  },
  propertyResults: {},
  anyPropertyResults: {},
  callbackParameters: {
    // `pool.connect((err, client, done) => …)`.
    'postgres:pg:pool': { connect: { argument: 'first', parameter: 1, value: pg('client') } },
    'postgres:postgres:sql': transactionCallbacks,
    'postgres:postgres:sql-connection': transactionCallbacks,
  },
  connectionMethods: { 'postgres:pg:pool': ['connect'], 'postgres:postgres:sql': ['reserve'] },
};
