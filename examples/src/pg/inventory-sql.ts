// Stock reservations with postgres.js (the `sql` tagged template).
import postgres from 'postgres';

const sql = postgres(process.env.DATABASE_URL ?? 'postgres://localhost/orders', { max: 5 });

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Reserves stock for an order inside a transaction, and retries only the INSERT when
 * it fails: after a dropped connection `sql.begin` has lost the transaction, and after
 * any other error PostgreSQL rejects every statement until ROLLBACK — the whole
 * `sql.begin` callback is what must be retried.
 */
export async function reserveStock(orderId: string, sku: string, quantity: number): Promise<void> {
  await sql.begin(async (tx) => {
    await tx`UPDATE stock SET reserved = reserved + ${quantity} WHERE sku = ${sku}`;
    for (let attempt = 1; ; attempt++) {
      try {
        await tx`INSERT INTO reservations (order_id, sku, quantity) VALUES (${orderId}, ${sku}, ${quantity})`;
        return;
      } catch (err) {
        if (attempt === 3) throw err;
        await sleep(Math.random() * Math.min(60_000, 5_000 * 2 ** attempt));
      }
    }
  });
}

export async function availableStock(sku: string): Promise<number> {
  const [row] = await sql<{ available: number }[]>`SELECT quantity - reserved AS available FROM stock WHERE sku = ${sku}`;
  return row?.available ?? 0;
}
