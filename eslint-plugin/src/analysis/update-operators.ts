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

/**
 * Whether an update document (the second argument of `updateOne`/`updateMany`) can be
 * applied twice safely. Pipelines (array updates) can read the document they change
 * (`{ $set: { n: { $add: ['$n', 1] } } }`), so they count as non-idempotent.
 * `plainFieldsAreSet`: Mongoose wraps plain fields (`{ status: 'x' }`) in `$set`.
 */
export function getUpdateIdempotency(update: TSESTree.Node | undefined, options: { plainFieldsAreSet?: boolean } = {}): UpdateIdempotency {
  const unknown: UpdateIdempotency = { isIdempotent: undefined, nonIdempotentOperators: [] };
  if (!update) return unknown;
  if (update.type === 'ArrayExpression') return { isIdempotent: false, nonIdempotentOperators: [PIPELINE_UPDATE] };
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
