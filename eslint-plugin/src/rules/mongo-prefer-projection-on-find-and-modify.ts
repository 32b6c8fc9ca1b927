import { findMongoCalls, getDocumentUse, getFindAndModifyOptionsIndex, hasProjection, isFindAndModify } from '../analysis/clients';
import { getAddProjectionFix, getCodeStyle, getProjectionText } from '../fix';
import { createRule } from '../util/create-rule';

/** Longer projections are named by their first fields in the suggestion's title. */
const MAX_TITLE_PROJECTION_LENGTH = 80;
const FIELDS_NAMED_IN_TITLE = 3;

export default createRule<[], 'missingProjection' | 'usedWhole' | 'addProjection' | 'addLongProjection'>({
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
      // No field list can be derived: the code that reads the document is not in view.
      usedWhole:
        'MongoDB `{{method}}` returns the whole document, which the server keeps for retryable writes: large ones slow every write. This code hands it on whole: project the fields its users read.',
      addProjection: 'Add `projection: {{projection}}` (the fields this code reads from the result).',
      addLongProjection: 'Add a `projection` of the {{count}} fields this code reads from the result ({{fields}}, …).',
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
          const use = getDocumentUse(context, call);
          const fields = use.kind === 'fields' ? use.fields : undefined;
          const projection = fields && getProjectionText(fields, getCodeStyle(context));
          const optionsIndex = getFindAndModifyOptionsIndex(call.operation);
          const fix = projection && optionsIndex !== undefined ? getAddProjectionFix(context.sourceCode, call.node, optionsIndex, projection) : undefined;
          context.report({
            node: call.node,
            messageId: use.kind === 'whole' ? 'usedWhole' : 'missingProjection',
            data: { method: call.operation },
            suggest: fix && projection && fields ? [{ ...getTitle(projection, fields), fix }] : [],
          });
        }
      },
    };
  },
});

function getTitle(projection: string, fields: ReadonlySet<string>): { messageId: 'addProjection' | 'addLongProjection'; data: Record<string, string> } {
  if (projection.length <= MAX_TITLE_PROJECTION_LENGTH) return { messageId: 'addProjection', data: { projection } };
  const named = [...fields].slice(0, FIELDS_NAMED_IN_TITLE).map((field) => `\`${field}\``);
  return { messageId: 'addLongProjection', data: { count: String(fields.size), fields: named.join(', ') } };
}
