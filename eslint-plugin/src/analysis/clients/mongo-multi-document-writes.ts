import type { TSESTree } from '@typescript-eslint/utils';
import { isQueryChain, type MongoCall } from './mongo-calls';
import { getPropertyKeyName, getUpdateIdempotency, type UpdateIdempotency } from './update-operators';

/**
 * MongoDB writes that may change many documents (`updateMany`, `deleteMany`, on their
 * own or inside `bulkWrite`), which the driver does not retry.
 */

const MULTI_DOCUMENT_OPERATIONS = new Set(['updateMany', 'deleteMany']);

/** A delete: running it again removes nothing more. */
const idempotent = (): UpdateIdempotency => ({ isIdempotent: true, nonIdempotentOperators: [] });

export interface BulkMultiDocumentWrite {
  /** `updateMany` or `deleteMany`. */
  operation: string;
  idempotency: UpdateIdempotency;
}

export function isMultiDocumentWrite(operation: string): boolean {
  return MULTI_DOCUMENT_OPERATIONS.has(operation);
}

/** How idempotent an `updateMany(filter, update)` / `deleteMany(filter)` call is (a delete always is). */
export function getMultiDocumentWriteIdempotency(call: MongoCall): UpdateIdempotency {
  return call.operation === 'deleteMany'
    ? idempotent()
    : getUpdateIdempotency(getUpdateArgument(call), { plainFieldsAreSet: call.library === 'mongoose' });
}

/**
 * The update document: the second argument, or the only one of a Mongoose query's
 * `updateMany(update)` (`Model.where(filter).updateMany(update)`: the filter is the query's).
 */
function getUpdateArgument(call: MongoCall): TSESTree.CallExpressionArgument | undefined {
  const args = call.node.arguments;
  if (call.library === 'mongoose' && args.length === 1 && isQueryChain(call.receiver)) return args[0];
  return args[1];
}

/**
 * The `updateMany` / `deleteMany` entries of a `bulkWrite([…])` call, in source order;
 * undefined when its operations are not an array literal.
 */
export function findBulkMultiDocumentWrites(call: MongoCall): BulkMultiDocumentWrite[] | undefined {
  const operations = call.node.arguments[0];
  if (operations?.type !== 'ArrayExpression') return undefined;
  const writes: BulkMultiDocumentWrite[] = [];
  for (const element of operations.elements) {
    if (element?.type !== 'ObjectExpression') continue;
    for (const property of element.properties) {
      if (property.type !== 'Property') continue;
      const operation = getPropertyKeyName(property);
      if (operation === undefined || !MULTI_DOCUMENT_OPERATIONS.has(operation)) continue;
      const idempotency = operation === 'deleteMany' ? idempotent() : getBulkUpdateIdempotency(property.value, call);
      writes.push({ operation, idempotency });
    }
  }
  return writes;
}

/** `{ updateMany: { filter, update } }`: the idempotency of its `update`. */
function getBulkUpdateIdempotency(operation: TSESTree.Node, call: MongoCall): UpdateIdempotency {
  if (operation.type !== 'ObjectExpression') return { isIdempotent: undefined, nonIdempotentOperators: [] };
  const update = operation.properties.find((property): property is TSESTree.Property => property.type === 'Property' && getPropertyKeyName(property) === 'update');
  return getUpdateIdempotency(update?.value, { plainFieldsAreSet: call.library === 'mongoose' });
}
