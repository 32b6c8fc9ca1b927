import { createRule } from '../util/create-rule';

// Placeholder: the rule's logic lands with its analysis.
export default createRule({
  name: 'mongo-no-non-retryable-write',
  meta: {
    type: 'problem',
    docs: { description: 'Disallow MongoDB writes that the driver cannot retry (`updateMany`, `deleteMany`).', database: 'MongoDB' },
    messages: { placeholder: 'Not implemented yet.' },
    schema: [],
  },
  defaultOptions: [],
  create() {
    return {};
  },
});
