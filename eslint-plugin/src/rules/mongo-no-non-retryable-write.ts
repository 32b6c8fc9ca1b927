import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { findEnclosingTransactionScopes, findMongoCalls, getPropertyKeyName, getUpdateIdempotency, type MongoCall, type UpdateIdempotency } from '../analysis/clients';
import { getFreshName, getIndent, getUsedNames, hasCommentOutside, isSimpleReference } from '../fix/mongo-fixes';
import { createRule } from '../util/create-rule';

type Options = [{ checkIdempotentWrites?: boolean }];
type MessageId = 'nonRetryableWrite' | 'nonRetryableBulkWrite' | 'rewriteAsSingleDocumentWrites';

const MULTI_DOCUMENT_OPERATIONS = new Set(['updateMany', 'deleteMany']);

const IDEMPOTENT = 'It is idempotent, so running it again after an error is safe.';
const UNKNOWN = 'Check that it can run twice before running it again after an error.';

export default createRule<Options, MessageId>({
  name: 'mongo-no-non-retryable-write',
  meta: {
    type: 'problem',
    docs: {
      description: 'Disallow MongoDB writes that the driver cannot retry (`updateMany`, `deleteMany`).',
      database: 'MongoDB',
    },
    hasSuggestions: true,
    messages: {
      nonRetryableWrite:
        'MongoDB `{{method}}` is not a retryable write: the driver does not retry it after a transient error (network error, primary election), and it may fail having changed only some of the documents. {{idempotency}}',
      nonRetryableBulkWrite:
        'MongoDB `bulkWrite` with {{operations}} is not a retryable write: the driver does not retry it after a transient error (network error, primary election), and it may fail having changed only some of the documents. {{idempotency}}',
      rewriteAsSingleDocumentWrites:
        'Rewrite as retryable single-document writes: find the matching `_id`s, then `bulkWrite` one `{{operation}}` per `_id` (not atomic as a whole; review).',
    },
    schema: [
      {
        type: 'object',
        properties: {
          checkIdempotentWrites: {
            type: 'boolean',
            description: 'Also report writes that are idempotent (`deleteMany`, `$set`-only updates), which can be re-run safely by hand.',
          },
        },
        additionalProperties: false,
      },
    ],
    defaultOptions: [{ checkIdempotentWrites: true }],
  },
  defaultOptions: [{ checkIdempotentWrites: true }],
  create(context, [{ checkIdempotentWrites = true }]) {
    return {
      'Program:exit'() {
        for (const call of findMongoCalls(context)) {
          if (call.operation !== 'bulkWrite' && !MULTI_DOCUMENT_OPERATIONS.has(call.operation)) continue;
          // Inside a transaction the writes commit or abort together; the transaction is what gets retried.
          if (findEnclosingTransactionScopes(context, call.node).length > 0) continue;
          if (call.operation === 'bulkWrite') reportBulkWrite(context, call, checkIdempotentWrites);
          else reportMultiDocumentWrite(context, call, checkIdempotentWrites);
        }
      },
    };
  },
});

type Context = Readonly<TSESLint.RuleContext<MessageId, Options>>;

function reportMultiDocumentWrite(context: Context, call: MongoCall, checkIdempotentWrites: boolean): void {
  const idempotency: UpdateIdempotency =
    call.operation === 'deleteMany'
      ? { isIdempotent: true, nonIdempotentOperators: [] }
      : getUpdateIdempotency(call.node.arguments[1], { plainFieldsAreSet: call.library === 'mongoose' });
  if (idempotency.isIdempotent && !checkIdempotentWrites) return;
  const rewrite = getRewrite(context, call);
  context.report({
    node: call.node,
    messageId: 'nonRetryableWrite',
    data: { method: call.operation, idempotency: describeIdempotency(idempotency) },
    suggest: rewrite ? [{ messageId: 'rewriteAsSingleDocumentWrites', data: { operation: rewrite.operation }, fix: rewrite.fix }] : [],
  });
}

function reportBulkWrite(context: Context, call: MongoCall, checkIdempotentWrites: boolean): void {
  const operations = call.node.arguments[0];
  if (operations?.type !== 'ArrayExpression') return;
  const found: string[] = [];
  const idempotencies: UpdateIdempotency[] = [];
  for (const element of operations.elements) {
    if (element?.type !== 'ObjectExpression') continue;
    for (const property of element.properties) {
      if (property.type !== 'Property') continue;
      const name = getPropertyKeyName(property);
      if (name === undefined || !MULTI_DOCUMENT_OPERATIONS.has(name)) continue;
      if (!found.includes(name)) found.push(name);
      idempotencies.push(name === 'deleteMany' ? { isIdempotent: true, nonIdempotentOperators: [] } : getBulkUpdateIdempotency(property.value, call));
    }
  }
  if (found.length === 0) return;
  const nonIdempotentOperators = [...new Set(idempotencies.flatMap((item) => item.nonIdempotentOperators))];
  const combined: UpdateIdempotency =
    nonIdempotentOperators.length > 0
      ? { isIdempotent: false, nonIdempotentOperators }
      : { isIdempotent: idempotencies.every((item) => item.isIdempotent) ? true : undefined, nonIdempotentOperators: [] };
  if (combined.isIdempotent && !checkIdempotentWrites) return;
  context.report({
    node: call.node,
    messageId: 'nonRetryableBulkWrite',
    data: { operations: found.map((name) => `\`${name}\``).join(' and '), idempotency: describeIdempotency(combined) },
  });
}

function getBulkUpdateIdempotency(operation: TSESTree.Node, call: MongoCall): UpdateIdempotency {
  if (operation.type !== 'ObjectExpression') return { isIdempotent: undefined, nonIdempotentOperators: [] };
  const update = operation.properties.find((property): property is TSESTree.Property => property.type === 'Property' && getPropertyKeyName(property) === 'update');
  return getUpdateIdempotency(update?.value, { plainFieldsAreSet: call.library === 'mongoose' });
}

function describeIdempotency(idempotency: UpdateIdempotency): string {
  if (idempotency.isIdempotent === true) return IDEMPOTENT;
  if (idempotency.isIdempotent === false) {
    const operators = idempotency.nonIdempotentOperators.map((operator) => (operator.startsWith('$') ? `\`${operator}\`` : `an aggregation ${operator}`));
    return `It is not idempotent (${operators.join(', ')}): running it again after an error changes the documents it already updated a second time.`;
  }
  return UNKNOWN;
}

/**
 * For a standalone `await coll.updateMany(filter, update);` / `await coll.deleteMany(filter);`
 * on a driver collection: read the matching `_id`s, then one retryable `updateOne` /
 * `deleteOne` per `_id` in a `bulkWrite`. The filter is kept on each write, so a document
 * that stopped matching in between is left alone.
 */
function getRewrite(context: Context, call: MongoCall): { operation: string; fix: TSESLint.ReportFixFunction } | undefined {
  if (call.library !== 'mongodb' || call.node.optional) return undefined;
  const isUpdate = call.operation === 'updateMany';
  const args = call.node.arguments;
  if (args.length !== (isUpdate ? 2 : 1) || args.some((arg) => arg.type === 'SpreadElement')) return undefined;
  const awaited = call.node.parent;
  const statement = awaited?.parent;
  if (awaited?.type !== 'AwaitExpression' || statement?.type !== 'ExpressionStatement') return undefined;
  if (!isSimpleReference(call.receiver)) return undefined;
  const [filter, update] = args as TSESTree.Expression[];
  if (!filter || hasCommentOutside(context, statement, args)) return undefined;

  const sourceCode = context.sourceCode;
  const taken = getUsedNames(context, statement);
  const name = (base: string): string => {
    const fresh = getFreshName(base, taken);
    taken.add(fresh);
    return fresh;
  };
  const receiver = sourceCode.getText(call.receiver);
  const indent = getIndent(context, statement);
  const inner = `${indent}  `;
  const lines: string[] = [];
  const reuse = (node: TSESTree.Expression, base: string): string => {
    if (node.type === 'Identifier') return node.name;
    const local = name(base);
    lines.push(`${inner}const ${local} = ${sourceCode.getText(node)};`);
    return local;
  };
  const filterName = reuse(filter, 'filter');
  const updateName = isUpdate && update ? reuse(update, 'update') : undefined;
  const ids = name('ids');
  const doc = name('doc');
  const id = name('id');
  const operation = isUpdate ? 'updateOne' : 'deleteOne';
  const write = isUpdate
    ? `{ updateOne: { filter: { ...${filterName}, _id: ${id} }, update: ${updateName} } }`
    : `{ deleteOne: { filter: { ...${filterName}, _id: ${id} } } }`;
  lines.push(
    `${inner}const ${ids} = (await ${receiver}.find(${filterName}, { projection: { _id: 1 } }).toArray()).map((${doc}) => ${doc}._id);`,
    `${inner}if (${ids}.length > 0) {`,
    `${inner}  await ${receiver}.bulkWrite(${ids}.map((${id}) => (${write})));`,
    `${inner}}`,
  );
  const text = `{\n${lines.join('\n')}\n${indent}}`;
  return { operation, fix: (fixer) => fixer.replaceText(statement, text) };
}
