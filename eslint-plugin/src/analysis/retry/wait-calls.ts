import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';
import { type FunctionNode, isFunctionNode } from '../ast';

/** Calls that wait between attempts: timers, promise-wrapped timers and `sleep`-like helpers. */

/** Names of helpers that wait: `sleep`, `delay`, `wait`, `pause`, `backoff`, `setTimeoutPromise`… */
export const WAIT_NAME = /sleep|delay|^wait$|^waitMs$|^wait(ing)?For(Ms|Millis)?$|pause|snooze|backoff|setTimeoutPromise|setTimeoutAsync/i;

/** Helpers that compute the delay from what they are given, rather than wait for a given time. */
export const BACKOFF_HELPER_NAME = /backoff|exponential|retryDelay/i;

/** Names that can only mean "wait", even when the promise is stored and awaited later. */
export const PLAIN_WAIT_NAME = /^(sleep|delay|wait|pause|snooze)$/i;

/** Waiters that poll for a state, not retry delays. */
export const NOT_WAIT_NAME = /until|exists|table|ready|idle|event/i;

/** The awaited `new Promise(...)` around a `setTimeout`, or the `setTimeout` call itself. */
export function getWaitNode(setTimeoutCall: TSESTree.CallExpression): TSESTree.Node {
  for (let current: TSESTree.Node | undefined = setTimeoutCall.parent; current; current = current.parent) {
    if (current.type === AST_NODE_TYPES.NewExpression) return current;
    if (current.type === AST_NODE_TYPES.BlockStatement && !isFunctionNode(current.parent as TSESTree.Node)) break;
    if (current.type === AST_NODE_TYPES.Program) break;
  }
  return setTimeoutCall;
}

export function isAwaitedOrReturned(call: TSESTree.CallExpression): boolean {
  let child: TSESTree.Node = call;
  let parent = call.parent;
  while (parent && (parent.type === AST_NODE_TYPES.ChainExpression || parent.type === AST_NODE_TYPES.TSAsExpression)) {
    child = parent;
    parent = parent.parent;
  }
  if (!parent) return false;
  if (parent.type === AST_NODE_TYPES.AwaitExpression || parent.type === AST_NODE_TYPES.ReturnStatement) return true;
  if (parent.type === AST_NODE_TYPES.ArrowFunctionExpression && parent.body === child) return true;
  if (parent.type === AST_NODE_TYPES.YieldExpression) return true;
  // `sleep(ms).then(() => retry())`
  return parent.type === AST_NODE_TYPES.MemberExpression && parent.object === child;
}

/** `(ms) => new Promise((resolve) => setTimeout(resolve, ms))`, or the same as a function declaration. */
export function isPlainSleepHelper(helper: FunctionNode): boolean {
  const param = helper.params[0];
  if (param?.type !== AST_NODE_TYPES.Identifier) return false;
  let found = false;
  let other = false;
  const visit = (node: TSESTree.Node | null | undefined): void => {
    if (!node || found || other) return;
    if (node.type === AST_NODE_TYPES.CallExpression && getCalleeName(node.callee) === 'setTimeout') {
      const delay = node.arguments[1];
      if (delay?.type === AST_NODE_TYPES.Identifier && delay.name === param.name) found = true;
      else other = true;
      return;
    }
    for (const value of Object.values(node)) {
      if (value && typeof value === 'object' && value !== node.parent) {
        if (Array.isArray(value)) value.forEach((item) => typeof item?.type === 'string' && visit(item as TSESTree.Node));
        else if (typeof (value as { type?: unknown }).type === 'string') visit(value as TSESTree.Node);
      }
    }
  };
  visit(helper.body);
  return found;
}

export function isStored(call: TSESTree.CallExpression): boolean {
  const parent = call.parent;
  return (
    (parent?.type === AST_NODE_TYPES.AssignmentExpression && parent.right === call) ||
    (parent?.type === AST_NODE_TYPES.VariableDeclarator && parent.init === call)
  );
}

export function containsPromise(node: TSESTree.Node): boolean {
  let current: TSESTree.Node = node;
  if (current.type === AST_NODE_TYPES.AwaitExpression) current = current.argument;
  return current.type === AST_NODE_TYPES.NewExpression && current.callee.type === AST_NODE_TYPES.Identifier && current.callee.name === 'Promise';
}

/** `sleep` for `sleep(…)`, `delay` for `utils.delay(…)`, `setTimeout` for `timers.setTimeout(…)`. */
export function getCalleeName(callee: TSESTree.Node): string | undefined {
  if (callee.type === AST_NODE_TYPES.Identifier) return callee.name;
  if (callee.type === AST_NODE_TYPES.MemberExpression && !callee.computed && callee.property.type === AST_NODE_TYPES.Identifier) {
    return callee.property.name;
  }
  return undefined;
}
