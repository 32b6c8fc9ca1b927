import { createRule } from '../util/create-rule';

// Placeholder: the rule's logic lands with its analysis.
export default createRule({
  name: 'pg-require-pool-error-listener',
  meta: {
    type: 'problem',
    docs: { description: 'Require an `\'error\'` listener on every `pg` Pool.', database: 'PostgreSQL' },
    messages: { placeholder: 'Not implemented yet.' },
    schema: [],
  },
  defaultOptions: [],
  create() {
    return {};
  },
});
