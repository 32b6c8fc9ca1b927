import { createRule } from '../util/create-rule';

// Placeholder: the rule's logic lands with its analysis.
export default createRule({
  name: 'dynamodb-require-unprocessed-items-handling',
  meta: {
    type: 'problem',
    docs: { description: 'Require `UnprocessedItems` / `UnprocessedKeys` of DynamoDB batch calls to be handled.', database: 'DynamoDB' },
    messages: { placeholder: 'Not implemented yet.' },
    schema: [],
  },
  defaultOptions: [],
  create() {
    return {};
  },
});
