import type { TSESTree } from '@typescript-eslint/utils';
import { containsNode, isFunctionNode } from '../ast';
import type { PostgresCall } from './pg-calls';

/**
 * Transactions around a piece of code, on the connection a PostgreSQL call runs on:
 * `client.query('BEGIN')` earlier on the same client with no COMMIT / ROLLBACK since,
 * or the callback of postgres.js `sql.begin` / `sql.savepoint` whose transaction
 * `sql` the call uses.
 */
export interface OpenTransaction {
  /** The `BEGIN` query or the `sql.begin(…)` / `sql.savepoint(…)` call. */
  node: TSESTree.Node;
  /** How messages name it: `BEGIN`, `sql.begin`, `sql.savepoint`. */
  label: string;
}

/**
 * The transaction `call` runs in that was opened before `before` started (outside it):
 * `before` is typically a retry loop or a retry library call around `call`.
 */
export function getOpenTransaction(
  call: PostgresCall,
  before: TSESTree.Node,
  calls: readonly PostgresCall[],
): OpenTransaction | undefined {
  if (!call.connection) return undefined;
  // postgres.js: `sql.begin(async (tx) => { … tx`…` … })`.
  const transaction = calls.find(
    (other) =>
      (other.operation === 'begin' || other.operation === 'savepoint') &&
      other.transactionCallback !== undefined &&
      containsNode(other.transactionCallback, before) &&
      isParameterOf(call.connection, other.transactionCallback),
  );
  if (transaction) return { node: transaction.node, label: transaction.operation === 'begin' ? 'sql.begin' : 'sql.savepoint' };
  // pg: `client.query('BEGIN')` before, with no COMMIT / ROLLBACK in between.
  let open: PostgresCall | undefined;
  for (const other of calls) {
    if (other.connection !== call.connection || other.node.range[1] > before.range[0]) continue;
    const kinds = other.statement?.kinds ?? [];
    const last = [...kinds].reverse().find((kind) => kind === 'begin' || kind === 'commit' || kind === 'rollback');
    if (last === 'begin') open = other;
    else if (last === 'commit' || last === 'rollback') open = undefined;
  }
  return open ? { node: open.node, label: 'BEGIN' } : undefined;
}

function isParameterOf(connection: TSESTree.Node | undefined, fn: TSESTree.Node): boolean {
  return (
    connection !== undefined &&
    isFunctionNode(fn) &&
    fn.params.some((param) => param === connection)
  );
}
