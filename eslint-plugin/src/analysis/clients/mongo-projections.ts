import type { TSESTree } from '@typescript-eslint/utils';
import type { MongoCall } from './mongo-calls';
import { getPropertyKeyName } from './update-operators';

/** Find-and-modify calls and the options that limit the fields they return. */

/** Where the options object goes for each find-and-modify method. */
const OPTIONS_INDEX: Record<string, number> = { findOneAndUpdate: 2, findOneAndReplace: 2, findOneAndDelete: 1 };
/** Option names that limit the returned fields (Mongoose also accepts `select` and `fields`). */
const PROJECTION_OPTIONS = { mongodb: ['projection'], mongoose: ['projection', 'select', 'fields'] };
/** Mongoose query methods that set a projection after the call. */
const PROJECTION_METHODS = new Set(['select', 'projection']);

/** `findOneAndUpdate`, `findOneAndReplace`, `findOneAndDelete`. */
export function isFindAndModify(operation: string): boolean {
  return OPTIONS_INDEX[operation] !== undefined;
}

/**
 * The find-and-modify call sets a projection, or may (a spread argument, options that
 * cannot be read): the author is assumed to have set what they need.
 */
export function hasProjection(call: MongoCall): boolean {
  const index = OPTIONS_INDEX[call.operation];
  if (index === undefined) return false;
  const args = call.node.arguments;
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
