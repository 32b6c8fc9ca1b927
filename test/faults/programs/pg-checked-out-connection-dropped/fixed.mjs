// A service's PostgreSQL pool with the 'error' listener a pool needs, and one on each of
// its clients: a connection that drops while a client is checked out fails that client's
// query, and the process goes on serving.
import pg from 'pg';

export const pool = new pg.Pool({ max: 4 });
pool.on('error', (err) => {
  console.error('Unexpected error on an idle PostgreSQL client', err);
});
// A checked-out client's connection errors are the client's own (node-postgres #2439).
pool.on('connect', (client) => {
  client.on('error', (err) => console.error('PostgreSQL connection lost', err.message));
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
