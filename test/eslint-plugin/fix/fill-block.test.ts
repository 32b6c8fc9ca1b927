import { AST_NODE_TYPES } from '@typescript-eslint/utils';
import { describe, expect, it } from 'vitest';
import { fillEmptyBlock, replaceBlock } from '../../../eslint-plugin/src/fix';
import { applyFix, findNode } from '../harness';

function rethrow(code: string): string | undefined {
  return applyFix(code, (sourceCode) => {
    const handler = findNode(sourceCode, AST_NODE_TYPES.CatchClause);
    return (fixer) => fillEmptyBlock(sourceCode, fixer, handler.body, 'throw error;', handler) ?? [];
  });
}

describe('replaceBlock', () => {
  it('writes the block over three lines, its braces indented like the owner’s line', () => {
    const code = 'function f() {\n  try { a(); } catch (error) {}\n}\n';
    const output = applyFix(code, (sourceCode) => {
      const handler = findNode(sourceCode, AST_NODE_TYPES.CatchClause);
      return (fixer) => replaceBlock(sourceCode, fixer, handler.body, 'await sleep(100);', handler);
    });
    expect(output).toBe('function f() {\n  try { a(); } catch (error) {\n    await sleep(100);\n  }\n}\n');
  });
});

describe('fillEmptyBlock', () => {
  it('rewrites an empty one-line block over three lines', () => {
    expect(rethrow('try { a(); } catch (error) {}\n')).toBe('try { a(); } catch (error) {\n  throw error;\n}\n');
  });

  it('puts the statement before the `}` of a one-line block holding a comment', () => {
    expect(rethrow('try { a(); } catch (error) { /* ignore */ }\n')).toBe('try { a(); } catch (error) { /* ignore */ throw error; }\n');
  });

  it('adds a line before the `}` of a block over several lines', () => {
    const code = 'function f() {\n  try {\n    a();\n  } catch (error) {\n    // ignore\n  }\n}\n';
    expect(rethrow(code)).toBe('function f() {\n  try {\n    a();\n  } catch (error) {\n    // ignore\n    throw error;\n  }\n}\n');
  });
});
