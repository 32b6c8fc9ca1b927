import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { getIndent } from './indentation';

type SourceCode = Readonly<TSESLint.SourceCode>;

/**
 * Replaces `block` with a block holding only `statement`, over three lines: the braces
 * indented like the line of `owner` (the `catch`, `if`, … the block belongs to), the
 * statement two spaces further in.
 */
export function replaceBlock(
  sourceCode: SourceCode,
  fixer: TSESLint.RuleFixer,
  block: TSESTree.BlockStatement,
  statement: string,
  owner: TSESTree.Node,
): TSESLint.RuleFix {
  const indent = getIndent(sourceCode, owner, 'line');
  return fixer.replaceText(block, `{\n${indent}  ${statement}\n${indent}}`);
}

/**
 * Puts `statement` in `block`, which holds no statement (comments at most): a block on
 * one line with no comment is rewritten over three lines (see `replaceBlock`); one with
 * a comment gets the statement before its `}`; a block over several lines gets it on a
 * new line before its `}`, two spaces further in than the line of `owner`.
 */
export function fillEmptyBlock(
  sourceCode: SourceCode,
  fixer: TSESLint.RuleFixer,
  block: TSESTree.BlockStatement,
  statement: string,
  owner: TSESTree.Node,
): TSESLint.RuleFix | undefined {
  const closing = sourceCode.getLastToken(block);
  if (!closing) return undefined;
  const oneLine = block.loc.start.line === block.loc.end.line;
  if (oneLine && sourceCode.getCommentsInside(block).length === 0) return replaceBlock(sourceCode, fixer, block, statement, owner);
  if (oneLine) return fixer.insertTextBefore(closing, `${statement} `);
  return fixer.insertTextBefore(closing, `  ${statement}\n${getIndent(sourceCode, owner, 'line')}`);
}
