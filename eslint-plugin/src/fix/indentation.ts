import type { TSESLint, TSESTree } from '@typescript-eslint/utils';

/**
 * How far to indent a line written next to a node:
 * - `line`: the white space the node's line starts with, whatever else precedes the node;
 * - `leading`: the spaces and tabs right before the node (counting from the last `\n`)
 *   when nothing else precedes it on its line, else none.
 */
export type IndentStyle = 'line' | 'leading';

export function getIndent(sourceCode: Readonly<TSESLint.SourceCode>, node: TSESTree.Node | TSESTree.Token, style: IndentStyle): string {
  if (style === 'line') {
    const line = sourceCode.lines[node.loc.start.line - 1] ?? '';
    return /^\s*/.exec(line)?.[0] ?? '';
  }
  const text = sourceCode.text;
  const lineStart = text.lastIndexOf('\n', node.range[0] - 1) + 1;
  const before = text.slice(lineStart, node.range[0]);
  return /^[ \t]*$/.test(before) ? before : '';
}
