import { AST_NODE_TYPES } from '@typescript-eslint/utils';
import { describe, expect, it } from 'vitest';
import { isComputableBefore, withSemicolon } from '../../../eslint-plugin/src/fix';
import { findNode, inFile } from '../harness';

describe('isComputableBefore', () => {
  const code = [
    'import { randomUUID } from "node:crypto";',
    'async function run(order) {',
    '  for (let attempt = 0; attempt < 3; attempt++) {',
    '    const part = order.id;',
    '    await put({ a: randomUUID(), b: `${order.id}-x`, c: `${part}-${attempt}` });',
    '  }',
    '}',
  ].join('\n');

  function computable(key: string): boolean {
    return inFile(code, (sourceCode) => {
      const loop = findNode(sourceCode, AST_NODE_TYPES.ForStatement);
      const property = findNode(sourceCode, AST_NODE_TYPES.Property, (node) => node.key.type === AST_NODE_TYPES.Identifier && node.key.name === key);
      return isComputableBefore(sourceCode, property.value, loop.body);
    });
  }

  it('accepts an expression that reads only what exists before the container', () => {
    expect(computable('a')).toBe(true);
    expect(computable('b')).toBe(true);
  });

  it('rejects an expression that reads a variable declared inside the container', () => {
    expect(computable('c')).toBe(false);
  });
});

describe('withSemicolon', () => {
  it('adds a semicolon only when the statement has none', () => {
    expect(withSemicolon('const id = randomUUID()')).toBe('const id = randomUUID();');
    expect(withSemicolon('const id = randomUUID();')).toBe('const id = randomUUID();');
    expect(withSemicolon('const id = randomUUID();  ')).toBe('const id = randomUUID();  ');
  });
});
