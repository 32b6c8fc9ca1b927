import { AST_NODE_TYPES, type TSESLint, type TSESTree } from '@typescript-eslint/utils';
import { getOwnLinesRange } from './line-ranges';

/**
 * How a property's removal treats what is around it:
 * - `lines` follows the object's layout: a property with its line(s) to itself takes
 *   them; otherwise the comma after it goes, with the spaces up to what follows on the
 *   same line; the last property takes the comma before it; the only property leaves
 *   `{}` (a trailing comma goes too).
 * - `tokens` takes the comma after it and everything up to the next token, line breaks
 *   included; when that token closes the object, the comma before it instead (a trailing
 *   comma stays); the only property leaves `{}`.
 */
export type PropertyRemovalLayout = 'lines' | 'tokens';

/** The text range that removes `property` from its object literal together with one separating comma. */
export function getPropertyRemovalRange(
  sourceCode: Readonly<TSESLint.SourceCode>,
  property: TSESTree.ObjectLiteralElement,
  layout: PropertyRemovalLayout,
): [number, number] {
  const object = property.parent;
  if (layout === 'lines' && object.type === AST_NODE_TYPES.ObjectExpression && object.properties.length === 1) {
    return [object.range[0] + 1, object.range[1] - 1];
  }
  const before = sourceCode.getTokenBefore(property);
  const after = sourceCode.getTokenAfter(property);
  if (isComma(after)) {
    const next = sourceCode.getTokenAfter(after, { includeComments: true });
    if (layout === 'lines') {
      const text = sourceCode.text;
      const ownLines = getOwnLinesRange(text, property.range[0], after.range[1]);
      if (ownLines) return ownLines;
      const end = next && !text.slice(after.range[1], next.range[0]).includes('\n') ? next.range[0] : after.range[1];
      return [property.range[0], end];
    }
    // The next property keeps its place.
    if (next && next.value !== '}') return [property.range[0], next.range[0]];
  }
  if (isComma(before)) return [before.range[0], property.range[1]];
  if (isComma(after)) return [property.range[0], after.range[1]];
  if (before?.value === '{' && after?.value === '}') return [before.range[1], after.range[0]];
  return [property.range[0], property.range[1]];
}

function isComma(token: TSESTree.Token | null): token is TSESTree.PunctuatorToken {
  return token?.type === 'Punctuator' && token.value === ',';
}
