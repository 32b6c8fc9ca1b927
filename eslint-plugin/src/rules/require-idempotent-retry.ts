import { createRule } from '../util/create-rule';

// Placeholder: the rule's logic lands with its analysis.
export default createRule({
  name: 'require-idempotent-retry',
  meta: {
    type: 'problem',
    docs: { description: 'Require retried database writes to be idempotent.', database: 'any' },
    messages: { placeholder: 'Not implemented yet.' },
    schema: [],
  },
  defaultOptions: [],
  create() {
    return {};
  },
});
