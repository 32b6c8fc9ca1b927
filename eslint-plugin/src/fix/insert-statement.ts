import { AST_NODE_TYPES, type TSESLint, type TSESTree } from '@typescript-eslint/utils';
import { getIndent, type IndentStyle } from './indentation';

type SourceCode = Readonly<TSESLint.SourceCode>;

/** Inserts `text` on a line of its own before or after `statement`, which keeps its indentation (by `indent`). */
export function insertLine(
  sourceCode: SourceCode,
  fixer: TSESLint.RuleFixer,
  position: 'before' | 'after',
  statement: TSESTree.Node,
  text: string,
  indent: IndentStyle,
): TSESLint.RuleFix {
  const indentText = getIndent(sourceCode, statement, indent);
  return position === 'before' ? fixer.insertTextBefore(statement, `${text}\n${indentText}`) : fixer.insertTextAfter(statement, `\n${indentText}${text}`);
}

/**
 * Inserts the statement `text` so it runs right before `target`: on the line before it
 * in a block, or, when `target` is a branch of an `if` without braces, in a new block
 * with it (`if (x) continue;` becomes `if (x) { <text> continue; }` over lines). Null
 * when `target` is anywhere else.
 */
export function getInsertBeforeStatementFix(sourceCode: SourceCode, target: TSESTree.Statement, text: string): TSESLint.ReportFixFunction | null {
  const parent = target.parent;
  // The lines of a text of several statements each start at the statement's indentation.
  const indented = (indent: string): string => text.split('\n').join(`\n${indent}`);
  if (parent?.type === AST_NODE_TYPES.BlockStatement) {
    return (fixer) => insertLine(sourceCode, fixer, 'before', target, indented(getIndent(sourceCode, target, 'line')), 'line');
  }
  if (parent?.type === AST_NODE_TYPES.IfStatement && (parent.consequent === target || parent.alternate === target)) {
    const indent = getIndent(sourceCode, parent, 'line');
    return (fixer) => [fixer.insertTextBefore(target, `{\n${indent}  ${indented(`${indent}  `)}\n${indent}  `), fixer.insertTextAfter(target, `\n${indent}}`)];
  }
  return null;
}

/** What a fix function returned, as a list (it may return one fix, several, or none). */
export function asFixList(fixes: ReturnType<TSESLint.ReportFixFunction>): TSESLint.RuleFix[] {
  if (!fixes) return [];
  return 'range' in fixes ? [fixes as TSESLint.RuleFix] : [...(fixes as Iterable<TSESLint.RuleFix>)];
}
