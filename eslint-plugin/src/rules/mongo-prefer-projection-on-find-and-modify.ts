import { findMongoCalls, getFindAndModifyOptionsIndex, getReadDocumentFields, hasProjection, isFindAndModify } from '../analysis/clients';
import { getAddProjectionFix, getCodeStyle, getProjectionText } from '../fix';
import { createRule } from '../util/create-rule';

export default createRule<[], 'missingProjection' | 'addProjection'>({
  name: 'mongo-prefer-projection-on-find-and-modify',
  meta: {
    type: 'suggestion',
    docs: {
      description: 'Prefer a `projection` on MongoDB `findOneAndUpdate` / `findOneAndDelete` / `findOneAndReplace`.',
      database: 'MongoDB',
    },
    hasSuggestions: true,
    messages: {
      missingProjection:
        'MongoDB `{{method}}` returns the whole document, which the server also keeps for retryable writes: large documents slow every write. Add a `projection` with only the fields you need.',
      addProjection: 'Add `projection: {{projection}}` (the fields this code reads from the result).',
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
          const fields = getReadDocumentFields(context, call);
          const projection = fields && getProjectionText(fields, getCodeStyle(context));
          const optionsIndex = getFindAndModifyOptionsIndex(call.operation);
          const fix = projection && optionsIndex !== undefined ? getAddProjectionFix(context.sourceCode, call.node, optionsIndex, projection) : undefined;
          context.report({
            node: call.node,
            messageId: 'missingProjection',
            data: { method: call.operation },
            suggest: fix && projection ? [{ messageId: 'addProjection', data: { projection }, fix }] : [],
          });
        }
      },
    };
  },
});
