import { AST_NODE_TYPES } from '@typescript-eslint/utils';
import type { DbCall } from './db-call';
import type { AnyRuleContext } from '../per-file-cache';
import { getSqlText } from './sql-statements';

/**
 * Calls that check on the database rather than do the work, which code retries on any
 * error by design: opening a connection (DOMAIN.md §2), a connectivity probe
 * (`SELECT 1`, `SELECT now()`), setting up the session a new connection needs
 * (`LISTEN channel`, `SET search_path …`: retried with the connection), and a DynamoDB
 * `Describe…` / `List…` call (waiting for a table: `ResourceNotFoundException` is what it
 * waits out).
 */
export function isProbeCall(context: AnyRuleContext, call: DbCall): boolean {
  if (call.operation === 'connect') return true;
  if (call.database === 'dynamodb') return /^(Describe|List)/.test(call.operation);
  if (call.database === 'postgres') {
    const node = call.node;
    const argument = node.type === AST_NODE_TYPES.TaggedTemplateExpression ? node : node.arguments[0];
    const text = argument ? getSqlText(context, argument) : undefined;
    if (text !== undefined && /^\s*select\b/i.test(text) && !/\bfrom\b/i.test(text)) return true;
    if (text !== undefined && /^\s*(listen|unlisten|set|reset)\b/i.test(text)) return true;
  }
  return false;
}
