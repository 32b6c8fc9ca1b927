import { createRule } from '../util/create-rule';

// Placeholder: the rule's logic lands with its analysis.
export default createRule({
  name: 'no-swallowed-db-error',
  meta: {
    type: 'problem',
    docs: { description: 'Disallow silently swallowing database errors.', database: 'any' },
    messages: { placeholder: 'Not implemented yet.' },
    schema: [],
  },
  defaultOptions: [],
  create() {
    return {};
  },
});
