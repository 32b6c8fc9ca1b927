import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { getOwnLinesRange } from './line-ranges';

/** The statement with its own line (indentation and line break) when it has the line to itself. */
export function getStatementRemovalRange(sourceCode: Readonly<TSESLint.SourceCode>, statement: TSESTree.Node): [number, number] {
  return getOwnLinesRange(sourceCode.text, statement.range[0], statement.range[1]) ?? statement.range;
}
