// A service's PostgreSQL pool with an 'error' listener: a connection that the server
// drops while it sits idle in the pool is logged and replaced.
import pg from 'pg';

export const pool = new pg.Pool({ max: 4 });
pool.on('error', (err) => {
  console.error('Unexpected error on an idle PostgreSQL client', err);
});

export async function countOrders() {
  const { rows } = await pool.query('SELECT count(*)::int AS n FROM orders');
  return rows[0].n;
}
