import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { containsNode, isFunctionNode } from '../analysis/ast';
import { findDbCalls, getOpenTransaction, getPostgresReportNode, type PostgresCall } from '../analysis/clients';
import { classifyRetryScope, retriesOutcomeUnknownErrors } from '../analysis/errors';
import { findDatabaseRetryScopes, type RetryScope } from '../analysis/retry';
import { getSingleAttemptFix } from '../fix';
import { createRule } from '../util/create-rule';
import { quoteCode } from '../util/quote-code';

type MessageId = 'statementRetriedInTransaction' | 'transactionRetriedOnSameConnection' | 'keepSingleAttempt';

export default createRule<[], MessageId>({
  name: 'pg-require-whole-transaction-retry',
  meta: {
    type: 'problem',
    docs: {
      description: 'Require PostgreSQL retries to rerun the whole transaction on a new connection, not one statement inside it.',
      database: 'PostgreSQL',
    },
    hasSuggestions: true,
    messages: {
      statementRetriedInTransaction:
        'This retry reruns one statement of the PostgreSQL transaction begun on line {{line}} (`{{begin}}`), which rejects every statement after an error. Retry the whole transaction, on a new connection.',
      transactionRetriedOnSameConnection:
        'This retry reruns the PostgreSQL transaction on the connection taken on line {{line}}: after a connection failure that client is broken. Take a new connection in each attempt.',
      keepSingleAttempt:
        'Remove the retry and run the statement once: after an error the transaction rejects every statement until ROLLBACK, so the retry cannot succeed. Retry the whole transaction by hand.',
    },
    schema: [],
    defaultOptions: [],
  },
  defaultOptions: [],
  create(context) {
    return {
      'Program:exit'() {
        const calls = findDbCalls(context).filter((call): call is PostgresCall => call.database === 'postgres');
        if (calls.length === 0) return;
        const scopes = findDatabaseRetryScopes(context);
        if (scopes.length === 0) return;
        const check = createScopeCheck(context);
        for (const scope of scopes) check(scope, calls);
      },
    };
  },
});

/** The checks of one file, made only when it has something to check (most files have not). */
function createScopeCheck(context: Readonly<TSESLint.RuleContext<MessageId, []>>): (scope: RetryScope, calls: readonly PostgresCall[]) => void {
  const reported = new Set<TSESTree.Node>();

  function check(scope: RetryScope, calls: readonly PostgresCall[]): void {
    if (scope.kind === 'library' && !isFunctionNode(scope.attempt)) return;
    const inside = calls.filter((call) => call.connection && containsNode(scope.attempt, call.node));
    if (inside.length === 0) return;
    // A SAVEPOINT inside the retry makes rerunning part of a transaction correct.
    if (inside.some((call) => call.operation === 'savepoint' || call.statement?.kinds.includes('savepoint'))) return;
    for (const call of inside) {
      if (checkStatementInTransaction(scope, call, calls)) return;
    }
    checkSameConnection(scope, inside);
  }

  /** The retry sits between BEGIN and COMMIT of the call's connection, or inside a `sql.begin` callback. */
  function checkStatementInTransaction(scope: RetryScope, call: PostgresCall, calls: readonly PostgresCall[]): boolean {
    const begin = getOpenTransaction(call, scope.node, calls);
    if (!begin) return false;
    const node = getPostgresReportNode(call);
    if (reported.has(node)) return true;
    reported.add(node);
    // A retry loop that sits wholly inside the transaction: its one attempt behaves the same, minus the waits and the retries that cannot succeed.
    const fix = scope.kind === 'loop' && !containsNode(scope.node, begin.node) ? getSingleAttemptFix(context.sourceCode, scope.node) : undefined;
    context.report({
      node,
      messageId: 'statementRetriedInTransaction',
      data: { begin: quoteCode(begin.label), line: String(begin.node.loc.start.line) },
      suggest: fix ? [{ messageId: 'keepSingleAttempt', fix }] : [],
    });
    return true;
  }

  /** The whole transaction is inside the retry, but its connection was taken before it. */
  function checkSameConnection(scope: RetryScope, inside: readonly PostgresCall[]): void {
    const begin = inside.find((call) => call.library === 'pg' && call.statement?.kinds.includes('begin'));
    const connection = begin?.connection;
    if (!begin || !connection || containsNode(scope.node, connection)) return;
    const classification = classifyRetryScope(scope, begin.node);
    if (!classification || !retriesOutcomeUnknownErrors(classification, 'postgres')) return;
    const node = getPostgresReportNode(begin);
    if (reported.has(node)) return;
    reported.add(node);
    context.report({ node, messageId: 'transactionRetriedOnSameConnection', data: { line: String(connection.loc.start.line) } });
  }

  return check;
}
