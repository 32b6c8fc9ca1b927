import type { TSESLint, TSESTree } from '@typescript-eslint/utils';

/** Whether an edit would drop a comment. */

type SourceCode = Readonly<TSESLint.SourceCode>;

/** True when a comment lies inside `outer` but outside every range of `kept`. */
export function hasCommentOutside(sourceCode: SourceCode, outer: TSESTree.Node, kept: readonly TSESTree.Node[]): boolean {
  return sourceCode
    .getCommentsInside(outer)
    .some((comment) => !kept.some((node) => node.range[0] <= comment.range[0] && comment.range[1] <= node.range[1]));
}

/** True when some comment of the file overlaps `range`. */
export function overlapsComment(sourceCode: SourceCode, range: readonly [number, number]): boolean {
  return sourceCode.getAllComments().some((comment) => comment.range[0] < range[1] && comment.range[1] > range[0]);
}
