import { AST_NODE_TYPES } from '@typescript-eslint/utils';
import { describe, expect, it } from 'vitest';
import { getPropertyRemovalRange, type PropertyRemovalLayout } from '../../../eslint-plugin/src/fix';
import { applyFix, findNode } from '../harness';

/** `code` with the property whose key is `key` removed. */
function removeProperty(code: string, key: string, layout: PropertyRemovalLayout): string | undefined {
  return applyFix(code, (sourceCode) => {
    const property = findNode(sourceCode, AST_NODE_TYPES.Property, (node) => node.key.type === AST_NODE_TYPES.Identifier && node.key.name === key);
    return (fixer) => fixer.removeRange(getPropertyRemovalRange(sourceCode, property, layout));
  });
}

function removeBoth(code: string, key: string): { lines: string | undefined; tokens: string | undefined } {
  return { lines: removeProperty(code, key, 'lines'), tokens: removeProperty(code, key, 'tokens') };
}

describe('getPropertyRemovalRange', () => {
  it('removes a property of a one-line object with the comma after it', () => {
    expect(removeBoth('f({ a: 1, b: 2, c: 3 });', 'b')).toEqual({ lines: 'f({ a: 1, c: 3 });', tokens: 'f({ a: 1, c: 3 });' });
  });

  it('removes the last property with the comma before it', () => {
    expect(removeBoth('f({ a: 1, b: 2 });', 'b')).toEqual({ lines: 'f({ a: 1 });', tokens: 'f({ a: 1 });' });
  });

  it('leaves `{}` for the only property', () => {
    expect(removeBoth('f({ a: 1 });', 'a')).toEqual({ lines: 'f({});', tokens: 'f({});' });
  });

  it("'lines' also drops the trailing comma of the only property; 'tokens' keeps the braces' spaces", () => {
    expect(removeBoth('f({ a: 1, });', 'a')).toEqual({ lines: 'f({});', tokens: 'f({  });' });
  });

  it('removes a property with its own line from a multi-line object', () => {
    const code = 'f({\n  a: 1,\n  b: 2,\n  c: 3,\n});';
    expect(removeBoth(code, 'b')).toEqual({ lines: 'f({\n  a: 1,\n  c: 3,\n});', tokens: 'f({\n  a: 1,\n  c: 3,\n});' });
  });

  it('keeps the trailing comma after removing the last property of a multi-line object', () => {
    const code = 'f({\n  a: 1,\n  b: 2,\n});';
    expect(removeBoth(code, 'b')).toEqual({ lines: 'f({\n  a: 1,\n});', tokens: 'f({\n  a: 1,\n});' });
  });

  it("'lines' stops at the line break after the comma; 'tokens' goes on to the next property", () => {
    const code = 'f({ a: 1,\n  b: 2 });';
    expect(removeBoth(code, 'a')).toEqual({ lines: 'f({ \n  b: 2 });', tokens: 'f({ b: 2 });' });
  });

  it('keeps a comment that follows the comma', () => {
    expect(removeBoth('f({ a: 1, /* keep */ b: 2 });', 'a')).toEqual({ lines: 'f({ /* keep */ b: 2 });', tokens: 'f({ /* keep */ b: 2 });' });
  });
});
