import { AST_NODE_TYPES } from '@typescript-eslint/utils';
import { describe, expect, it } from 'vitest';
import { appendProperty, insertFirstProperty, type IndentStyle } from '../../../eslint-plugin/src/fix';
import { applyFix, findNode } from '../harness';

function insertFirst(code: string, text: string, indent: IndentStyle = 'line'): string | undefined {
  return applyFix(code, (sourceCode) => {
    const object = findNode(sourceCode, AST_NODE_TYPES.ObjectExpression);
    return (fixer) => insertFirstProperty(sourceCode, fixer, object, text, indent);
  });
}

function append(code: string, text: string): string | undefined {
  return applyFix(code, (sourceCode) => {
    const object = findNode(sourceCode, AST_NODE_TYPES.ObjectExpression);
    return (fixer) => appendProperty(sourceCode, fixer, object, text);
  });
}

describe('insertFirstProperty', () => {
  it('fills an empty object', () => {
    expect(insertFirst('save({});', '_id: id')).toBe('save({ _id: id });');
  });

  it('goes first on the line of a one-line object', () => {
    expect(insertFirst('save({ name: n });', '_id: id')).toBe('save({ _id: id, name: n });');
  });

  it('gets a line of its own, indented like the first property, in a multi-line object', () => {
    expect(insertFirst('save({\n    name: n,\n});', '_id: id')).toBe('save({\n    _id: id,\n    name: n,\n});');
  });

  it("indents by the line ('line') or by nothing ('leading') when a comment precedes the first property", () => {
    const code = 'save({\n  /* who */ name: n,\n});';
    expect(insertFirst(code, '_id: id', 'line')).toBe('save({\n  /* who */ _id: id,\n  name: n,\n});');
    expect(insertFirst(code, '_id: id', 'leading')).toBe('save({\n  /* who */ _id: id,\nname: n,\n});');
  });
});

describe('appendProperty', () => {
  it('fills an empty object', () => {
    expect(append('retry(fn, {});', 'retries: 5')).toBe('retry(fn, { retries: 5 });');
  });

  it('goes after the last property', () => {
    expect(append('retry(fn, { factor: 2 });', 'retries: 5')).toBe('retry(fn, { factor: 2, retries: 5 });');
  });

  it('gets a line of its own, indented like the last property, in a multi-line object with a trailing comma kept last', () => {
    expect(append('retry(fn, {\n  factor: 2,\n});', 'retries: 5')).toBe('retry(fn, {\n  factor: 2,\n  retries: 5,\n});');
  });

  it('gets a line of its own in a multi-line object without a trailing comma', () => {
    expect(append('retry(fn, {\n\tfactor: 2\n});', 'retries: 5')).toBe('retry(fn, {\n\tfactor: 2,\n\tretries: 5\n});');
  });

  it('stays on the line when the last property shares it with another', () => {
    expect(append('retry(fn, {\n  minTimeout: 10, factor: 2 });', 'retries: 5')).toBe('retry(fn, {\n  minTimeout: 10, factor: 2, retries: 5 });');
  });
});
