import { findMongoCalls, findTransactionScopes } from '../analysis/clients';
import { findDatabaseRetryScopes, type RetryScope } from '../analysis/retry';
import { getSingleAttemptFix } from '../fix';
import { createRule } from '../util/create-rule';

export default createRule<[], 'retryInsideTransaction' | 'keepSingleAttempt'>({
  name: 'mongo-no-retry-in-transaction',
  meta: {
    type: 'problem',
    docs: {
      description: 'Disallow hand-written retries of individual MongoDB writes inside a transaction.',
      database: 'MongoDB',
    },
    hasSuggestions: true,
    messages: {
      retryInsideTransaction:
        'MongoDB `{{method}}` is retried by {{retry}} inside a transaction, where a transient error aborts the whole transaction. Retry the whole transaction instead (`withTransaction` does).',
      keepSingleAttempt: 'Remove the hand-written retry and keep one attempt: the transaction callback reruns the whole transaction on a transient error.',
    },
    schema: [],
    defaultOptions: [],
  },
  defaultOptions: [],
  create(context) {
    return {
      'Program:exit'() {
        // Cheap exit first: `.transaction(` also matches knex and pg code.
        if (!findMongoCalls(context).some((call) => call.isWrite)) return;
        const transactions = findTransactionScopes(context);
        if (transactions.length === 0) return;
        const retries = findDatabaseRetryScopes(context).filter((retry) =>
          transactions.some((transaction) => transaction.range[0] <= retry.node.range[0] && retry.node.range[1] <= transaction.range[1]),
        );
        if (retries.length === 0) return;
        const reported = new Set<unknown>();
        for (const call of findMongoCalls(context)) {
          if (!call.isWrite || reported.has(call.node)) continue;
          const [start, end] = call.node.range;
          const retry = retries.find((scope) => scope.attempt.range[0] <= start && end <= scope.attempt.range[1]);
          if (!retry) continue;
          reported.add(call.node);
          // Only `withTransaction(fn)` / `connection.transaction(fn)` rerun the whole transaction once the loop is gone.
          const inCallback = transactions.some(
            (transaction) => transaction.kind === 'callback' && transaction.range[0] <= retry.node.range[0] && retry.node.range[1] <= transaction.range[1],
          );
          const fix = inCallback && retry.kind === 'loop' ? getSingleAttemptFix(context.sourceCode, retry.node) : undefined;
          context.report({
            node: call.node,
            messageId: 'retryInsideTransaction',
            data: { method: call.operation, retry: describeRetry(retry) },
            suggest: fix ? [{ messageId: 'keepSingleAttempt', fix }] : [],
          });
        }
      },
    };
  },
});

function describeRetry(retry: RetryScope): string {
  switch (retry.kind) {
    case 'loop':
      return 'a retry loop';
    case 'recursion':
      return 'a recursive retry';
    case 'catch-retry':
      return 'a `.catch` retry';
    case 'library':
      return retry.library ? `\`${retry.library}\`` : 'a retry library';
  }
}
