import { createRule } from '../util/create-rule';

// Placeholder: the rule's logic lands with its analysis.
export default createRule({
  name: 'mongo-prefer-projection-on-find-and-modify',
  meta: {
    type: 'suggestion',
    docs: { description: 'Prefer a `projection` on `findOneAnd*` so retryable writes cache less.', database: 'MongoDB' },
    messages: { placeholder: 'Not implemented yet.' },
    schema: [],
  },
  defaultOptions: [],
  create() {
    return {};
  },
});
