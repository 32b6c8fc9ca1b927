import { AST_NODE_TYPES, type TSESLint, type TSESTree } from '@typescript-eslint/utils';
import { ATTEMPT_NAME } from './attempt-counters';
import { collectDeclaredNames, findChildNodes, walkOwnCode } from './code-walk';
import { getFunctionName } from './local-functions';
import { containsNode, type FunctionNode, isFunctionNode } from '../ast';
import type { RetryHandler, RetryScope } from './retry-scope';
import type { AnyRuleContext } from '../per-file-cache';
import { readsLeftovers } from './result-retries';

/**
 * Functions that retry by calling themselves after a failure (from a catch, a rejection
 * callback, a Node-style error branch, or with a counted attempt), and `.catch` callbacks
 * that make the same call again.
 */

/** Start offsets of `this.name(` in the text, by name: one pass over the text for the whole file. */
export function findThisCalls(text: string): Map<string, number[]> {
  const calls = new Map<string, number[]>();
  for (const match of text.matchAll(/\bthis\.([\w$]+)\s*\(/g)) {
    const name = match[1] as string;
    const starts = calls.get(name);
    if (starts) starts.push(match.index);
    else calls.set(name, [match.index]);
  }
  return calls;
}

export function isMethodCallingItself(fn: FunctionNode, name: string, thisCalls: ReadonlyMap<string, number[]>): boolean {
  const parent = fn.parent;
  const isMethod =
    parent?.type === AST_NODE_TYPES.MethodDefinition ||
    parent?.type === AST_NODE_TYPES.PropertyDefinition ||
    parent?.type === AST_NODE_TYPES.Property;
  if (!isMethod) return false;
  const [start, end] = fn.body.range;
  return thisCalls.get(name)?.some((offset) => offset > start && offset < end) ?? false;
}

/**
 * A self-call that can be a retry: made from a catch clause or a rejection callback, or
 * passing a counted attempt (`attempt + 1`). Tree walks and iterations are left out cheaply.
 */
export function isRetryShapedSelfCall(context: AnyRuleContext, call: TSESTree.CallExpression, fn: FunctionNode): boolean {
  if (getCountedArgument(call) || readsLeftovers(context, call)) return true;
  let child: TSESTree.Node = call;
  for (let parent: TSESTree.Node | undefined = call.parent; parent && parent !== fn; child = parent, parent = parent.parent) {
    if (parent.type === AST_NODE_TYPES.CatchClause) return true;
    if (parent.type === AST_NODE_TYPES.CallExpression && isFunctionNode(child) && getPromiseRejectionHandler(parent) === child) return true;
    if (parent.type === AST_NODE_TYPES.IfStatement && parent.consequent === child && getErrorFirstCallback(parent)) return true;
  }
  return false;
}

export function getRecursiveRetryScope(context: AnyRuleContext, fn: FunctionNode): RetryScope | undefined {
  const keys = context.sourceCode.visitorKeys;
  const name = getFunctionName(fn);
  if (!name) return undefined;
  const parent = fn.parent;
  const isMethod =
    parent?.type === AST_NODE_TYPES.MethodDefinition ||
    parent?.type === AST_NODE_TYPES.PropertyDefinition ||
    (parent?.type === AST_NODE_TYPES.Property && (parent.method || fn.type === AST_NODE_TYPES.FunctionExpression));
  const paramNames = fn.params.flatMap((param) => [...collectDeclaredNames(param)]);
  const handlers: RetryHandler[] = [];
  let attemptVariable: string | undefined;
  let isRetry = false;
  let calledOnSuccess = false;
  let decidedByResult = false;

  const visit = (node: TSESTree.Node, catchStack: readonly RetryHandler[]): void => {
    if (node.type === AST_NODE_TYPES.CallExpression && isSelfCall(node, name, isMethod)) {
      const counter = getCountedArgument(node);
      const handler = catchStack.at(-1);
      // `write(res.UnprocessedItems)`: the batch's leftovers sent again.
      const resendsLeftovers = !handler && readsLeftovers(context, node);
      if (handler || counter || resendsLeftovers) {
        isRetry = true;
        if (resendsLeftovers) decidedByResult = true;
        if (handler && !handlers.includes(handler)) handlers.push(handler);
        attemptVariable ??= counter;
      } else {
        // Called again after a success too: an iteration (`next()`), a poll, a walk; not a retry.
        calledOnSuccess = true;
      }
    }
    // A nested named function is its own scope; anonymous callbacks (setTimeout, .catch) are part of this one.
    if (node !== fn && isFunctionNode(node) && getFunctionName(node) === name) return;
    let nextStack = catchStack;
    if (node.type === AST_NODE_TYPES.CatchClause) nextStack = [...catchStack, node];
    if (node.type === AST_NODE_TYPES.IfStatement) {
      // `(err, data) => { if (err) return retry(); … }`: a Node-style callback's error branch.
      const callback = getErrorFirstCallback(node);
      if (callback) {
        visit(node.test, catchStack);
        visit(node.consequent, [...catchStack, callback]);
        if (node.alternate) visit(node.alternate, catchStack);
        return;
      }
    }
    if (node.type === AST_NODE_TYPES.CallExpression) {
      const rejection = getPromiseRejectionHandler(node);
      if (rejection) {
        for (const child of findChildNodes(node, keys)) visit(child, child === rejection ? [...catchStack, rejection] : catchStack);
        return;
      }
    }
    for (const child of findChildNodes(node, keys)) visit(child, nextStack);
  };
  visit(fn.body, []);
  if (!isRetry || calledOnSuccess) return undefined;
  attemptVariable ??= paramNames.find((param) => ATTEMPT_NAME.test(param));
  return { kind: 'recursion', node: fn, attempt: fn.body, attemptVariable, handlers, ...(decidedByResult ? { decidedByResult } : {}) };
}

/**
 * The callback whose error-first parameter this `if` tests (`if (err)`, `if (err != null)`),
 * when that callback is passed to a call: the branch runs after a failed attempt.
 */
function getErrorFirstCallback(statement: TSESTree.IfStatement): FunctionNode | undefined {
  let test = statement.test;
  if (
    test.type === AST_NODE_TYPES.BinaryExpression &&
    (test.operator === '!=' || test.operator === '!==') &&
    test.right.type === AST_NODE_TYPES.Literal &&
    test.right.value === null
  ) {
    test = test.left as TSESTree.Expression;
  }
  if (test.type !== AST_NODE_TYPES.Identifier) return undefined;
  for (let current: TSESTree.Node | undefined = statement.parent; current; current = current.parent) {
    if (!isFunctionNode(current)) continue;
    const first = current.params[0];
    if (first?.type !== AST_NODE_TYPES.Identifier || first.name !== test.name) return undefined;
    const parent = current.parent;
    return parent?.type === AST_NODE_TYPES.CallExpression && parent.arguments.includes(current as TSESTree.CallExpressionArgument) ? current : undefined;
  }
  return undefined;
}

/**
 * `setTimeout(connect, 5000)`, `client.batchWrite(params).then(handleResult)`: a timer or a
 * promise continuation that calls the function `name` itself.
 */
export function isTimerCallbackOf(call: TSESTree.CallExpression, name: string): boolean {
  const [first] = call.arguments;
  if (first?.type !== AST_NODE_TYPES.Identifier || first.name !== name) return false;
  const callee = call.callee;
  if (callee.type === AST_NODE_TYPES.Identifier) return callee.name === 'setTimeout' || callee.name === 'setImmediate';
  return callee.type === AST_NODE_TYPES.MemberExpression && !callee.computed && callee.property.type === AST_NODE_TYPES.Identifier && callee.property.name === 'then';
}

function isSelfCall(call: TSESTree.CallExpression, name: string, isMethod: boolean): boolean {
  const callee = call.callee;
  if (!isMethod && isTimerCallbackOf(call, name)) return true;
  if (callee.type === AST_NODE_TYPES.Identifier) return !isMethod && callee.name === name;
  return (
    isMethod &&
    callee.type === AST_NODE_TYPES.MemberExpression &&
    callee.object.type === AST_NODE_TYPES.ThisExpression &&
    !callee.computed &&
    callee.property.type === AST_NODE_TYPES.Identifier &&
    callee.property.name === name
  );
}

/**
 * An argument `attempt + 1`, `retriesLeft - 1`, `++n` (or `{ attempt: attempt + 1 }`) made
 * from a parameter; under any other name, only where a condition on the way to the call
 * compares it (`if (interval <= 5000) execute(interval + 1000)`): then it counts the attempts too.
 */
function getCountedArgument(call: TSESTree.CallExpression): string | undefined {
  const fromExpression = (expression: TSESTree.Node): string | undefined => {
    if (
      expression.type === AST_NODE_TYPES.BinaryExpression &&
      (expression.operator === '+' || expression.operator === '-') &&
      expression.left.type === AST_NODE_TYPES.Identifier &&
      expression.right.type === AST_NODE_TYPES.Literal &&
      typeof expression.right.value === 'number'
    ) {
      return expression.left.name;
    }
    if (expression.type === AST_NODE_TYPES.UpdateExpression && expression.argument.type === AST_NODE_TYPES.Identifier) {
      return expression.argument.name;
    }
    return undefined;
  };
  for (const argument of call.arguments) {
    const candidates =
      argument.type === AST_NODE_TYPES.ObjectExpression
        ? argument.properties.flatMap((property) => (property.type === AST_NODE_TYPES.Property ? [property.value] : []))
        : [argument];
    for (const candidate of candidates) {
      const name = fromExpression(candidate);
      if (name && (ATTEMPT_NAME.test(name) || isComparedOnTheWay(call, name))) return name;
    }
  }
  return undefined;
}

/** An `if` or `?:` around `call`, inside its function, whose test compares `name` with `<`, `<=`, `>` or `>=`. */
function isComparedOnTheWay(call: TSESTree.CallExpression, name: string): boolean {
  let child: TSESTree.Node = call;
  for (let parent: TSESTree.Node | undefined = call.parent; parent && !isFunctionNode(parent); child = parent, parent = parent.parent) {
    const test = (parent.type === AST_NODE_TYPES.IfStatement || parent.type === AST_NODE_TYPES.ConditionalExpression) && parent.test !== child ? parent.test : undefined;
    if (test && comparesName(test, name)) return true;
  }
  return false;
}

function comparesName(test: TSESTree.Node, name: string): boolean {
  if (test.type === AST_NODE_TYPES.LogicalExpression) return comparesName(test.left, name) || comparesName(test.right, name);
  if (test.type !== AST_NODE_TYPES.BinaryExpression || !['<', '<=', '>', '>='].includes(test.operator)) return false;
  const isName = (node: TSESTree.Node): boolean => node.type === AST_NODE_TYPES.Identifier && node.name === name;
  return isName(test.left) || isName(test.right);
}

/** The rejection callback of `p.catch(cb)` or `p.then(ok, cb)`, when it is a function written there. */
export function getPromiseRejectionHandler(call: TSESTree.CallExpression): FunctionNode | undefined {
  if (call.callee.type !== AST_NODE_TYPES.MemberExpression || call.callee.computed) return undefined;
  const property = call.callee.property;
  if (property.type !== AST_NODE_TYPES.Identifier) return undefined;
  const handler =
    property.name === 'catch' ? call.arguments[0] : property.name === 'then' ? call.arguments[1] : undefined;
  return handler && isFunctionNode(handler) ? handler : undefined;
}

export function getCatchRetryScope(
  call: TSESTree.CallExpression,
  keys: TSESLint.SourceCode.VisitorKeys,
  libraryScopes: readonly RetryScope[],
): RetryScope | undefined {
  const handler = getPromiseRejectionHandler(call);
  if (!handler || call.callee.type !== AST_NODE_TYPES.MemberExpression) return undefined;
  const retriedCall = getChainRoot(call.callee.object);
  const retried = getCalleeText(retriedCall);
  const enclosing = getEnclosingFunctionName(call);
  let isRetry = false;
  walkOwnCode(handler.body, keys, (node) => {
    if (node.type !== AST_NODE_TYPES.CallExpression) return true;
    const callee = getCalleeText(node);
    if (!callee) return true;
    const last = callee.split('.').at(-1) ?? '';
    if (enclosing !== undefined && last === enclosing) return true; // recursion, reported as such
    if (isLibraryCallbackParam(node, libraryScopes)) return true;
    if (/^retry|retry$/i.test(last) || (retried !== undefined && callee === retried && haveSameArguments(node, retriedCall))) isRetry = true;
    return !isRetry;
  });
  if (!isRetry) return undefined;
  return { kind: 'catch-retry', node: call, attempt: call, handlers: [handler] };
}

/** The same call again, not a fallback with other arguments (`validate(PRODUCTION_URL)` → `validate(SANDBOX_URL)`). */
function haveSameArguments(call: TSESTree.CallExpression, original: TSESTree.Node): boolean {
  if (original.type !== AST_NODE_TYPES.CallExpression || call.arguments.length !== original.arguments.length) return false;
  return call.arguments.every((argument, index) => isSameExpression(argument, original.arguments[index]));
}

function isSameExpression(a: TSESTree.Node | undefined, b: TSESTree.Node | undefined): boolean {
  if (!a || !b || a.type !== b.type) return false;
  if (a.type === AST_NODE_TYPES.Identifier && b.type === AST_NODE_TYPES.Identifier) return a.name === b.name;
  if (a.type === AST_NODE_TYPES.Literal && b.type === AST_NODE_TYPES.Literal) return a.raw === b.raw;
  if (a.type === AST_NODE_TYPES.ThisExpression) return true;
  if (a.type === AST_NODE_TYPES.MemberExpression && b.type === AST_NODE_TYPES.MemberExpression) {
    return a.computed === b.computed && isSameExpression(a.object, b.object) && isSameExpression(a.property, b.property);
  }
  if (a.type === AST_NODE_TYPES.TemplateLiteral && b.type === AST_NODE_TYPES.TemplateLiteral) {
    return (
      a.quasis.length === b.quasis.length &&
      a.quasis.every((quasi, index) => quasi.value.raw === b.quasis[index]?.value.raw) &&
      a.expressions.every((expression, index) => isSameExpression(expression, b.expressions[index]))
    );
  }
  if (a.type === AST_NODE_TYPES.NewExpression && b.type === AST_NODE_TYPES.NewExpression) {
    return isSameExpression(a.callee, b.callee) && a.arguments.length === b.arguments.length && a.arguments.every((arg, index) => isSameExpression(arg, b.arguments[index]));
  }
  if (a.type === AST_NODE_TYPES.CallExpression && b.type === AST_NODE_TYPES.CallExpression) {
    return isSameExpression(a.callee, b.callee) && a.arguments.length === b.arguments.length && a.arguments.every((arg, index) => isSameExpression(arg, b.arguments[index]));
  }
  if (a.type === AST_NODE_TYPES.ObjectExpression || a.type === AST_NODE_TYPES.ArrayExpression) return false;
  return false;
}

/** `db.put(x).promise().then(f)` → `db.put(x)`: the first call of a promise chain. */
function getChainRoot(expression: TSESTree.Node): TSESTree.Node {
  let current = expression;
  for (;;) {
    if (current.type === AST_NODE_TYPES.AwaitExpression) {
      current = current.argument;
      continue;
    }
    if (
      current.type === AST_NODE_TYPES.CallExpression &&
      current.callee.type === AST_NODE_TYPES.MemberExpression &&
      current.callee.property.type === AST_NODE_TYPES.Identifier &&
      ['then', 'catch', 'finally', 'promise'].includes(current.callee.property.name) &&
      current.callee.object.type === AST_NODE_TYPES.CallExpression
    ) {
      current = current.callee.object;
      continue;
    }
    return current;
  }
}

/** `a.b.c(...)` → `"a.b.c"`; undefined for computed or complex callees. */
function getCalleeText(node: TSESTree.Node): string | undefined {
  if (node.type !== AST_NODE_TYPES.CallExpression) return undefined;
  const parts: string[] = [];
  let current: TSESTree.Node = node.callee;
  for (;;) {
    if (current.type === AST_NODE_TYPES.Identifier) {
      parts.unshift(current.name);
      return parts.join('.');
    }
    if (current.type === AST_NODE_TYPES.ThisExpression) {
      parts.unshift('this');
      return parts.join('.');
    }
    if (current.type === AST_NODE_TYPES.MemberExpression && !current.computed && current.property.type === AST_NODE_TYPES.Identifier) {
      parts.unshift(current.property.name);
      current = current.object;
      continue;
    }
    return undefined;
  }
}

function getEnclosingFunctionName(node: TSESTree.Node): string | undefined {
  for (let current = node.parent; current; current = current.parent) {
    if (isFunctionNode(current)) {
      const name = getFunctionName(current);
      if (name) return name;
    }
  }
  return undefined;
}

/** `retry(err)` inside promise-retry's callback: the library's own retry, not a hand-written one. */
function isLibraryCallbackParam(call: TSESTree.CallExpression, libraryScopes: readonly RetryScope[]): boolean {
  if (call.callee.type !== AST_NODE_TYPES.Identifier) return false;
  const name = call.callee.name;
  return libraryScopes.some(
    (scope) =>
      isFunctionNode(scope.attempt) &&
      containsNode(scope.attempt, call) &&
      scope.attempt.params.some((param) => param.type === AST_NODE_TYPES.Identifier && param.name === name),
  );
}
