import { AST_NODE_TYPES } from '@typescript-eslint/utils';
import { type DynamoDbCall, findDynamoDbCalls, getCallbackPropertyUse, getMethodCall, getPromisedPropertyUse, type PropertyUse } from '../analysis/clients';
import { createRule } from '../util/create-rule';

type MessageId = 'unprocessedIgnored';

/** The batch operations and the result property that lists what they did not process. */
const UNPROCESSED: Record<string, { property: string; items: string }> = {
  BatchWriteItem: { property: 'UnprocessedItems', items: 'writes' },
  BatchGetItem: { property: 'UnprocessedKeys', items: 'reads' },
};

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
    },
    schema: [],
    defaultOptions: [],
  },
  defaultOptions: [],
  create(context) {
    /** How the call's result is used for `property`, by the way the call delivers it. */
    function getUse(call: DynamoDbCall, property: string): PropertyUse {
      const node = call.node;
      if (call.callback) return getCallbackPropertyUse(context, call.callback, 1, property);
      if (call.sdkVersion === 3) return getPromisedPropertyUse(context, node, property);
      // SDK v2 returns an AWS.Request: `.promise()`, or `.send(callback)`.
      const method = getMethodCall(node);
      if (method?.name === 'promise') return getPromisedPropertyUse(context, method.call, property);
      const callback = method?.name === 'send' ? method.call.arguments[0] : undefined;
      if (callback) return getCallbackPropertyUse(context, callback, 1, property);
      return 'unknown';
    }

    return {
      'Program:exit'() {
        for (const call of findDynamoDbCalls(context)) {
          const unprocessed = UNPROCESSED[call.operation];
          if (!unprocessed || call.style === 'paginator') continue;
          if (call.callback?.type === AST_NODE_TYPES.Identifier) continue;
          if (getUse(call, unprocessed.property) !== 'ignored') continue;
          context.report({
            node: call.node,
            messageId: 'unprocessedIgnored',
            data: { operation: call.operation, property: unprocessed.property, items: unprocessed.items },
          });
        }
      },
    };
  },
});
