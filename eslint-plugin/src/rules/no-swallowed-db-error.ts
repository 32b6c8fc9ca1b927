import { AST_NODE_TYPES, type TSESLint, type TSESTree } from '@typescript-eslint/utils';
import { containsNode, getKeyName, isFunctionNode, isLoopNode } from '../analysis/ast';
import { findMemberCallsNamed, type MemberCall } from '../analysis/find-nodes-at-offsets';
import { type DbCall, findDbCalls, findDbCallsWithin, isCleanupCall } from '../analysis/clients';
import { getDatabaseLabel, isIgnorableCleanup } from '../analysis/errors';
import { alwaysLeaves, collectAssignedNames, collectAttemptCounters, collectIdentifierNames, comparesAttemptCounter, describePassedFrom, findDatabaseRetryScopes, findRetriedDbCalls, getCalledFunction, type RetryScope, walkOwnCode } from '../analysis/retry';
import { asStatement, fillEmptyBlock, getCatchCallbackFix, getCodeStyle, getIndent, getLogErrorCall, getRethrowAtEndFix, getRethrowInsteadOfReturnFix, getThrowAfterLoopFix, getThrowIfFlagAfterLoopFix } from '../fix';
import { createRule } from '../util/create-rule';
import { getLoopHeadLoc } from '../util/loop-head';

type MessageId =
  | 'emptyCatch'
  | 'emptyCatchCallback'
  | 'silentRetryEnd'
  | 'rethrow'
  | 'logAndRethrow'
  | 'logError'
  | 'rethrowFromCallback'
  | 'throwAfterLastAttempt'
  | 'throwWhenFlagStillSet';

export default createRule<[], MessageId>({
  name: 'no-swallowed-db-error',
  meta: {
    type: 'problem',
    docs: {
      description: 'Disallow silently swallowing database errors in empty catches and exhausted retries.',
      database: 'any',
    },
    hasSuggestions: true,
    messages: {
      emptyCatch:
        'This empty catch swallows the errors of the {{database}} call `{{operation}}`: a failed write or read goes unnoticed. Rethrow the error (or at least log it).',
      emptyCatchCallback:
        'This empty `.catch` callback swallows the errors of the {{database}} call `{{operation}}`: a failed write or read goes unnoticed. Rethrow the error (or at least log it).',
      silentRetryEnd:
        'When its last attempt fails, this retry of the {{database}} call `{{operation}}`{{origin}} ends silently: the caller cannot tell it failed. Throw the last error after the final attempt.',
      rethrow: 'Rethrow the caught error.',
      logAndRethrow: 'Log the caught error (`console.error`) and rethrow it.',
      logError: 'Log the error (`console.error`) instead of dropping it.',
      rethrowFromCallback: 'Rethrow the error, so that the code awaiting this promise sees it.',
      throwAfterLastAttempt: 'Throw after the last attempt, with the last error as `cause`.',
      throwWhenFlagStillSet: 'Throw after the loop when `{{flag}}` still asks for another attempt.',
    },
    schema: [],
    defaultOptions: [],
  },
  defaultOptions: [],
  create(context) {
    let checks: ReturnType<typeof createChecks> | undefined;
    const getChecks = (): ReturnType<typeof createChecks> => (checks ??= createChecks(context));
    return {
      TryStatement(node) {
        // Only an empty catch can swallow: the checks are made at the first one.
        if (node.handler?.body.body.length === 0) getChecks().checkTry(node);
      },
      'Program:exit'() {
        // An empty callback is reported where it guards a database call of this file: without one, the file's `.catch` and `.then` calls are not looked up.
        const promiseCalls = findDbCalls(context).length > 0 ? findMemberCallsNamed(context, ['catch', 'then']) : [];
        const scopes = findDatabaseRetryScopes(context);
        if (promiseCalls.length === 0 && scopes.length === 0) return;
        const { checkCatchCallback, checkRetryEnd } = getChecks();
        for (const promiseCall of promiseCalls) checkCatchCallback(promiseCall);
        for (const scope of scopes) checkRetryEnd(scope);
      },
    };
  },
});

/** The checks of one file, made at its first empty catch, promise callback or retry (most files have none). */
function createChecks(context: Readonly<TSESLint.RuleContext<MessageId, []>>) {
  const sourceCode = context.sourceCode;
  const reportedHandlers = new Set<TSESTree.Node>();

  /** Database calls that a try block (or promise chain) really guards: not inside a nested function. */
  function findGuardedCalls(container: TSESTree.Node): DbCall[] {
    return findDbCallsWithin(context, container).filter((call) => {
      if (isCleanupCall(call)) return false;
      const [start, end] = container.range;
      for (let current: TSESTree.Node | undefined = call.node; current && current !== container; current = current.parent) {
        if (current.range[0] < start || current.range[1] > end) break;
        if (isFunctionNode(current)) return false;
      }
      return true;
    });
  }

  function isEmptyBlock(block: TSESTree.BlockStatement): boolean {
    return block.body.length === 0;
  }

  /**
   * Database calls the try reaches through a function it awaits (`await this.createTable()`,
   * `await Promise.all([this.createLock(), …])`, `await createSchema(client)`): a local
   * function or a method of the class, one level deep, whose call awaits or returns the
   * database call outside any `try` of its own, so that the failure reaches this catch.
   */
  function findCallsThroughFunctions(block: TSESTree.BlockStatement): DbCall[] {
    const found: DbCall[] = [];
    walkOwnCode(block, sourceCode.visitorKeys, (node) => {
      if (node.type !== AST_NODE_TYPES.CallExpression || !isAwaited(node)) return true;
      const fn = getCalledFunction(context, node);
      if (!fn?.async || fn.body.type !== AST_NODE_TYPES.BlockStatement) return true;
      for (const call of findGuardedCalls(fn.body)) if (passesFailureOn(call.node, fn)) found.push(call);
      return true;
    });
    return found;
  }

  function checkTry(node: TSESTree.TryStatement): void {
    const handler = node.handler;
    if (!handler || !isEmptyBlock(handler.body)) return;
    const guarded = findGuardedCalls(node.block);
    const [call] = (guarded.length > 0 ? guarded : findCallsThroughFunctions(node.block)).filter((found) => !isIgnorableCleanup(context, found, node));
    if (!call) return;
    reportedHandlers.add(handler);
    const what = describeCall(call);
    // A one-line catch keeping a comment stays on one line (see fillEmptyBlock).
    const oneLine = handler.body.loc.start.line === handler.body.loc.end.line && sourceCode.getCommentsInside(handler.body).length > 0;
    const separator = oneLine ? ' ' : `\n${getIndent(sourceCode, handler, 'line')}  `;
    const logAndThrow = (name: string): string => `${asStatement(getLogErrorCall(what, name, getCodeStyle(context)), getCodeStyle(context))}${separator}throw ${name};`;
    context.report({
      node: handler,
      messageId: 'emptyCatch',
      data: { database: getDatabaseLabel(call.database), operation: call.operation },
      suggest: [
        { messageId: 'rethrow', fix: (fixer) => getRethrowFix(fixer, handler, (name) => `throw ${name};`) },
        { messageId: 'logAndRethrow', fix: (fixer) => getRethrowFix(fixer, handler, logAndThrow) },
      ],
    });
  }

  function getRethrowFix(fixer: TSESLint.RuleFixer, handler: TSESTree.CatchClause, getStatements: (name: string) => string): TSESLint.RuleFix[] {
    const fixes: TSESLint.RuleFix[] = [];
    let name = 'error';
    if (handler.param?.type === AST_NODE_TYPES.Identifier) {
      name = handler.param.name;
    } else if (handler.param) {
      return [];
    } else {
      const catchToken = sourceCode.getFirstToken(handler);
      if (!catchToken) return [];
      fixes.push(fixer.insertTextAfter(catchToken, ` (${name})`));
    }
    const rethrow = fillEmptyBlock(sourceCode, fixer, handler.body, getStatements(name), handler);
    if (!rethrow) return [];
    fixes.push(rethrow);
    return fixes;
  }

  /** `p.catch(() => {})`, `p.then(onDone, () => {})` (found from the text: calls are the most common node). */
  function checkCatchCallback({ call: node, member, name }: MemberCall): void {
    const callback = name === 'catch' ? node.arguments[0] : node.arguments[1];
    if (!callback || !isFunctionNode(callback) || !isEmptyFunction(callback)) return;
    const [call] = findGuardedCalls(member.object);
    if (!call) return;
    const what = describeCall(call);
    const rethrow = isResultUsed(node) ? getCatchCallbackFix(sourceCode, callback, what, 'rethrow', getCodeStyle(context)) : undefined;
    const log = getCatchCallbackFix(sourceCode, callback, what, 'log', getCodeStyle(context));
    context.report({
      node: callback,
      messageId: 'emptyCatchCallback',
      data: { database: getDatabaseLabel(call.database), operation: call.operation },
      suggest: [
        ...(rethrow ? [{ messageId: 'rethrowFromCallback' as const, fix: rethrow }] : []),
        ...(log ? [{ messageId: 'logError' as const, fix: log }] : []),
      ],
    });
  }

  /** The promise is awaited, returned or kept: an error thrown on reaches code that handles it, not the process. */
  function isResultUsed(call: TSESTree.CallExpression): boolean {
    let node: TSESTree.Node = call;
    while (node.parent?.type === AST_NODE_TYPES.ChainExpression || node.parent?.type === AST_NODE_TYPES.TSAsExpression) node = node.parent;
    const parent = node.parent;
    return parent !== undefined && parent.type !== AST_NODE_TYPES.ExpressionStatement && !(parent.type === AST_NODE_TYPES.UnaryExpression && parent.operator === 'void');
  }

  function isEmptyFunction(fn: TSESTree.FunctionLike): boolean {
    const body = fn.body;
    if (!body) return false;
    if (body.type === AST_NODE_TYPES.BlockStatement) return body.body.length === 0;
    if (body.type === AST_NODE_TYPES.Identifier) return body.name === 'undefined';
    return body.type === AST_NODE_TYPES.UnaryExpression && body.operator === 'void' && body.argument.type === AST_NODE_TYPES.Literal;
  }

  // -----------------------------------------------------------------------
  // Retries that end silently

  function checkRetryEnd(scope: RetryScope): void {
    if (scope.kind !== 'loop' && scope.kind !== 'recursion') return;
    // Polling until the response is good, with no count: it ends only on success (an error propagates).
    if (scope.decidedByResult && !scope.attemptVariable) return;
    // The calls the attempt makes, also through a local function or a function passed in.
    const retriedCalls = findRetriedDbCalls(context, scope).filter(
      ({ call, site }) => !isCleanupCall(call) && !scope.handlers.some((handler) => containsNode(handler, site)) && !isInNestedFunction(site, scope.attempt),
    );
    const [retried] = retriedCalls;
    if (!retried) return;
    const call = retried.call;
    const handlers = scope.handlers.filter((handler): handler is TSESTree.CatchClause => handler.type === AST_NODE_TYPES.CatchClause);
    if (handlers.length !== scope.handlers.length) return;
    // An empty catch is reported as such.
    if (handlers.length > 0 && handlers.every((handler) => reportedHandlers.has(handler))) return;
    if (handlers.some((handler) => isErrorGivenAway(handler))) return;
    const data = { database: getDatabaseLabel(call.database), operation: call.operation, origin: describePassedFrom(context, retried, retriedCalls) };
    if (scope.kind === 'recursion') {
      const handler = handlers[0];
      if (!handler || !handler.body.body.some((statement) => statement.type === AST_NODE_TYPES.IfStatement)) return;
      // `if (attempt < 3) return retry(attempt + 1); return;` and `if (retries === 0) return;
      // return retry(retries - 1);`: past the last attempt it resolves undefined.
      let counters: ReturnType<typeof collectAttemptCounters> | undefined;
      const comparesCounter = (test: TSESTree.Expression): boolean => comparesAttemptCounter(test, sourceCode.visitorKeys, (counters ??= collectAttemptCounters(context, scope)));
      const giveUp = findSilentGiveUp(handler.body, comparesCounter) ?? getFinalEmptyReturn(handler.body);
      if (alwaysLeaves(handler.body) && !giveUp) return;
      // The catch retries by calling the function again when a condition holds; past the last attempt it falls through.
      const rethrow = giveUp ? getRethrowInsteadOfReturnFix(sourceCode, handler, giveUp, getCodeStyle(context)) : getRethrowAtEndFix(sourceCode, handler, getCodeStyle(context));
      context.report({ node: handler, messageId: 'silentRetryEnd', data, suggest: rethrow ? [{ messageId: 'rethrow', fix: rethrow }] : [] });
      return;
    }
    const loop = scope.node as TSESTree.ForStatement | TSESTree.WhileStatement | TSESTree.DoWhileStatement | TSESTree.ForOfStatement;
    // Re-sent while the response asks for it, with no catch: the loop's test ends it on a good
    // response, and a count that is not in the test ends it by a throw or return in the body.
    if (scope.decidedByResult && handlers.length === 0 && !isCountedInTest(loop, scope.attemptVariable)) return;
    if (!canRunOut(loop, handlers)) return;
    const watched = new Set<string>();
    if (scope.attemptVariable) watched.add(scope.attemptVariable);
    for (const handler of handlers) for (const name of collectAssignedNames(handler.body, sourceCode.visitorKeys)) watched.add(name);
    if ('test' in loop && loop.test) for (const name of collectIdentifierNames(loop.test, sourceCode.visitorKeys)) watched.add(name);
    if (isFailureReportedAfter(loop, watched)) return;
    const throwAfter = canThrowAfter(loop, handlers) ? getThrowAfterLoopFix(sourceCode, loop, handlers[0]!, describeCall(call), getCodeStyle(context)) : undefined;
    const flag = handlers.length === 0 ? getRetryFlag(loop) : undefined;
    const throwIfFlag = flag ? getThrowIfFlagAfterLoopFix(sourceCode, loop, flag, describeCall(call), getCodeStyle(context)) : undefined;
    context.report({
      loc: getLoopHeadLoc(sourceCode, loop) ?? loop.loc,
      messageId: 'silentRetryEnd',
      data,
      suggest: [
        ...(throwAfter ? [{ messageId: 'throwAfterLastAttempt' as const, fix: throwAfter }] : []),
        ...(throwIfFlag && flag ? [{ messageId: 'throwWhenFlagStillSet' as const, data: { flag }, fix: throwIfFlag }] : []),
      ],
    });
  }

  /** `retry` in `while (retry && n++ < MAX)`: the flag an attempt sets to ask for another. */
  function getRetryFlag(loop: TSESTree.Node): string | undefined {
    const test = 'test' in loop ? (loop.test as TSESTree.Expression | null) : null;
    if (test?.type !== AST_NODE_TYPES.LogicalExpression || test.operator !== '&&' || test.left.type !== AST_NODE_TYPES.Identifier) return undefined;
    return test.left.name;
  }

  /**
   * Only a failed last attempt gets past the loop: one try whose block always returns or
   * throws (a success never falls out through \`break\`), and one catch.
   */
  function canThrowAfter(loop: TSESTree.Node, handlers: readonly TSESTree.CatchClause[]): boolean {
    const handler = handlers.length === 1 ? handlers[0] : undefined;
    const attempt = handler?.parent;
    if (attempt?.type !== AST_NODE_TYPES.TryStatement || attempt.finalizer || !alwaysLeaves(attempt.block)) return false;
    let breaksOut = false;
    walkOwnCode(loop, sourceCode.visitorKeys, (node) => {
      if (node === handler) return false;
      if (node.type === AST_NODE_TYPES.BreakStatement && !node.label) breaksOut = true;
      return !breaksOut && (node === loop || (!isLoopNode(node) && node.type !== AST_NODE_TYPES.SwitchStatement));
    });
    return !breaksOut;
  }

  /** The loop's own test reads the attempt counter (`do { … } while (retry && retries++ < MAX)`). */
  function isCountedInTest(loop: TSESTree.Node, attemptVariable: string | undefined): boolean {
    const test = 'test' in loop ? loop.test : null;
    return Boolean(test && attemptVariable && collectIdentifierNames(test, sourceCode.visitorKeys).has(attemptVariable));
  }

  /** The catch throws, or hands the error on (logs it, stores it, returns it, passes it to a callback). */
  function isErrorGivenAway(handler: TSESTree.CatchClause): boolean {
    let found = false;
    walkOwnCode(handler.body, sourceCode.visitorKeys, (node) => {
      // A throw, or a return with a value (a result the caller checks).
      if (node.type === AST_NODE_TYPES.ThrowStatement || (node.type === AST_NODE_TYPES.ReturnStatement && node.argument && !isCall(node.argument) && !isUndefined(node.argument))) {
        found = true;
      }
      return !found;
    });
    if (found) return true;
    if (handler.param?.type !== AST_NODE_TYPES.Identifier) return handler.param !== null;
    const name = handler.param.name;
    let recorded = false;
    walkOwnCode(
      handler.body,
      sourceCode.visitorKeys,
      (node) => {
        if (recorded) return false;
        if (node.type === AST_NODE_TYPES.Identifier && node.name === name && node !== handler.param && !isOnlyInspected(node, handler)) {
          recorded = true;
        }
        return true;
      },
      true,
    );
    return recorded;
  }

  /** `if (err.code === 'X')`: reading the error to decide, not keeping it. */
  function isOnlyInspected(reference: TSESTree.Node, handler: TSESTree.CatchClause): boolean {
    let child: TSESTree.Node = reference;
    for (let parent = reference.parent; parent && parent !== handler; child = parent, parent = parent.parent) {
      if (parent.type === AST_NODE_TYPES.MemberExpression && parent.property === child && !parent.computed) return false;
      if ((parent.type === AST_NODE_TYPES.IfStatement || parent.type === AST_NODE_TYPES.ConditionalExpression) && parent.test === child) return true;
      if (parent.type === AST_NODE_TYPES.SwitchStatement && parent.discriminant === child) return true;
      if (parent.type === AST_NODE_TYPES.Property && parent.key === child) return false;
      if (isFunctionNode(parent) || parent.type === AST_NODE_TYPES.BlockStatement || parent.type === AST_NODE_TYPES.ExpressionStatement) return false;
    }
    return false;
  }

  /** The loop can finish after a failed attempt: its condition can turn false, or the catch breaks out. */
  function canRunOut(loop: TSESTree.Node, handlers: readonly TSESTree.CatchClause[]): boolean {
    if (loop.type === AST_NODE_TYPES.ForOfStatement) return true;
    const test = 'test' in loop ? (loop.test as TSESTree.Expression | null) : null;
    const alwaysTrue = !test || (test.type === AST_NODE_TYPES.Literal && Boolean(test.value));
    if (!alwaysTrue) return true;
    return handlers.some((handler) => {
      let breaks = false;
      walkOwnCode(handler.body, sourceCode.visitorKeys, (node) => {
        if (node.type === AST_NODE_TYPES.BreakStatement) breaks = true;
        return !breaks && node.type !== AST_NODE_TYPES.SwitchStatement && !isLoopNode(node);
      });
      return breaks;
    });
  }

  /**
   * After the loop, the function throws, returns a value, or reads what the retry left
   * (the last error, the flag, the counter) to report the failure.
   */
  function isFailureReportedAfter(loop: TSESTree.Node, watched: ReadonlySet<string>): boolean {
    for (const statement of findStatementsAfter(loop)) {
      let reported = false;
      walkOwnCode(statement, sourceCode.visitorKeys, (node) => {
        if (node.type === AST_NODE_TYPES.ThrowStatement) reported = true;
        if (node.type === AST_NODE_TYPES.ReturnStatement && node.argument) reported = true;
        if (node.type === AST_NODE_TYPES.Identifier && watched.has(node.name)) reported = true;
        // Code after the loop that does anything with a call (a fallback, a log) is left to the reader.
        if (node.type === AST_NODE_TYPES.CallExpression) reported = true;
        return !reported;
      });
      if (reported) return true;
    }
    return false;
  }

  /** Statements that run after `node` completes normally, up to the end of its function. */
  function findStatementsAfter(node: TSESTree.Node): TSESTree.Statement[] {
    const statements: TSESTree.Statement[] = [];
    let child: TSESTree.Node = node;
    for (let parent = node.parent; parent && !isFunctionNode(parent); child = parent, parent = parent.parent) {
      if (parent.type === AST_NODE_TYPES.CatchClause) break;
      if (parent.type === AST_NODE_TYPES.BlockStatement || parent.type === AST_NODE_TYPES.Program) {
        const body = parent.body as TSESTree.Statement[];
        const index = body.indexOf(child as TSESTree.Statement);
        if (index >= 0) statements.push(...body.slice(index + 1));
      }
      if (parent.type === AST_NODE_TYPES.TryStatement && parent.finalizer) statements.push(parent.finalizer);
      if (isLoopNode(parent)) break;
    }
    return statements;
  }

  return { checkTry, checkCatchCallback, checkRetryEnd };
}

/** `undefined`, `void 0`: what a bare `return` gives the caller, a success it cannot tell from one. */
function isUndefined(node: TSESTree.Expression): boolean {
  return (node.type === AST_NODE_TYPES.Identifier && node.name === 'undefined') || (node.type === AST_NODE_TYPES.UnaryExpression && node.operator === 'void');
}

/**
 * `return` in `if (retries === 0) return;` (or `return undefined;`) in the catch: the branch
 * taken when the attempts run out, its test comparing the attempt count, returns nothing. A
 * branch for an error the code means to ignore (`if (err.code === '23505') return;`) or a
 * guard flag (`if (this.retrying) return;`) compares no count.
 */
function findSilentGiveUp(block: TSESTree.BlockStatement, comparesCounter: (test: TSESTree.Expression) => boolean): TSESTree.ReturnStatement | undefined {
  for (const statement of block.body) {
    if (statement.type !== AST_NODE_TYPES.IfStatement) continue;
    const branch = statement.consequent.type === AST_NODE_TYPES.BlockStatement && statement.consequent.body.length === 1 ? statement.consequent.body[0] : statement.consequent;
    if (branch && isEmptyReturn(branch) && comparesCounter(statement.test)) return branch;
  }
  return undefined;
}

/** The block's last statement when it is `return;` or `return undefined;`. */
function getFinalEmptyReturn(block: TSESTree.BlockStatement): TSESTree.ReturnStatement | undefined {
  const last = block.body.at(-1);
  return last && isEmptyReturn(last) ? last : undefined;
}

function isEmptyReturn(statement: TSESTree.Statement): statement is TSESTree.ReturnStatement {
  return statement.type === AST_NODE_TYPES.ReturnStatement && (!statement.argument || isUndefined(statement.argument));
}

/**
 * `await f()`, or `await Promise.all([f(), …])`: the call's rejection reaches the code around
 * the `await` (not through `Promise.allSettled`, which never rejects).
 */
function isAwaited(call: TSESTree.CallExpression): boolean {
  let node: TSESTree.Node = call;
  if (node.parent?.type === AST_NODE_TYPES.ArrayExpression) {
    const all = node.parent.parent;
    if (all?.type !== AST_NODE_TYPES.CallExpression || all.callee.type !== AST_NODE_TYPES.MemberExpression || all.callee.object.type !== AST_NODE_TYPES.Identifier) return false;
    if (all.callee.object.name !== 'Promise' || getKeyName(all.callee) !== 'all' || all.arguments[0] !== node.parent) return false;
    node = all;
  }
  return node.parent?.type === AST_NODE_TYPES.AwaitExpression;
}

/** Inside `fn`, the database call is awaited or returned, and no `try` of `fn` catches its failure. */
function passesFailureOn(call: TSESTree.Node, fn: TSESTree.Node): boolean {
  const parent = call.parent;
  if (parent?.type !== AST_NODE_TYPES.AwaitExpression && parent?.type !== AST_NODE_TYPES.ReturnStatement) return false;
  for (let current: TSESTree.Node | undefined = parent; current && current !== fn; current = current.parent) {
    if (current.type === AST_NODE_TYPES.TryStatement && current.handler) return false;
  }
  return true;
}

/** `node` is inside a function nested in `container`: it runs at another time. */
function isInNestedFunction(node: TSESTree.Node, container: TSESTree.Node): boolean {
  for (let current: TSESTree.Node | undefined = node.parent; current && current !== container; current = current.parent) {
    if (isFunctionNode(current)) return true;
  }
  return false;
}

/** `MongoDB updateOne`: what failed, for a log line or an error message. */
function describeCall(call: DbCall): string {
  return `${getDatabaseLabel(call.database)} ${call.operation}`;
}

/** `return retry(…)` hands the outcome to another attempt, not to the caller. */
function isCall(node: TSESTree.Expression): boolean {
  const inner = node.type === AST_NODE_TYPES.AwaitExpression ? node.argument : node;
  return inner.type === AST_NODE_TYPES.CallExpression;
}
