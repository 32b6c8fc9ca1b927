// A service's PostgreSQL pool with the 'error' listener a pool needs. A connection that
// drops while a client is checked out (here, in the middle of a transaction) is not in
// the pool: the client emits 'error' itself, nothing listens, and Node.js throws it.
import pg from 'pg';

export const pool = new pg.Pool({ max: 4 });
pool.on('error', (err) => {
  console.error('Unexpected error on an idle PostgreSQL client', err);
});

export async function closeDay(day) {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    await client.query('INSERT INTO closings (day) VALUES ($1)', [day]);
    await client.query('COMMIT');
  } catch (err) {
    await client.query('ROLLBACK').catch(() => {});
    throw err;
  } finally {
    client.release();
  }
}

export async function countOrders() {
  const { rows } = await pool.query('SELECT count(*)::int AS n FROM orders');
  return rows[0].n;
}
