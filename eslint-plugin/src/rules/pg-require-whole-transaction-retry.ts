import { createRule } from '../util/create-rule';

// Placeholder: the rule's logic lands with its analysis.
export default createRule({
  name: 'pg-require-whole-transaction-retry',
  meta: {
    type: 'problem',
    docs: { description: 'Require retrying the whole PostgreSQL transaction, not one statement inside it.', database: 'PostgreSQL' },
    messages: { placeholder: 'Not implemented yet.' },
    schema: [],
  },
  defaultOptions: [],
  create() {
    return {};
  },
});
