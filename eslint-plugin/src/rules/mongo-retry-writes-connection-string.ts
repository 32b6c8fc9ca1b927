import { createRule } from '../util/create-rule';

// Placeholder: the rule's logic lands with its analysis.
export default createRule({
  name: 'mongo-retry-writes-connection-string',
  meta: {
    type: 'problem',
    docs: { description: 'Require the `retryWrites` setting that the MongoDB / Amazon DocumentDB engine supports.', database: 'MongoDB' },
    messages: { placeholder: 'Not implemented yet.' },
    schema: [],
  },
  defaultOptions: [],
  create() {
    return {};
  },
});
