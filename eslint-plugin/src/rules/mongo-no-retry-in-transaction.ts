import { createRule } from '../util/create-rule';

// Placeholder: the rule's logic lands with its analysis.
export default createRule({
  name: 'mongo-no-retry-in-transaction',
  meta: {
    type: 'problem',
    docs: { description: 'Disallow hand-written retries around single writes inside a MongoDB transaction.', database: 'MongoDB' },
    messages: { placeholder: 'Not implemented yet.' },
    schema: [],
  },
  defaultOptions: [],
  create() {
    return {};
  },
});
