import { AST_NODE_TYPES } from '@typescript-eslint/utils';
import { describe, expect, it } from 'vitest';
import { hasCommentOutside, overlapsComment } from '../../../eslint-plugin/src/fix';
import { findNode, inFile } from '../harness';

describe('hasCommentOutside', () => {
  function check(code: string): boolean {
    return inFile(code, (sourceCode) => {
      const statement = findNode(sourceCode, AST_NODE_TYPES.ExpressionStatement);
      const call = findNode(sourceCode, AST_NODE_TYPES.CallExpression);
      return hasCommentOutside(sourceCode, statement, call.arguments);
    });
  }

  it('ignores comments inside the kept nodes', () => {
    expect(check('orders.updateMany({ /* open */ status: "open" }, { $set: { done: true } });')).toBe(false);
  });

  it('finds a comment between the kept nodes', () => {
    expect(check('orders.updateMany({ status: "open" }, /* mark */ { $set: { done: true } });')).toBe(true);
  });

  it('finds nothing when there is no comment', () => {
    expect(check('orders.deleteMany({ status: "open" });')).toBe(false);
  });
});

describe('overlapsComment', () => {
  const code = 'const options = { retryWrites: false, /* why */ w: 1 };';

  function overlaps(from: string, to: string): boolean {
    return inFile(code, (sourceCode) => overlapsComment(sourceCode, [code.indexOf(from), code.indexOf(to)]));
  }

  it('is true when the range covers part of a comment', () => {
    expect(overlaps('retryWrites', 'why')).toBe(true);
  });

  it('is false for a range that ends where a comment starts', () => {
    expect(overlaps('retryWrites', '/* why')).toBe(false);
  });
});
