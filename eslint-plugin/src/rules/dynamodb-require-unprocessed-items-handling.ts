import { AST_NODE_TYPES, type TSESLint } from '@typescript-eslint/utils';
import { type DynamoDbCall, findDynamoDbCalls, getDynamoDbResultPropertyUse, getUnprocessedResult, type UnprocessedResult } from '../analysis/clients';
import { SERVICE_BACKOFF, SUGGESTED_MAX_ATTEMPTS } from '../analysis/retry';
import { getFileHelper, getUnprocessedItemsCall, getUnprocessedItemsHelper, getUsedNamesAround, pickNumberedName } from '../fix';
import { createRule } from '../util/create-rule';

type MessageId = 'unprocessedIgnored' | 'sendUntilProcessed';

export default createRule<[], MessageId>({
  name: 'dynamodb-require-unprocessed-items-handling',
  meta: {
    type: 'problem',
    docs: {
      description: 'Require reading `UnprocessedItems` / `UnprocessedKeys` from DynamoDB batch operations.',
      database: 'DynamoDB',
    },
    messages: {
      unprocessedIgnored:
        'DynamoDB {{operation}} returns the {{items}} it could not process in `{{property}}` instead of failing (for example when throttled), and this code never reads it: those {{items}} are silently lost. Retry `{{property}}` with exponential backoff until it is empty, or return the result to a caller that does.',
      sendUntilProcessed:
        'Send the batch through `{{helper}}`{{added}}: it sends `{{property}}` again with capped, jittered backoff until it is empty, and throws after {{maxAttempts}} attempts.',
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
      const request = pickNumberedName('request', (name) => taken.has(name));
      const helper = getFileHelper(context, getUnprocessedItemsHelper(unprocessed, SERVICE_BACKOFF.dynamodb, SUGGESTED_MAX_ATTEMPTS), call.node);
      const edit = getUnprocessedItemsCall(sourceCode, call, helper.name, request);
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
          fix: (fixer) => [fixer.replaceText(edit.replaced, edit.text), ...helper.fixes(fixer)],
        },
      ];
    }

    return {
      'Program:exit'() {
        for (const call of findDynamoDbCalls(context)) {
          const unprocessed = getUnprocessedResult(call.operation);
          if (!unprocessed || call.style === 'paginator') continue;
          if (call.callback?.type === AST_NODE_TYPES.Identifier) continue;
          if (getDynamoDbResultPropertyUse(context, call, unprocessed.property) !== 'ignored') continue;
          context.report({
            node: call.node,
            messageId: 'unprocessedIgnored',
            data: { operation: call.operation, property: unprocessed.property, items: unprocessed.items },
            suggest: getSuggestion(call, unprocessed),
          });
        }
      },
    };
  },
});
