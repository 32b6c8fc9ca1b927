import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';
import { getKeyName } from '../ast';
import { findMembersNamed } from '../find-nodes-at-offsets';
import { type AnyRuleContext, createPerFileCache } from '../per-file-cache';
import { CALL, CONSTRUCT, type TraceMap } from '../modules';
import type { DbValue, DynamoDbClientKind } from './db-value';
import type { DbVocabulary } from './db-vocabulary';
import { DOCUMENT_OPERATIONS, lowerFirst, OPERATIONS, V2_DOCUMENT_METHODS } from './dynamodb-operations';
import { getMethodCall } from './value-bindings';

/** DynamoDB's vocabulary for the value analysis: the AWS SDK v3 clients and document clients, and SDK v2's. */

export const DYNAMODB_MODULES = ['@aws-sdk/client-dynamodb', '@aws-sdk/lib-dynamodb', 'aws-sdk', 'aws-sdk/clients/dynamodb', 'aws-sdk/clients/all'] as const;

const dynamo = (kind: DynamoDbClientKind): DbValue => ({ database: 'dynamodb', kind });

const v2Service = {
  [CONSTRUCT]: dynamo('v2-client'),
  DocumentClient: { [CONSTRUCT]: dynamo('v2-document-client') },
};

export const DYNAMODB_VOCABULARY: DbVocabulary = {
  modules: DYNAMODB_MODULES,
  seeds: {
    '@aws-sdk/client-dynamodb': {
      DynamoDBClient: { [CONSTRUCT]: dynamo('client') },
      DynamoDB: { [CONSTRUCT]: dynamo('aggregated-client') },
    },
    '@aws-sdk/lib-dynamodb': {
      DynamoDBDocumentClient: { [CONSTRUCT]: dynamo('document-client'), from: { [CALL]: dynamo('document-client') } },
      DynamoDBDocument: { [CONSTRUCT]: dynamo('aggregated-document-client'), from: { [CALL]: dynamo('aggregated-document-client') } },
    },
    'aws-sdk': { DynamoDB: v2Service },
    'aws-sdk/clients/all': { DynamoDB: v2Service },
    'aws-sdk/clients/dynamodb': v2Service,
  } as unknown as TraceMap<DbValue>,
  typeNames: {
    '@aws-sdk/client-dynamodb': { DynamoDB: dynamo('aggregated-client'), DynamoDBClient: dynamo('client') },
    '@aws-sdk/lib-dynamodb': { DynamoDBDocument: dynamo('aggregated-document-client'), DynamoDBDocumentClient: dynamo('document-client') },
    'aws-sdk': { DynamoDB: dynamo('v2-client'), 'DynamoDB.DocumentClient': dynamo('v2-document-client') },
    'aws-sdk/clients/dynamodb': { '': dynamo('v2-client'), DocumentClient: dynamo('v2-document-client') },
  },
  declaredTypes: {
    '@aws-sdk/client-dynamodb': { DynamoDB: dynamo('aggregated-client'), DynamoDBClient: dynamo('client') },
    '@aws-sdk/lib-dynamodb': { DynamoDBDocument: dynamo('aggregated-document-client'), DynamoDBDocumentClient: dynamo('document-client') },
    'aws-sdk': { DynamoDB: dynamo('v2-client'), DocumentClient: dynamo('v2-document-client') },
  },
  methodResults: {},
  propertyResults: {},
  anyPropertyResults: {},
  callbackParameters: {},
};

/**
 * `new this.provider.sdk.DynamoDB.DocumentClient(…)`: SDK v2's document client made from a
 * copy of the SDK that another package hands over (a framework's provider, an X-Ray-wrapped
 * `AWS`), so no import of `aws-sdk` says what it is. The namespace path `DynamoDB.DocumentClient`
 * is the SDK's own; those the file's imports already explain are left to them. Once per
 * file: the value analysis and the client list both ask.
 */
export const findSdkCopyDocumentClients = createPerFileCache((context: AnyRuleContext): ReadonlyArray<{ node: TSESTree.NewExpression; value: DbValue }> => {
  const found: Array<{ node: TSESTree.NewExpression; value: DbValue }> = [];
  for (const member of findMembersNamed(context, ['DocumentClient'])) {
    const creation = member.parent;
    const namespace = member.object;
    if (creation?.type !== AST_NODE_TYPES.NewExpression || creation.callee !== member) continue;
    if (namespace.type !== AST_NODE_TYPES.MemberExpression || getKeyName(namespace) !== 'DynamoDB') continue;
    found.push({ node: creation, value: dynamo('v2-document-client') });
  }
  return found;
});

/** Methods each kind of client object answers with a DynamoDB operation. */
const METHOD_OPERATIONS: Record<DynamoDbClientKind, ReadonlyMap<string, string>> = {
  client: new Map(),
  'document-client': new Map(),
  'aggregated-client': new Map(OPERATIONS.map((operation) => [lowerFirst(operation), operation])),
  'v2-client': new Map(OPERATIONS.map((operation) => [lowerFirst(operation), operation])),
  'aggregated-document-client': new Map(Object.entries(DOCUMENT_OPERATIONS)),
  'v2-document-client': new Map(V2_DOCUMENT_METHODS.map((method) => [method, DOCUMENT_OPERATIONS[method] as string])),
};

/** The DynamoDB operation a method of a client kind runs (`put` of a document client → `PutItem`). */
export function getMethodOperation(kind: DynamoDbClientKind, method: string): string | undefined {
  return METHOD_OPERATIONS[kind].get(method);
}

/** Every method name some client kind answers with an operation. */
export const OPERATION_METHOD_NAMES: readonly string[] = [...new Set([...OPERATIONS.map(lowerFirst), ...Object.keys(DOCUMENT_OPERATIONS)])];

/** The v3 client each SDK v2 client's promises answer like. */
const PROMISE_CLIENT_KINDS: Partial<Record<DynamoDbClientKind, DynamoDbClientKind>> = {
  'v2-client': 'aggregated-client',
  'v2-document-client': 'aggregated-document-client',
};

/**
 * An object literal whose every property forwards to the same method of one kind of SDK v2
 * client and returns its promise: `{ batchWrite: (params) => documentClient.batchWrite(params).promise(), … }`.
 * Such an object answers like the v3 aggregated clients (`doc.batchWrite(params)` is a promise of the result).
 */
export function getForwardingObjectValue(object: TSESTree.ObjectExpression, valueOf: (node: TSESTree.Node) => DbValue | 'other' | undefined): DbValue | undefined {
  let kind: DynamoDbClientKind | undefined;
  if (object.properties.length === 0) return undefined;
  for (const property of object.properties) {
    const call = getForwardedCall(property);
    const receiver = call && valueOf((call.callee as TSESTree.MemberExpression).object);
    if (!call || receiver === undefined || receiver === 'other' || receiver.database !== 'dynamodb') return undefined;
    const promiseKind = PROMISE_CLIENT_KINDS[receiver.kind];
    const name = getKeyName(call.callee as TSESTree.MemberExpression);
    if (!promiseKind || name === undefined || !getMethodOperation(receiver.kind, name) || (kind && kind !== promiseKind)) return undefined;
    kind = promiseKind;
  }
  return kind && dynamo(kind);
}

/** `put: (params) => client.put(params).promise()`: the forwarded call `client.put(params)`. */
function getForwardedCall(property: TSESTree.ObjectLiteralElement): TSESTree.CallExpression | undefined {
  if (property.type !== AST_NODE_TYPES.Property || property.computed || property.kind !== 'init') return undefined;
  const fn = property.value;
  if (fn.type !== AST_NODE_TYPES.ArrowFunctionExpression || fn.body.type !== AST_NODE_TYPES.CallExpression) return undefined;
  const promise = fn.body;
  if (promise.arguments.length > 0 || promise.callee.type !== AST_NODE_TYPES.MemberExpression) return undefined;
  const call = promise.callee.object;
  if (call.type !== AST_NODE_TYPES.CallExpression || getMethodCall(call)?.name !== 'promise') return undefined;
  const callee = call.callee;
  if (callee.type !== AST_NODE_TYPES.MemberExpression || callee.computed || callee.property.type !== AST_NODE_TYPES.Identifier || callee.property.name !== getKeyName(property)) return undefined;
  const parameter = fn.params[0];
  const argument = call.arguments[0];
  if (fn.params.length !== 1 || call.arguments.length !== 1 || parameter?.type !== AST_NODE_TYPES.Identifier || argument?.type !== AST_NODE_TYPES.Identifier || argument.name !== parameter.name) return undefined;
  return call;
}
