import { AST_NODE_TYPES } from '@typescript-eslint/utils';
import type { DbCall } from './db-call';

/** Operations that clean up after work (or after a failure); a failure there is commonly, and safely, ignored. */
const CLEANUP_OPERATIONS = new Set(['close', 'end', 'release', 'disconnect', 'destroy', 'abortTransaction', 'endSession']);

/**
 * `pool.end()`, `session.abortTransaction()`, `client.query('ROLLBACK')`: ignoring their errors
 * loses no data — the work they clean up after has already failed or finished.
 */
export function isCleanupCall(call: DbCall): boolean {
  if (CLEANUP_OPERATIONS.has(call.operation)) return true;
  if (call.node.type !== AST_NODE_TYPES.CallExpression) return false;
  const first = call.node.arguments[0];
  const sql =
    first?.type === AST_NODE_TYPES.Literal && typeof first.value === 'string'
      ? first.value
      : first?.type === AST_NODE_TYPES.TemplateLiteral && first.quasis.length === 1
        ? (first.quasis[0]?.value.cooked ?? '')
        : undefined;
  return sql !== undefined && /^\s*(ROLLBACK|ABORT)\b/i.test(sql);
}
