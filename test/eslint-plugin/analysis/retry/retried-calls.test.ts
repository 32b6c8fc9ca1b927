import { describe, expect, it } from 'vitest';
import { lintWithPlugin } from '../../harness';

/** `line rule` of each report. */
function reports(code: string, modules: Record<string, string>): string[] {
  return lintWithPlugin(code, ['require-retry-backoff', 'no-retry-on-permanent-error', 'no-swallowed-db-error'], modules).map(
    (message) => `${message.line} ${message.ruleId?.replace('retry-safety/', '')}`,
  );
}

const ORDERS = {
  'db.ts': `import { Pool } from 'pg';\nexport const pool = new Pool();\npool.on('error', () => {});`,
  'orders.ts': `import { pool } from './db';
export async function saveOrder(id: string) {
  await pool.query('UPDATE orders SET paid = true WHERE id = $1', [id]);
}
export async function ping() {
  await pool.query('SELECT 1');
}
export class Orders {
  async markPaid(id: string) { await saveOrder(id); }
}
export function format(id: string) { return id.trim(); }`,
};

describe('retries around another module\'s database work', () => {
  it('are checked like retries of the call itself: an imported function, a method of an imported class', () => {
    const code = `import { saveOrder, Orders } from './orders';
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const orders = new Orders();
export async function pay(id: string) {
  for (;;) {
    try {
      return await saveOrder(id);
    } catch {
      await sleep(1000);
    }
  }
}
export async function markPaid(id: string) {
  for (;;) {
    try {
      return await orders.markPaid(id);
    } catch {
      await sleep(1000);
    }
  }
}`;
    expect(reports(code, ORDERS)).toEqual([
      '5 require-retry-backoff',
      '8 no-retry-on-permanent-error',
      '9 require-retry-backoff',
      '14 require-retry-backoff',
      '17 no-retry-on-permanent-error',
      '18 require-retry-backoff',
    ]);
  });

  it('stay quiet where the imported function does no database work, and retry any error of a connection check by design', () => {
    const code = `import { format, ping } from './orders';
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
export async function tidy(id: string) {
  for (;;) {
    try {
      return format(id);
    } catch {
      await sleep(1000);
    }
  }
}
export async function waitForDatabase() {
  for (let attempt = 1; attempt <= 5; attempt++) {
    try {
      return await ping();
    } catch (error) {
      if (attempt === 5) throw error;
      await sleep(Math.random() * Math.min(60000, 5000 * 2 ** attempt));
    }
  }
}`;
    expect(reports(code, ORDERS)).toEqual([]);
  });
});
