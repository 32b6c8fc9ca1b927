import { describe, expect, it } from 'vitest';
import { findDbCalls } from '../../../../eslint-plugin/src/analysis/clients/db-calls';
import type { PostgresCall } from '../../../../eslint-plugin/src/analysis/clients/pg-calls';
import { getOpenTransaction } from '../../../../eslint-plugin/src/analysis/clients/pg-transactions';
import { findRetryScopes } from '../../../../eslint-plugin/src/analysis/retry/retry-scopes';
import { analyse } from '../../harness';

/** For each PostgreSQL call inside the first retry scope: the transaction open around that scope. */
function openTransactions(code: string): (string | undefined)[] {
  return analyse(code, (context) => {
    const scope = findRetryScopes(context)[0];
    if (!scope) return [];
    const calls = findDbCalls(context).filter((call): call is PostgresCall => call.database === 'postgres');
    return calls
      .filter((call) => scope.attempt.range[0] <= call.node.range[0] && call.node.range[1] <= scope.attempt.range[1])
      .map((call) => {
        const open = getOpenTransaction(call, scope.node, calls);
        return open && `${open.label}@${open.node.loc.start.line}`;
      });
  });
}

const retry = (statement: string) => `
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      ${statement}
      break;
    } catch (err) {
      if (attempt === 2) throw err;
    }
  }`;

describe('getOpenTransaction', () => {
  it('finds BEGIN earlier on the same client', () => {
    expect(
      openTransactions(`import { Pool } from 'pg';
const pool = new Pool();
const client = await pool.connect();
await client.query('BEGIN');
${retry(`await client.query('INSERT INTO t VALUES (1)');`)}
await client.query('COMMIT');`),
    ).toEqual(['BEGIN@4']);
  });

  it('not after COMMIT or ROLLBACK, nor on another client or the pool', () => {
    expect(
      openTransactions(`import { Pool } from 'pg';
const pool = new Pool();
const client = await pool.connect();
await client.query('BEGIN');
await client.query('COMMIT');
${retry(`await client.query('INSERT INTO t VALUES (1)');`)}`),
    ).toEqual([undefined]);
    expect(
      openTransactions(`import { Pool } from 'pg';
const pool = new Pool();
const a = await pool.connect();
const b = await pool.connect();
await a.query('BEGIN');
${retry(`await b.query('INSERT INTO t VALUES (1)'); await pool.query('SELECT 1');`)}`),
    ).toEqual([undefined, undefined]);
  });

  it('reads BEGIN inside a multi-statement text', () => {
    expect(
      openTransactions(`import { Pool } from 'pg';
const pool = new Pool();
const client = await pool.connect();
await client.query('SET search_path TO app; BEGIN');
${retry(`await client.query('INSERT INTO t VALUES (1)');`)}`),
    ).toEqual(['BEGIN@4']);
  });

  it('finds the postgres.js transaction whose sql the call uses', () => {
    expect(
      openTransactions(`import postgres from 'postgres';
const sql = postgres();
await sql.begin(async (tx) => {
  ${retry('await tx`insert into t values (1)`; await sql`select 1`;')}
});`),
    ).toEqual(['sql.begin@3', undefined]);
  });
});
