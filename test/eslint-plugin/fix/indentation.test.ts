import { AST_NODE_TYPES } from '@typescript-eslint/utils';
import { describe, expect, it } from 'vitest';
import { getIndent } from '../../../eslint-plugin/src/fix';
import { findNode, inFile } from '../harness';

describe('getIndent', () => {
  it('gives the white space before a statement that starts its line, in both styles', () => {
    const code = 'function f() {\n    g();\n}\n';
    const indents = inFile(code, (sourceCode) => {
      const statement = findNode(sourceCode, AST_NODE_TYPES.ExpressionStatement);
      return [getIndent(sourceCode, statement, 'line'), getIndent(sourceCode, statement, 'leading')];
    });
    expect(indents).toEqual(['    ', '    ']);
  });

  it('keeps tabs', () => {
    const code = 'if (x) {\n\t\tg();\n}\n';
    expect(inFile(code, (sourceCode) => getIndent(sourceCode, findNode(sourceCode, AST_NODE_TYPES.ExpressionStatement), 'leading'))).toBe('\t\t');
  });

  it("'line' gives the line's indentation when code precedes the node; 'leading' gives none", () => {
    const code = '  a(); b();\n';
    const indents = inFile(code, (sourceCode) => {
      const second = findNode(sourceCode, AST_NODE_TYPES.ExpressionStatement, (statement) => sourceCode.getText(statement) === 'b();');
      return [getIndent(sourceCode, second, 'line'), getIndent(sourceCode, second, 'leading')];
    });
    expect(indents).toEqual(['  ', '']);
  });

  it("'leading' gives none when a comment precedes the node on its line", () => {
    const code = 'const o = {\n  /* first */ a: 1,\n};\n';
    const indents = inFile(code, (sourceCode) => {
      const property = findNode(sourceCode, AST_NODE_TYPES.Property);
      return [getIndent(sourceCode, property, 'line'), getIndent(sourceCode, property, 'leading')];
    });
    expect(indents).toEqual(['  ', '']);
  });

  it('gives none at the start of the file', () => {
    expect(inFile('g();\n', (sourceCode) => getIndent(sourceCode, findNode(sourceCode, AST_NODE_TYPES.ExpressionStatement), 'line'))).toBe('');
  });
});
