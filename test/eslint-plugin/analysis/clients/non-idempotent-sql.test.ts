import { describe, expect, it } from 'vitest';
import { getNonIdempotentStatement } from '../../../../eslint-plugin/src/analysis/clients/non-idempotent-sql';

describe('getNonIdempotentStatement', () => {
  it.each([
    ['INSERT INTO orders (id, total) VALUES ($1, $2)', 'INSERT'],
    ['  (insert into audit select * from log)', 'INSERT'],
    ['-- keep a copy\nINSERT INTO audit VALUES ($1)', 'INSERT'],
    ['UPDATE accounts SET balance = balance + $1 WHERE id = $2', 'UPDATE … SET balance = balance …'],
    ['update stock set reserved = now(), qty = qty - 1 where sku = $1', 'UPDATE … SET qty = qty …'],
    ['UPDATE users SET tags = tags || $1 WHERE id = $2', 'UPDATE … SET tags = tags …'],
  ])('%j writes again: %s', (text, label) => {
    expect(getNonIdempotentStatement(text)).toBe(label);
  });

  it.each([
    'UPDATE orders SET paid = true WHERE id = $1',
    'UPDATE accounts SET balance = $1 WHERE id = $2',
    'DELETE FROM orders WHERE id = $1',
    'SELECT balance + 1 FROM accounts',
    "SELECT 'INSERT INTO x'",
    '/* INSERT */ SELECT 1',
  ])('%j does not', (text) => {
    expect(getNonIdempotentStatement(text)).toBeUndefined();
  });
});
