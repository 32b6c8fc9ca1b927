import { AST_NODE_TYPES } from '@typescript-eslint/utils';
import { describe, expect, it } from 'vitest';
import { isSimpleReference } from '../../../eslint-plugin/src/fix';
import { findNode, inFile } from '../harness';

function isSimple(expression: string): boolean {
  return inFile(`${expression};`, (sourceCode) => isSimpleReference(findNode(sourceCode, AST_NODE_TYPES.ExpressionStatement).expression));
}

describe('isSimpleReference', () => {
  it('accepts names and plain property chains that can be read twice', () => {
    expect(isSimple('orders')).toBe(true);
    expect(isSimple('this.orders')).toBe(true);
    expect(isSimple('app.db.orders')).toBe(true);
  });

  it('rejects calls, computed and optional members, and long chains', () => {
    expect(isSimple('getOrders()')).toBe(false);
    expect(isSimple('db[name]')).toBe(false);
    expect(isSimple('db?.orders')).toBe(false);
    expect(isSimple('a.b.c.d.e.f')).toBe(false);
  });
});
