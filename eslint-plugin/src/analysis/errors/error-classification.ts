import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';
import { containsNode, type FunctionNode, getKeyName, isFunctionNode, unwrapExpression, visitNodes } from '../ast';
import { getCalleeName, MEMBER_NAME, readErrorParam, THROUGH_AWAIT } from './error-checks';
import { classifyBody, classifyExpression, type DecisionRules, type ErrorClassification, type RetryOutcome, summarize } from './error-paths';
import type { RetryHandler, RetryScope } from '../retry';
import { isOutcomeUnknownError } from './transient-errors';
import type { Database } from '../clients';


/**
 * Entry point of the error classification (with `error-paths.ts` and `error-checks.ts`).
 * How the code that decides to retry looks at the error: a `catch` clause in a retry
 * loop or a recursive function, a `.catch` callback, a retry library's `shouldRetry` /
 * `retry` predicate or its `bail` / `AbortError`. The decision is read as a set of
 * paths — conditions on the way and what happens at the end (retry, fail, done) — so
 * rules can ask: is every error retried? which names or codes are let through? is
 * 23505 / 11000 treated as "already done"?
 */

// ---------------------------------------------------------------------------
// Entry points

/**
 * The decision that applies to `call` inside `scope`: the scope's handler around the
 * call, or the library's predicate. Undefined when the retry does not hinge on a
 * caught error (a result-driven loop) or the shape is not understood.
 */
export function classifyRetryScope(scope: RetryScope, call?: TSESTree.Node): ErrorClassification | undefined {
  try {
    if (scope.kind === 'library') return classifyLibraryScope(scope, call);
    const handler = getHandlerAround(scope, call) ?? (scope.kind === 'recursion' ? getErrorFirstCallback(scope, call) : undefined);
    return handler ? classifyRetryHandler(handler, scope) : undefined;
  } catch {
    // Odd shapes must never break linting.
    return undefined;
  }
}

/** Classifies one handler (catch clause or `.catch` callback) of a loop, recursion or `.catch` retry. */
export function classifyRetryHandler(handler: RetryHandler, scope: RetryScope): ErrorClassification {
  const param = handler.type === AST_NODE_TYPES.CatchClause ? handler.param : handler.params[0];
  const { errorName, aliases } = readErrorParam(param ?? null);
  const selfName = scope.kind === 'recursion' && isFunctionNode(scope.node) ? getOwnName(scope.node) : undefined;
  const retriedCallee = scope.kind === 'catch-retry' ? getRetriedCallee(scope.node) : undefined;
  const isRetryCall = (call: TSESTree.CallExpression): boolean => {
    const name = getCalleeName(call.callee);
    if (name === undefined) return false;
    if (scope.kind === 'recursion') return name === selfName;
    if (scope.kind === 'catch-retry') return /^retry|retry$/i.test(name) || name === retriedCallee;
    return false;
  };
  const isLoop = scope.kind === 'loop';
  const flag = isLoop && handler.type === AST_NODE_TYPES.CatchClause ? getLoopFlag(scope.node, handler) : undefined;
  const rules: DecisionRules = {
    errorName,
    aliases,
    fallThrough: isLoop ? (flag ? flag.entry : 'retry') : followsWithRetry(handler, isRetryCall) ? 'retry' : 'done',
    throwOutcome: () => 'fail',
    returnOutcome: (argument) => {
      if (argument && isPromiseReject(argument)) return 'fail';
      return argument && containsCall(argument, isRetryCall) ? 'retry' : 'done';
    },
    breakOutcome: 'done',
    callOutcome: (call) => (isRetryCall(call) ? 'retry' : undefined),
    flag: flag ? { name: flag.name, keepsGoing: flag.keepsGoing } : undefined,
  };
  return classifyBody(getHandlerBody(handler), rules, handler);
}

/**
 * Classifies a predicate that answers "retry this error?" (`shouldRetry`, exponential-backoff's
 * `retry`): a true result retries. `errorIndex` is the error parameter's position.
 */
export function classifyRetryPredicate(fn: FunctionNode, errorIndex = 0): ErrorClassification {
  const { errorName, aliases } = readErrorParam(fn.params[errorIndex] ?? null, ['error', 'err', 'e']);
  const rules: DecisionRules = {
    errorName,
    aliases,
    fallThrough: 'fail',
    throwOutcome: () => 'fail',
    returnOutcome: () => 'decide',
    breakOutcome: 'fail',
    callOutcome: () => undefined,
  };
  if (fn.body.type !== AST_NODE_TYPES.BlockStatement) {
    return classifyExpression(fn.body, rules, fn);
  }
  return classifyBody(fn.body.body, rules, fn);
}

/**
 * Some retry path can be taken by an error that leaves the write's outcome unknown (a
 * dropped connection, a timeout): with no check, with a helper whose values are unknown,
 * or with a list that names such an error. A retry limited to errors the server reports
 * for the statement (40001, 23505, …) cannot apply a write twice.
 */
export function retriesOutcomeUnknownErrors(classification: ErrorClassification, database: Database): boolean {
  if (classification.retriesEveryError) return true;
  return classification.paths.some((path) => {
    if (path.outcome !== 'retry') return false;
    // The path needs every condition it requires: one known to admit only errors after which
    // the statement was not applied is enough to keep the others out, opaque or not.
    const required = path.conditions.filter((condition) => condition.polarity === 'in' && !condition.isWeak);
    return required.every((condition) => condition.isOpaque || condition.values.some((value) => isOutcomeUnknownError(value, database)));
  });
}

// ---------------------------------------------------------------------------
// Libraries

function classifyLibraryScope(scope: RetryScope, call: TSESTree.Node | undefined): ErrorClassification | undefined {
  const options = scope.options;
  const predicate = options ? getOptionFunction(options, scope.library === 'exponential-backoff' ? 'retry' : 'shouldRetry') : undefined;
  const attempt = isFunctionNode(scope.attempt) ? scope.attempt : undefined;
  switch (scope.library) {
    case 'p-retry':
    case 'exponential-backoff':
    case 'async-retry': {
      if (!attempt) return undefined;
      const bailName = scope.library === 'async-retry' ? getParamName(attempt.params[0]) : undefined;
      // Inside the attempt, a throw retries; `bail(e)` and p-retry's `AbortError` stop.
      const handler = findTryHandlerAround(attempt, call);
      const inner = handler
        ? classifyBody(getHandlerBody(handler), {
            ...readErrorParam(handler.param),
            fallThrough: 'done',
            throwOutcome: (statement) => (isAbortError(statement.argument) ? 'fail' : 'retry'),
            returnOutcome: () => 'done',
            breakOutcome: 'done',
            callOutcome: (node) =>
              bailName !== undefined && node.callee.type === AST_NODE_TYPES.Identifier && node.callee.name === bailName ? 'fail' : undefined,
          }, handler)
        : undefined;
      const onFailed = scope.library === 'p-retry' && options ? getOptionFunction(options, 'onFailedAttempt') : undefined;
      const outer = predicate
        ? classifyRetryPredicate(predicate, 0)
        : onFailed
          ? classifyFailedAttemptHook(onFailed)
          : undefined;
      if (inner && outer) return mergeClassifications(inner, outer);
      if (inner) return inner;
      if (outer) return outer;
      if (predicate === undefined && options && hasOption(options, scope.library === 'exponential-backoff' ? 'retry' : 'shouldRetry')) {
        return undefined; // a predicate we cannot read (imported, built elsewhere)
      }
      if (options && hasOption(options, 'onFailedAttempt') && scope.library === 'p-retry') return undefined;
      return everyErrorRetried(scope.node);
    }
    case 'promise-retry': {
      if (!attempt) return undefined;
      const retryName = getParamName(attempt.params[0]);
      if (!retryName) return undefined;
      // `.catch(retry)` hands every error to the library.
      const direct = findCatchArgument(attempt, call);
      if (direct?.type === AST_NODE_TYPES.Identifier && direct.name === retryName) return everyErrorRetried(direct);
      const callback = direct && isFunctionNode(direct) ? direct : undefined;
      const handler = callback ?? findTryHandlerAround(attempt, call);
      if (!handler) return undefined;
      const param = handler.type === AST_NODE_TYPES.CatchClause ? handler.param : handler.params[0];
      return classifyBody(getHandlerBody(handler), {
        ...readErrorParam(param ?? null),
        fallThrough: 'done',
        throwOutcome: () => 'fail',
        returnOutcome: (argument) =>
          argument && containsCall(argument, (node) => isIdentifierCall(node, retryName)) ? 'retry' : 'done',
        breakOutcome: 'done',
        callOutcome: (node) => (isIdentifierCall(node, retryName) ? 'retry' : undefined),
      }, handler);
    }
    case 'retry': {
      // node-retry: `operation.attempt(async () => { try { … } catch (e) { if (operation.retry(e)) return; … } })`.
      if (!attempt) return undefined;
      const handler = findTryHandlerAround(attempt, call);
      if (!handler) return undefined;
      return classifyBody(getHandlerBody(handler), {
        ...readErrorParam(handler.param),
        fallThrough: 'done',
        throwOutcome: () => 'fail',
        returnOutcome: () => 'done',
        breakOutcome: 'done',
        callOutcome: (node) =>
          node.callee.type === AST_NODE_TYPES.MemberExpression && getKeyName(node.callee, MEMBER_NAME) === 'retry' && node.arguments.length > 0
            ? 'retry'
            : undefined,
      }, handler);
    }
    case 'cockatiel': {
      // retry(handleAll, …) retries everything; handleWhen/handleType choose.
      const policy = scope.node.type === AST_NODE_TYPES.CallExpression ? scope.node.arguments[0] : undefined;
      if (policy?.type === AST_NODE_TYPES.Identifier && policy.name === 'handleAll') return everyErrorRetried(policy);
      return undefined;
    }
    default:
      return undefined;
  }
}

/** p-retry's `onFailedAttempt`: throwing there stops the retries; returning goes on. */
function classifyFailedAttemptHook(fn: FunctionNode): ErrorClassification {
  const { errorName, aliases } = readErrorParam(fn.params[0] ?? null, ['error']);
  const statements = fn.body.type === AST_NODE_TYPES.BlockStatement ? fn.body.body : [];
  return classifyBody(statements, {
    errorName,
    aliases,
    fallThrough: 'retry',
    throwOutcome: () => 'fail',
    returnOutcome: () => 'retry',
    breakOutcome: 'retry',
    callOutcome: () => undefined,
  }, fn);
}

function everyErrorRetried(node: TSESTree.Node): ErrorClassification {
  return summarize([{ outcome: 'retry', node, conditions: [] }], undefined, node);
}

function mergeClassifications(inner: ErrorClassification, outer: ErrorClassification): ErrorClassification {
  // An error reaches the predicate only on the inner decision's retry paths.
  if (!inner.retriesEveryError) return inner;
  const paths = [...inner.paths.filter((path) => path.outcome !== 'retry'), ...outer.paths];
  return summarize(paths, inner.errorName ?? outer.errorName, outer.decision);
}

// ---------------------------------------------------------------------------
// Paths

// ---------------------------------------------------------------------------
// Conditions

// ---------------------------------------------------------------------------
// Reading the error

// ---------------------------------------------------------------------------
// Summary

// ---------------------------------------------------------------------------
// Scope plumbing

/** The handler of `scope` that catches `call`'s failure: the catch of the try around it, or the `.catch` on its chain. */
function getHandlerAround(scope: RetryScope, call: TSESTree.Node | undefined): RetryHandler | undefined {
  const handlers = scope.handlers ?? [];
  if (!call) return handlers[0];
  let best: RetryHandler | undefined;
  for (const handler of handlers) {
    const guarded = getGuardedNode(handler);
    if (!guarded || !containsNode(guarded, call)) continue;
    if (!best || containsNode(getGuardedNode(best) ?? best, guarded)) best = handler;
  }
  return best;
}

/**
 * A node-style callback `(err, result) => …` passed to the database call, from which a
 * recursive retry calls itself again: `db.put(params, (err) => { if (err) return save(item, n + 1); … })`
 * (SDK v2, pg callbacks).
 */
function getErrorFirstCallback(scope: RetryScope, call: TSESTree.Node | undefined): FunctionNode | undefined {
  if (!call || call.type !== AST_NODE_TYPES.CallExpression || !isFunctionNode(scope.node)) return undefined;
  const selfName = getOwnName(scope.node);
  if (!selfName) return undefined;
  // The callback is an argument of the call itself, or of `.send(cb)` on the request it returns.
  const candidates = [...call.arguments];
  const parent = call.parent;
  if (parent?.type === AST_NODE_TYPES.MemberExpression && parent.object === call && parent.parent?.type === AST_NODE_TYPES.CallExpression) {
    candidates.push(...parent.parent.arguments);
  }
  for (const candidate of candidates) {
    if (!isFunctionNode(candidate)) continue;
    const param = candidate.params[0];
    if (param?.type !== AST_NODE_TYPES.Identifier || !/^(err|error|e|ex|exception)$/i.test(param.name)) continue;
    const callsSelf = (node: TSESTree.CallExpression): boolean => getCalleeName(node.callee) === selfName;
    // `if (err) return done(err);` first: what follows runs on success only (a resend of leftovers, a next page).
    if (endsOnError(candidate, param.name, callsSelf)) continue;
    let found = false;
    visitNodes(candidate.body, { skipTypeAnnotations: true }, (node) => {
      if (found) return false;
      if (node.type === AST_NODE_TYPES.CallExpression && callsSelf(node)) found = true;
      return !found;
    });
    if (found) return candidate;
  }
  return undefined;
}

/** The callback's first statement is `if (err) { …; return }` (or throws) without calling `callsSelf`. */
function endsOnError(callback: FunctionNode, errorName: string, callsSelf: (node: TSESTree.CallExpression) => boolean): boolean {
  if (callback.body.type !== AST_NODE_TYPES.BlockStatement) return false;
  const first = callback.body.body[0];
  if (first?.type !== AST_NODE_TYPES.IfStatement || first.alternate || first.test.type !== AST_NODE_TYPES.Identifier || first.test.name !== errorName) return false;
  const consequent = first.consequent;
  const last = consequent.type === AST_NODE_TYPES.BlockStatement ? consequent.body[consequent.body.length - 1] : consequent;
  if (last?.type !== AST_NODE_TYPES.ReturnStatement && last?.type !== AST_NODE_TYPES.ThrowStatement) return false;
  let retries = false;
  visitNodes(consequent, { skipTypeAnnotations: true }, (node) => {
    if (node.type === AST_NODE_TYPES.CallExpression && callsSelf(node)) retries = true;
    return !retries;
  });
  return !retries;
}

/** What a handler guards: the try block of a catch clause, the promise a `.catch` callback is attached to. */
function getGuardedNode(handler: RetryHandler): TSESTree.Node | undefined {
  if (handler.type === AST_NODE_TYPES.CatchClause) {
    return handler.parent?.type === AST_NODE_TYPES.TryStatement ? handler.parent.block : undefined;
  }
  const call = handler.parent;
  if (call?.type === AST_NODE_TYPES.CallExpression && call.callee.type === AST_NODE_TYPES.MemberExpression) return call.callee.object;
  return undefined;
}

function findTryHandlerAround(fn: FunctionNode, call: TSESTree.Node | undefined): TSESTree.CatchClause | undefined {
  let found: TSESTree.CatchClause | undefined;
  visitNodes(fn.body, { skipTypeAnnotations: true }, (node) => {
    if (node !== fn.body && isFunctionNode(node)) return false;
    if (node.type === AST_NODE_TYPES.TryStatement && node.handler && (!call || containsNode(node.block, call))) found = node.handler;
    return true;
  });
  return found;
}

/** The argument of a `.catch(x)` on the chain that holds `call`, inside `fn`. */
function findCatchArgument(fn: FunctionNode, call: TSESTree.Node | undefined): TSESTree.Node | undefined {
  let found: TSESTree.Node | undefined;
  visitNodes(fn.body, { skipTypeAnnotations: true }, (node) => {
    if (found) return false;
    if (
      node.type === AST_NODE_TYPES.CallExpression &&
      node.callee.type === AST_NODE_TYPES.MemberExpression &&
      getKeyName(node.callee, MEMBER_NAME) === 'catch' &&
      node.arguments[0] &&
      (!call || containsNode(node.callee.object, call))
    ) {
      found = node.arguments[0];
    }
    return true;
  });
  return found;
}

function getHandlerBody(handler: RetryHandler): TSESTree.Statement[] {
  if (handler.type === AST_NODE_TYPES.CatchClause) return handler.body.body;
  if (handler.body.type === AST_NODE_TYPES.BlockStatement) return handler.body.body;
  // `.catch((err) => retry(err))`: an expression body is a return.
  const body = handler.body;
  return [{ type: AST_NODE_TYPES.ReturnStatement, argument: body, range: body.range, loc: body.loc, parent: handler } as TSESTree.ReturnStatement];
}

/** The loop reads a flag in its condition that the handler assigns (`while (retry && n < MAX)` / `while (!done)`). */
function getLoopFlag(loop: TSESTree.Node, handler: TSESTree.CatchClause): { name: string; keepsGoing: boolean; entry: RetryOutcome } | undefined {
  const test =
    loop.type === AST_NODE_TYPES.WhileStatement || loop.type === AST_NODE_TYPES.DoWhileStatement || loop.type === AST_NODE_TYPES.ForStatement
      ? loop.test
      : null;
  if (!test) return undefined;
  // Flags the handler sets to a literal, or to a check of the caught error (`retry = isRetryable(e)`).
  const errorName = handler.param?.type === AST_NODE_TYPES.Identifier ? handler.param.name : undefined;
  const assigned = new Set<string>();
  visitNodes(handler.body, { skipTypeAnnotations: true }, (node) => {
    if (isFunctionNode(node)) return false;
    if (
      node.type === AST_NODE_TYPES.AssignmentExpression &&
      node.operator === '=' &&
      node.left.type === AST_NODE_TYPES.Identifier &&
      ((node.right.type === AST_NODE_TYPES.Literal && typeof node.right.value === 'boolean') ||
        (errorName !== undefined && readsName(node.right, errorName)))
    ) {
      assigned.add(node.left.name);
    }
    return true;
  });
  let flag: { name: string; keepsGoing: boolean } | undefined;
  visitNodes(test, { skipTypeAnnotations: true }, (node) => {
    if (flag) return false;
    if (node.type === AST_NODE_TYPES.Identifier && assigned.has(node.name)) {
      const negated = node.parent?.type === AST_NODE_TYPES.UnaryExpression && node.parent.operator === '!';
      flag = { name: node.name, keepsGoing: !negated };
    }
    return true;
  });
  if (!flag) return undefined;
  // The flag's value when the catch starts: the last assignment before the try in the loop body, else "go on".
  const loopBody = (loop as TSESTree.WhileStatement).body;
  const body = loopBody?.type === AST_NODE_TYPES.BlockStatement ? loopBody.body : [];
  let entryKeepsGoing = true;
  for (const statement of body) {
    if (containsNode(statement, handler)) break;
    if (statement.type !== AST_NODE_TYPES.ExpressionStatement) continue;
    const expression = statement.expression;
    if (
      expression.type === AST_NODE_TYPES.AssignmentExpression &&
      expression.left.type === AST_NODE_TYPES.Identifier &&
      expression.left.name === flag.name &&
      expression.right.type === AST_NODE_TYPES.Literal
    ) {
      entryKeepsGoing = expression.right.value === flag.keepsGoing;
    }
  }
  return { ...flag, entry: entryKeepsGoing ? 'retry' : 'done' };
}

/** Recursion or `.catch` retry whose catch falls through to code that calls again. */
function followsWithRetry(handler: RetryHandler, isRetryCall: (call: TSESTree.CallExpression) => boolean): boolean {
  if (handler.type !== AST_NODE_TYPES.CatchClause) return false;
  const tryStatement = handler.parent;
  const block = tryStatement?.parent;
  if (!tryStatement || !block || !('body' in block) || !Array.isArray(block.body)) return false;
  const statements = block.body as TSESTree.Statement[];
  const index = statements.indexOf(tryStatement as TSESTree.Statement);
  return statements.slice(index + 1).some((statement) => containsCall(statement, isRetryCall));
}

function getRetriedCallee(node: TSESTree.Node): string | undefined {
  if (node.type !== AST_NODE_TYPES.CallExpression || node.callee.type !== AST_NODE_TYPES.MemberExpression) return undefined;
  let current: TSESTree.Node = node.callee.object;
  while (current.type === AST_NODE_TYPES.CallExpression && current.callee.type === AST_NODE_TYPES.MemberExpression) {
    const name = getKeyName(current.callee, MEMBER_NAME);
    if (!name || !['then', 'catch', 'finally', 'promise'].includes(name)) break;
    current = current.callee.object;
  }
  return current.type === AST_NODE_TYPES.CallExpression ? getCalleeName(current.callee) : undefined;
}

// ---------------------------------------------------------------------------
// Small helpers

/** `node` reads the variable `name` (not as a property name or object key). */
function readsName(node: TSESTree.Node, name: string): boolean {
  let found = false;
  visitNodes(node, { skipTypeAnnotations: true }, (child) => {
    if (found) return false;
    if (child.type === AST_NODE_TYPES.Identifier && child.name === name) {
      const parent = child.parent;
      const isPropertyName = parent?.type === AST_NODE_TYPES.MemberExpression && parent.property === child && !parent.computed;
      const isKey = parent?.type === AST_NODE_TYPES.Property && parent.key === child && !parent.computed && !parent.shorthand;
      if (!isPropertyName && !isKey) found = true;
    }
    return !found;
  });
  return found;
}

function getOwnName(fn: FunctionNode): string | undefined {
  if (fn.id) return fn.id.name;
  const parent = fn.parent;
  if (parent?.type === AST_NODE_TYPES.VariableDeclarator && parent.id.type === AST_NODE_TYPES.Identifier) return parent.id.name;
  if ((parent?.type === AST_NODE_TYPES.MethodDefinition || parent?.type === AST_NODE_TYPES.Property || parent?.type === AST_NODE_TYPES.PropertyDefinition) && !parent.computed) {
    return getKeyName(parent, { privateNames: 'none' });
  }
  return undefined;
}

function getParamName(param: TSESTree.Parameter | undefined): string | undefined {
  return param?.type === AST_NODE_TYPES.Identifier ? param.name : undefined;
}

function isIdentifierCall(call: TSESTree.CallExpression, name: string): boolean {
  const callee = unwrapExpression(call.callee, THROUGH_AWAIT);
  return callee.type === AST_NODE_TYPES.Identifier && callee.name === name;
}

/** `new AbortError(…)`, `new pRetry.AbortError(…)`. */
function isAbortError(node: TSESTree.Node): boolean {
  const value = unwrapExpression(node, THROUGH_AWAIT);
  if (value.type !== AST_NODE_TYPES.NewExpression) return false;
  return getCalleeName(value.callee) === 'AbortError';
}

function isPromiseReject(node: TSESTree.Node): boolean {
  const value = unwrapExpression(node, THROUGH_AWAIT);
  return (
    value.type === AST_NODE_TYPES.CallExpression &&
    value.callee.type === AST_NODE_TYPES.MemberExpression &&
    value.callee.object.type === AST_NODE_TYPES.Identifier &&
    value.callee.object.name === 'Promise' &&
    getKeyName(value.callee, MEMBER_NAME) === 'reject'
  );
}

function containsCall(node: TSESTree.Node, predicate: (call: TSESTree.CallExpression) => boolean): boolean {
  let found = false;
  visitNodes(node, { skipTypeAnnotations: true }, (child) => {
    if (found) return false;
    if (child.type === AST_NODE_TYPES.CallExpression && predicate(child)) found = true;
    return !found;
  });
  return found;
}

function getOptionFunction(options: TSESTree.ObjectExpression, name: string): FunctionNode | undefined {
  for (const property of options.properties) {
    if (property.type !== AST_NODE_TYPES.Property || property.computed) continue;
    if (getKeyName(property) !== name) continue;
    return isFunctionNode(property.value) ? property.value : undefined;
  }
  return undefined;
}

function hasOption(options: TSESTree.ObjectExpression, name: string): boolean {
  return options.properties.some(
    (property) => property.type === AST_NODE_TYPES.SpreadElement || (!property.computed && getKeyName(property) === name),
  );
}
