import { AST_NODE_TYPES, ASTUtils, type TSESTree } from '@typescript-eslint/utils';
import type { DbCall } from './db-call';
import type { DynamoDbClientKind } from './db-value';
import { getDbValues, getSeededDbValues, type DbValues } from './db-values';
import { getKeyName, unwrapExpression } from '../ast';
import { findInstanceReferences, getMethodCall, getOutermostSameValue, resolveObjectLiteral } from './value-bindings';
import { CALL, CONSTRUCT, findModuleReferences, getSourcePath, hasModuleImport, mayUsePackages, type TraceMap } from '../modules';
import { findComputedMemberCalls, findMemberCallsNamed } from '../find-nodes-at-offsets';
import { DOCUMENT_OPERATIONS, isDynamoDbWriteOperation, lowerFirst, OPERATIONS, PAGINATORS } from './dynamodb-operations';
import { DYNAMODB_MODULES, findSdkCopyDocumentClients, getMethodOperation, OPERATION_METHOD_NAMES } from './dynamodb-vocabulary';
import { type AnyRuleContext, createPerFileCache } from '../per-file-cache';
import { getCalledMethodNames } from './possible-strings';

/**
 * DynamoDB calls, found by following the AWS SDK's imports — never by method name
 * alone (`s3.send(new PutObjectCommand())` or a local `send()` are not DynamoDB):
 * - v3 `@aws-sdk/client-dynamodb`: `client.send(new PutItemCommand(…))`, the aggregated
 *   `DynamoDB` class (`ddb.batchWriteItem(…)`), `paginateQuery`/`paginateScan`;
 * - v3 `@aws-sdk/lib-dynamodb`: `DynamoDBDocumentClient.from(…)` + `PutCommand`…,
 *   the `DynamoDBDocument` class (`doc.put(…)`);
 * - v2 `aws-sdk` / `aws-sdk/clients/dynamodb`: `new AWS.DynamoDB()` and
 *   `new AWS.DynamoDB.DocumentClient()` methods, with `.promise()` or a callback.
 */

/** The npm packages behind DYNAMODB_MODULES. */
const DYNAMODB_PACKAGES = ['@aws-sdk/client-dynamodb', '@aws-sdk/lib-dynamodb', 'aws-sdk'];

export type { DynamoDbClientKind };

/** Where a DynamoDB client object is made. */
export interface DynamoDbClientSite {
  /** `new DynamoDBClient(config)`, `DynamoDBDocumentClient.from(client)`, `new AWS.DynamoDB(config)`, … */
  node: TSESTree.NewExpression | TSESTree.CallExpression;
  kind: DynamoDbClientKind;
  sdkVersion: 2 | 3;
  /**
   * The SDK client configuration object (`{ region, maxAttempts }`, v2 `{ maxRetries }`):
   * the literal argument, or the object literal a `const` argument names. Undefined
   * for document clients made with `.from(client)` (their options are marshalling
   * options, the wrapped client holds the configuration) and when not a literal.
   */
  config: TSESTree.ObjectExpression | undefined;
  /** The argument that carries the configuration, when there is one. */
  configArgument: TSESTree.Node | undefined;
}

export interface DynamoDbCall extends DbCall {
  database: 'dynamodb';
  node: TSESTree.CallExpression;
  sdkVersion: 2 | 3;
  /**
   * `command`: `client.send(new XCommand(input))` (the result is a promise, or the
   * callback given after the command); `method`: `ddb.putItem(input)` / `doc.put(input)`
   * (v3: a promise, or a callback; v2: an `AWS.Request`, sent by `.promise()`, `.send()`
   * or a callback); `paginator`: `paginateQuery(config, input)` (an async iterable).
   */
  style: 'command' | 'method' | 'paginator';
  /** The operation's input object expression (`new XCommand(input)` / `method(input)`), when given. */
  input: TSESTree.Node | undefined;
  /** The command construction, for `style: 'command'`. */
  command: TSESTree.NewExpression | undefined;
  /** A node-style callback `(err, data) => …` passed to the call, when there is one. */
  callback: TSESTree.Node | undefined;
}

interface ConstructInfo {
  what: 'client' | 'command' | 'paginator' | 'from' | 'global-config';
  kind?: DynamoDbClientKind;
  operation?: string;
  sdkVersion: 2 | 3;
}

function buildTraceMap(): TraceMap<ConstructInfo> {
  const clientDynamoDb: TraceMap<ConstructInfo> = {
    DynamoDBClient: { [CONSTRUCT]: { what: 'client', kind: 'client', sdkVersion: 3 } },
    DynamoDB: { [CONSTRUCT]: { what: 'client', kind: 'aggregated-client', sdkVersion: 3 } },
  };
  for (const operation of OPERATIONS) {
    clientDynamoDb[`${operation}Command`] = { [CONSTRUCT]: { what: 'command', operation, sdkVersion: 3 } };
  }
  const libDynamoDb: TraceMap<ConstructInfo> = {
    DynamoDBDocumentClient: {
      [CONSTRUCT]: { what: 'from', kind: 'document-client', sdkVersion: 3 },
      from: { [CALL]: { what: 'from', kind: 'document-client', sdkVersion: 3 } },
    },
    DynamoDBDocument: {
      [CONSTRUCT]: { what: 'from', kind: 'aggregated-document-client', sdkVersion: 3 },
      from: { [CALL]: { what: 'from', kind: 'aggregated-document-client', sdkVersion: 3 } },
    },
  };
  for (const [method, operation] of Object.entries(DOCUMENT_OPERATIONS)) {
    const stem = method.charAt(0).toUpperCase() + method.slice(1);
    libDynamoDb[`${stem}Command`] = { [CONSTRUCT]: { what: 'command', operation, sdkVersion: 3 } };
  }
  for (const [name, operation] of Object.entries(PAGINATORS)) {
    clientDynamoDb[name] = { [CALL]: { what: 'paginator', operation, sdkVersion: 3 } };
    if (operation === 'Query' || operation === 'Scan') {
      libDynamoDb[name] = { [CALL]: { what: 'paginator', operation, sdkVersion: 3 } };
    }
  }
  const v2Service: TraceMap<ConstructInfo> = {
    [CONSTRUCT]: { what: 'client', kind: 'v2-client', sdkVersion: 2 },
    DocumentClient: { [CONSTRUCT]: { what: 'client', kind: 'v2-document-client', sdkVersion: 2 } },
  };
  return {
    '@aws-sdk/client-dynamodb': clientDynamoDb,
    '@aws-sdk/lib-dynamodb': libDynamoDb,
    'aws-sdk': {
      DynamoDB: v2Service,
      config: { update: { [CALL]: { what: 'global-config', sdkVersion: 2 } } },
      Config: { [CONSTRUCT]: { what: 'global-config', sdkVersion: 2 } },
    },
    'aws-sdk/clients/all': { DynamoDB: v2Service },
    'aws-sdk/clients/dynamodb': v2Service,
  };
}

const TRACE_MAP = buildTraceMap();

export interface DynamoDbAnalysis {
  clients: DynamoDbClientSite[];
  calls: DynamoDbCall[];
  /** SDK v2 settings for every client: `AWS.config.update({ … })`, `new AWS.Config({ … })`. */
  globalConfigs: AwsGlobalConfigSite[];
}

/** Where SDK v2 code sets options for all its service clients, DynamoDB included. */
export interface AwsGlobalConfigSite {
  node: TSESTree.CallExpression | TSESTree.NewExpression;
  /** The options object literal (resolved through a `const`), when there is one. */
  config: TSESTree.ObjectExpression | undefined;
}

const EMPTY: DynamoDbAnalysis = { clients: [], calls: [], globalConfigs: [] };

/** Method names that are DynamoDB's own: a receiver of one of them is worth asking about without an SDK import. */
const DISTINCTIVE_METHOD_NAMES = [
  ...OPERATIONS.map(lowerFirst).filter((name) => name !== 'query' && name !== 'scan'),
  'batchWrite',
  'batchGet',
  'transactWrite',
  'transactGet',
];

/** The file's DynamoDB client sites and calls; computed once per file. */
export const getDynamoDbAnalysis = createPerFileCache((context: AnyRuleContext): DynamoDbAnalysis => {
  const importsSdk = hasModuleImport(context, DYNAMODB_MODULES);
  // The resolver is built only where it may know a client beyond parameters, or has a candidate to ask about.
  const seeded = getSeededDbValues(context);
  const hasTypes = seeded?.hasTypes === true;
  const usesDynamoDb = importsSdk || hasTypes || seeded?.databases.has('dynamodb') === true;
  // Without the SDK, only DynamoDB's own method names are asked about, where the project can make a client (the callers' answers are costly).
  if (!usesDynamoDb && !mayUsePackages(getSourcePath(context), DYNAMODB_PACKAGES)) {
    // A project that cannot make a client sends its batch requests on the one its user hands in.
    const sent = context.sourceCode.text.includes('RequestItems') ? findBatchRequestCalls(context, getDbValues(context)) : [];
    return sent.length === 0 ? EMPTY : { clients: [], calls: sent, globalConfigs: [] };
  }
  const clients: DynamoDbClientSite[] = [];
  const globalConfigs: AwsGlobalConfigSite[] = [];
  const calls = new Map<TSESTree.Node, DynamoDbCall>();
  const addCall = (call: DynamoDbCall): void => {
    if (!calls.has(call.node)) calls.set(call.node, call);
  };

  for (const reference of importsSdk ? findModuleReferences(context, TRACE_MAP) : []) {
    const info = reference.info;
    const node = reference.node;
    if (info.what === 'command' && node.type === AST_NODE_TYPES.NewExpression && info.operation) {
      for (const call of findSendCalls(context, node)) {
        addCall(makeCall(call, info.operation, 'command', info.sdkVersion, node.arguments[0], node, getLastArgument(call)));
      }
    } else if (info.what === 'global-config' && (node.type === AST_NODE_TYPES.CallExpression || node.type === AST_NODE_TYPES.NewExpression)) {
      const argument = node.arguments[0];
      globalConfigs.push({ node, config: argument ? resolveObjectLiteral(context, argument) : undefined });
    } else if (info.what === 'paginator' && node.type === AST_NODE_TYPES.CallExpression && info.operation) {
      addCall(makeCall(node, info.operation, 'paginator', 3, node.arguments[1], undefined, undefined));
    } else if (
      (info.what === 'client' || info.what === 'from') &&
      info.kind &&
      (node.type === AST_NODE_TYPES.NewExpression || node.type === AST_NODE_TYPES.CallExpression)
    ) {
      clients.push(makeClientSite(context, node, info.kind, info.sdkVersion, info.what === 'client'));
    }
  }

  // `new this.provider.sdk.DynamoDB.DocumentClient(config)`: a client of an SDK copy another package hands over.
  const madeFromImports = new Set<TSESTree.Node>(clients.map((client) => client.node));
  for (const { node, value } of findSdkCopyDocumentClients(context)) {
    if (value.database === 'dynamodb' && !madeFromImports.has(node)) clients.push(makeClientSite(context, node, value.kind, 2, true));
  }

  // Method calls: the receivers of calls named like an operation, asked of the value analysis.
  const names = usesDynamoDb ? OPERATION_METHOD_NAMES : DISTINCTIVE_METHOD_NAMES;
  const candidates = [...findMemberCallsNamed(context, names).map(({ receiver }) => receiver), ...findComputedMemberCalls(context).map(({ member }) => member.object)];
  for (const receiver of candidates) {
    const kind = getClientKind(getDbValues(context), receiver);
    const method = kind && getCalledMethodNames(context, receiver);
    if (!kind || !method) continue;
    // `this.client[operation](params)`: one operation whatever the callers pass, else unknown.
    const operations = new Set(method.names.map((name) => getMethodOperation(kind, name)));
    const operation = operations.size === 1 ? [...operations][0] : undefined;
    if (operation) addCall(makeCall(method.call, operation, 'method', getSdkVersion(kind), method.call.arguments[0], undefined, getLastArgument(method.call)));
  }

  if (hasTypes) {
    for (const call of findTypedSendCalls(context, getDbValues(context), new Set(calls.keys()))) addCall(call);
  }
  return { clients, calls: [...calls.values()].sort((a, b) => a.node.range[0] - b.node.range[0]), globalConfigs };
});

/** Batch methods of the SDK v2 clients and the v3 aggregated ones, by the operation they send. */
const BATCH_METHOD_OPERATIONS: Readonly<Record<string, string>> = {
  batchWrite: 'BatchWriteItem',
  batchWriteItem: 'BatchWriteItem',
  batchGet: 'BatchGetItem',
  batchGetItem: 'BatchGetItem',
};

/** `{ RequestItems: … }`, or a variable every write of which is one (`var params; params = { RequestItems: {} }`). */
function isBatchRequest(context: AnyRuleContext, input: TSESTree.Node): boolean {
  const hasRequestItems = (node: TSESTree.Node | null | undefined): boolean =>
    node?.type === AST_NODE_TYPES.ObjectExpression && node.properties.some((property) => property.type === AST_NODE_TYPES.Property && getKeyName(property) === 'RequestItems');
  const literal = resolveObjectLiteral(context, input);
  if (literal) return hasRequestItems(literal);
  if (input.type !== AST_NODE_TYPES.Identifier) return false;
  const writes = ASTUtils.findVariable(context.sourceCode.getScope(input), input)?.references.filter((reference) => reference.isWrite()) ?? [];
  return writes.length > 0 && writes.every((reference) => hasRequestItems(reference.writeExpr));
}

/**
 * In a project whose `package.json` names no AWS SDK package (a library that writes with
 * the client its user hands in), `x.batchWrite({ RequestItems: … })`: `RequestItems` is the
 * request of DynamoDB's batch operations and no other API's. A receiver known to be
 * something else is left alone; where the project can make clients, what its callers pass
 * decides instead. SDK v2 when the call takes a callback or is sent by `.promise()`, else v3.
 */
function findBatchRequestCalls(context: AnyRuleContext, values: DbValues): DynamoDbCall[] {
  const found: DynamoDbCall[] = [];
  for (const { call, receiver, name } of findMemberCallsNamed(context, Object.keys(BATCH_METHOD_OPERATIONS))) {
    const operation = BATCH_METHOD_OPERATIONS[name];
    const input = call.arguments[0];
    if (!operation || !input || values.getValue(receiver) !== undefined) continue;
    if (!isBatchRequest(context, input)) continue;
    const callback = getLastArgument(call);
    const sentByPromise = getMethodCall(call)?.name === 'promise';
    found.push(makeCall(call, operation, 'method', callback || sentByPromise ? 2 : 3, input, undefined, callback));
  }
  return found;
}

/** What client a receiver is: from the value analysis, else (typed linting) its type. */
function getClientKind(values: DbValues, receiver: TSESTree.Node): DynamoDbClientKind | undefined {
  const value = values.getValue(receiver);
  if (value !== undefined && value !== 'other') return value.database === 'dynamodb' ? value.kind : undefined;
  const typed = value === undefined ? values.getTypeValue(receiver) : undefined;
  return typed !== undefined && typed !== 'other' && typed.database === 'dynamodb' ? typed.kind : undefined;
}

function getSdkVersion(kind: DynamoDbClientKind): 2 | 3 {
  return kind.startsWith('v2') ? 2 : 3;
}

/**
 * With typed linting, `send` calls the imports do not show: a command built elsewhere
 * (`client.send(buildPut(order))`), known by its type.
 */
function findTypedSendCalls(context: AnyRuleContext, values: DbValues, known: Set<TSESTree.Node>): DynamoDbCall[] {
  const found: DynamoDbCall[] = [];
  for (const { call } of findMemberCallsNamed(context, ['send'])) {
    if (known.has(call)) continue;
    const argument = call.arguments[0];
    const command = argument && values.getDeclaredType(argument);
    const operation = command && getCommandOperation(command.module, command.name);
    if (!operation || !argument) continue;
    const construction = argument.type === AST_NODE_TYPES.NewExpression ? argument : undefined;
    found.push(makeCall(call, operation, 'command', 3, construction?.arguments[0], construction, getLastArgument(call)));
  }
  return found;
}

/** `PutItemCommand` (client-dynamodb) / `PutCommand` (lib-dynamodb) → `PutItem`. */
function getCommandOperation(module: string, name: string): string | undefined {
  if (!name.endsWith('Command')) return undefined;
  const stem = name.slice(0, -'Command'.length);
  if (module === '@aws-sdk/client-dynamodb') return (OPERATIONS as readonly string[]).includes(stem) ? stem : undefined;
  if (module === '@aws-sdk/lib-dynamodb' && Object.hasOwn(DOCUMENT_OPERATIONS, lowerFirst(stem))) return DOCUMENT_OPERATIONS[lowerFirst(stem)];
  return undefined;
}

/** The last argument after the first (where a node-style callback goes). */
function getLastArgument(call: TSESTree.CallExpression): TSESTree.Node | undefined {
  return call.arguments.length >= 2 ? call.arguments[call.arguments.length - 1] : undefined;
}

function makeCall(
  node: TSESTree.CallExpression,
  operation: string,
  style: DynamoDbCall['style'],
  sdkVersion: 2 | 3,
  input: TSESTree.Node | undefined,
  command: TSESTree.NewExpression | undefined,
  callbackCandidate: TSESTree.Node | undefined,
): DynamoDbCall {
  const callback =
    callbackCandidate &&
    (callbackCandidate.type === AST_NODE_TYPES.ArrowFunctionExpression ||
      callbackCandidate.type === AST_NODE_TYPES.FunctionExpression ||
      callbackCandidate.type === AST_NODE_TYPES.Identifier ||
      // `batchWrite(params, onDone(params))`: a callback made by a factory.
      callbackCandidate.type === AST_NODE_TYPES.CallExpression)
      ? callbackCandidate
      : undefined;
  return {
    node,
    database: 'dynamodb',
    operation,
    isWrite: isDynamoDbCallWrite(operation, input),
    sdkVersion,
    style,
    input: input && input.type !== AST_NODE_TYPES.SpreadElement ? input : undefined,
    command,
    callback,
  };
}

/** PartiQL `ExecuteStatement` writes when its statement says so; unknown text counts as a read. */
function isDynamoDbCallWrite(operation: string, input: TSESTree.Node | undefined): boolean {
  if (operation !== 'ExecuteStatement') return isDynamoDbWriteOperation(operation);
  if (input?.type !== AST_NODE_TYPES.ObjectExpression) return false;
  for (const property of input.properties) {
    if (property.type !== AST_NODE_TYPES.Property || property.computed) continue;
    if (property.key.type !== AST_NODE_TYPES.Identifier || property.key.name !== 'Statement') continue;
    const value = property.value;
    const text =
      value.type === AST_NODE_TYPES.Literal && typeof value.value === 'string'
        ? value.value
        : value.type === AST_NODE_TYPES.TemplateLiteral
          ? (value.quasis[0]?.value.cooked ?? '')
          : '';
    return /^\s*(insert|update|delete|upsert)\b/i.test(text);
  }
  return false;
}

/** `x.send(command)` where `command` is the construction or a variable holding it. */
function findSendCalls(context: AnyRuleContext, command: TSESTree.NewExpression): TSESTree.CallExpression[] {
  const result: TSESTree.CallExpression[] = [];
  for (const reference of findInstanceReferences(context, command)) {
    const outer = getOutermostSameValue(reference);
    const call = outer.parent;
    if (call?.type !== AST_NODE_TYPES.CallExpression || call.arguments[0] !== outer) continue;
    const callee = unwrapExpression(call.callee);
    if (callee.type !== AST_NODE_TYPES.MemberExpression) continue;
    const name = ASTUtils.getPropertyName(callee);
    if (name === 'send') result.push(call);
  }
  return result;
}

function makeClientSite(
  context: AnyRuleContext,
  node: TSESTree.NewExpression | TSESTree.CallExpression,
  kind: DynamoDbClientKind,
  sdkVersion: 2 | 3,
  hasConfig: boolean,
): DynamoDbClientSite {
  const configArgument = hasConfig ? node.arguments[0] : undefined;
  return {
    node,
    kind,
    sdkVersion,
    config: configArgument ? resolveObjectLiteral(context, configArgument) : undefined,
    configArgument,
  };
}

/** DynamoDB calls of the file, in source order. */
export function findDynamoDbCalls(context: AnyRuleContext): DynamoDbCall[] {
  return getDynamoDbAnalysis(context).calls;
}

/** Where the file makes DynamoDB client objects, in source order. */
export function findDynamoDbClients(context: AnyRuleContext): DynamoDbClientSite[] {
  return getDynamoDbAnalysis(context).clients;
}

/** SDK v2 global settings of the file (`AWS.config.update({ … })`, `new AWS.Config({ … })`), in source order. */
export function findAwsGlobalConfigs(context: AnyRuleContext): AwsGlobalConfigSite[] {
  return getDynamoDbAnalysis(context).globalConfigs;
}
