// The order service's PostgreSQL access (Azure Database for PostgreSQL, node-postgres).
import pg from 'pg';

// No 'error' listener: when Azure drops an idle connection (maintenance, failover,
// scaling) the pool emits 'error' and the process crashes.
export const pool = new pg.Pool({
  connectionString: process.env.DATABASE_URL,
  max: 10,
  idleTimeoutMillis: 30_000,
});

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** SQLSTATEs and socket errors that a retry may fix (connection loss, failover, serialization). */
export function isTransientPgError(err: unknown): boolean {
  const code = (err as { code?: string } | undefined)?.code ?? '';
  return (
    code.startsWith('08') ||
    ['57P01', '57P03', '40001', '40P01', 'ECONNRESET', 'ECONNREFUSED', 'ETIMEDOUT'].includes(code)
  );
}

/**
 * Retries every failure (a wrong password too) once a second, ten times: no growing
 * wait, nothing like the 5 s → 60 s backoff Azure recommends while a server recovers.
 */
export async function connectWithRetry(): Promise<pg.PoolClient> {
  let lastError: unknown;
  for (let attempt = 1; attempt <= 10; attempt++) {
    try {
      return await pool.connect();
    } catch (err) {
      lastError = err;
      console.warn(`PostgreSQL connect failed (attempt ${attempt}), retrying`);
      await sleep(1000);
    }
  }
  throw lastError;
}

/**
 * Records a payment in a transaction and retries the whole transaction on a transient
 * error — but without a client-generated id under a unique constraint: when the COMMIT
 * went through and only its acknowledgement was lost, the retry inserts the payment a
 * second time. The wait also grows without a cap or jitter, from 1 s.
 */
export async function recordPayment(orderId: string, amountCents: number): Promise<void> {
  for (let attempt = 0; attempt < 5; attempt++) {
    const client = await pool.connect();
    try {
      await client.query('BEGIN');
      await client.query('INSERT INTO payments (order_id, amount_cents) VALUES ($1, $2)', [orderId, amountCents]);
      await client.query('UPDATE orders SET status = $2 WHERE id = $1', [orderId, 'PAID']);
      await client.query('COMMIT');
      return;
    } catch (err) {
      await client.query('ROLLBACK').catch((rollbackError: unknown) => console.error('ROLLBACK failed', rollbackError));
      if (!isTransientPgError(err) || attempt === 4) throw err;
      await sleep(1000 * 2 ** attempt);
    } finally {
      client.release();
    }
  }
}

/**
 * Retries one statement inside BEGIN … COMMIT. After a connection failure the
 * transaction is gone: the retried INSERT either fails ("current transaction is
 * aborted") or runs outside the transaction on a new connection.
 */
export async function shipOrder(orderId: string, carrier: string, trackingNumber: string): Promise<void> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    await client.query('UPDATE orders SET status = $2 WHERE id = $1', [orderId, 'SHIPPED']);
    for (let attempt = 1; ; attempt++) {
      try {
        await client.query('INSERT INTO shipments (order_id, carrier, tracking_number) VALUES ($1, $2, $3)', [
          orderId,
          carrier,
          trackingNumber,
        ]);
        break;
      } catch (err) {
        if (attempt === 3 || !isTransientPgError(err)) throw err;
        await sleep(500 * attempt);
      }
    }
    await client.query('COMMIT');
  } catch (err) {
    await client.query('ROLLBACK');
    throw err;
  } finally {
    client.release();
  }
}
