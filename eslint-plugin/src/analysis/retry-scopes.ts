import { AST_NODE_TYPES, type TSESLint, type TSESTree } from '@typescript-eslint/utils';
import { createPerFileCache, type AnyRuleContext } from './per-file-cache';
import {
  findChildNodes,
  getFunctionName,
  isFunctionNode,
  pushChildNodes,
  walkOwnCode,
  type FunctionNode,
} from './retry-ast';
import { findRetryLibraryScopes } from './retry-libraries';

export type { FunctionNode } from './retry-ast';

/**
 * A piece of code that runs again when an attempt fails: a loop that catches and
 * goes round, a function that calls itself from its catch, `.catch(() => retry())`,
 * or a retry library's callback.
 */
export interface RetryScope {
  kind: 'loop' | 'recursion' | 'catch-retry' | 'library';
  /** The loop statement, the recursive function, the `.catch` call or the library call. */
  node: TSESTree.Node;
  /** The code that runs once per attempt (loop body, function body, callback). */
  attempt: TSESTree.Node;
  /** Name of the variable that counts attempts, when there is one. */
  attemptVariable?: string;
  /** The retry library's module name, for `kind: 'library'`. */
  library?: string;
  /**
   * Where a failed attempt is caught before going round again: the loop's or the
   * function's `catch` clauses, or the `.catch` callback. Empty when the retry is
   * decided from a result (the `do { … } while (retry && retries++ < MAX)` shape)
   * or by a library.
   */
  handlers: readonly RetryHandler[];
  /** For `kind: 'library'`: the options object as written, when it is an object literal. */
  options?: TSESTree.ObjectExpression;
  /** For `kind: 'library'`: what the library call is (`pRetry`, `backOff`, `retry.operation`, …). */
  libraryFunction?: string;
  /** For `kind: 'library'`: options are passed but not as an object literal (a variable, a call), so they cannot be read. */
  optionsUnknown?: boolean;
}

/** A `catch` clause, or the callback of `.catch(cb)` / `.then(_, cb)`. */
export type RetryHandler = TSESTree.CatchClause | FunctionNode;

/** Names that say a variable counts attempts. */
export const ATTEMPT_NAME = /retr(y|ies)|attempt|tries|tried/i;

/** Every retry scope of the file; computed once per file. */
export const findRetryScopes = createPerFileCache((context: AnyRuleContext): readonly RetryScope[] => {
  const scopes: RetryScope[] = [];
  const visitorKeys = context.sourceCode.visitorKeys;
  const recursive = new Set<TSESTree.Node>();
  const catchCalls: TSESTree.CallExpression[] = [];
  const candidates = collectCandidates(context);
  catchCalls.push(...candidates.catchCalls);
  const sourceText = context.sourceCode.text;
  for (const loop of candidates.loops) {
    const [start, end] = loop.body.range;
    const hasTry = candidates.tryRanges.some(([tryStart, tryEnd]) => tryStart >= start && tryEnd <= end);
    const test = loop.type === AST_NODE_TYPES.ForOfStatement ? null : loop.test;
    const hasCounterTest = test !== null && ATTEMPT_NAME.test(sourceText.slice(test.range[0], test.range[1]));
    if (!hasTry && !hasCounterTest) continue;
    const scope = getLoopRetryScope(loop, visitorKeys);
    if (scope) scopes.push(scope);
  }
  for (const fn of candidates.selfCalling) {
    const scope = getRecursiveRetryScope(fn, visitorKeys);
    if (scope) {
      scopes.push(scope);
      recursive.add(fn);
    }
  }
  let libraryScopes: RetryScope[] = [];
  try {
    libraryScopes = findRetryLibraryScopes(context);
  } catch {
    // An unexpected shape must never break linting; fall back to no library scopes.
    libraryScopes = [];
  }
  scopes.push(...libraryScopes);
  for (const call of catchCalls) {
    const scope = getCatchRetryScope(call, visitorKeys, libraryScopes);
    if (scope) scopes.push(scope);
  }
  return scopes.sort((a, b) => a.node.range[0] - b.node.range[0]);
});

interface Candidates {
  loops: LoopNode[];
  /** Named functions that call themselves somewhere in their body. */
  selfCalling: FunctionNode[];
  tryRanges: (readonly [number, number])[];
  catchCalls: TSESTree.CallExpression[];
}

/**
 * Where retries can be, read from the scope analysis the parser already did (no extra
 * walk over the whole tree): every function has a scope, every catch clause has one, and
 * every loop body block has one. A function calls itself when its own name is among the
 * references that leave its scope.
 */
function collectCandidates(context: AnyRuleContext): Candidates {
  const candidates: Candidates = { loops: [], selfCalling: [], tryRanges: [], catchCalls: [] };
  const scopeManager = context.sourceCode.scopeManager;
  if (!scopeManager) return collectCandidatesByWalking(context);
  const loops = new Set<LoopNode>();
  let thisCalls: Map<string, number[]> | undefined;
  const getThisCalls = (): Map<string, number[]> => (thisCalls ??= findThisCalls(context.sourceCode.text));
  for (const scope of scopeManager.scopes) {
    const block = scope.block as TSESTree.Node;
    if (scope.type === 'catch') {
      if (block.parent?.type === AST_NODE_TYPES.TryStatement) candidates.tryRanges.push(block.parent.range);
    } else if (scope.type === 'block' || scope.type === 'for') {
      const loop = scope.type === 'for' ? block : block.parent;
      if (loop && isRetryLoopType(loop) && (scope.type === 'for' || loop.body === block)) loops.add(loop);
    } else if (scope.type === 'function' && isFunctionNode(block)) {
      const parent = block.parent;
      if (parent?.type === AST_NODE_TYPES.CallExpression && getPromiseRejectionHandler(parent) === block) {
        candidates.catchCalls.push(parent);
      }
      const name = getFunctionName(block);
      if (!name) continue;
      const callsItself =
        scope.through.some((reference) => {
          const identifier = reference.identifier as TSESTree.Node;
          return (
            identifier.type === AST_NODE_TYPES.Identifier &&
            identifier.name === name &&
            identifier.parent?.type === AST_NODE_TYPES.CallExpression &&
            identifier.parent.callee === identifier &&
            isRetryShapedSelfCall(identifier.parent, block)
          );
        }) || isMethodCallingItself(block, name, getThisCalls());
      if (callsItself) candidates.selfCalling.push(block);
    }
  }
  candidates.loops = [...loops];
  return candidates;
}

/** Start offsets of `this.name(` in the text, by name: one pass over the text for the whole file. */
function findThisCalls(text: string): Map<string, number[]> {
  const calls = new Map<string, number[]>();
  for (const match of text.matchAll(/\bthis\.([\w$]+)\s*\(/g)) {
    const name = match[1] as string;
    const starts = calls.get(name);
    if (starts) starts.push(match.index);
    else calls.set(name, [match.index]);
  }
  return calls;
}

function isMethodCallingItself(fn: FunctionNode, name: string, thisCalls: ReadonlyMap<string, number[]>): boolean {
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
function isRetryShapedSelfCall(call: TSESTree.CallExpression, fn: FunctionNode): boolean {
  if (getCountedArgument(call)) return true;
  let child: TSESTree.Node = call;
  for (let parent: TSESTree.Node | undefined = call.parent; parent && parent !== fn; child = parent, parent = parent.parent) {
    if (parent.type === AST_NODE_TYPES.CatchClause) return true;
    if (parent.type === AST_NODE_TYPES.CallExpression && isFunctionNode(child) && getPromiseRejectionHandler(parent) === child) return true;
    if (parent.type === AST_NODE_TYPES.IfStatement && parent.consequent === child && getErrorFirstCallback(parent)) return true;
  }
  return false;
}

function isRetryLoopType(node: TSESTree.Node): node is LoopNode {
  return (
    node.type === AST_NODE_TYPES.ForStatement ||
    node.type === AST_NODE_TYPES.WhileStatement ||
    node.type === AST_NODE_TYPES.DoWhileStatement ||
    node.type === AST_NODE_TYPES.ForOfStatement
  );
}

/** The same candidates by walking the tree, for a parser that gives no scope analysis. */
function collectCandidatesByWalking(context: AnyRuleContext): Candidates {
  const candidates: Candidates = { loops: [], selfCalling: [], tryRanges: [], catchCalls: [] };
  const functions: FunctionNode[] = [];
  const callNames = new Set<string>();
  walkAll(context.sourceCode.ast as TSESTree.Program, context.sourceCode.visitorKeys, (node) => {
    if (isRetryLoopType(node)) candidates.loops.push(node);
    else if (isFunctionNode(node)) functions.push(node);
    else if (node.type === AST_NODE_TYPES.TryStatement && node.handler) candidates.tryRanges.push(node.range);
    else if (node.type === AST_NODE_TYPES.CallExpression) {
      if (getPromiseRejectionHandler(node)) candidates.catchCalls.push(node);
      if (node.callee.type === AST_NODE_TYPES.Identifier) callNames.add(node.callee.name);
      if (node.callee.type === AST_NODE_TYPES.MemberExpression && node.callee.property.type === AST_NODE_TYPES.Identifier) {
        callNames.add(node.callee.property.name);
      }
    }
  });
  candidates.selfCalling = functions.filter((fn) => {
    const name = getFunctionName(fn);
    return name !== undefined && callNames.has(name);
  });
  return candidates;
}

/** Retry scopes whose attempt contains `node`, innermost first. */
export function findEnclosingRetryScopes(context: AnyRuleContext, node: TSESTree.Node): RetryScope[] {
  const [start, end] = node.range;
  return findRetryScopes(context)
    .filter((scope) => scope.attempt.range[0] <= start && scope.attempt.range[1] >= end)
    .sort((a, b) => b.attempt.range[0] - a.attempt.range[0]);
}

// ---------------------------------------------------------------------------
// Loops

type LoopNode =
  | TSESTree.ForStatement
  | TSESTree.WhileStatement
  | TSESTree.DoWhileStatement
  | TSESTree.ForOfStatement;

function getLoopRetryScope(loop: LoopNode, keys: TSESLint.SourceCode.VisitorKeys): RetryScope | undefined {
  const test = loop.type === AST_NODE_TYPES.ForOfStatement ? null : loop.test;
  if (loop.type === AST_NODE_TYPES.ForOfStatement && loop.await) return undefined;
  const testNames = test ? collectIdentifierNames(test, keys) : new Set<string>();
  const counter = getLoopCounter(loop, keys);
  // `for (…; i < items.length; …)`, `while (queue.length)`: walking a collection, not retrying —
  // unless an attempt counter is also held to a fixed limit
  // (`while (Object.keys(unprocessed).length && attempt < 5)`).
  if (test && containsCollectionSize(test, keys) && !(counter && ATTEMPT_NAME.test(counter) && isCounterHeldToLimit(test, counter, keys))) {
    return undefined;
  }

  const handlers: TSESTree.CatchClause[] = [];
  const tryStatements = findLoopTryStatements(loop.body, keys);
  for (const tryStatement of tryStatements) {
    const handler = tryStatement.handler;
    if (!handler) continue;
    if (!isCatchGoingRound(handler, loop, keys)) continue;
    if (isPerItemWork(loop, tryStatement.block, counter, keys)) continue;
    if (!isLeftOnSuccess(loop, tryStatement, testNames, keys)) continue;
    handlers.push(handler);
  }
  if (handlers.length > 0) {
    return { kind: 'loop', node: loop, attempt: loop.body, attemptVariable: counter, handlers };
  }

  // Retry decided from a result, as in the DynamoDB seed:
  // `do { … } while (retry && retries++ < MAX_RETRIES)` — a counter named as one, compared
  // in the condition, and a way out on success (a flag in the condition, `break`, `return`).
  if (loop.type === AST_NODE_TYPES.ForOfStatement || !test || !counter || !ATTEMPT_NAME.test(counter)) return undefined;
  if (!isCounterCompared(test, counter, keys)) return undefined;
  // A try/catch that was not a retry above (it rethrows, or works per item) settles it.
  if (tryStatements.some((tryStatement) => tryStatement.handler)) return undefined;
  if (loop.body.type === AST_NODE_TYPES.BlockStatement && isPerItemWork(loop, loop.body, counter, keys)) return undefined;
  if (!hasOwnCall(loop.body, keys)) return undefined;
  // With an attempt counter in the condition, any variable of the condition set in the body
  // (`unprocessed = out.UnprocessedItems`) is the way out on success.
  const exits =
    hasLoopExit(loop.body, loop, keys) ||
    [...collectAssignedNames(loop.body, keys)].some((name) => name !== counter && testNames.has(name));
  if (!exits) return undefined;
  return { kind: 'loop', node: loop, attempt: loop.body, attemptVariable: counter, handlers: [] };
}

/** Try statements of the loop body that belong to this loop (not to a nested loop or function). */
function findLoopTryStatements(body: TSESTree.Statement, keys: TSESLint.SourceCode.VisitorKeys): TSESTree.TryStatement[] {
  const found: TSESTree.TryStatement[] = [];
  walkOwnCode(body, keys, (node) => {
    if (isLoop(node)) return false;
    if (node.type === AST_NODE_TYPES.TryStatement) found.push(node);
    return true;
  });
  return found;
}

/** The catch lets the loop go round: it does not always leave the loop (throw, return, break). */
function isCatchGoingRound(handler: TSESTree.CatchClause, loop: LoopNode, keys: TSESLint.SourceCode.VisitorKeys): boolean {
  void keys;
  return !alwaysLeaves(handler.body, loop);
}

/**
 * Success ends the loop: the try block returns or breaks, sets a flag the loop
 * condition reads, or the code after the try leaves the loop.
 */
function isLeftOnSuccess(
  loop: LoopNode,
  tryStatement: TSESTree.TryStatement,
  testNames: ReadonlySet<string>,
  keys: TSESLint.SourceCode.VisitorKeys,
): boolean {
  if (hasLoopExit(tryStatement.block, loop, keys)) return true;
  if (hasFlagAssignedInBody(tryStatement.block, testNames, undefined, keys)) return true;
  // `try { r = await x(); } catch { … continue; } break;` / `if (r) return r;`
  const body = loop.body.type === AST_NODE_TYPES.BlockStatement ? loop.body.body : [loop.body];
  const index = body.findIndex((statement) => contains(statement, tryStatement));
  if (index === -1) return false;
  const assigned = collectAssignedNames(tryStatement.block, keys);
  for (const statement of body.slice(index + 1)) {
    if (alwaysLeaves(statement, loop)) return true;
    if (statement.type === AST_NODE_TYPES.IfStatement && alwaysLeaves(statement.consequent, loop)) {
      const names = collectIdentifierNames(statement.test, keys);
      if ([...names].some((name) => assigned.has(name))) return true;
    }
  }
  if (
    loop.type === AST_NODE_TYPES.DoWhileStatement ||
    loop.type === AST_NODE_TYPES.WhileStatement ||
    loop.type === AST_NODE_TYPES.ForStatement
  ) {
    // `while (!result)` with `result = await x()` in the try block.
    if ([...collectAssignedNames(tryStatement.block, keys, true)].some((name) => testNames.has(name))) return true;
  }
  return false;
}

/**
 * The try block works on the loop's current item (`items[i]`, `for (const item of items)`),
 * so a failure moves on to the next item instead of trying the same work again.
 */
function isPerItemWork(
  loop: LoopNode,
  block: TSESTree.BlockStatement,
  counter: string | undefined,
  keys: TSESLint.SourceCode.VisitorKeys,
): boolean {
  if (loop.type === AST_NODE_TYPES.ForOfStatement) {
    const names = collectDeclaredNames(loop.left);
    const used = collectIdentifierNames(block, keys);
    return [...names].some((name) => used.has(name));
  }
  if (!counter) return false;
  let indexed = false;
  walkOwnCode(block, keys, (node) => {
    if (
      node.type === AST_NODE_TYPES.MemberExpression &&
      node.computed &&
      collectIdentifierNames(node.property, keys).has(counter)
    ) {
      indexed = true;
    }
    return !indexed;
  });
  return indexed;
}

/** The variable that counts the loop's rounds: the `for` variable, or one updated and read in the condition. */
function getLoopCounter(loop: LoopNode, keys: TSESLint.SourceCode.VisitorKeys): string | undefined {
  if (loop.type === AST_NODE_TYPES.ForOfStatement) return undefined;
  const updated = new Set<string>();
  const collectUpdates = (node: TSESTree.Node | null | undefined): void => {
    if (!node) return;
    walkOwnCode(node, keys, (child) => {
      const name = getIncrementedName(child);
      if (name) updated.add(name);
      return true;
    });
  };
  if (loop.type === AST_NODE_TYPES.ForStatement) {
    collectUpdates(loop.update);
    collectUpdates(loop.body);
    collectUpdates(loop.test);
    if (loop.init?.type === AST_NODE_TYPES.VariableDeclaration) {
      for (const declarator of loop.init.declarations) {
        if (declarator.id.type === AST_NODE_TYPES.Identifier && updated.has(declarator.id.name)) return declarator.id.name;
      }
    }
  } else {
    collectUpdates(loop.test);
    collectUpdates(loop.body);
  }
  const inTest = loop.test ? collectIdentifierNames(loop.test, keys) : new Set<string>();
  const candidates = [...updated];
  return (
    candidates.find((name) => inTest.has(name) && ATTEMPT_NAME.test(name)) ??
    candidates.find((name) => inTest.has(name)) ??
    candidates.find((name) => ATTEMPT_NAME.test(name))
  );
}

/** `n++`, `++n`, `n--`, `n += 1`, `n -= 1`, `n = n + 1`: the name of `n`. */
export function getIncrementedName(node: TSESTree.Node): string | undefined {
  if (node.type === AST_NODE_TYPES.UpdateExpression && node.argument.type === AST_NODE_TYPES.Identifier) {
    return node.argument.name;
  }
  if (node.type === AST_NODE_TYPES.AssignmentExpression && node.left.type === AST_NODE_TYPES.Identifier) {
    if (node.operator === '+=' || node.operator === '-=') return node.left.name;
    if (
      node.operator === '=' &&
      node.right.type === AST_NODE_TYPES.BinaryExpression &&
      (node.right.operator === '+' || node.right.operator === '-') &&
      node.right.left.type === AST_NODE_TYPES.Identifier &&
      node.right.left.name === node.left.name
    ) {
      return node.left.name;
    }
  }
  return undefined;
}

/** `attempt < 5`, `tries <= MAX_TRIES`: the counter compared with something that is not a collection's size. */
function isCounterHeldToLimit(test: TSESTree.Expression, counter: string, keys: TSESLint.SourceCode.VisitorKeys): boolean {
  let found = false;
  walkOwnCode(test, keys, (node) => {
    if (node.type !== AST_NODE_TYPES.BinaryExpression || !['<', '<=', '>', '>='].includes(node.operator)) return !found;
    const sides = [node.left, node.right];
    const counterSide = sides.findIndex((side) => collectIdentifierNames(side, keys).has(counter));
    const other = sides[1 - counterSide];
    if (counterSide !== -1 && other && !containsCollectionSize(other, keys)) found = true;
    return !found;
  });
  return found;
}

function isCounterCompared(test: TSESTree.Expression, counter: string, keys: TSESLint.SourceCode.VisitorKeys): boolean {
  let found = false;
  walkOwnCode(test, keys, (node) => {
    if (
      node.type === AST_NODE_TYPES.BinaryExpression &&
      ['<', '<=', '>', '>=', '!==', '!='].includes(node.operator) &&
      (collectIdentifierNames(node.left, keys).has(counter) || collectIdentifierNames(node.right, keys).has(counter))
    ) {
      found = true;
    }
    return !found;
  });
  return found;
}

function hasOwnCall(node: TSESTree.Node, keys: TSESLint.SourceCode.VisitorKeys): boolean {
  let found = false;
  walkOwnCode(node, keys, (child) => {
    if (
      child.type === AST_NODE_TYPES.CallExpression ||
      child.type === AST_NODE_TYPES.AwaitExpression ||
      child.type === AST_NODE_TYPES.TaggedTemplateExpression
    ) {
      found = true;
    }
    return !found;
  });
  return found;
}

/** A `return`, or a `break` that leaves `loop`, inside `node` (not inside nested functions). */
function hasLoopExit(node: TSESTree.Node, loop: LoopNode, keys: TSESLint.SourceCode.VisitorKeys): boolean {
  let found = false;
  const visit = (child: TSESTree.Node, breakable: boolean): void => {
    if (found) return;
    if (child.type === AST_NODE_TYPES.ReturnStatement) {
      found = true;
      return;
    }
    if (child.type === AST_NODE_TYPES.BreakStatement && (child.label !== null || !breakable)) {
      found = true;
      return;
    }
    if (isFunctionNode(child)) return;
    const innerBreakable = breakable || isLoop(child) || child.type === AST_NODE_TYPES.SwitchStatement;
    for (const grandchild of findChildNodes(child, keys)) visit(grandchild, innerBreakable);
  };
  for (const child of findChildNodes(node, keys)) visit(child, false);
  if (node.type === AST_NODE_TYPES.ReturnStatement || node.type === AST_NODE_TYPES.BreakStatement) return true;
  return found;
}

/** The block assigns a variable the loop condition reads (`done = true`, `retry = false`). */
function hasFlagAssignedInBody(
  node: TSESTree.Node,
  testNames: ReadonlySet<string>,
  counter: string | undefined,
  keys: TSESLint.SourceCode.VisitorKeys,
): boolean {
  for (const name of collectAssignedNames(node, keys, true)) {
    if (name !== counter && testNames.has(name)) return true;
  }
  return false;
}

/** A statement that always leaves `loop` (or the function): throw, return, break out, or both branches do. */
export function alwaysLeaves(statement: TSESTree.Statement, loop?: TSESTree.Node): boolean {
  switch (statement.type) {
    case AST_NODE_TYPES.ThrowStatement:
    case AST_NODE_TYPES.ReturnStatement:
      return true;
    case AST_NODE_TYPES.BreakStatement:
      return loop !== undefined;
    case AST_NODE_TYPES.ContinueStatement:
      return false;
    case AST_NODE_TYPES.BlockStatement:
      return statement.body.some((child) => alwaysLeaves(child, loop));
    case AST_NODE_TYPES.IfStatement:
      return statement.alternate !== null && alwaysLeaves(statement.consequent, loop) && alwaysLeaves(statement.alternate, loop);
    case AST_NODE_TYPES.TryStatement:
      if (statement.finalizer && alwaysLeaves(statement.finalizer, loop)) return true;
      return alwaysLeaves(statement.block, loop) && (statement.handler === null || alwaysLeaves(statement.handler.body, loop));
    default:
      return false;
  }
}

// ---------------------------------------------------------------------------
// Recursion

function getRecursiveRetryScope(fn: FunctionNode, keys: TSESLint.SourceCode.VisitorKeys): RetryScope | undefined {
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

  const visit = (node: TSESTree.Node, catchStack: readonly RetryHandler[]): void => {
    if (node.type === AST_NODE_TYPES.CallExpression && isSelfCall(node, name, isMethod)) {
      const counter = getCountedArgument(node);
      const handler = catchStack.at(-1);
      if (handler || counter) {
        isRetry = true;
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
  return { kind: 'recursion', node: fn, attempt: fn.body, attemptVariable, handlers };
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

function isSelfCall(call: TSESTree.CallExpression, name: string, isMethod: boolean): boolean {
  const callee = call.callee;
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

/** An argument `attempt + 1`, `retriesLeft - 1`, `++n` (or `{ attempt: attempt + 1 }`) made from a parameter. */
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
      if (name && ATTEMPT_NAME.test(name)) return name;
    }
  }
  return undefined;
}

// ---------------------------------------------------------------------------
// `.catch(() => retry())`

/** The rejection callback of `p.catch(cb)` or `p.then(ok, cb)`, when it is a function written there. */
export function getPromiseRejectionHandler(call: TSESTree.CallExpression): FunctionNode | undefined {
  if (call.callee.type !== AST_NODE_TYPES.MemberExpression || call.callee.computed) return undefined;
  const property = call.callee.property;
  if (property.type !== AST_NODE_TYPES.Identifier) return undefined;
  const handler =
    property.name === 'catch' ? call.arguments[0] : property.name === 'then' ? call.arguments[1] : undefined;
  return handler && isFunctionNode(handler) ? handler : undefined;
}

function getCatchRetryScope(
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
      contains(scope.attempt, call) &&
      scope.attempt.params.some((param) => param.type === AST_NODE_TYPES.Identifier && param.name === name),
  );
}

// ---------------------------------------------------------------------------
// Small AST helpers

function walkAll(
  root: TSESTree.Node,
  keys: TSESLint.SourceCode.VisitorKeys,
  visit: (node: TSESTree.Node) => void,
): void {
  const stack: TSESTree.Node[] = [root];
  while (stack.length > 0) {
    const node = stack.pop() as TSESTree.Node;
    visit(node);
    pushChildNodes(node, keys, stack);
  }
}

function isLoop(node: TSESTree.Node): boolean {
  return (
    node.type === AST_NODE_TYPES.ForStatement ||
    node.type === AST_NODE_TYPES.ForInStatement ||
    node.type === AST_NODE_TYPES.ForOfStatement ||
    node.type === AST_NODE_TYPES.WhileStatement ||
    node.type === AST_NODE_TYPES.DoWhileStatement
  );
}

function contains(outer: TSESTree.Node, inner: TSESTree.Node): boolean {
  return outer.range[0] <= inner.range[0] && outer.range[1] >= inner.range[1];
}

/** Names of identifiers read or written in `node` (not in nested functions' own parameters). */
export function collectIdentifierNames(node: TSESTree.Node, keys: TSESLint.SourceCode.VisitorKeys): Set<string> {
  const names = new Set<string>();
  walkOwnCode(
    node,
    keys,
    (child) => {
      if (child.type === AST_NODE_TYPES.Identifier) {
        const parent = child.parent;
        const isPropertyName =
          parent?.type === AST_NODE_TYPES.MemberExpression && parent.property === child && !parent.computed;
        const isKey = parent?.type === AST_NODE_TYPES.Property && parent.key === child && !parent.computed && !parent.shorthand;
        if (!isPropertyName && !isKey) names.add(child.name);
      }
      return true;
    },
    true,
  );
  return names;
}

/** Containers whose size is read: `items.length`, `map.size`. */
function containsCollectionSize(node: TSESTree.Node, keys: TSESLint.SourceCode.VisitorKeys): boolean {
  let found = false;
  walkOwnCode(node, keys, (child) => {
    if (
      child.type === AST_NODE_TYPES.MemberExpression &&
      !child.computed &&
      child.property.type === AST_NODE_TYPES.Identifier &&
      (child.property.name === 'length' || child.property.name === 'size')
    ) {
      found = true;
    }
    return !found;
  });
  return found;
}

/** Identifiers assigned in `node`: `x = …`, `x += …`, `x++`, and destructuring targets. */
export function collectAssignedNames(
  node: TSESTree.Node,
  keys: TSESLint.SourceCode.VisitorKeys,
  onlyFlags = false,
): Set<string> {
  const names = new Set<string>();
  walkOwnCode(node, keys, (child) => {
    if (child.type === AST_NODE_TYPES.AssignmentExpression) {
      if (onlyFlags && !isFlagValue(child.right)) return true;
      for (const name of collectDeclaredNames(child.left)) names.add(name);
    } else if (child.type === AST_NODE_TYPES.UpdateExpression && child.argument.type === AST_NODE_TYPES.Identifier) {
      names.add(child.argument.name);
    }
    return true;
  });
  return names;
}

/**
 * A value that says "done" or "go again": `true`/`false`, `!x`, or the attempt's own result
 * (`result = await x()`). A cursor read from a response (`lastKey = page.LastEvaluatedKey`)
 * is not one: that loop pages, it does not retry.
 */
function isFlagValue(value: TSESTree.Expression): boolean {
  if (value.type === AST_NODE_TYPES.Literal) return typeof value.value === 'boolean';
  if (value.type === AST_NODE_TYPES.UnaryExpression) return value.operator === '!';
  if (value.type === AST_NODE_TYPES.LogicalExpression) return isFlagValue(value.left) && isFlagValue(value.right);
  if (value.type === AST_NODE_TYPES.BinaryExpression) return ['===', '!==', '==', '!=', '<', '<=', '>', '>=', 'instanceof', 'in'].includes(value.operator);
  if (value.type === AST_NODE_TYPES.AwaitExpression) return value.argument.type === AST_NODE_TYPES.CallExpression;
  return value.type === AST_NODE_TYPES.CallExpression;
}

/** Names bound by a pattern or declaration (`x`, `{ a, b: c }`, `[d, ...e]`, `const f = …`). */
export function collectDeclaredNames(node: TSESTree.Node): Set<string> {
  const names = new Set<string>();
  const visit = (pattern: TSESTree.Node | null): void => {
    if (!pattern) return;
    switch (pattern.type) {
      case AST_NODE_TYPES.Identifier:
        names.add(pattern.name);
        break;
      case AST_NODE_TYPES.VariableDeclaration:
        for (const declarator of pattern.declarations) visit(declarator.id);
        break;
      case AST_NODE_TYPES.ObjectPattern:
        for (const property of pattern.properties) visit(property.type === AST_NODE_TYPES.Property ? property.value : property);
        break;
      case AST_NODE_TYPES.ArrayPattern:
        for (const element of pattern.elements) visit(element);
        break;
      case AST_NODE_TYPES.RestElement:
        visit(pattern.argument);
        break;
      case AST_NODE_TYPES.AssignmentPattern:
        visit(pattern.left);
        break;
      case AST_NODE_TYPES.TSParameterProperty:
        visit(pattern.parameter);
        break;
      default:
        break;
    }
  };
  visit(node);
  return names;
}

