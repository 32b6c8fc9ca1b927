import { AST_NODE_TYPES, ASTUtils, type TSESTree } from '@typescript-eslint/utils';
import type { DbCall } from './db-call';
import type { DynamoDbClientKind } from './db-value';
import { getKeyName, unwrapExpression } from '../ast';
import { findAnnotatedBindings, findBindingReads, findInstanceReferences, getMethodCall, getOutermostSameValue, getValueBinding, resolveObjectLiteral, visitEveryNode } from './value-bindings';
import { findParameterCallReceivers, getPassedValue, getReceiverParameter, type ValueJudge } from './parameter-values';
import { CALL, CONSTRUCT, findImportedTypeAnnotations, findModuleReferences, getSourcePath, hasModuleImport, mayUsePackages, type TraceMap } from '../modules';
import { type ClientTypeChecker, getClientTypeChecker } from './client-types';
import { DOCUMENT_OPERATIONS, isDynamoDbWriteOperation, lowerFirst, OPERATIONS, PAGINATORS, V2_DOCUMENT_METHODS } from './dynamodb-operations';
import { type AnyRuleContext, createPerFileCache } from '../per-file-cache';
import { getImportedValues } from './imported-values';
import { findFilledSlots, getSlotArguments } from './call-sites';
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

export const DYNAMODB_MODULES = [
  '@aws-sdk/client-dynamodb',
  '@aws-sdk/lib-dynamodb',
  'aws-sdk',
  'aws-sdk/clients/dynamodb',
  'aws-sdk/clients/all',
] as const;

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

/** Methods each kind of client object answers with a DynamoDB operation. */
function getMethodOperations(kind: DynamoDbClientKind): Map<string, string> {
  switch (kind) {
    case 'aggregated-client':
    case 'v2-client':
      return new Map(OPERATIONS.map((operation) => [lowerFirst(operation), operation]));
    case 'aggregated-document-client':
      return new Map(Object.entries(DOCUMENT_OPERATIONS));
    case 'v2-document-client':
      return new Map(V2_DOCUMENT_METHODS.map((method) => [method, DOCUMENT_OPERATIONS[method] as string]));
    default:
      return new Map();
  }
}

/** Type names (export paths) that declare a client object, per module. */
const ANNOTATION_KINDS: Record<string, Record<string, DynamoDbClientKind>> = {
  '@aws-sdk/client-dynamodb': { DynamoDB: 'aggregated-client', DynamoDBClient: 'client' },
  '@aws-sdk/lib-dynamodb': { DynamoDBDocument: 'aggregated-document-client', DynamoDBDocumentClient: 'document-client' },
  'aws-sdk': { DynamoDB: 'v2-client', 'DynamoDB.DocumentClient': 'v2-document-client' },
  'aws-sdk/clients/dynamodb': { '': 'v2-client', DocumentClient: 'v2-document-client' },
};

export interface DynamoDbAnalysis {
  clients: DynamoDbClientSite[];
  /** Every expression known to evaluate to a client object. */
  values: ReadonlyMap<TSESTree.Node, DynamoDbClientKind>;
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

const EMPTY: DynamoDbAnalysis = { clients: [], values: new Map(), calls: [], globalConfigs: [] };

/** The file's DynamoDB client sites and calls; computed once per file. */
export const getDynamoDbAnalysis = createPerFileCache((context: AnyRuleContext): DynamoDbAnalysis => {
  const types = getClientTypeChecker(context, DYNAMODB_MODULES);
  // With types, the module index's word is checked: a value typed as something else is not a client.
  const imported = getImportedValues(context).flatMap(({ node, value }) =>
    value.database === 'dynamodb' && !types?.isOtherType(node) ? [{ node, kind: value.kind }] : [],
  );
  const importsSdk = hasModuleImport(context, DYNAMODB_MODULES);
  const usesDynamoDb = importsSdk || imported.length > 0 || types !== undefined;
  // Parameters are asked about only where the project can make a DynamoDB client (the callers' answers are costly).
  const parameterReceivers = usesDynamoDb || mayUsePackages(getSourcePath(context), DYNAMODB_PACKAGES) ? findParameterReceivers(context, usesDynamoDb) : [];
  if (!importsSdk && !types && imported.length === 0 && parameterReceivers.length === 0) return EMPTY;
  const clients: DynamoDbClientSite[] = [];
  const globalConfigs: AwsGlobalConfigSite[] = [];
  const calls = new Map<TSESTree.Node, DynamoDbCall>();
  const addCall = (call: DynamoDbCall): void => {
    if (!calls.has(call.node)) calls.set(call.node, call);
  };
  const instanceReads: InstanceRead[] = [];

  for (const reference of findModuleReferences(context, TRACE_MAP)) {
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
      for (const read of findInstanceReferences(context, node)) {
        instanceReads.push({ node: read, kind: info.kind, sdkVersion: info.sdkVersion });
      }
    }
  }

  // Clients the project's own modules export (`import { documents } from './dynamo'`).
  for (const { node, kind } of imported) {
    for (const read of findInstanceReferences(context, node)) instanceReads.push({ node: read, kind, sdkVersion: kind.startsWith('v2') ? 2 : 3 });
  }

  for (const annotated of findImportedTypeAnnotations(context, Object.keys(ANNOTATION_KINDS))) {
    const kind = ANNOTATION_KINDS[annotated.module]?.[annotated.path.join('.')];
    if (!kind) continue;
    for (const binding of findAnnotatedBindings(context, annotated.annotation)) {
      for (const read of findBindingReads(binding)) {
        instanceReads.push({ node: read, kind, sdkVersion: kind.startsWith('v2') ? 2 : 3 });
        // `const doc = this.doc` and similar aliases.
        const alias = getValueBinding(context, read);
        if (alias) {
          for (const aliasRead of findBindingReads(alias)) {
            instanceReads.push({ node: aliasRead, kind, sdkVersion: kind.startsWith('v2') ? 2 : 3 });
          }
        }
      }
    }
  }

  addParameterReads(context, instanceReads, 0);
  addParameterReceivers(context, instanceReads, parameterReceivers);
  const receiverKinds = new Map<TSESTree.CallExpression, DynamoDbClientKind>();
  const addMethodCalls = (from: number): void => {
    for (const { node, kind, sdkVersion } of instanceReads.slice(from)) {
      const method = getCalledMethodNames(context, node);
      if (!method) continue;
      // `this.client[operation](params)`: one operation whatever the callers pass, else unknown.
      const operations = new Set(method.names.map((name) => getMethodOperations(kind).get(name)));
      const operation = operations.size === 1 ? [...operations][0] : undefined;
      if (!operation) continue;
      receiverKinds.set(method.call, kind);
      addCall(makeCall(method.call, operation, 'method', sdkVersion, method.call.arguments[0], undefined, getLastArgument(method.call)));
    }
  };
  addMethodCalls(0);
  // `{ put: (params) => client.put(params).promise(), … }`: an object of promise methods, used like the v3 client.
  const forwarded = instanceReads.length;
  for (const { node, kind } of findForwardingObjects(receiverKinds)) {
    for (const read of findInstanceReferences(context, node)) instanceReads.push({ node: read, kind, sdkVersion: 3 });
  }
  if (instanceReads.length > forwarded) {
    addParameterReads(context, instanceReads, forwarded);
    addMethodCalls(forwarded);
  }

  if (types) {
    for (const call of findTypedCalls(context, types, new Set(calls.keys()))) addCall(call);
  }

  const values = new Map(instanceReads.map(({ node, kind }) => [node, kind]));
  return { clients, values, calls: [...calls.values()].sort((a, b) => a.node.range[0] - b.node.range[0]), globalConfigs };
});

interface InstanceRead {
  node: TSESTree.Node;
  kind: DynamoDbClientKind;
  sdkVersion: 2 | 3;
}

/** Method names that are DynamoDB's own: a receiver of one of them is worth asking callers about without an SDK import. */
const DISTINCTIVE_METHOD_NAMES = [
  ...OPERATIONS.map(lowerFirst).filter((name) => name !== 'query' && name !== 'scan'),
  'batchWrite',
  'batchGet',
  'transactWrite',
  'transactGet',
];

/**
 * Receivers of DynamoDB method calls that come from a parameter: `client.batchWrite(…)`,
 * `this.client[operation](…)` with `this.client` set from the constructor,
 * `options.destination.client.batchWrite(…)`. Only these are asked about; any name
 * when the file uses the SDK or a client from another module, DynamoDB's own otherwise.
 */
function findParameterReceivers(context: AnyRuleContext, usesDynamoDb: boolean): TSESTree.Node[] {
  const names = usesDynamoDb ? [...ALL_METHOD_NAMES].filter((name) => name !== 'send') : DISTINCTIVE_METHOD_NAMES;
  return findParameterCallReceivers(context, names);
}

/** What every caller passes into the parameter each receiver comes from, when all pass the same kind of client. */
function addParameterReceivers(context: AnyRuleContext, instanceReads: InstanceRead[], receivers: readonly TSESTree.Node[]): void {
  const known = new Map(instanceReads.map((read) => [read.node, read.kind]));
  const judge: ValueJudge<DynamoDbClientKind> = {
    valueOf: (node) => known.get(node) ?? known.get(unwrapExpression(node)),
    fromRemote: (value) => (value.database === 'dynamodb' ? value.kind : undefined),
    same: (a, b) => a === b,
  };
  for (const receiver of receivers) {
    if (known.has(receiver)) continue;
    const source = getReceiverParameter(context, receiver);
    const kind = source && getPassedValue(context, source.slot, source.path, judge);
    if (!kind) continue;
    known.set(receiver, kind);
    instanceReads.push({ node: receiver, kind, sdkVersion: kind.startsWith('v2') ? 2 : 3 });
  }
}

/**
 * Object literals whose every property forwards to the same method of one SDK v2 client
 * and returns its promise: `{ batchWrite: (params) => documentClient.batchWrite(params).promise(), … }`.
 * Such an object answers like the v3 aggregated clients (`doc.batchWrite(params)` is a promise of the result).
 */
function findForwardingObjects(receiverKinds: ReadonlyMap<TSESTree.CallExpression, DynamoDbClientKind>): Array<{ node: TSESTree.ObjectExpression; kind: DynamoDbClientKind }> {
  const forwards = new Map<TSESTree.ObjectExpression, { count: number; kinds: Set<DynamoDbClientKind> }>();
  for (const [call, receiverKind] of receiverKinds) {
    const kind = PROMISE_CLIENT_KINDS[receiverKind];
    const object = kind && getForwardingObject(call);
    if (!kind || !object) continue;
    const entry = forwards.get(object) ?? { count: 0, kinds: new Set() };
    entry.count++;
    entry.kinds.add(kind);
    forwards.set(object, entry);
  }
  const found: Array<{ node: TSESTree.ObjectExpression; kind: DynamoDbClientKind }> = [];
  for (const [object, { count, kinds }] of forwards) {
    const kind = kinds.size === 1 ? [...kinds][0] : undefined;
    if (kind && count === object.properties.length) found.push({ node: object, kind });
  }
  return found;
}

/** The v3 client each SDK v2 client's promises answer like. */
const PROMISE_CLIENT_KINDS: Partial<Record<DynamoDbClientKind, DynamoDbClientKind>> = {
  'v2-client': 'aggregated-client',
  'v2-document-client': 'aggregated-document-client',
};

/** `put: (params) => client.put(params).promise()`: the object literal the property is in. */
function getForwardingObject(call: TSESTree.CallExpression): TSESTree.ObjectExpression | undefined {
  const callee = call.callee;
  if (callee.type !== AST_NODE_TYPES.MemberExpression || callee.computed || callee.property.type !== AST_NODE_TYPES.Identifier) return undefined;
  const promise = getMethodCall(call);
  if (promise?.name !== 'promise' || promise.call.arguments.length > 0) return undefined;
  const fn = promise.call.parent;
  if (fn?.type !== AST_NODE_TYPES.ArrowFunctionExpression || fn.body !== promise.call) return undefined;
  const parameter = fn.params[0];
  const argument = call.arguments[0];
  if (fn.params.length !== 1 || call.arguments.length !== 1 || parameter?.type !== AST_NODE_TYPES.Identifier || argument?.type !== AST_NODE_TYPES.Identifier || argument.name !== parameter.name) return undefined;
  const property = fn.parent;
  if (property?.type !== AST_NODE_TYPES.Property || property.value !== fn || property.computed || getKeyName(property) !== callee.property.name) return undefined;
  return property.parent.type === AST_NODE_TYPES.ObjectExpression ? property.parent : undefined;
}

/**
 * Parameters every caller fills with the same kind of client (`new Repo(docClient)`
 * then `this.client`, `execute({ client: ddb, command })`), a few rounds deep.
 */
function addParameterReads(context: AnyRuleContext, instanceReads: InstanceRead[], start: number): void {
  const known = new Map(instanceReads.map((read) => [read.node, read.kind]));
  const filled = new Set<unknown>();
  for (let round = 0, from = start; round < 3 && from < instanceReads.length; round++) {
    const batch = instanceReads.slice(from);
    from = instanceReads.length;
    for (const { node } of batch) {
      for (const slot of findFilledSlots(context, node)) {
        if (filled.has(slot.variable)) continue;
        const passed = getSlotArguments(context, slot);
        const kinds = new Set(passed?.map((argument) => known.get(argument) ?? known.get(unwrapExpression(argument))));
        const kind = kinds.size === 1 ? [...kinds][0] : undefined;
        if (!kind) continue;
        filled.add(slot.variable);
        for (const reference of slot.variable.references) {
          if (!reference.isRead()) continue;
          for (const read of findInstanceReferences(context, reference.identifier)) {
            known.set(read, kind);
            instanceReads.push({ node: read, kind, sdkVersion: kind.startsWith('v2') ? 2 : 3 });
          }
        }
      }
    }
  }
}

/** Type name (per declaring module) of a client object → its kind. */
const TYPE_KINDS: Record<string, Record<string, DynamoDbClientKind>> = {
  '@aws-sdk/client-dynamodb': { DynamoDB: 'aggregated-client' },
  '@aws-sdk/lib-dynamodb': { DynamoDBDocument: 'aggregated-document-client' },
  'aws-sdk': { DynamoDB: 'v2-client', DocumentClient: 'v2-document-client' },
};

const ALL_METHOD_NAMES = new Set<string>([
  ...OPERATIONS.map(lowerFirst),
  ...Object.keys(DOCUMENT_OPERATIONS),
  'send',
]);

/**
 * With typed linting, calls the imports do not show: a client imported from another
 * module of the project (`documents.batchWrite(…)`), a command built elsewhere
 * (`client.send(buildPut(order))`). Only calls with a DynamoDB method name are typed.
 */
function findTypedCalls(context: AnyRuleContext, types: ClientTypeChecker, known: Set<TSESTree.Node>): DynamoDbCall[] {
  const text = context.sourceCode.text;
  if (![...ALL_METHOD_NAMES].some((name) => text.includes(name))) return [];
  const found: DynamoDbCall[] = [];
  visitEveryNode(context.sourceCode.ast, (node) => {
    if (node.type !== AST_NODE_TYPES.CallExpression || known.has(node)) return;
    const callee = unwrapExpression(node.callee);
    if (callee.type !== AST_NODE_TYPES.MemberExpression) return;
    const name = ASTUtils.getPropertyName(callee);
    if (name === null || !ALL_METHOD_NAMES.has(name)) return;
    const last = getLastArgument(node);
    if (name === 'send') {
      const argument = node.arguments[0];
      const command = argument && types.getDeclaredType(argument);
      const operation = command && getCommandOperation(command.module, command.name);
      if (operation && command) {
        const construction = argument.type === AST_NODE_TYPES.NewExpression ? argument : undefined;
        found.push(makeCall(node, operation, 'command', 3, construction?.arguments[0], construction, last));
      }
      return;
    }
    const receiver = types.getDeclaredType(callee.object);
    const kind = receiver && TYPE_KINDS[receiver.module]?.[receiver.name];
    const operation = kind && getMethodOperations(kind).get(name);
    if (kind && operation) found.push(makeCall(node, operation, 'method', kind.startsWith('v2') ? 2 : 3, node.arguments[0], undefined, last));
  });
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
