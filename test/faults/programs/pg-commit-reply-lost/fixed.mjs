// Places an order in one PostgreSQL transaction and retries the transaction when the
// connection fails. The order id is made once, before the retry, and ON CONFLICT DO
// NOTHING turns the attempt after a lost COMMIT reply into a no-op.
import { randomUUID } from 'node:crypto';
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

export async function placeOrder(customer, total) {
  const orderId = randomUUID();
  for (let attempt = 0; attempt < 5; attempt++) {
    const client = await pool.connect();
    try {
      await client.query('BEGIN');
      await client.query('INSERT INTO orders (id, customer, total) VALUES ($1, $2, $3) ON CONFLICT (id) DO NOTHING', [
        orderId,
        customer,
        total,
      ]);
      await client.query('COMMIT');
      return orderId;
    } catch (err) {
      await client.query('ROLLBACK').catch(() => {});
      if (!isTransient(err) || attempt === 4) throw err;
      await sleep(Math.random() * Math.min(60_000, retryBaseMs * 2 ** attempt));
    } finally {
      client.release();
    }
  }
}
