// A service's PostgreSQL pool. Nothing listens for the pool's 'error' event: when the
// server drops a connection that sits idle in the pool, the pool emits 'error' and
// Node.js throws it.
import pg from 'pg';

export const pool = new pg.Pool({ max: 4 });

export async function countOrders() {
  const { rows } = await pool.query('SELECT count(*)::int AS n FROM orders');
  return rows[0].n;
}
