import { AST_NODE_TYPES } from '@typescript-eslint/utils';
import { describe, expect, it } from 'vitest';
import { getStatementRemovalRange } from '../../../eslint-plugin/src/fix';
import { applyFix, findNode } from '../harness';

function removeStatement(code: string, text: string): string | undefined {
  return applyFix(code, (sourceCode) => {
    const statement = findNode(sourceCode, AST_NODE_TYPES.VariableDeclaration, (node) => sourceCode.getText(node) === text);
    return (fixer) => fixer.removeRange(getStatementRemovalRange(sourceCode, statement));
  });
}

describe('getStatementRemovalRange', () => {
  it('removes a statement with its own line', () => {
    expect(removeStatement('function f() {\n  const a = 1;\n  const b = 2;\n}\n', 'const a = 1;')).toBe('function f() {\n  const b = 2;\n}\n');
  });

  it('removes only the statement when it shares its line', () => {
    expect(removeStatement('const a = 1; const b = 2;\n', 'const b = 2;')).toBe('const a = 1; \n');
  });
});
