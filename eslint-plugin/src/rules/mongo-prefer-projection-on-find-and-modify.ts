import type { TSESTree } from '@typescript-eslint/utils';
import { findMongoCalls, getPropertyKeyName, type MongoCall } from '../analysis/clients';
import { createRule } from '../util/create-rule';

/** Where the options object goes for each find-and-modify method. */
const OPTIONS_INDEX: Record<string, number> = { findOneAndUpdate: 2, findOneAndReplace: 2, findOneAndDelete: 1 };
/** Option names that limit the returned fields (Mongoose also accepts `select` and `fields`). */
const PROJECTION_OPTIONS = { mongodb: ['projection'], mongoose: ['projection', 'select', 'fields'] };
/** Mongoose query methods that set a projection after the call. */
const PROJECTION_METHODS = new Set(['select', 'projection']);

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
        'MongoDB `{{method}}` returns the whole document: with retryable writes the server caches the whole returned document for deduplication, which adds write latency when documents are large. Add a `projection` with only the fields you need.',
    },
    schema: [],
    defaultOptions: [],
  },
  defaultOptions: [],
  create(context) {
    return {
      'Program:exit'() {
        for (const call of findMongoCalls(context)) {
          const index = OPTIONS_INDEX[call.operation];
          if (index === undefined || hasProjection(call, index)) continue;
          context.report({ node: call.node, messageId: 'missingProjection', data: { method: call.operation } });
        }
      },
    };
  },
});

function hasProjection(call: MongoCall, index: number): boolean {
  const args = call.node.arguments;
  // A spread argument, or options we cannot read: assume the author set what they need.
  if (args.some((arg) => arg.type === 'SpreadElement')) return true;
  const options = args[index];
  if (options && options.type !== 'ObjectExpression') return true;
  if (call.library === 'mongoose' && isFollowedByProjection(call.node)) return true;
  if (!options) return false;
  const names = PROJECTION_OPTIONS[call.library];
  return options.properties.some((property) => {
    if (property.type === 'SpreadElement') return true;
    const key = getPropertyKeyName(property);
    return key === undefined || names.includes(key);
  });
}

/** `Model.findOneAndUpdate(…).select('status')`. */
function isFollowedByProjection(call: TSESTree.CallExpression): boolean {
  let current: TSESTree.Node = call;
  while (current.parent?.type === 'MemberExpression' && current.parent.object === current && current.parent.parent?.type === 'CallExpression') {
    const member: TSESTree.MemberExpression = current.parent;
    if (!member.computed && member.property.type === 'Identifier' && PROJECTION_METHODS.has(member.property.name)) return true;
    current = member.parent as TSESTree.CallExpression;
  }
  return false;
}
