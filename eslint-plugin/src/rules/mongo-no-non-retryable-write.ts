import { ASTUtils, type TSESLint, type TSESTree } from '@typescript-eslint/utils';
import {
  findBulkMultiDocumentWrites,
  findEnclosingTransactionScopes,
  findMongoCalls,
  getMultiDocumentWriteIdempotency,
  isMultiDocumentWrite,
  type MongoCall,
  type UpdateIdempotency,
} from '../analysis/clients';
import { isInAsyncFunction, isPromiseMethod } from '../analysis/ast';
import { createPerFileCache } from '../analysis/per-file-cache';
import { findDatabaseRetryScopes, findEnclosingRetryScopes, findRetriedDbCalls, SERVICE_BACKOFF, SUGGESTED_MAX_ATTEMPTS } from '../analysis/retry';
import {
  canRunAgainInArrow,
  findTopLevelSleepFunction,
  getBackoffDelayText,
  getBoundedRetryText,
  getCodeStyle,
  getFileHelper,
  getAsyncListenerFix,
  getFileHelpers,
  getSingleDocumentWritesText,
  getTransientErrorHelper,
  getTransientRetryHelper,
  getWaitStatement,
  hasCommentOutside,
  isSimpleReference,
  isStatementListItem,
} from '../fix';
import { createRule } from '../util/create-rule';

type Options = [{ checkIdempotentWrites?: boolean }];
type MessageId =
  | 'nonRetryableWrite'
  | 'nonRetryableBulkWrite'
  | 'rewriteAsSingleDocumentWrites'
  | 'retryOnTransientErrors'
  | 'retryThroughHelper'
  | 'retryIfRerunIsSafe'
  | 'retryThroughHelperIfRerunIsSafe';

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
        'Rewrite as retryable single-document writes: find the matching `_id`s, then `bulkWrite` one `{{operation}}` per `_id` (not atomic as a whole; review).{{inListener}}',
      retryOnTransientErrors:
        'Retry this idempotent `{{method}}` on transient errors: up to {{maxAttempts}} attempts with capped, jittered exponential backoff, checked by `{{helper}}(…)`{{added}}.',
      retryThroughHelper:
        'Retry this idempotent `{{method}}` on transient errors: run it through `{{helper}}(() => …)`{{added}}, up to {{maxAttempts}} attempts with capped, jittered exponential backoff.',
      retryIfRerunIsSafe:
        'Only if running this `{{method}}` twice is safe: retry it on transient errors, up to {{maxAttempts}} attempts with jittered backoff, checked by `{{helper}}(…)`{{added}}.',
      retryThroughHelperIfRerunIsSafe:
        'Only if running this `{{method}}` twice is safe: run it through `{{helper}}(() => …)`{{added}}, which retries it on transient errors up to {{maxAttempts}} attempts with backoff.',
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
  // A write that the code's own retry runs again is handled when a rerun is safe or may be (the
  // message's advice is to retry it then); how it retries is the retry rules' business.
  if (idempotency.isIdempotent !== false && isRetriedByOwnCode(context, call.node)) return;
  const rewrite = getRewrite(context, call);
  context.report({
    node: call.node,
    messageId: 'nonRetryableWrite',
    data: { method: call.operation, action: getAction(idempotency) },
    suggest: [
      ...(idempotency.isIdempotent !== false ? getRetrySuggestion(context, call, idempotency.isIdempotent === true) : []),
      ...(rewrite ? [{ messageId: 'rewriteAsSingleDocumentWrites' as const, data: { operation: rewrite.operation, inListener: rewrite.inListener }, fix: rewrite.fix }] : []),
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
  if (combined.isIdempotent && isRetriedByOwnCode(context, call.node)) return;
  context.report({
    node: call.node,
    messageId: 'nonRetryableBulkWrite',
    data: { operations: found.map((name) => `\`${name}\``).join(' and '), action: getAction(combined) },
    suggest: combined.isIdempotent ? getRetrySuggestion(context, call, true) : [],
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
 * Whether a retry of the file runs `node` again: a loop or recursion around it, or a function
 * that retries the callback it is given (`withRetry(() => coll.deleteMany(filter))`).
 */
function isRetriedByOwnCode(context: Context, node: TSESTree.Node): boolean {
  return findEnclosingRetryScopes(context, node).length > 0 || findCallsRetriedThroughFunctions(context).has(node) || isPassedToImportedRetry(context, node);
}

/**
 * `withRetry(() => coll.deleteMany(filter))` where `withRetry` is imported from elsewhere in the
 * project: its body is not in this file, and its name says it retries what it is given.
 */
function isPassedToImportedRetry(context: Context, node: TSESTree.Node): boolean {
  const executed = node.type === 'CallExpression' ? getExecutedCall(node) : node;
  const arrow = executed.parent;
  if (arrow?.type !== 'ArrowFunctionExpression' || arrow.body !== executed) return false;
  const caller = arrow.parent;
  if (caller?.type !== 'CallExpression' || caller.callee.type !== 'Identifier' || !caller.arguments.includes(arrow)) return false;
  if (!/retry/i.test(caller.callee.name)) return false;
  const variable = ASTUtils.findVariable(context.sourceCode.getScope(caller) as TSESLint.Scope.Scope, caller.callee);
  return variable?.defs[0]?.type === 'ImportBinding';
}

/** Database calls a retry runs through a function it calls (a local helper, a callback it is passed). */
const findCallsRetriedThroughFunctions = createPerFileCache((context): ReadonlySet<TSESTree.Node> => {
  const calls = new Set<TSESTree.Node>();
  for (const scope of findDatabaseRetryScopes(context)) {
    for (const { call, site } of findRetriedDbCalls(context, scope)) if (site !== call.node) calls.add(call.node);
  }
  return calls;
});

/**
 * For a write that is idempotent (`knownSafe`) or may be: run it again on transient errors, in
 * place (a loop) or through a helper; when it may not be, the title says that a rerun must be
 * safe.
 */
function getRetrySuggestion(context: Context, call: MongoCall, knownSafe: boolean): TSESLint.SuggestionReportDescriptor<MessageId>[] {
  const suggestion = getRetryLoopSuggestion(context, call, knownSafe) ?? getRetryHelperSuggestion(context, call, knownSafe);
  return suggestion ? [suggestion] : [];
}

/**
 * For an idempotent write standing alone (`await coll.deleteMany(…);`, `return coll.updateMany(…);`
 * in an async function): the write in a bounded retry on transient errors, with backoff.
 */
function getRetryLoopSuggestion(context: Context, call: MongoCall, knownSafe: boolean): TSESLint.SuggestionReportDescriptor<MessageId> | undefined {
  const sourceCode = context.sourceCode;
  const parent = call.node.parent;
  const statement = parent?.type === 'AwaitExpression' ? parent.parent : parent;
  if (statement?.type !== 'ExpressionStatement' && statement?.type !== 'ReturnStatement') return undefined;
  if (!isStatementListItem(statement) || sourceCode.getCommentsInside(statement).length > 0) return undefined;
  // `await` is already there, or the function is async (top-level `await` works in a module).
  if (parent?.type !== 'AwaitExpression' && !isInAsyncFunction(statement)) return undefined;
  const helper = getFileHelper(context, getTransientErrorHelper('mongodb'), statement);
  const backoff = SERVICE_BACKOFF.mongodb;
  const text = getBoundedRetryText(sourceCode, {
    statement,
    maxAttempts: SUGGESTED_MAX_ATTEMPTS,
    isTransient: helper.name,
    getWait: (attempt) => getWaitStatement(sourceCode, statement, getBackoffDelayText(attempt, backoff)),
    indentUnit: getCodeStyle(context).indentUnit,
  });
  if (!text) return undefined;
  return {
    messageId: knownSafe ? 'retryOnTransientErrors' : 'retryIfRerunIsSafe',
    data: { method: call.operation, maxAttempts: String(SUGGESTED_MAX_ATTEMPTS), helper: helper.name, added: helper.added ? ', a function added to this file' : '' },
    fix: (fixer) => [fixer.replaceText(statement, text), ...helper.fixes(fixer)],
  };
}

/**
 * For an idempotent write whose result is used where it stands (`(await coll.deleteMany(q)).deletedCount`,
 * `const { modifiedCount } = await …`, `.then(…)`, a Mongoose `….exec()`): the call wrapped in a
 * helper added once per file that runs it again on transient errors, with backoff.
 */
function getRetryHelperSuggestion(context: Context, call: MongoCall, knownSafe: boolean): TSESLint.SuggestionReportDescriptor<MessageId> | undefined {
  const sourceCode = context.sourceCode;
  if (call.node.optional) return undefined;
  const target = getExecutedCall(call.node);
  const parent = target.parent;
  if (parent?.type === 'ChainExpression') return undefined;
  // A query builder's other methods (`.session(s)`, `.lean()`) are not on the promise the helper returns.
  if (parent?.type === 'MemberExpression' && parent.object === target && !isPromiseMethod(parent)) return undefined;
  if (!canRunAgainInArrow(target, sourceCode.visitorKeys)) return undefined;
  const sleep = findTopLevelSleepFunction(sourceCode);
  const transient = getTransientErrorHelper('mongodb');
  const getRetryHelper = (isTransient: string) =>
    getTransientRetryHelper({ database: 'mongodb', isTransient, maxAttempts: SUGGESTED_MAX_ATTEMPTS, backoff: SERVICE_BACKOFF.mongodb, sleep });
  // An existing retry helper of that name needs no transient check; else both are added, in one edit.
  const existing = getFileHelper(context, getRetryHelper(transient.name), target);
  const helpers = existing.added ? getFileHelpers(context, [transient, getRetryHelper(getFileHelper(context, transient, target).name)], target) : undefined;
  const name = helpers?.names[1] ?? existing.name;
  const text = `${name}(() => ${sourceCode.getText(target)})`;
  return {
    messageId: knownSafe ? 'retryThroughHelper' : 'retryThroughHelperIfRerunIsSafe',
    data: { method: call.operation, maxAttempts: String(SUGGESTED_MAX_ATTEMPTS), helper: name, added: helpers?.added ? ' (added to this file)' : '' },
    fix: (fixer) => [fixer.replaceText(target, text), ...(helpers?.fixes(fixer) ?? [])],
  };
}

/** The call that runs the write: a Mongoose `Model.updateMany(…).exec()`, else the write itself. */
function getExecutedCall(node: TSESTree.CallExpression): TSESTree.CallExpression {
  const member = node.parent;
  const exec = member?.parent;
  if (member?.type === 'MemberExpression' && member.object === node && !member.computed && member.property.type === 'Identifier' && member.property.name === 'exec') {
    if (exec?.type === 'CallExpression' && exec.callee === member && exec.arguments.length === 0 && !exec.optional) return exec;
  }
  return node;
}

/**
 * For a standalone `await coll.updateMany(filter, update);` / `await coll.deleteMany(filter);`
 * on a driver collection: the rewrite into retryable single-document writes, when the
 * collection can be read twice and no comment would be lost.
 */
function getRewrite(context: Context, call: MongoCall): { operation: string; inListener: string; fix: TSESLint.ReportFixFunction } | undefined {
  if (call.library !== 'mongodb' || call.node.optional) return undefined;
  const sourceCode = context.sourceCode;
  const isUpdate = call.operation === 'updateMany';
  const args = call.node.arguments;
  if (args.length !== (isUpdate ? 2 : 1) || args.some((arg) => arg.type === 'SpreadElement')) return undefined;
  const parent = call.node.parent;
  const awaited = parent?.type === 'AwaitExpression';
  const statement = awaited ? parent.parent : parent;
  if (statement?.type !== 'ExpressionStatement' || !isSimpleReference(call.receiver)) return undefined;
  // Not awaited: only in an event listener, which can become `async` as the emitter ignores what it returns.
  const makeAsync = awaited ? null : getAsyncListenerFix(sourceCode, statement);
  if (!awaited && !makeAsync) return undefined;
  const [filter, update] = args as TSESTree.Expression[];
  if (!filter || hasCommentOutside(sourceCode, statement, args)) return undefined;
  const text = getSingleDocumentWritesText(sourceCode, { statement, receiver: call.receiver, filter, update: isUpdate ? update : undefined }, getCodeStyle(context).typescript);
  return {
    operation: isUpdate ? 'updateOne' : 'deleteOne',
    inListener: makeAsync ? ' The listener becomes `async`.' : '',
    fix: (fixer) => [fixer.replaceText(statement, text), ...(makeAsync ? [makeAsync(fixer)] : [])],
  };
}
