import { createRule } from '../util/create-rule';

// Placeholder: the rule's logic lands with its analysis.
export default createRule({
  name: 'no-retry-on-permanent-error',
  meta: {
    type: 'problem',
    docs: { description: 'Disallow retrying database errors that cannot succeed on retry.', database: 'any' },
    messages: { placeholder: 'Not implemented yet.' },
    schema: [],
  },
  defaultOptions: [],
  create() {
    return {};
  },
});
