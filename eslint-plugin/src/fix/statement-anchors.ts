import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';
import { isFunctionNode } from '../analysis/ast';

/**
 * Where a new statement can go so that it runs once before some code: before a statement
 * that stands directly in a statement list.
 */

/** A statement directly in a block, the program, a static block or a `case`. */
export function isStatementListItem(node: TSESTree.Node): boolean {
  const parent = node.parent;
  return (
    parent?.type === AST_NODE_TYPES.BlockStatement ||
    parent?.type === AST_NODE_TYPES.Program ||
    parent?.type === AST_NODE_TYPES.StaticBlock ||
    (parent?.type === AST_NODE_TYPES.SwitchCase && parent.consequent.includes(node as TSESTree.Statement))
  );
}

/** `statement`, or the label in front of it, when that stands in a statement list. */
export function getListedStatement(statement: TSESTree.Node): TSESTree.Node | undefined {
  const labeled = statement.parent?.type === AST_NODE_TYPES.LabeledStatement ? statement.parent : statement;
  return isStatementListItem(labeled) ? labeled : undefined;
}

/** The innermost statement holding `node` (or `node` itself) that stands in a statement list, within `node`'s function. */
export function getEnclosingListedStatement(node: TSESTree.Node): TSESTree.Node | undefined {
  for (let current: TSESTree.Node | undefined = node; current; current = current.parent) {
    if (isFunctionNode(current)) return undefined;
    if (isStatementListItem(current)) return current;
  }
  return undefined;
}

/**
 * The innermost statement holding `node` where a statement can go right before it: one in a
 * block, or an `if`'s branch (which then gets braces), within `node`'s function.
 */
export function getEnclosingInsertableStatement(node: TSESTree.Node): TSESTree.Statement | undefined {
  for (let current = node.parent; current; current = current.parent) {
    if (isFunctionNode(current)) return undefined;
    const parent = current.parent;
    if (parent?.type === AST_NODE_TYPES.BlockStatement || (parent?.type === AST_NODE_TYPES.IfStatement && parent.test !== current)) return current as TSESTree.Statement;
  }
  return undefined;
}
