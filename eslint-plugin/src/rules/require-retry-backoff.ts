import { createRule } from '../util/create-rule';

// Placeholder: the rule's logic lands with its analysis.
export default createRule({
  name: 'require-retry-backoff',
  meta: {
    type: 'problem',
    docs: { description: 'Require capped, jittered exponential backoff and a bounded attempt count in database retries.', database: 'any' },
    messages: { placeholder: 'Not implemented yet.' },
    schema: [],
  },
  defaultOptions: [],
  create() {
    return {};
  },
});
