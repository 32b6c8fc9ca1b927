import { AST_NODE_TYPES, ASTUtils, type TSESLint, type TSESTree } from '@typescript-eslint/utils';
import { containsNode, isFunctionNode, isLoopNode, visitNodes, type FunctionNode } from '../ast';
import type { AnyRuleContext } from '../per-file-cache';
import { findDynamoDbCalls, type DynamoDbCall } from './dynamodb-calls';
import { getCallbackPropertyUse, getPromisedPropertyUse, type PropertyUseReport } from './result-usage';
import { getMethodCall } from './value-bindings';

/**
 * DynamoDB batch operations return what they did not process (when throttled, for
 * example) in their result instead of failing.
 */

export interface UnprocessedResult {
  /** The result property that lists it. */
  property: 'UnprocessedItems' | 'UnprocessedKeys';
  /** What it lists. */
  items: 'writes' | 'reads';
}

const UNPROCESSED: Record<string, UnprocessedResult> = {
  BatchWriteItem: { property: 'UnprocessedItems', items: 'writes' },
  BatchGetItem: { property: 'UnprocessedKeys', items: 'reads' },
};

/** Where a batch operation's result lists what it did not process; undefined for other operations. */
export function getUnprocessedResult(operation: string): UnprocessedResult | undefined {
  return UNPROCESSED[operation];
}

/** How the call's result is used for `property`, following the way the SDK delivers it. */
export function getDynamoDbResultPropertyUse(context: AnyRuleContext, call: DynamoDbCall, property: string): PropertyUseReport {
  const node = call.node;
  if (call.callback) return getCallbackPropertyUse(context, call.callback, 1, property);
  if (call.sdkVersion === 3) return getPromisedPropertyUse(context, node, property);
  // SDK v2 returns an AWS.Request: `.promise()`, or `.send(callback)`.
  const method = getMethodCall(node);
  if (method?.name === 'promise') return getPromisedPropertyUse(context, method.call, property);
  const callback = method?.name === 'send' ? method.call.arguments[0] : undefined;
  if (callback) return getCallbackPropertyUse(context, callback, 1, property);
  return { use: 'unknown', reads: [], droppedBy: [] };
}

/** A batch whose leftovers are sent again with no wait: the call that re-sends them. */
export interface ImmediateResend {
  /** The call (of the same operation, or of the function that made the batch) that sends the leftovers again. */
  resend: TSESTree.CallExpression;
  /** The function (or program) where the reads happen. */
  readScope: TSESTree.Node;
}

/**
 * Helpers that wait: `sleep`, `delay`, `wait`, `pause`, `backoff`… and timers. A retry
 * with one of these anywhere in the function that holds both the batch and its re-send
 * is given the benefit of the doubt.
 */
const WAITING_CALLEE = /sleep|delay|wait|pause|snooze|backoff|^setTimeout$|^setImmediate$/i;
/** Bounds on following the leftovers from value to value. */
const MAX_TAINT_STEPS = 200;

/**
 * Whether `reads` of the leftovers (`result.UnprocessedItems`, or the variable
 * destructuring binds) only feed a request sent again at once: a batch of the same
 * operation, or a call of the function that made the batch (recursion), whose arguments
 * hold the leftovers (directly, through variables, or through an object whose property is
 * set to them), after the read or in a loop around both, with no wait in the function
 * that holds the batch and the re-send.
 */
export function findImmediateResend(context: AnyRuleContext, call: DynamoDbCall, reads: readonly TSESTree.Node[]): ImmediateResend | undefined {
  const sameOperation = new Set(findDynamoDbCalls(context).filter((other) => other.operation === call.operation).map((other) => other.node));
  const callers = new Set(enclosingFunctions(call.node));
  for (const read of reads) {
    const readScope = enclosingFunction(read) ?? context.sourceCode.ast;
    for (const sink of findSinks(context, read)) {
      const resend = getResendCall(context, sink, sameOperation, callers);
      if (!resend) continue;
      if (!follows(read, resend, readScope)) continue;
      const holder = commonFunction(call.node, resend) ?? context.sourceCode.ast;
      if (waitsIn(holder) || isInTimerCallback(resend, holder)) continue;
      return { resend, readScope };
    }
  }
  return undefined;
}

type Node = TSESTree.Node;

/** The calls a value flows into as an argument, following it through expressions, variables and object properties. */
function findSinks(context: AnyRuleContext, read: Node): TSESTree.CallExpression[] {
  const sinks: TSESTree.CallExpression[] = [];
  const seen = new Set<TSESLint.Scope.Variable>();
  const queue: Node[] = [];
  const taint = (variable: TSESLint.Scope.Variable | undefined): void => {
    if (!variable || seen.has(variable)) return;
    seen.add(variable);
    for (const reference of variable.references) if (reference.isRead()) queue.push(reference.identifier as Node);
  };
  // `const { UnprocessedItems } = result`: the bound variable holds the leftovers.
  if (read.type === AST_NODE_TYPES.Identifier && read.parent?.type === AST_NODE_TYPES.Property) taint(declaredVariable(context, read));
  else queue.push(read);
  for (let steps = 0; queue.length > 0 && steps < MAX_TAINT_STEPS; steps++) {
    let value = queue.shift()!;
    for (;;) {
      const parent: Node | undefined = value.parent;
      if (!parent) break;
      if (
        (parent.type === AST_NODE_TYPES.MemberExpression && parent.object === value) ||
        parent.type === AST_NODE_TYPES.LogicalExpression ||
        (parent.type === AST_NODE_TYPES.ConditionalExpression && parent.test !== value) ||
        parent.type === AST_NODE_TYPES.ChainExpression ||
        parent.type === AST_NODE_TYPES.AwaitExpression ||
        parent.type === AST_NODE_TYPES.TSAsExpression ||
        parent.type === AST_NODE_TYPES.TSNonNullExpression ||
        parent.type === AST_NODE_TYPES.SpreadElement ||
        parent.type === AST_NODE_TYPES.ArrayExpression ||
        (parent.type === AST_NODE_TYPES.Property && parent.value === value) ||
        parent.type === AST_NODE_TYPES.ObjectExpression ||
        (parent.type === AST_NODE_TYPES.NewExpression && parent.callee !== value)
      ) {
        value = parent;
        continue;
      }
      if (parent.type === AST_NODE_TYPES.CallExpression && parent.callee !== value) sinks.push(parent);
      else if (parent.type === AST_NODE_TYPES.VariableDeclarator && parent.init === value && parent.id.type === AST_NODE_TYPES.Identifier) {
        taint(declaredVariable(context, parent.id));
      } else if (parent.type === AST_NODE_TYPES.AssignmentExpression && parent.right === value) {
        const target = getBaseIdentifier(parent.left);
        if (target) taint(findVariable(context, target));
      }
      break;
    }
  }
  return sinks;
}

/** `takeParams.RequestItems[table]` → `takeParams`; `pending` → `pending`. */
function getBaseIdentifier(node: Node): TSESTree.Identifier | undefined {
  let current = node;
  while (current.type === AST_NODE_TYPES.MemberExpression) current = current.object;
  return current.type === AST_NODE_TYPES.Identifier ? current : undefined;
}

/** The sink as a re-send: a batch of the same operation (the sink itself, or the call a command goes to), or a call of a function that made the batch. */
function getResendCall(context: AnyRuleContext, sink: TSESTree.CallExpression, sameOperation: ReadonlySet<Node>, callers: ReadonlySet<FunctionNode>): TSESTree.CallExpression | undefined {
  if (sameOperation.has(sink)) return sink;
  if (sink.callee.type !== AST_NODE_TYPES.Identifier) return undefined;
  const variable = findVariable(context, sink.callee);
  const definition = variable?.defs.length === 1 ? variable.defs[0] : undefined;
  if (!definition) return undefined;
  const fn =
    definition.type === 'FunctionName' && definition.node.type === AST_NODE_TYPES.FunctionDeclaration
      ? definition.node
      : definition.type === 'Variable' && definition.node.init && isFunctionNode(definition.node.init)
        ? definition.node.init
        : undefined;
  return fn && callers.has(fn) ? sink : undefined;
}

/** The re-send runs after the read: later in the code (the read among its arguments included), or in a loop (within the read's function) around both. */
function follows(read: Node, resend: Node, readScope: Node): boolean {
  if (resend.range[1] >= read.range[1]) return true;
  for (let node: Node | undefined = read.parent; node && node !== readScope; node = node.parent) {
    if (isLoopNode(node) && containsNode(node, resend)) return true;
  }
  return false;
}

function waitsIn(holder: Node): boolean {
  let found = false;
  visitNodes(holder, { skipTypeAnnotations: true }, (node) => {
    if (found) return false;
    if (node.type === AST_NODE_TYPES.CallExpression && WAITING_CALLEE.test(getCalleeName(node.callee) ?? '')) found = true;
    return !found;
  });
  return found;
}

/** `setTimeout(() => write(left), ms)`: the re-send waits for a timer. */
function isInTimerCallback(resend: Node, holder: Node): boolean {
  for (let node: Node | undefined = resend.parent; node && node !== holder; node = node.parent) {
    if (isFunctionNode(node) && node.parent?.type === AST_NODE_TYPES.CallExpression && WAITING_CALLEE.test(getCalleeName(node.parent.callee) ?? '')) return true;
  }
  return false;
}

function getCalleeName(callee: Node): string | undefined {
  if (callee.type === AST_NODE_TYPES.Identifier) return callee.name;
  if (callee.type === AST_NODE_TYPES.MemberExpression && callee.property.type === AST_NODE_TYPES.Identifier) return callee.property.name;
  return undefined;
}

function enclosingFunction(node: Node): FunctionNode | undefined {
  for (let current = node.parent; current; current = current.parent) if (isFunctionNode(current)) return current;
  return undefined;
}

function enclosingFunctions(node: Node): FunctionNode[] {
  const found: FunctionNode[] = [];
  for (let current = node.parent; current; current = current.parent) if (isFunctionNode(current)) found.push(current);
  return found;
}

/** The innermost function that holds both nodes. */
function commonFunction(a: Node, b: Node): FunctionNode | undefined {
  return enclosingFunctions(a).find((fn) => containsNode(fn, b));
}

function declaredVariable(context: AnyRuleContext, identifier: TSESTree.Identifier): TSESLint.Scope.Variable | undefined {
  try {
    return context.sourceCode.getDeclaredVariables(identifier.parent).find((variable) => variable.identifiers.includes(identifier)) ?? findVariable(context, identifier);
  } catch {
    return undefined;
  }
}

function findVariable(context: AnyRuleContext, identifier: TSESTree.Identifier): TSESLint.Scope.Variable | undefined {
  try {
    return ASTUtils.findVariable(context.sourceCode.getScope(identifier), identifier) ?? undefined;
  } catch {
    return undefined;
  }
}
