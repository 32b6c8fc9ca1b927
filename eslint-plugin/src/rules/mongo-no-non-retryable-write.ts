import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import {
  findBulkMultiDocumentWrites,
  findEnclosingTransactionScopes,
  findMongoCalls,
  getMultiDocumentWriteIdempotency,
  isMultiDocumentWrite,
  type MongoCall,
  type UpdateIdempotency,
} from '../analysis/clients';
import { isInAsyncFunction } from '../analysis/ast';
import { findEnclosingRetryScopes, SERVICE_BACKOFF, SUGGESTED_MAX_ATTEMPTS } from '../analysis/retry';
import {
  getBackoffDelayText,
  getBoundedRetryText,
  getCodeStyle,
  getFileHelper,
  getSingleDocumentWritesText,
  getTransientErrorHelper,
  getWaitStatement,
  hasCommentOutside,
  isSimpleReference,
  isStatementListItem,
} from '../fix';
import { createRule } from '../util/create-rule';

type Options = [{ checkIdempotentWrites?: boolean }];
type MessageId = 'nonRetryableWrite' | 'nonRetryableBulkWrite' | 'rewriteAsSingleDocumentWrites' | 'retryOnTransientErrors';

/** What to do, by whether running the write again is safe (the last sentence of the message). */
const IDEMPOTENT = 'It is idempotent: retry it yourself, or set `checkIdempotentWrites: false`.';
const UNKNOWN = 'If a rerun is safe, retry it yourself; if not, update one document at a time (by `_id`).';

export default createRule<Options, MessageId>({
  name: 'mongo-no-non-retryable-write',
  meta: {
    type: 'problem',
    docs: {
      description: 'Disallow MongoDB writes that the driver cannot retry (`updateMany`, `deleteMany`).',
      database: 'MongoDB',
    },
    hasSuggestions: true,
    messages: {
      nonRetryableWrite:
        'MongoDB `{{method}}` is not a retryable write: after a network error or failover it may be half done. {{action}}',
      nonRetryableBulkWrite:
        'MongoDB `bulkWrite` with {{operations}} is not a retryable write: after an error it may be half done. {{action}}',
      rewriteAsSingleDocumentWrites:
        'Rewrite as retryable single-document writes: find the matching `_id`s, then `bulkWrite` one `{{operation}}` per `_id` (not atomic as a whole; review).',
      retryOnTransientErrors:
        'Retry this idempotent `{{method}}` on transient errors: up to {{maxAttempts}} attempts with capped, jittered exponential backoff, checked by `{{helper}}(…)`{{added}}.',
    },
    schema: [
      {
        type: 'object',
        properties: {
          checkIdempotentWrites: {
            type: 'boolean',
            description: 'Also report writes that are idempotent (`deleteMany`, `$set`-only updates), which can be re-run safely by hand.',
          },
        },
        additionalProperties: false,
      },
    ],
    defaultOptions: [{ checkIdempotentWrites: true }],
  },
  defaultOptions: [{ checkIdempotentWrites: true }],
  create(context, [{ checkIdempotentWrites = true }]) {
    return {
      'Program:exit'() {
        for (const call of findMongoCalls(context)) {
          if (call.operation !== 'bulkWrite' && !isMultiDocumentWrite(call.operation)) continue;
          // Inside a transaction the writes commit or abort together; the transaction is what gets retried.
          if (findEnclosingTransactionScopes(context, call.node).length > 0) continue;
          if (call.operation === 'bulkWrite') reportBulkWrite(context, call, checkIdempotentWrites);
          else reportMultiDocumentWrite(context, call, checkIdempotentWrites);
        }
      },
    };
  },
});

type Context = Readonly<TSESLint.RuleContext<MessageId, Options>>;

function reportMultiDocumentWrite(context: Context, call: MongoCall, checkIdempotentWrites: boolean): void {
  const idempotency = getMultiDocumentWriteIdempotency(call);
  if (idempotency.isIdempotent && !checkIdempotentWrites) return;
  // An idempotent write that the code's own retry runs again is handled (how it retries is the retry rules' business).
  if (idempotency.isIdempotent && findEnclosingRetryScopes(context, call.node).length > 0) return;
  const rewrite = getRewrite(context, call);
  context.report({
    node: call.node,
    messageId: 'nonRetryableWrite',
    data: { method: call.operation, action: getAction(idempotency) },
    suggest: [
      ...(idempotency.isIdempotent ? getRetrySuggestion(context, call) : []),
      ...(rewrite ? [{ messageId: 'rewriteAsSingleDocumentWrites' as const, data: { operation: rewrite.operation }, fix: rewrite.fix }] : []),
    ],
  });
}

function reportBulkWrite(context: Context, call: MongoCall, checkIdempotentWrites: boolean): void {
  const writes = findBulkMultiDocumentWrites(call);
  if (!writes || writes.length === 0) return;
  const found = [...new Set(writes.map((write) => write.operation))];
  const idempotencies = writes.map((write) => write.idempotency);
  const nonIdempotentOperators = [...new Set(idempotencies.flatMap((item) => item.nonIdempotentOperators))];
  const combined: UpdateIdempotency =
    nonIdempotentOperators.length > 0
      ? { isIdempotent: false, nonIdempotentOperators }
      : { isIdempotent: idempotencies.every((item) => item.isIdempotent) ? true : undefined, nonIdempotentOperators: [] };
  if (combined.isIdempotent && !checkIdempotentWrites) return;
  if (combined.isIdempotent && findEnclosingRetryScopes(context, call.node).length > 0) return;
  context.report({
    node: call.node,
    messageId: 'nonRetryableBulkWrite',
    data: { operations: found.map((name) => `\`${name}\``).join(' and '), action: getAction(combined) },
    suggest: combined.isIdempotent ? getRetrySuggestion(context, call) : [],
  });
}

function getAction(idempotency: UpdateIdempotency): string {
  if (idempotency.isIdempotent === true) return IDEMPOTENT;
  if (idempotency.isIdempotent === false) {
    const operators = idempotency.nonIdempotentOperators.map((operator) => (operator.startsWith('$') ? `\`${operator}\`` : `an aggregation ${operator}`));
    return `A rerun would apply ${operators.join(', ')} twice: update one document at a time (by \`_id\`).`;
  }
  return UNKNOWN;
}

/**
 * For an idempotent write standing alone (`await coll.deleteMany(…);`, `return coll.updateMany(…);`
 * in an async function): the write in a bounded retry on transient errors, with backoff.
 */
function getRetrySuggestion(context: Context, call: MongoCall): TSESLint.SuggestionReportDescriptor<MessageId>[] {
  const sourceCode = context.sourceCode;
  const parent = call.node.parent;
  const statement = parent?.type === 'AwaitExpression' ? parent.parent : parent;
  if (statement?.type !== 'ExpressionStatement' && statement?.type !== 'ReturnStatement') return [];
  if (!isStatementListItem(statement) || sourceCode.getCommentsInside(statement).length > 0) return [];
  // `await` is already there, or the function is async (top-level `await` works in a module).
  if (parent?.type !== 'AwaitExpression' && !isInAsyncFunction(statement)) return [];
  const helper = getFileHelper(context, getTransientErrorHelper('mongodb'), statement);
  const backoff = SERVICE_BACKOFF.mongodb;
  const text = getBoundedRetryText(sourceCode, {
    statement,
    maxAttempts: SUGGESTED_MAX_ATTEMPTS,
    isTransient: helper.name,
    getWait: (attempt) => getWaitStatement(sourceCode, statement, getBackoffDelayText(attempt, backoff)),
    indentUnit: getCodeStyle(context).indentUnit,
  });
  if (!text) return [];
  return [
    {
      messageId: 'retryOnTransientErrors',
      data: { method: call.operation, maxAttempts: String(SUGGESTED_MAX_ATTEMPTS), helper: helper.name, added: helper.added ? ', a function added to this file' : '' },
      fix: (fixer) => [fixer.replaceText(statement, text), ...helper.fixes(fixer)],
    },
  ];
}

/**
 * For a standalone `await coll.updateMany(filter, update);` / `await coll.deleteMany(filter);`
 * on a driver collection: the rewrite into retryable single-document writes, when the
 * collection can be read twice and no comment would be lost.
 */
function getRewrite(context: Context, call: MongoCall): { operation: string; fix: TSESLint.ReportFixFunction } | undefined {
  if (call.library !== 'mongodb' || call.node.optional) return undefined;
  const sourceCode = context.sourceCode;
  const isUpdate = call.operation === 'updateMany';
  const args = call.node.arguments;
  if (args.length !== (isUpdate ? 2 : 1) || args.some((arg) => arg.type === 'SpreadElement')) return undefined;
  const awaited = call.node.parent;
  const statement = awaited?.parent;
  if (awaited?.type !== 'AwaitExpression' || statement?.type !== 'ExpressionStatement') return undefined;
  if (!isSimpleReference(call.receiver)) return undefined;
  const [filter, update] = args as TSESTree.Expression[];
  if (!filter || hasCommentOutside(sourceCode, statement, args)) return undefined;
  const text = getSingleDocumentWritesText(sourceCode, { statement, receiver: call.receiver, filter, update: isUpdate ? update : undefined }, getCodeStyle(context).typescript);
  return { operation: isUpdate ? 'updateOne' : 'deleteOne', fix: (fixer) => fixer.replaceText(statement, text) };
}
