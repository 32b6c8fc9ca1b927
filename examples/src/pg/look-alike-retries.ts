// Look-alikes that must stay silent: a pool with an 'error' listener, a connection
// retry as Azure recommends (5 s before the first retry, doubling up to 60 s, full
// jitter, a maximum count, only transient errors), and a whole write transaction
// retried on a new connection with a client-generated id under a unique constraint.
import { randomUUID } from 'node:crypto';
import { Pool, type PoolClient } from 'pg';

const reporting = new Pool({ connectionString: process.env.REPORTING_DATABASE_URL, max: 4 });
reporting.on('error', (err) => {
  console.error('Unexpected error on an idle PostgreSQL client', err);
});

const FIRST_DELAY_MS = 5_000;
const MAX_DELAY_MS = 60_000;
const MAX_RETRIES = 5;

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

function isTransient(err: unknown): boolean {
  const code = (err as { code?: string } | undefined)?.code ?? '';
  return code.startsWith('08') || ['57P01', '57P03', '40001', '40P01', 'ECONNRESET', 'ECONNREFUSED'].includes(code);
}

export async function connectReporting(): Promise<PoolClient> {
  for (let retry = 0; ; retry++) {
    try {
      return await reporting.connect();
    } catch (err) {
      if (!isTransient(err) || retry >= MAX_RETRIES) throw err;
      await sleep(Math.random() * Math.min(MAX_DELAY_MS, FIRST_DELAY_MS * 2 ** retry));
    }
  }
}

/**
 * The whole transaction is retried, on a new connection each time; the refund id is made
 * once, before the first attempt, and a unique constraint on refunds.refund_id turns a
 * retry of an attempt that did commit into "already done".
 */
export async function recordRefund(orderId: string, amountCents: number): Promise<string> {
  const refundId = randomUUID();
  for (let retry = 0; ; retry++) {
    const client = await reporting.connect();
    try {
      await client.query('BEGIN');
      const inserted = await client.query(
        'INSERT INTO refunds (refund_id, order_id, amount_cents) VALUES ($1, $2, $3) ON CONFLICT (refund_id) DO NOTHING',
        [refundId, orderId, amountCents],
      );
      if (inserted.rowCount === 1) {
        await client.query('UPDATE orders SET refunded_cents = refunded_cents + $2 WHERE id = $1', [orderId, amountCents]);
      }
      await client.query('COMMIT');
      return refundId;
    } catch (err) {
      await client.query('ROLLBACK').catch((rollbackError: unknown) => console.error('ROLLBACK failed', rollbackError));
      if (!isTransient(err) || retry >= MAX_RETRIES) throw err;
      await sleep(Math.random() * Math.min(MAX_DELAY_MS, FIRST_DELAY_MS * 2 ** retry));
    } finally {
      client.release();
    }
  }
}

/** Reads every row of a report, page by page: a pagination loop, not a retry. */
export async function listRefunds(): Promise<unknown[]> {
  const rows: unknown[] = [];
  let after = '';
  for (;;) {
    const page = await reporting.query('SELECT refund_id, amount_cents FROM refunds WHERE refund_id > $1 ORDER BY refund_id LIMIT 500', [after]);
    rows.push(...page.rows);
    if (page.rows.length < 500) return rows;
    after = String(page.rows[page.rows.length - 1].refund_id);
  }
}
