import { createRule } from '../util/create-rule';

// Placeholder: the rule's logic lands with its analysis.
export default createRule({
  name: 'dynamodb-no-disabled-retries',
  meta: {
    type: 'problem',
    docs: { description: 'Disallow turning off the AWS SDK\'s DynamoDB retries.', database: 'DynamoDB' },
    messages: { placeholder: 'Not implemented yet.' },
    schema: [],
  },
  defaultOptions: [],
  create() {
    return {};
  },
});
