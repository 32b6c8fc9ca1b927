import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';
import { isFunctionNode } from '../ast';
import { type DbCall, getSqlText } from '../clients';
import type { AnyRuleContext } from '../per-file-cache';

/**
 * Clean-up whose failure code ignores on purpose, with good reason: dropping a collection or an
 * index that may not exist (MongoDB fails with "ns not found" / IndexNotFound), and resetting a
 * pooled connection's session state in a `finally` (`set_config(…)`, `RESET`, `DISCARD`) after
 * the work itself has succeeded or already thrown. No data is lost when these fail.
 */
const DROP_OPERATIONS = new Set(['drop', 'dropCollection', 'dropDatabase', 'dropIndex', 'dropIndexes']);
const SESSION_RESET = /^\s*(?:SELECT\s+(?:pg_catalog\.)?set_config\s*\(|RESET\b|DISCARD\b)/i;

/** `call` is such a clean-up, guarded by `guard`: a drop anywhere, a session reset inside a `finally`. */
export function isIgnorableCleanup(context: AnyRuleContext, call: DbCall, guard: TSESTree.TryStatement): boolean {
  if (DROP_OPERATIONS.has(call.operation)) return true;
  const node = call.node;
  const sqlNode = node.type === AST_NODE_TYPES.TaggedTemplateExpression ? node : node.arguments[0];
  const sql = sqlNode && sqlNode.type !== AST_NODE_TYPES.SpreadElement ? getSqlText(context, sqlNode) : undefined;
  return sql !== undefined && SESSION_RESET.test(sql) && isInFinally(guard);
}

function isInFinally(node: TSESTree.Node): boolean {
  let child: TSESTree.Node = node;
  for (let parent = node.parent; parent && !isFunctionNode(parent); child = parent, parent = parent.parent) {
    if (parent.type === AST_NODE_TYPES.TryStatement && parent.finalizer === child) return true;
  }
  return false;
}
