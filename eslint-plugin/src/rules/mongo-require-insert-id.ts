import { createRule } from '../util/create-rule';

// Placeholder: the rule's logic lands with its analysis.
export default createRule({
  name: 'mongo-require-insert-id',
  meta: {
    type: 'problem',
    docs: { description: 'Require an `_id` on inserted MongoDB documents so retried inserts are deduplicated.', database: 'MongoDB' },
    messages: { placeholder: 'Not implemented yet.' },
    schema: [],
  },
  defaultOptions: [],
  create() {
    return {};
  },
});
