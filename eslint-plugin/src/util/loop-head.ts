import { AST_NODE_TYPES, type TSESLint, type TSESTree } from '@typescript-eslint/utils';

/**
 * Where a report on a loop goes: its head, `for (…)` / `while (…)` up to the body, or
 * the `while (…);` of a `do … while`. Undefined when `node` is not a loop.
 */
export function getLoopHeadLoc(sourceCode: Readonly<TSESLint.SourceCode>, node: TSESTree.Node): TSESTree.SourceLocation | undefined {
  switch (node.type) {
    case AST_NODE_TYPES.ForStatement:
    case AST_NODE_TYPES.ForInStatement:
    case AST_NODE_TYPES.ForOfStatement:
    case AST_NODE_TYPES.WhileStatement: {
      const closing = sourceCode.getTokenBefore(node.body);
      return { start: node.loc.start, end: closing ? closing.loc.end : node.loc.end };
    }
    case AST_NODE_TYPES.DoWhileStatement: {
      const whileToken = sourceCode.getTokenAfter(node.body);
      const closing = sourceCode.getTokenAfter(node.test);
      return { start: whileToken ? whileToken.loc.start : node.loc.start, end: closing ? closing.loc.end : node.loc.end };
    }
    default:
      return undefined;
  }
}
