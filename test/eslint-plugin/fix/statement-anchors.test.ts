import { AST_NODE_TYPES } from '@typescript-eslint/utils';
import { describe, expect, it } from 'vitest';
import { getEnclosingInsertableStatement, getEnclosingListedStatement, getListedStatement, isStatementListItem } from '../../../eslint-plugin/src/fix';
import { findNode, inFile, type SourceCode } from '../harness';

/** The text of what `pick` returns, or undefined. */
function textOfResult(code: string, pick: (sourceCode: SourceCode) => { range: [number, number] } | undefined): string | undefined {
  return inFile(code, (sourceCode) => {
    const node = pick(sourceCode);
    return node && sourceCode.text.slice(node.range[0], node.range[1]);
  });
}

describe('isStatementListItem', () => {
  it('accepts statements of a block, the program, a static block and a case', () => {
    const code = 'a();\nfunction f() { b(); }\nclass C { static { c(); } }\nswitch (x) { case 1: d(); }\nif (y) e();\n';
    const listed = inFile(code, (sourceCode) =>
      ['a();', 'b();', 'c();', 'd();', 'e();'].map((text) =>
        isStatementListItem(findNode(sourceCode, AST_NODE_TYPES.ExpressionStatement, (node) => sourceCode.getText(node) === text)),
      ),
    );
    expect(listed).toEqual([true, true, true, true, false]);
  });
});

describe('getListedStatement', () => {
  it('gives the statement itself, or the label in front of it', () => {
    expect(textOfResult('while (a) {}\n', (sourceCode) => getListedStatement(findNode(sourceCode, AST_NODE_TYPES.WhileStatement)))).toBe('while (a) {}');
    expect(textOfResult('outer: while (a) {}\n', (sourceCode) => getListedStatement(findNode(sourceCode, AST_NODE_TYPES.WhileStatement)))).toBe(
      'outer: while (a) {}',
    );
  });

  it('gives undefined for a statement that is not in a statement list', () => {
    expect(textOfResult('if (x) while (a) {}\n', (sourceCode) => getListedStatement(findNode(sourceCode, AST_NODE_TYPES.WhileStatement)))).toBeUndefined();
  });
});

describe('getEnclosingListedStatement', () => {
  it('gives the statement that holds a call', () => {
    const code = 'async function f() {\n  const result = await pRetry(() => save(), { retries: 3 });\n}\n';
    const call = (sourceCode: SourceCode) =>
      findNode(sourceCode, AST_NODE_TYPES.CallExpression, (node) => node.callee.type === AST_NODE_TYPES.Identifier && node.callee.name === 'pRetry');
    expect(textOfResult(code, (sourceCode) => getEnclosingListedStatement(call(sourceCode)))).toBe(
      'const result = await pRetry(() => save(), { retries: 3 });',
    );
  });

  it('goes past an `if` without braces to the statement in the list', () => {
    const code = 'if (ready) pRetry(() => save());\n';
    expect(textOfResult(code, (sourceCode) => getEnclosingListedStatement(findNode(sourceCode, AST_NODE_TYPES.CallExpression)))).toBe(code.trim());
  });

  it('does not look outside the function the node is in', () => {
    const code = 'const run = () => pRetry(() => save());\n';
    const inner = (sourceCode: SourceCode) =>
      findNode(sourceCode, AST_NODE_TYPES.CallExpression, (node) => node.callee.type === AST_NODE_TYPES.Identifier && node.callee.name === 'pRetry');
    expect(textOfResult(code, (sourceCode) => getEnclosingListedStatement(inner(sourceCode)))).toBeUndefined();
  });
});

describe('getEnclosingInsertableStatement', () => {
  const send = (sourceCode: SourceCode) =>
    findNode(sourceCode, AST_NODE_TYPES.CallExpression, (node) => node.callee.type === AST_NODE_TYPES.Identifier && node.callee.name === 'send');

  it('gives the statement in a block that holds the node', () => {
    expect(textOfResult('function f() {\n  return send(x).then(f);\n}\n', (sourceCode) => getEnclosingInsertableStatement(send(sourceCode)))).toBe('return send(x).then(f);');
  });

  it("stops at an `if`'s branch without braces", () => {
    expect(textOfResult('function f(left) {\n  if (left) return send(left);\n}\n', (sourceCode) => getEnclosingInsertableStatement(send(sourceCode)))).toBe('return send(left);');
  });

  it('gives undefined past a function boundary', () => {
    expect(textOfResult('items.forEach((item) => send(item));\n', (sourceCode) => getEnclosingInsertableStatement(send(sourceCode)))).toBeUndefined();
  });
});
