import { type TSESLint, type TSESTree } from '@typescript-eslint/utils';
import { findDynamoDbCalls, findImmediateResend, getDynamoDbResultPropertyUse, getUnprocessedResult, type DynamoDbCall, type UnprocessedResult } from '../analysis/clients';
import { containsNode, isFunctionNode } from '../analysis/ast';
import { findEnclosingRetryScopes, findOwnCalls, getRetryDelayFacts, isSentBeforeLoop, SERVICE_BACKOFF, SUGGESTED_MAX_ATTEMPTS } from '../analysis/retry';
import { findResultHandler, getCodeStyle, getFileHelper, getLeftoverLoopFix, getLeftoverRecursionFix, getLeftoverResendFix, getUnprocessedItemsCall, getUnprocessedItemsHelper, getUsedNamesAround, pickNumberedName } from '../fix';
import { createRule } from '../util/create-rule';
import { describePlaces } from '../analysis/modules';

type MessageId = 'unprocessedIgnored' | 'unprocessedDroppedByCallers' | 'unprocessedResentAtOnce' | 'sendUntilProcessed' | 'waitBeforeResend' | 'waitBeforeLimitedResend';

interface Resent {
  call: DynamoDbCall;
  unprocessed: UnprocessedResult;
  /** The first read of the leftovers: calls that share it are one retry. */
  firstRead: TSESTree.Node;
  readScope: TSESTree.Node;
  /** The call that sends the leftovers again. */
  resendCall: TSESTree.CallExpression;
}

export default createRule<[], MessageId>({
  name: 'dynamodb-require-unprocessed-items-handling',
  meta: {
    type: 'problem',
    docs: {
      description: 'Require reading `UnprocessedItems` / `UnprocessedKeys` from DynamoDB batch operations, and re-sending them with a wait and a limit.',
      database: 'DynamoDB',
    },
    messages: {
      unprocessedIgnored:
        'DynamoDB {{operation}} returns in `{{property}}` the {{items}} it could not process (when throttled), and this code never reads it: they are lost. Retry them with backoff until it is empty.',
      unprocessedDroppedByCallers:
        'DynamoDB {{operation}} leaves in `{{property}}` the {{items}} it could not process (when throttled); this code returns the result to callers that drop it ({{callers}}). Retry them with backoff.',
      unprocessedResentAtOnce:
        'DynamoDB {{operation}} returns in `{{property}}` the {{items}} it could not take now, and this code sends them again at once. Wait with backoff and jitter before each re-send; bound the attempts.',
      sendUntilProcessed:
        'Send the batch through `{{helper}}`{{added}}: it sends `{{property}}` again with capped, jittered backoff until it is empty, and throws after {{maxAttempts}} attempts.',
      waitBeforeResend:
        'Wait a random time up to min({{maxDelayMs}} ms, {{baseDelayMs}} ms × 2 ** attempt) before each re-send of `{{property}}`, and throw once {{maxAttempts}} responses in a row leave some.',
      waitBeforeLimitedResend: 'Wait a random time up to min({{maxDelayMs}} ms, {{baseDelayMs}} ms × 2 ** attempt) before each re-send of `{{property}}` (the loop already limits its rounds).',
    },
    hasSuggestions: true,
    schema: [],
    defaultOptions: [],
  },
  defaultOptions: [],
  create(context) {
    const sourceCode = context.sourceCode;

    function getSuggestion(call: DynamoDbCall, unprocessed: UnprocessedResult): TSESLint.SuggestionReportDescriptor<MessageId>[] {
      if (sourceCode.getCommentsInside(call.node).length > 0) return [];
      const taken = getUsedNamesAround(sourceCode, call.node);
      const isTaken = (name: string): boolean => taken.has(name);
      const helper = getFileHelper(context, getUnprocessedItemsHelper(unprocessed, SERVICE_BACKOFF.dynamodb, SUGGESTED_MAX_ATTEMPTS), call.node);
      const names = { helper: helper.name, request: pickNumberedName('request', isTaken), callback: pickNumberedName('onBatchDone', isTaken) };
      const edit = getUnprocessedItemsCall(sourceCode, call, names, getCodeStyle(context));
      if (!edit) return [];
      return [
        {
          messageId: 'sendUntilProcessed',
          data: {
            helper: helper.name,
            added: helper.added ? ', a function added to this file' : '',
            property: unprocessed.property,
            maxAttempts: String(SUGGESTED_MAX_ATTEMPTS),
          },
          fix: (fixer) => [...edit.fixes(fixer), ...helper.fixes(fixer)],
        },
      ];
    }

    /**
     * For a result handler that sends the leftovers again through itself, a function that calls
     * itself with them, or a loop around the re-send (the batch itself, or the first batch before
     * it): wait before each re-send, and count and limit them unless the loop has a limit.
     */
    function getResendSuggestion(call: DynamoDbCall, unprocessed: UnprocessedResult, resendCall: TSESTree.CallExpression): TSESLint.SuggestionReportDescriptor<MessageId>[] {
      const handler = findResultHandler(sourceCode, call.node);
      const backoff = SERVICE_BACKOFF.dynamodb;
      const edit = { unprocessed, backoff, maxAttempts: SUGGESTED_MAX_ATTEMPTS, style: getCodeStyle(context) };
      let fix = handler ? getLeftoverResendFix(sourceCode, { ...edit, handler }) : null;
      let limited = false;
      const [scope] = handler ? [] : findEnclosingRetryScopes(context, resendCall);
      const facts = scope?.decidedByResult ? getRetryDelayFacts(context, scope) : undefined;
      if (scope && facts && facts.bounded !== undefined) {
        limited = facts.bounded;
        if (scope.kind === 'loop') {
          fix = getLeftoverLoopFix(sourceCode, { ...edit, loop: scope.node, limited, firstSendInLoop: !isSentBeforeLoop(context, scope.node, call.operation) });
        } else if (scope.kind === 'recursion' && isFunctionNode(scope.node) && !limited) {
          const calls = findOwnCalls(sourceCode, scope.node);
          fix = calls ? getLeftoverRecursionFix(sourceCode, { ...edit, fn: scope.node, ...calls }) : null;
        }
      }
      if (!fix) return [];
      const data = { property: unprocessed.property, maxAttempts: String(SUGGESTED_MAX_ATTEMPTS), maxDelayMs: String(backoff.maxDelayMs), baseDelayMs: String(backoff.baseDelayMs) };
      return [{ messageId: limited ? 'waitBeforeLimitedResend' : 'waitBeforeResend', data, fix }];
    }

    return {
      'Program:exit'() {
        const resent: Resent[] = [];
        for (const call of findDynamoDbCalls(context)) {
          const unprocessed = getUnprocessedResult(call.operation);
          if (!unprocessed || call.style === 'paginator') continue;
          const { use, reads, droppedBy } = getDynamoDbResultPropertyUse(context, call, unprocessed.property);
          if (use === 'ignored') {
            const data = { operation: call.operation, property: unprocessed.property, items: unprocessed.items };
            context.report({
              node: call.node,
              ...(droppedBy.length > 0
                ? { messageId: 'unprocessedDroppedByCallers', data: { ...data, callers: describePlaces(context.physicalFilename, droppedBy) } }
                : { messageId: 'unprocessedIgnored', data }),
              suggest: getSuggestion(call, unprocessed),
            });
            continue;
          }
          if (use !== 'read' || reads.length === 0) continue;
          const resend = findImmediateResend(context, call, reads);
          if (resend) resent.push({ call, unprocessed, firstRead: reads[0]!, readScope: resend.readScope, resendCall: resend.resend });
        }
        // Batches whose results go to the same handler are one retry: report the first
        // batch, not the re-sends the handler makes (unless each is its own re-send, a loop).
        for (const entry of resent) {
          const sameRetry = resent.filter((other) => other.firstRead === entry.firstRead);
          const outside = sameRetry.filter((other) => !containsNode(other.readScope, other.call.node));
          if (outside.length > 0 && !outside.includes(entry)) continue;
          const { call, unprocessed, resendCall } = entry;
          context.report({
            node: call.node,
            messageId: 'unprocessedResentAtOnce',
            data: { operation: call.operation, property: unprocessed.property, items: unprocessed.items },
            suggest: getResendSuggestion(call, unprocessed, resendCall),
          });
        }
      },
    };
  },
});
