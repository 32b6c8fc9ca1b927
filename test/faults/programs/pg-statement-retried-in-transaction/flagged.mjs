// Moves money between two accounts in one transaction. When the credit fails because
// the connection dropped, it takes a new connection and tries that one statement again:
// the transaction, with the transfer record and the debit, died with the old connection,
// and the credit now commits on its own.
import pg from 'pg';

export const pool = new pg.Pool();
pool.on('error', (err) => {
  console.error('Unexpected error on an idle PostgreSQL client', err);
});
// A checked-out client whose connection drops emits 'error' too (node-postgres #2439).
pool.on('connect', (client) => {
  client.on('error', (err) => console.error('PostgreSQL connection lost', err.message));
});

const retryBaseMs = Number(process.env.RETRY_BASE_MS ?? 5000);
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
// A lost connection, or the server shutting down or refusing connections for a while.
const isTransient = (err) =>
  ['ECONNRESET', 'ECONNREFUSED', '57P01', '57P03'].includes(err.code) ||
  err.message === 'Connection terminated unexpectedly';

// transferId comes from the caller, one per transfer; transfers.id is the primary key.
export async function transfer(transferId, from, to, amount) {
  let client = await pool.connect();
  try {
    await client.query('BEGIN');
    await client.query('INSERT INTO transfers (id) VALUES ($1)', [transferId]);
    await client.query('UPDATE accounts SET balance = balance - $1 WHERE id = $2', [amount, from]);
    for (let attempt = 0; ; attempt++) {
      try {
        await client.query('UPDATE accounts SET balance = balance + $1 WHERE id = $2', [amount, to]);
        break;
      } catch (err) {
        if (!isTransient(err) || attempt === 4) throw err;
        client.release(err);
        await sleep(Math.random() * Math.min(60_000, retryBaseMs * 2 ** attempt));
        client = await pool.connect();
      }
    }
    await client.query('COMMIT');
  } catch (err) {
    await client.query('ROLLBACK').catch(() => {});
    throw err;
  } finally {
    client.release();
  }
}
