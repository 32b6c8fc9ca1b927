import type { TSESTree } from '@typescript-eslint/utils';
import type { AnyRuleContext } from '../per-file-cache';
import type { MongoCall } from './mongo-calls';
import { getPromisedFieldReads, getPromisedWrappedFieldReads } from './result-usage';
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

/** Where the options argument of a find-and-modify method goes. */
export function getFindAndModifyOptionsIndex(operation: string): number | undefined {
  return OPTIONS_INDEX[operation];
}

/** Options that make the call resolve to `{ value, ok, lastErrorObject }` rather than the document. */
const RESULT_METADATA_OPTIONS = new Set(['includeResultMetadata', 'rawResult']);
/** Fields of that wrapper (also what drivers before 6.0 always returned). */
const RESULT_METADATA_FIELDS = new Set(['value', 'ok', 'lastErrorObject']);
/** The field of that wrapper that holds the document. */
const WRAPPED_DOCUMENT_FIELD = 'value';

/**
 * What the code does with the returned document: reads these fields (an empty set when it
 * reads none); uses it whole, or where this file does not show (returns it from a function
 * nobody here calls, passes it on, stores, prints or spreads it, calls a method of it); or
 * reads `.value` without the option, so it may be a driver's (before 6.0) metadata
 * wrapper around it (`unclear`). With the option, the fields read from `.value`.
 */
export type DocumentUse = { kind: 'fields'; fields: ReadonlySet<string> } | { kind: 'whole' } | { kind: 'unclear' };

export function getDocumentUse(context: AnyRuleContext, call: MongoCall): DocumentUse {
  const index = OPTIONS_INDEX[call.operation];
  const options = index === undefined ? undefined : call.node.arguments[index];
  const wrapped =
    options?.type === 'ObjectExpression' &&
    options.properties.some((property) => {
      const key = property.type === 'Property' ? getPropertyKeyName(property) : undefined;
      return key !== undefined && RESULT_METADATA_OPTIONS.has(key) && !(property.type === 'Property' && property.value.type === 'Literal' && property.value.value === false);
    });
  const fields = wrapped ? getPromisedWrappedFieldReads(context, call.node, WRAPPED_DOCUMENT_FIELD) : getPromisedFieldReads(context, call.node);
  if (!fields) return { kind: 'whole' };
  if (!wrapped && [...fields].some((field) => RESULT_METADATA_FIELDS.has(field))) return { kind: 'unclear' };
  return { kind: 'fields', fields };
}
