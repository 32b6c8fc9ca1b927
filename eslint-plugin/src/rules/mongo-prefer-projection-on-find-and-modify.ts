import { findMongoCalls, hasProjection, isFindAndModify } from '../analysis/clients';
import { createRule } from '../util/create-rule';

export default createRule<[], 'missingProjection'>({
  name: 'mongo-prefer-projection-on-find-and-modify',
  meta: {
    type: 'suggestion',
    docs: {
      description: 'Prefer a `projection` on MongoDB `findOneAndUpdate` / `findOneAndDelete` / `findOneAndReplace`.',
      database: 'MongoDB',
    },
    messages: {
      missingProjection:
        'MongoDB `{{method}}` returns the whole document, which the server also keeps for retryable writes: large documents slow every write. Add a `projection` with only the fields you need.',
    },
    schema: [],
    defaultOptions: [],
  },
  defaultOptions: [],
  create(context) {
    return {
      'Program:exit'() {
        for (const call of findMongoCalls(context)) {
          if (!isFindAndModify(call.operation) || hasProjection(call)) continue;
          context.report({ node: call.node, messageId: 'missingProjection', data: { method: call.operation } });
        }
      },
    };
  },
});
