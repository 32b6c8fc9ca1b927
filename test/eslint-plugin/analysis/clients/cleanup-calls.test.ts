import { describe, expect, it } from 'vitest';
import { isCleanupCall } from '../../../../eslint-plugin/src/analysis/clients/cleanup-calls';
import { findDbCalls } from '../../../../eslint-plugin/src/analysis/clients/db-calls';
import { analyse, textOf } from '../../harness';

/** `call text: cleanup?` for every database call of the file. */
function cleanups(code: string): string[] {
  return analyse(code, (context) => findDbCalls(context).map((call) => `${textOf(code, call.node)}: ${isCleanupCall(call)}`));
}

describe('isCleanupCall', () => {
  it('is true for closing, releasing and rolling back', () => {
    const code = `
      import { Pool } from 'pg';
      import { MongoClient } from 'mongodb';
      const pool = new Pool();
      const mongo = new MongoClient('mongodb://localhost');
      const session = mongo.startSession();
      export async function pay(id) {
        const client = await pool.connect();
        try {
          await client.query('BEGIN');
          await client.query('UPDATE orders SET paid = true WHERE id = $1', [id]);
          await client.query('COMMIT');
        } catch (err) {
          await client.query('ROLLBACK');
          await client.query(\`  abort\`);
          throw err;
        } finally {
          client.release();
        }
      }`;
    expect(cleanups(code)).toEqual([
      'pool.connect(): false',
      "client.query('BEGIN'): false",
      "client.query('UPDATE orders SET paid = true WHERE id = $1', [id]): false",
      "client.query('COMMIT'): false",
      "client.query('ROLLBACK'): true",
      'client.query(`  abort`): true',
    ]);
  });

  it('is true for a call whose operation closes or ends something', () => {
    const code = `
      import { MongoClient } from 'mongodb';
      const orders = new MongoClient('mongodb://localhost').db().collection('orders');
      await orders.insertOne({ total: 1 });`;
    const byOperation = analyse(code, (context) => {
      const [insert] = findDbCalls(context);
      if (!insert) throw new Error('no call');
      return ['close', 'end', 'release', 'disconnect', 'destroy', 'abortTransaction', 'endSession', 'insertOne', 'commitTransaction'].map(
        (operation) => `${operation}: ${isCleanupCall({ ...insert, operation })}`,
      );
    });
    expect(byOperation).toEqual([
      'close: true',
      'end: true',
      'release: true',
      'disconnect: true',
      'destroy: true',
      'abortTransaction: true',
      'endSession: true',
      'insertOne: false',
      'commitTransaction: false',
    ]);
  });

  it('is false for writes and reads, SQL that only mentions a rollback, and a ROLLBACK built at run time', () => {
    const code = `
      import { Pool } from 'pg';
      const pool = new Pool();
      await pool.query("INSERT INTO audit (event) VALUES ('ROLLBACK')");
      await pool.query(\`\${kind} ROLLBACK\`);
      await pool.query(ROLLBACK_SQL);`;
    expect(cleanups(code).map((line) => line.endsWith(': true'))).toEqual([false, false, false]);
  });
});
