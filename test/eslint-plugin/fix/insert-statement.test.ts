import { AST_NODE_TYPES } from '@typescript-eslint/utils';
import { describe, expect, it } from 'vitest';
import { getInsertBeforeStatementFix, type IndentStyle, insertLine } from '../../../eslint-plugin/src/fix';
import { applyFix, findNode } from '../harness';

function insertAroundLoop(code: string, position: 'before' | 'after', indent: IndentStyle): string | undefined {
  return applyFix(code, (sourceCode) => {
    const loop = findNode(sourceCode, AST_NODE_TYPES.ForStatement);
    return (fixer) => insertLine(sourceCode, fixer, position, loop, 'const key = randomUUID();', indent);
  });
}

function waitBeforeContinue(code: string): string | undefined {
  return applyFix(code, (sourceCode) => getInsertBeforeStatementFix(sourceCode, findNode(sourceCode, AST_NODE_TYPES.ContinueStatement), 'await sleep(100);'));
}

describe('insertLine', () => {
  const code = 'async function f() {\n  for (;;) {}\n}\n';

  it('puts the text on the line before the statement, which keeps its indentation', () => {
    expect(insertAroundLoop(code, 'before', 'line')).toBe('async function f() {\n  const key = randomUUID();\n  for (;;) {}\n}\n');
  });

  it('puts the text on the line after the statement, indented like it', () => {
    expect(insertAroundLoop(code, 'after', 'line')).toBe('async function f() {\n  for (;;) {}\n  const key = randomUUID();\n}\n');
  });

  it("indents by the line ('line') or by nothing ('leading') when code precedes the statement on its line", () => {
    const shared = '  setup(); for (;;) {}\n';
    expect(insertAroundLoop(shared, 'before', 'line')).toBe('  setup(); const key = randomUUID();\n  for (;;) {}\n');
    expect(insertAroundLoop(shared, 'before', 'leading')).toBe('  setup(); const key = randomUUID();\nfor (;;) {}\n');
  });
});

describe('getInsertBeforeStatementFix', () => {
  it('inserts on the line before a statement of a block', () => {
    expect(waitBeforeContinue('while (x) {\n  step();\n  continue;\n}\n')).toBe('while (x) {\n  step();\n  await sleep(100);\n  continue;\n}\n');
  });

  it('wraps the branch of an `if` without braces in a block', () => {
    expect(waitBeforeContinue('while (x) {\n  if (failed) continue;\n}\n')).toBe(
      'while (x) {\n  if (failed) {\n    await sleep(100);\n    continue;\n  }\n}\n',
    );
  });

  it('wraps an `else` branch too', () => {
    expect(waitBeforeContinue('while (x) {\n  if (ok) break; else continue;\n}\n')).toBe(
      'while (x) {\n  if (ok) break; else {\n    await sleep(100);\n    continue;\n  }\n}\n',
    );
  });

  it('makes no fix for a statement that is the body of a loop', () => {
    expect(waitBeforeContinue('while (x) continue;\n')).toBeUndefined();
  });
});
