import { AST_NODE_TYPES } from '@typescript-eslint/utils';
import { findDynamoDbCalls, getDynamoDbResultPropertyUse, getUnprocessedResult } from '../analysis/clients';
import { createRule } from '../util/create-rule';

type MessageId = 'unprocessedIgnored';

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
        'DynamoDB {{operation}} returns in `{{property}}` the {{items}} it could not process (when throttled), and this code never reads it: they are lost. Retry them with backoff until it is empty.',
    },
    schema: [],
    defaultOptions: [],
  },
  defaultOptions: [],
  create(context) {
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
          });
        }
      },
    };
  },
});
