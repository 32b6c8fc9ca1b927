import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { getIndent, type IndentStyle } from './indentation';

type SourceCode = Readonly<TSESLint.SourceCode>;

/**
 * Inserts `text` (`key: value`) as the first property of an object literal, following
 * its layout: on a line of its own, indented like the first property (by `indent`), when
 * the properties start below the opening brace; else on the same line.
 */
export function insertFirstProperty(
  sourceCode: SourceCode,
  fixer: TSESLint.RuleFixer,
  object: TSESTree.ObjectExpression,
  text: string,
  indent: IndentStyle,
): TSESLint.RuleFix {
  const first = object.properties[0];
  if (!first) return fixer.replaceText(object, `{ ${text} }`);
  const openingBrace = sourceCode.getFirstToken(object);
  if (openingBrace && openingBrace.loc.end.line !== first.loc.start.line) {
    return fixer.insertTextBefore(first, `${text},\n${getIndent(sourceCode, first, indent)}`);
  }
  return fixer.insertTextBefore(first, `${text}, `);
}

/**
 * Adds `text` (`key: value`) after the last property of an object literal, on a line of
 * its own when the properties are one per line; a trailing comma stays last.
 */
export function appendProperty(sourceCode: SourceCode, fixer: TSESLint.RuleFixer, object: TSESTree.ObjectExpression, text: string): TSESLint.RuleFix {
  const last = object.properties.at(-1);
  if (!last) return fixer.replaceText(object, `{ ${text} }`);
  const after = sourceCode.getTokenAfter(last);
  const openingBrace = sourceCode.getFirstToken(object);
  const indent = openingBrace && openingBrace.loc.end.line !== last.loc.start.line ? getIndent(sourceCode, last, 'leading') : '';
  const separator = indent ? `\n${indent}` : ' ';
  return after?.value === ',' ? fixer.insertTextAfter(after, `${separator}${text},`) : fixer.insertTextAfter(last, `,${separator}${text}`);
}
