import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { findMongoCalls, findPossibleSessionCommits, findTransactionScopes } from '../analysis/clients';
import { classifyRetryScope } from '../analysis/errors';
import { findDatabaseRetryScopes, findEnclosingRetryScopes, type RetryScope } from '../analysis/retry';
import { getSingleAttemptFix } from '../fix';
import { createRule } from '../util/create-rule';

type MessageId = 'retryInsideTransaction' | 'keepSingleAttempt' | 'commitRetriedOnTransientError' | 'retryCommitOnUnknownResult';

const TRANSIENT_TRANSACTION_ERROR = 'TransientTransactionError';
const UNKNOWN_COMMIT_RESULT = 'UnknownTransactionCommitResult';

export default createRule<[], MessageId>({
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
      commitRetriedOnTransientError:
        '`commitTransaction` is retried on `TransientTransactionError`, which means the whole transaction aborted. Retry the whole transaction on it, the commit alone on `UnknownTransactionCommitResult`.',
      retryCommitOnUnknownResult: 'Retry the commit only on `UnknownTransactionCommitResult`; let `TransientTransactionError` reach the code that reruns the transaction.',
    },
    schema: [],
    defaultOptions: [],
  },
  defaultOptions: [],
  create(context) {
    return {
      'Program:exit'() {
        checkCommitRetries(context);
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

/**
 * `session.commitTransaction()` retried when the error has the label
 * `TransientTransactionError` (MongoDB's own example checks it with `hasErrorLabel`). The
 * label is checked with the driver's API, which tells a MongoDB session even where the
 * receiver's origin is not known.
 */
function checkCommitRetries(context: Readonly<TSESLint.RuleContext<MessageId, []>>): void {
  const text = context.sourceCode.text;
  if (!text.includes(TRANSIENT_TRANSACTION_ERROR) || !text.includes('commitTransaction')) return;
  for (const { call } of findPossibleSessionCommits(context)) {
    for (const scope of findEnclosingRetryScopes(context, call)) {
      const classification = classifyRetryScope(scope, call);
      const transient = classification?.retriedValues.find((value) => value.property === 'label' && value.value === TRANSIENT_TRANSACTION_ERROR);
      if (!classification || !transient) continue;
      const retriesUnknownResult = classification.retriedValues.some((value) => value.property === 'label' && value.value === UNKNOWN_COMMIT_RESULT);
      context.report({
        node: call,
        messageId: 'commitRetriedOnTransientError',
        suggest: retriesUnknownResult ? [] : [{ messageId: 'retryCommitOnUnknownResult', fix: (fixer) => replaceLabel(context, fixer, transient.node) }],
      });
      break;
    }
  }
}

/** The label's string written again with the same quotes. */
function replaceLabel(context: Readonly<TSESLint.RuleContext<MessageId, []>>, fixer: TSESLint.RuleFixer, node: TSESTree.Node): TSESLint.RuleFix {
  const quote = context.sourceCode.getText(node)[0] ?? "'";
  return fixer.replaceText(node, `${quote}${UNKNOWN_COMMIT_RESULT}${quote}`);
}

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
