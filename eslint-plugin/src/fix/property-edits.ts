import type { TSESLint, TSESTree } from '@typescript-eslint/utils';

/**
 * The text range that removes `property` from its object literal together with one
 * separating comma, keeping the rest of the object's layout: a property on its own
 * line takes its line with it; the last property takes the comma before it; the only
 * property leaves `{}`.
 */
export function getPropertyRemovalRange(
  sourceCode: Readonly<TSESLint.SourceCode>,
  object: TSESTree.ObjectExpression,
  property: TSESTree.ObjectLiteralElement,
): [number, number] {
  const text = sourceCode.text;
  if (object.properties.length === 1) {
    return [object.range[0] + 1, object.range[1] - 1];
  }
  const after = sourceCode.getTokenAfter(property);
  if (after && after.value === ',' && after.type === 'Punctuator') {
    let start = property.range[0];
    let end = after.range[1];
    const lineStart = text.lastIndexOf('\n', start - 1) + 1;
    const lineEnd = text.indexOf('\n', end);
    if (/^[ \t]*$/.test(text.slice(lineStart, start)) && lineEnd !== -1 && /^[ \t]*$/.test(text.slice(end, lineEnd))) {
      // The property has its line to itself: remove the whole line.
      return [lineStart, lineEnd + 1];
    }
    const next = sourceCode.getTokenAfter(after, { includeComments: true });
    if (next && !text.slice(end, next.range[0]).includes('\n')) end = next.range[0];
    start = property.range[0];
    return [start, end];
  }
  const before = sourceCode.getTokenBefore(property);
  if (before && before.value === ',' && before.type === 'Punctuator') return [before.range[0], property.range[1]];
  return [property.range[0], property.range[1]];
}
