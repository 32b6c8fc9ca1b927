import type { TSESTree } from '@typescript-eslint/utils';

/**
 * Update operators by whether applying the update twice leaves the document as
 * applying it once (https://www.mongodb.com/docs/manual/reference/operator/update/).
 * `$set`-like operators write values computed on the client, so a repeat writes the
 * same values; `$addToSet`, `$pull`, `$pullAll` converge (adding an element that is
 * there, or removing one that is gone, changes nothing); `$min`/`$max` converge too,
 * and `$rename` finds nothing to move the second time. `$inc`, `$mul`, `$push` and
 * `$pop` change the document again, `$currentDate` writes a new server time, and
 * `$bit` may flip bits back (`xor`).
 */
const IDEMPOTENT_OPERATORS = new Set(['$set', '$unset', '$setOnInsert', '$addToSet', '$pull', '$pullAll', '$min', '$max', '$rename']);
const NON_IDEMPOTENT_OPERATORS = new Set(['$inc', '$mul', '$push', '$pop', '$currentDate', '$bit']);

/** Pseudo-operator reported for an aggregation-pipeline update (`[{ $set: … }]`). */
export const PIPELINE_UPDATE = 'pipeline';

export interface UpdateIdempotency {
  /** `true`/`false` when the update's operators say so; `undefined` when it cannot be told (spreads, variables, unknown operators). */
  isIdempotent: boolean | undefined;
  /** Operators that make the update non-idempotent (`$inc`, …, or `pipeline`), in source order. */
  nonIdempotentOperators: string[];
}

/** Pipeline stages that only write values (`$set`/`$addFields`) or remove fields (`$unset`). */
const WRITING_STAGES = new Set(['$set', '$addFields', '$unset']);

/**
 * A pipeline update is idempotent when its stages only set constants or unset fields;
 * a stage that reads the document (`'$field'`, `{ $add: … }`) is not.
 */
function getPipelineIdempotency(pipeline: TSESTree.ArrayExpression): UpdateIdempotency {
  const notIdempotent: UpdateIdempotency = { isIdempotent: false, nonIdempotentOperators: [PIPELINE_UPDATE] };
  let known = pipeline.elements.length > 0;
  for (const stage of pipeline.elements) {
    const property = stage?.type === 'ObjectExpression' && stage.properties.length === 1 ? stage.properties[0] : undefined;
    const name = property?.type === 'Property' ? getPropertyKeyName(property) : undefined;
    if (!property || property.type !== 'Property' || name === undefined) {
      known = false;
      continue;
    }
    if (!WRITING_STAGES.has(name)) return notIdempotent;
    const reads = readsDocument(property.value, 0);
    if (reads === true) return notIdempotent;
    if (reads === undefined) known = false;
  }
  return known ? { isIdempotent: true, nonIdempotentOperators: [] } : { isIdempotent: undefined, nonIdempotentOperators: [] };
}

const MAX_VALUE_DEPTH = 8;

/** `true` when an aggregation value refers to the document (`'$n'`, `{ $add: … }`); `undefined` when it cannot be told. */
function readsDocument(node: TSESTree.Node, depth: number): boolean | undefined {
  if (depth > MAX_VALUE_DEPTH) return undefined;
  switch (node.type) {
    case 'Literal':
      return typeof node.value === 'string' && node.value.startsWith('$');
    case 'TemplateLiteral':
      return node.expressions.length === 0 ? (node.quasis[0]?.value.cooked ?? '').startsWith('$') : undefined;
    case 'ArrayExpression': {
      let result: boolean | undefined = false;
      for (const element of node.elements) {
        const reads = element && element.type !== 'SpreadElement' ? readsDocument(element, depth + 1) : undefined;
        if (reads === true) return true;
        if (reads === undefined) result = undefined;
      }
      return result;
    }
    case 'ObjectExpression': {
      let result: boolean | undefined = false;
      for (const property of node.properties) {
        if (property.type !== 'Property') {
          result = undefined;
          continue;
        }
        const key = getPropertyKeyName(property);
        // `{ $add: … }`, `{ $literal: … }`: expression operators; only `$literal` is a plain value.
        if (key?.startsWith('$') && key !== '$literal') return true;
        const reads = key === undefined ? undefined : key === '$literal' ? false : readsDocument(property.value, depth + 1);
        if (reads === true) return true;
        if (reads === undefined) result = undefined;
      }
      return result;
    }
    case 'NewExpression':
      // `new Date()`, `new ObjectId()`: a value computed on the client.
      return node.callee.type === 'Identifier' && (node.callee.name === 'Date' || node.callee.name === 'ObjectId') ? false : undefined;
    default:
      return undefined;
  }
}

/**
 * Whether an update document (the second argument of `updateOne`/`updateMany`) can be
 * applied twice safely. Pipelines (array updates) that read the document they change
 * (`[{ $set: { n: { $add: ['$n', 1] } } }]`) are not; pipelines of constants are.
 * `plainFieldsAreSet`: Mongoose wraps plain fields (`{ status: 'x' }`) in `$set`.
 */
export function getUpdateIdempotency(update: TSESTree.Node | undefined, options: { plainFieldsAreSet?: boolean } = {}): UpdateIdempotency {
  const unknown: UpdateIdempotency = { isIdempotent: undefined, nonIdempotentOperators: [] };
  if (!update) return unknown;
  if (update.type === 'ArrayExpression') return getPipelineIdempotency(update);
  if (update.type !== 'ObjectExpression' || update.properties.length === 0) return unknown;
  const nonIdempotent: string[] = [];
  let known = true;
  for (const property of update.properties) {
    const key = property.type === 'Property' ? getPropertyKeyName(property) : undefined;
    if (key === undefined) {
      known = false;
    } else if (NON_IDEMPOTENT_OPERATORS.has(key)) {
      if (!nonIdempotent.includes(key)) nonIdempotent.push(key);
    } else if (!IDEMPOTENT_OPERATORS.has(key) && !(options.plainFieldsAreSet && !key.startsWith('$'))) {
      known = false;
    }
  }
  if (nonIdempotent.length > 0) return { isIdempotent: false, nonIdempotentOperators: nonIdempotent };
  return known ? { isIdempotent: true, nonIdempotentOperators: [] } : unknown;
}

/** True when every key of the object literal is a known update operator (`{ $set: …, $inc: … }`). */
export function hasOnlyUpdateOperators(node: TSESTree.Node | undefined): boolean {
  if (node?.type !== 'ObjectExpression' || node.properties.length === 0) return false;
  return node.properties.every((property) => {
    const key = property.type === 'Property' ? getPropertyKeyName(property) : undefined;
    return key !== undefined && (IDEMPOTENT_OPERATORS.has(key) || NON_IDEMPOTENT_OPERATORS.has(key));
  });
}

/** Key of an object-literal property written as an identifier or a string (`$set`, `'$set'`). */
export function getPropertyKeyName(property: TSESTree.Property): string | undefined {
  if (!property.computed && property.key.type === 'Identifier') return property.key.name;
  if (property.key.type === 'Literal' && typeof property.key.value === 'string') return property.key.value;
  return undefined;
}
