import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';
import { isFunctionNode, type FunctionNode } from './retry-ast';
import type { RetryHandler, RetryScope } from './retry-scopes';
import { isAlreadyDoneError, isPermanentError, type ErrorProperty, type ErrorValue } from './transient-errors';

/**
 * How the code that decides to retry looks at the error: a `catch` clause in a retry
 * loop or a recursive function, a `.catch` callback, a retry library's `shouldRetry` /
 * `retry` predicate or its `bail` / `AbortError`. The decision is read as a set of
 * paths — conditions on the way and what happens at the end (retry, fail, done) — so
 * rules can ask: is every error retried? which names or codes are let through? is
 * 23505 / 11000 treated as "already done"?
 */

/** What a path through the decision does: go round again, give up with the error, or leave as if successful. */
export type RetryOutcome = 'retry' | 'fail' | 'done';

/** How a check looks at the error. */
export type ErrorCheckKind = ErrorProperty | 'retryable' | 'helper' | 'instanceof' | 'other';

/** A value compared with the error, with the node that holds it (for reports). */
export interface ErrorValueCheck extends ErrorValue {
  node: TSESTree.Node;
}

/** One condition met on a path, as seen from the error. */
export interface ErrorCondition {
  /** `in`: the path needs the error to be one of `values`; `notIn`: the path needs it to be none of them. */
  polarity: 'in' | 'notIn';
  values: ErrorValueCheck[];
  /** A check whose values are not known (`isRetryable(err)`, `err instanceof X`, `err.$retryable`). */
  isOpaque: boolean;
  /** The condition can be met without the error check (`attempt < 3 || err.code === 'X'`). */
  isWeak: boolean;
  kinds: ErrorCheckKind[];
}

export interface ErrorDecisionPath {
  outcome: RetryOutcome;
  /** The statement or expression that ends the path (the `throw`, `continue`, `bail(e)`, the handler for a fall-through). */
  node: TSESTree.Node;
  /** Conditions on the error met on the way (conditions not about the error are left out). */
  conditions: ErrorCondition[];
}

export interface ErrorClassification {
  /**
   * Where the decision is written: the `catch` clause, the `.catch` callback, the
   * `shouldRetry` / `retry` predicate, or the library call (or `.catch(retry)` argument)
   * when nothing decides and every error goes round.
   */
  decision: TSESTree.Node;
  /** Name of the error variable, when the decision has one. */
  errorName: string | undefined;
  paths: ErrorDecisionPath[];
  /** Some path retries whatever the error is (no check on the way, or only a deny-list of non-permanent values). */
  retriesEveryError: boolean;
  /** The decision looks at the error at all (name, code, helper, instanceof, …) to choose an outcome. */
  checksError: boolean;
  /** Every kind of check seen on the paths. */
  checkKinds: ErrorCheckKind[];
  /** Values that lead to a retry (`if (err.name === 'ThrottlingException') continue`). */
  retriedValues: ErrorValueCheck[];
  /** Values that stop the retry (rethrow, bail, return). */
  stoppedValues: ErrorValueCheck[];
  /** 23505 / 11000 handled as success: the keyed write committed in an earlier attempt. */
  alreadyDoneValues: ErrorValueCheck[];
}

/** How statements of one decision end: set per retry shape. */
interface DecisionRules {
  errorName: string | undefined;
  /** Properties bound from the error (`const { code } = err`, `catch ({ code })`). */
  aliases: Map<string, TSESTree.Node | ErrorCheckKind>;
  fallThrough: RetryOutcome;
  throwOutcome: (statement: TSESTree.ThrowStatement) => RetryOutcome;
  /** What `return <argument>` does (`argument` null for a bare `return`); `decide` for predicates. */
  returnOutcome: (argument: TSESTree.Expression | null) => RetryOutcome | 'decide';
  breakOutcome: RetryOutcome;
  /** A call that decides on its own: `bail(e)`, `retry(e)`, a recursive call. */
  callOutcome: (call: TSESTree.CallExpression) => RetryOutcome | undefined;
  /** A flag the loop condition reads: assigning it decides the outcome. */
  flag?: { name: string; keepsGoing: boolean };
}

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
    const handler = getHandlerAround(scope, call);
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
    const paths = decideExpression(fn.body, fn.body, [], rules);
    return summarize(
      paths.map((path) => ({ outcome: path.outcome, node: path.node, conditions: toConditions(path.atoms, rules) })),
      errorName,
      fn,
    );
  }
  return classifyBody(fn.body.body, rules, fn);
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
        : onFailed && containsThrow(onFailed)
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

function containsThrow(fn: FunctionNode): boolean {
  let found = false;
  visitNodes(fn.body, (node) => {
    if (node !== fn.body && isFunctionNode(node)) return false;
    if (node.type === AST_NODE_TYPES.ThrowStatement) found = true;
    return !found;
  });
  return found;
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

type Atom = { kind: 'test'; test: TSESTree.Expression; negated: boolean } | { kind: 'case'; discriminant: TSESTree.Expression; tests: TSESTree.Expression[]; negated: boolean };

interface Walk {
  paths: { outcome: RetryOutcome; node: TSESTree.Node; atoms: Atom[] }[];
  /** Control can reach the end of the statements. */
  fallsThrough: boolean;
  /** The conditions under which control goes on, when narrower than on entry (`if (x) throw e;`). */
  continueWith?: Atom[];
  /** A `break` leaves the enclosing `switch`. */
  breaksSwitch?: boolean;
}

function classifyBody(statements: readonly TSESTree.Statement[], rules: DecisionRules, endNode: TSESTree.Node): ErrorClassification {
  collectAliases(statements, rules);
  const walk = walkStatements(statements, [], rules, false);
  const raw = [...walk.paths];
  if (walk.fallsThrough) raw.push({ outcome: rules.fallThrough, node: endNode, atoms: walk.continueWith ?? [] });
  const paths: ErrorDecisionPath[] = [];
  for (const path of raw) {
    paths.push({ outcome: path.outcome, node: path.node, conditions: toConditions(path.atoms, rules) });
  }
  return summarize(paths, rules.errorName, endNode);
}

function walkStatements(statements: readonly TSESTree.Statement[], atoms: Atom[], rules: DecisionRules, inSwitch: boolean): Walk {
  const paths: Walk['paths'] = [];
  let current = atoms;
  let breaksSwitch = false;
  for (const statement of statements) {
    const result = walkStatement(statement, current, rules, inSwitch);
    paths.push(...result.paths);
    breaksSwitch ||= result.breaksSwitch === true;
    if (!result.fallsThrough) return { paths, fallsThrough: false, breaksSwitch };
    if (result.continueWith) current = result.continueWith;
  }
  return { paths, fallsThrough: true, continueWith: current === atoms ? undefined : current, breaksSwitch };
}

function walkStatement(statement: TSESTree.Statement, atoms: Atom[], rules: DecisionRules, inSwitch: boolean): Walk {
  const end = (outcome: RetryOutcome, node: TSESTree.Node = statement): Walk => ({ paths: [{ outcome, node, atoms }], fallsThrough: false });
  switch (statement.type) {
    case AST_NODE_TYPES.ThrowStatement:
      return end(rules.throwOutcome(statement));
    case AST_NODE_TYPES.ReturnStatement:
      return { paths: returnPaths(statement.argument, statement, atoms, rules), fallsThrough: false };
    case AST_NODE_TYPES.ContinueStatement:
      return end('retry');
    case AST_NODE_TYPES.BreakStatement:
      if (inSwitch && !statement.label) return { paths: [], fallsThrough: false, breaksSwitch: true };
      return end(rules.breakOutcome);
    case AST_NODE_TYPES.BlockStatement:
      return walkStatements(statement.body, atoms, rules, inSwitch);
    case AST_NODE_TYPES.IfStatement: {
      // `if (operation.retry(err)) return;`: the call itself decides to retry.
      const testCall = getDecidingCall(statement.test, rules);
      if (testCall === 'retry') {
        const alternate = statement.alternate ? walkStatement(statement.alternate, atoms, rules, inSwitch) : { paths: [], fallsThrough: true };
        return { paths: [{ outcome: 'retry', node: statement.test, atoms }, ...alternate.paths], fallsThrough: alternate.fallsThrough };
      }
      const yes = walkStatement(statement.consequent, [...atoms, { kind: 'test', test: statement.test, negated: false }], rules, inSwitch);
      const noAtoms: Atom[] = [...atoms, { kind: 'test', test: statement.test, negated: true }];
      const no = statement.alternate ? walkStatement(statement.alternate, noAtoms, rules, inSwitch) : { paths: [], fallsThrough: true };
      const paths = [...yes.paths, ...no.paths];
      const breaksSwitch = yes.breaksSwitch === true || no.breaksSwitch === true;
      if (yes.fallsThrough && no.fallsThrough) return { paths, fallsThrough: true, breaksSwitch };
      if (!yes.fallsThrough && !no.fallsThrough) return { paths, fallsThrough: false, breaksSwitch };
      // Only one branch goes on: the rest of the block runs under that branch's condition.
      const continueWith = yes.fallsThrough ? (yes.continueWith ?? [...atoms, { kind: 'test' as const, test: statement.test, negated: false }]) : (no.continueWith ?? noAtoms);
      return { paths, fallsThrough: true, continueWith, breaksSwitch };
    }
    case AST_NODE_TYPES.SwitchStatement:
      return walkSwitch(statement, atoms, rules);
    case AST_NODE_TYPES.ExpressionStatement: {
      const outcome = getStatementOutcome(statement.expression, rules);
      if (outcome === 'flag-retry') return end('retry');
      if (outcome === 'flag-stop') return end('done');
      if (outcome) return end(outcome);
      // `handleError(err)` may throw for some errors: the decision is delegated, not absent.
      const delegated = getDelegatingCall(statement.expression, rules);
      if (delegated) return { paths: [], fallsThrough: true, continueWith: [...atoms, { kind: 'test', test: delegated, negated: false }] };
      return { paths: [], fallsThrough: true };
    }
    case AST_NODE_TYPES.TryStatement: {
      const inner = walkStatement(statement.block, atoms, rules, inSwitch);
      return inner;
    }
    default:
      return { paths: [], fallsThrough: true };
  }
}

function walkSwitch(statement: TSESTree.SwitchStatement, atoms: Atom[], rules: DecisionRules): Walk {
  const paths: Walk['paths'] = [];
  const allTests = statement.cases.flatMap((switchCase) => (switchCase.test ? [switchCase.test] : []));
  let pending: TSESTree.Expression[] = [];
  let hasDefault = false;
  let previousFalls = false;
  // Cases whose code goes on after the switch; `undefined` once an unrestricted path does.
  let exitTests: TSESTree.Expression[] | undefined = [];
  let exits = false;
  for (const switchCase of statement.cases) {
    if (switchCase.test) pending.push(switchCase.test);
    else hasDefault = true;
    if (switchCase.consequent.length === 0) continue;
    const isDefault = switchCase.test === null || pending.length === 0 || hasDefault;
    const atom: Atom = isDefault
      ? { kind: 'case', discriminant: statement.discriminant, tests: allTests, negated: true }
      : { kind: 'case', discriminant: statement.discriminant, tests: pending, negated: false };
    const caseAtoms = previousFalls ? atoms : [...atoms, atom];
    const result = walkStatements(switchCase.consequent, caseAtoms, rules, true);
    paths.push(...result.paths);
    const isLast = switchCase === statement.cases.at(-1);
    previousFalls = result.fallsThrough && !isLast;
    if ((result.fallsThrough && isLast) || result.breaksSwitch) {
      exits = true;
      if (isDefault || previousFalls || result.continueWith) exitTests = undefined;
      else exitTests?.push(...pending);
    }
    pending = [];
  }
  if (!hasDefault) {
    exits = true;
    exitTests = undefined;
  }
  if (!exits) return { paths, fallsThrough: false };
  const continueWith: Atom[] | undefined =
    exitTests && exitTests.length > 0 ? [...atoms, { kind: 'case', discriminant: statement.discriminant, tests: exitTests, negated: false }] : undefined;
  return { paths, fallsThrough: true, continueWith };
}

/** `return a ? retry() : Promise.reject(e)`: one path per branch. */
function returnPaths(argument: TSESTree.Expression | null, node: TSESTree.Node, atoms: Atom[], rules: DecisionRules): Walk['paths'] {
  const value = argument ? (unwrap(argument) as TSESTree.Expression) : null;
  if (value?.type === AST_NODE_TYPES.ConditionalExpression && rules.returnOutcome(value) !== 'decide') {
    return [
      ...returnPaths(value.consequent, node, [...atoms, { kind: 'test', test: value.test, negated: false }], rules),
      ...returnPaths(value.alternate, node, [...atoms, { kind: 'test', test: value.test, negated: true }], rules),
    ];
  }
  const outcome = rules.returnOutcome(argument);
  if (outcome !== 'decide') return [{ outcome, node, atoms }];
  if (!argument) return [{ outcome: 'fail', node, atoms }];
  return decideExpression(argument, node, atoms, rules);
}

/** `return <expr>` in a predicate: a path where the expression holds (retry) and one where it does not. */
function decideExpression(expression: TSESTree.Node, node: TSESTree.Node, atoms: Atom[], rules: DecisionRules): Walk['paths'] {
  const value = unwrap(expression) as TSESTree.Expression;
  if (value.type === AST_NODE_TYPES.Literal) return [{ outcome: value.value ? 'retry' : 'fail', node, atoms }];
  if (value.type === AST_NODE_TYPES.ConditionalExpression) {
    return [
      ...decideExpression(value.consequent, node, [...atoms, { kind: 'test', test: value.test, negated: false }], rules),
      ...decideExpression(value.alternate, node, [...atoms, { kind: 'test', test: value.test, negated: true }], rules),
    ];
  }
  return [
    { outcome: 'retry', node, atoms: [...atoms, { kind: 'test', test: value, negated: false }] },
    { outcome: 'fail', node, atoms: [...atoms, { kind: 'test', test: value, negated: true }] },
  ];
}

/** What an expression statement decides: a retry/bail call, or a flag assignment. */
function getStatementOutcome(expression: TSESTree.Expression, rules: DecisionRules): RetryOutcome | 'flag-retry' | 'flag-stop' | undefined {
  const value = unwrap(expression);
  if (value.type === AST_NODE_TYPES.CallExpression) return rules.callOutcome(value);
  if (
    rules.flag &&
    value.type === AST_NODE_TYPES.AssignmentExpression &&
    value.operator === '=' &&
    value.left.type === AST_NODE_TYPES.Identifier &&
    value.left.name === rules.flag.name &&
    value.right.type === AST_NODE_TYPES.Literal &&
    typeof value.right.value === 'boolean'
  ) {
    return value.right.value === rules.flag.keepsGoing ? 'flag-retry' : 'flag-stop';
  }
  return undefined;
}

/** Methods that only record an error (`console.error(err)`, `logger.warn(…, err)`, `Sentry.captureException(err)`). */
const RECORDING_METHODS = new Set([
  'log', 'warn', 'error', 'info', 'debug', 'trace', 'fatal', 'verbose', 'captureException', 'captureError', 'recordException',
  'push', 'add', 'set', 'emit', 'next', 'reject', 'resolve',
]);

/** A call that hands the error to a function that may decide (by throwing) whether to go on. */
function getDelegatingCall(expression: TSESTree.Expression, rules: DecisionRules): TSESTree.CallExpression | undefined {
  const value = unwrap(expression);
  if (value.type !== AST_NODE_TYPES.CallExpression || rules.errorName === undefined) return undefined;
  if (!value.arguments.some((argument) => isErrorReference(argument, rules))) return undefined;
  const name = getCalleeName(value.callee);
  if (name === undefined || RECORDING_METHODS.has(name) || /^(log|report|record|track|notify|capture)/i.test(name)) return undefined;
  return value;
}

function getDecidingCall(test: TSESTree.Expression, rules: DecisionRules): RetryOutcome | undefined {
  const value = unwrap(test);
  return value.type === AST_NODE_TYPES.CallExpression ? rules.callOutcome(value) : undefined;
}

// ---------------------------------------------------------------------------
// Conditions

function toConditions(atoms: readonly Atom[], rules: DecisionRules): ErrorCondition[] {
  const conditions: ErrorCondition[] = [];
  for (const atom of atoms) {
    const condition =
      atom.kind === 'test' ? analyzeTest(atom.test, atom.negated, rules) : analyzeCase(atom.discriminant, atom.tests, atom.negated, rules);
    if (condition) conditions.push(condition);
  }
  return conditions;
}

function analyzeCase(discriminant: TSESTree.Expression, tests: TSESTree.Expression[], negated: boolean, rules: DecisionRules): ErrorCondition | undefined {
  const property = getErrorProperty(discriminant, rules);
  if (!property) {
    // `switch (true) { case err.code === 'X': … }`
    if (unwrap(discriminant).type === AST_NODE_TYPES.Literal && tests.length > 0) {
      const parts = tests.map((test) => analyzeTest(test, false, rules)).filter((part): part is ErrorCondition => part !== undefined);
      if (parts.length === 0) return undefined;
      if (parts.every((part) => !part.isOpaque && part.polarity === 'in')) {
        return makeCondition(negated ? 'notIn' : 'in', parts.flatMap((part) => part.values), parts.flatMap((part) => part.kinds));
      }
      return opaque(parts.flatMap((part) => part.kinds));
    }
    return referencesError(discriminant, rules) ? opaque(['other']) : undefined;
  }
  if (property === 'retryable' || property === 'other') return opaque([property]);
  const values = tests.flatMap((test) => toValueChecks(property, test, 'equal'));
  if (values.length !== tests.length) return opaque([property]);
  return makeCondition(negated ? 'notIn' : 'in', values, [property]);
}

function analyzeTest(test: TSESTree.Expression | TSESTree.PrivateIdentifier, negated: boolean, rules: DecisionRules): ErrorCondition | undefined {
  const node = unwrap(test);
  switch (node.type) {
    case AST_NODE_TYPES.UnaryExpression:
      if (node.operator === '!') return analyzeTest(node.argument, !negated, rules);
      return referencesError(node, rules) ? opaque(['other']) : undefined;
    case AST_NODE_TYPES.LogicalExpression:
      return analyzeLogical(node, negated, rules);
    case AST_NODE_TYPES.BinaryExpression:
      return analyzeBinary(node, negated, rules);
    case AST_NODE_TYPES.CallExpression:
      return analyzeCall(node, negated, rules);
    case AST_NODE_TYPES.MemberExpression: {
      const property = getErrorProperty(node, rules);
      if (property === 'retryable') return opaque(['retryable']);
      return property ? opaque([property]) : undefined;
    }
    case AST_NODE_TYPES.Identifier: {
      const alias = rules.aliases.get(node.name);
      if (alias === undefined) return undefined;
      if (typeof alias === 'string') return opaque([alias]);
      return analyzeTest(alias as TSESTree.Expression, negated, rules);
    }
    default:
      return referencesError(node, rules) ? opaque(['other']) : undefined;
  }
}

function analyzeLogical(node: TSESTree.LogicalExpression, negated: boolean, rules: DecisionRules): ErrorCondition | undefined {
  const left = analyzeTest(node.left, negated, rules);
  const right = analyzeTest(node.right, negated, rules);
  if (node.operator === '??') return left ?? right;
  // De Morgan: under negation `||` behaves as `&&` and the other way round.
  const isAnd = (node.operator === '&&') !== negated;
  if (!left || !right) {
    const only = left ?? right;
    if (!only) return undefined;
    // `attempt < 3 && err.code === 'X'` restricts; `attempt < 3 || err.code === 'X'` does not.
    return isAnd ? only : { ...only, isWeak: true };
  }
  const kinds = [...new Set([...left.kinds, ...right.kinds])];
  const isWeak = isAnd ? left.isWeak && right.isWeak : left.isWeak || right.isWeak;
  if (!left.isOpaque && !right.isOpaque && left.polarity === right.polarity) {
    // `a === X || a === Y` → in [X, Y]; `a !== X && a !== Y` → notIn [X, Y];
    // `a.name === X && a.code === Y` → in [X, Y] (both required).
    if (left.polarity === 'in' || isAnd) return { ...makeCondition(left.polarity, [...left.values, ...right.values], kinds), isWeak };
    // `a !== X || a !== Y` holds for every error.
    return { ...opaque(kinds), isWeak: true };
  }
  if (isAnd) {
    // `err instanceof Error && err.name === 'X'`, `err.code === 'X' && err.name !== 'Y'`: the required value carries the meaning.
    const required = [left, right].find((part) => !part.isOpaque && part.polarity === 'in');
    if (required) return { ...required, kinds, isWeak };
    if (!right.isOpaque && left.isOpaque) return { ...right, kinds, isWeak };
    if (!left.isOpaque && right.isOpaque) return { ...left, kinds, isWeak };
  }
  return { ...opaque(kinds), isWeak };
}

function analyzeBinary(node: TSESTree.BinaryExpression, negated: boolean, rules: DecisionRules): ErrorCondition | undefined {
  if (node.operator === 'instanceof') return referencesError(node.left, rules) ? opaque(['instanceof']) : undefined;
  if (node.operator === 'in') return referencesError(node.right, rules) ? opaque(['other']) : undefined;
  const isEquality = node.operator === '===' || node.operator === '==';
  const isInequality = node.operator === '!==' || node.operator === '!=';
  if (isEquality || isInequality) {
    for (const [side, other] of [
      [node.left, node.right],
      [node.right, node.left],
    ] as const) {
      const property = getErrorProperty(side, rules);
      if (!property) continue;
      if (property === 'retryable' || property === 'other') return opaque([property]);
      const values = toValueChecks(property, other, 'equal');
      if (values.length === 0) {
        // `typeof err.code === 'string'`, `err.code === ErrorCodes.X`
        return opaque([property]);
      }
      const isIn = isEquality !== negated;
      return makeCondition(isIn ? 'in' : 'notIn', values, [property]);
    }
    // `typeof err === 'object'`, `getCode(err) === 'X'`
    if (referencesError(node, rules)) return opaque(['other']);
    return undefined;
  }
  return referencesError(node, rules) ? opaque(kindOfComparison(node, rules)) : undefined;
}

function kindOfComparison(node: TSESTree.BinaryExpression, rules: DecisionRules): ErrorCheckKind[] {
  const property = getErrorProperty(node.left as TSESTree.Expression, rules) ?? getErrorProperty(node.right, rules);
  return [property ?? 'other'];
}

function analyzeCall(node: TSESTree.CallExpression, negated: boolean, rules: DecisionRules): ErrorCondition | undefined {
  const callee = unwrap(node.callee);
  const argument = node.arguments[0];
  if (callee.type === AST_NODE_TYPES.MemberExpression) {
    const method = getPropertyName(callee);
    const polarity = negated ? 'notIn' : 'in';
    // `['A', 'B'].includes(err.code)`, `RETRYABLE.has(err.name)`
    if ((method === 'includes' || method === 'has') && argument && argument.type !== AST_NODE_TYPES.SpreadElement) {
      const property = getErrorProperty(argument, rules);
      if (property && property !== 'retryable' && property !== 'other') {
        const values = getListValues(callee.object, property as ErrorProperty);
        return values ? makeCondition(polarity, values, [property]) : opaque([property]);
      }
    }
    // `err.code.startsWith('08')`, `err.message.includes('Connection terminated')`, `err.errorLabels.includes('X')`
    const objectProperty = getErrorProperty(callee.object, rules);
    if (objectProperty && argument && argument.type !== AST_NODE_TYPES.SpreadElement) {
      if (objectProperty === 'label' && method === 'includes') {
        return makeCondition(polarity, toValueChecks('label', argument, 'equal'), ['label']);
      }
      if (method === 'startsWith' && objectProperty !== 'retryable' && objectProperty !== 'other') {
        const values = toValueChecks(objectProperty, argument, 'prefix');
        return values.length > 0 ? makeCondition(polarity, values, [objectProperty]) : opaque([objectProperty]);
      }
      if (method === 'includes' && objectProperty === 'message') {
        const values = toValueChecks('message', argument, 'substring');
        return values.length > 0 ? makeCondition(polarity, values, ['message']) : opaque(['message']);
      }
      return opaque([objectProperty === 'retryable' ? 'retryable' : objectProperty]);
    }
    // MongoDB: `err.hasErrorLabel('RetryableWriteError')`
    if (method === 'hasErrorLabel' && isErrorReference(callee.object, rules) && argument) {
      return makeCondition(polarity, toValueChecks('label', argument, 'equal'), ['label']);
    }
    // `/terminated/.test(err.message)`
    if (method === 'test' && argument && getErrorProperty(argument, rules)) return opaque(['message']);
  }
  // `isRetryable(err)`, `isTransientError(err)`
  if (node.arguments.some((arg) => referencesError(arg, rules)) || referencesError(callee, rules)) return opaque(['helper']);
  return undefined;
}

function makeCondition(polarity: 'in' | 'notIn', values: ErrorValueCheck[], kinds: ErrorCheckKind[]): ErrorCondition {
  return { polarity, values, isOpaque: false, isWeak: false, kinds: [...new Set(kinds)] };
}

function opaque(kinds: ErrorCheckKind[]): ErrorCondition {
  return { polarity: 'in', values: [], isOpaque: true, isWeak: false, kinds: [...new Set(kinds)] };
}

// ---------------------------------------------------------------------------
// Reading the error

const PROPERTY_KINDS: Record<string, ErrorProperty | 'retryable'> = {
  name: 'name',
  errorName: 'name',
  __type: 'name',
  codeName: 'name',
  errorType: 'name',
  code: 'code',
  Code: 'code',
  sqlState: 'code',
  sqlstate: 'code',
  errno: 'code',
  message: 'message',
  errmsg: 'message',
  httpStatusCode: 'httpStatus',
  statusCode: 'httpStatus',
  status: 'httpStatus',
  errorLabels: 'label',
  $retryable: 'retryable',
  retryable: 'retryable',
};

/** Wrappers around the error object whose properties are the database error's (`err.cause.code`). */
const WRAPPER_PROPERTIES = new Set(['cause', 'original', 'originalError', 'error', 'err', 'errorResponse', '$metadata', 'response', 'data', 'parent']);

/** `err.code`, `err?.$metadata?.httpStatusCode`, `(err as AWSError).name`, `String(err.code)`, an alias `code`. */
function getErrorProperty(expression: TSESTree.Node, rules: DecisionRules): ErrorCheckKind | undefined {
  const node = unwrap(expression);
  if (node.type === AST_NODE_TYPES.Identifier) {
    const alias = rules.aliases.get(node.name);
    if (alias === undefined) return undefined;
    return typeof alias === 'string' ? alias : getErrorProperty(alias, rules);
  }
  if (node.type === AST_NODE_TYPES.CallExpression) {
    // `String(err.code)`, `Number(err.code)`, `err.code.toString()`, `err.name.toLowerCase()`
    const callee = unwrap(node.callee);
    if (callee.type === AST_NODE_TYPES.Identifier && (callee.name === 'String' || callee.name === 'Number') && node.arguments[0]) {
      return getErrorProperty(node.arguments[0], rules);
    }
    if (callee.type === AST_NODE_TYPES.MemberExpression && ['toString', 'toUpperCase', 'toLowerCase', 'trim'].includes(getPropertyName(callee) ?? '')) {
      return getErrorProperty(callee.object, rules);
    }
    return undefined;
  }
  if (node.type !== AST_NODE_TYPES.MemberExpression) return undefined;
  const name = getPropertyName(node);
  if (name === undefined || !isErrorReference(node.object, rules, true)) return undefined;
  const kind = PROPERTY_KINDS[name];
  if (kind) return kind;
  return 'other';
}

/** The error itself, an alias of it, or a wrapper property of it (`err.cause`). */
function isErrorReference(expression: TSESTree.Node, rules: DecisionRules, allowWrappers = false): boolean {
  const node = unwrap(expression);
  if (node.type === AST_NODE_TYPES.Identifier) {
    if (node.name === rules.errorName) return true;
    const alias = rules.aliases.get(node.name);
    return alias !== undefined && typeof alias !== 'string' && isErrorReference(alias, rules, allowWrappers);
  }
  if (allowWrappers && node.type === AST_NODE_TYPES.MemberExpression) {
    const name = getPropertyName(node);
    return name !== undefined && WRAPPER_PROPERTIES.has(name) && isErrorReference(node.object, rules, true);
  }
  return false;
}

function referencesError(node: TSESTree.Node, rules: DecisionRules): boolean {
  let found = false;
  visitNodes(node, (child) => {
    if (found) return false;
    if (child.type === AST_NODE_TYPES.Identifier && (child.name === rules.errorName || rules.aliases.has(child.name))) {
      const parent = child.parent;
      const isPropertyName = parent?.type === AST_NODE_TYPES.MemberExpression && parent.property === child && !parent.computed;
      if (!isPropertyName) found = true;
    }
    return !found;
  });
  return found;
}

/** The error parameter's name, or the properties bound by a destructuring parameter. */
function readErrorParam(
  param: TSESTree.Node | null,
  contextKeys: readonly string[] = [],
): { errorName: string | undefined; aliases: Map<string, TSESTree.Node | ErrorCheckKind> } {
  const aliases = new Map<string, TSESTree.Node | ErrorCheckKind>();
  let node = param;
  if (node?.type === AST_NODE_TYPES.AssignmentPattern) node = node.left;
  if (!node) return { errorName: undefined, aliases };
  if (node.type === AST_NODE_TYPES.Identifier) return { errorName: node.name, aliases };
  if (node.type === AST_NODE_TYPES.ObjectPattern) {
    let errorName: string | undefined;
    for (const property of node.properties) {
      if (property.type !== AST_NODE_TYPES.Property) continue;
      const key = property.computed ? undefined : getKeyName(property.key);
      const target = property.value.type === AST_NODE_TYPES.AssignmentPattern ? property.value.left : property.value;
      if (!key || target.type !== AST_NODE_TYPES.Identifier) continue;
      // p-retry 7: `shouldRetry({ error })`
      if (contextKeys.includes(key)) {
        errorName = target.name;
        continue;
      }
      const kind = PROPERTY_KINDS[key];
      if (kind) aliases.set(target.name, kind);
    }
    return { errorName, aliases };
  }
  return { errorName: undefined, aliases };
}

/** `const code = err.code`, `const { code } = err`, `const e = err as PgError`, `const retryable = isRetryable(err)`. */
function collectAliases(statements: readonly TSESTree.Statement[], rules: DecisionRules): void {
  if (rules.errorName === undefined && rules.aliases.size === 0) return;
  for (const statement of statements) {
    if (statement.type !== AST_NODE_TYPES.VariableDeclaration) continue;
    for (const declarator of statement.declarations) {
      const init = declarator.init;
      if (!init) continue;
      if (declarator.id.type === AST_NODE_TYPES.Identifier) {
        if (getErrorProperty(init, rules) || isErrorReference(init, rules) || referencesError(init, rules)) {
          rules.aliases.set(declarator.id.name, init);
        }
      } else if (declarator.id.type === AST_NODE_TYPES.ObjectPattern && isErrorReference(init, rules, true)) {
        for (const property of declarator.id.properties) {
          if (property.type !== AST_NODE_TYPES.Property || property.computed) continue;
          const key = getKeyName(property.key);
          const target = property.value.type === AST_NODE_TYPES.AssignmentPattern ? property.value.left : property.value;
          const kind = key ? PROPERTY_KINDS[key] : undefined;
          if (kind && target.type === AST_NODE_TYPES.Identifier) rules.aliases.set(target.name, kind);
        }
      }
    }
  }
}

/** Literal values of a comparison operand: `'X'`, `23505`, a `const` holding one, or an array of them. */
function toValueChecks(property: ErrorCheckKind, node: TSESTree.Node, match: ErrorValue['match']): ErrorValueCheck[] {
  if (property === 'retryable' || property === 'helper' || property === 'instanceof' || property === 'other') return [];
  const value = unwrap(node);
  if (value.type === AST_NODE_TYPES.Literal && (typeof value.value === 'string' || typeof value.value === 'number')) {
    return [{ property, value: value.value, match, node: value }];
  }
  if (value.type === AST_NODE_TYPES.TemplateLiteral && value.expressions.length === 0) {
    return [{ property, value: value.quasis[0]?.value.cooked ?? '', match, node: value }];
  }
  if (value.type === AST_NODE_TYPES.Identifier) {
    const init = getConstInit(value);
    if (init && init !== value) return toValueChecks(property, init, match);
  }
  return [];
}

/** Elements of `['A', 'B']`, `new Set(['A', 'B'])`, or a `const` holding one. */
function getListValues(node: TSESTree.Node, property: ErrorProperty): ErrorValueCheck[] | undefined {
  let value = unwrap(node);
  if (value.type === AST_NODE_TYPES.Identifier) {
    const init = getConstInit(value);
    if (!init) return undefined;
    value = unwrap(init);
  }
  if (value.type === AST_NODE_TYPES.NewExpression && value.arguments[0]) value = unwrap(value.arguments[0]);
  if (value.type !== AST_NODE_TYPES.ArrayExpression) return undefined;
  const values: ErrorValueCheck[] = [];
  for (const element of value.elements) {
    if (!element || element.type === AST_NODE_TYPES.SpreadElement) return undefined;
    const checks = toValueChecks(property, element, 'equal');
    if (checks.length === 0) return undefined;
    values.push(...checks);
  }
  return values;
}

/** The initializer of a `const` declared in the same file (found by walking up to the declaring scope). */
function getConstInit(identifier: TSESTree.Identifier): TSESTree.Expression | undefined {
  for (let current: TSESTree.Node | undefined = identifier.parent; current; current = current.parent) {
    const body =
      current.type === AST_NODE_TYPES.Program || current.type === AST_NODE_TYPES.BlockStatement
        ? current.body
        : current.type === AST_NODE_TYPES.StaticBlock
          ? current.body
          : undefined;
    if (!body) continue;
    for (const statement of body) {
      const declaration =
        statement.type === AST_NODE_TYPES.ExportNamedDeclaration ? statement.declaration : statement;
      if (declaration?.type !== AST_NODE_TYPES.VariableDeclaration || declaration.kind !== 'const') continue;
      for (const declarator of declaration.declarations) {
        if (declarator.id.type === AST_NODE_TYPES.Identifier && declarator.id.name === identifier.name && declarator.init) {
          return declarator.init;
        }
      }
    }
  }
  return undefined;
}

// ---------------------------------------------------------------------------
// Summary

function summarize(paths: ErrorDecisionPath[], errorName: string | undefined, decision: TSESTree.Node): ErrorClassification {
  const retriedValues: ErrorValueCheck[] = [];
  const stoppedValues: ErrorValueCheck[] = [];
  const alreadyDoneValues: ErrorValueCheck[] = [];
  const kinds = new Set<ErrorCheckKind>();
  let retriesEveryError = false;
  let checksError = false;
  for (const path of paths) {
    for (const condition of path.conditions) for (const kind of condition.kinds) kinds.add(kind);
    const required = path.conditions.filter((condition) => condition.polarity === 'in' && !condition.isOpaque);
    const values = required.flatMap((condition) => condition.values);
    if (path.outcome === 'retry') {
      retriedValues.push(...values);
      const restricts = path.conditions.some(
        (condition) => !condition.isWeak && (condition.isOpaque || condition.polarity === 'in'),
      );
      const excluded = path.conditions.filter((c) => c.polarity === 'notIn' && !c.isWeak).flatMap((c) => c.values);
      const excludesPermanent = excluded.some((value) => isKnownStop(value));
      if (!restricts && !excludesPermanent) retriesEveryError = true;
    } else {
      stoppedValues.push(...values);
      if (path.outcome === 'done') alreadyDoneValues.push(...values.filter((value) => isAlreadyDoneError(value)));
    }
    if (path.conditions.some((condition) => !condition.isWeak)) checksError = true;
  }
  return {
    decision,
    errorName,
    paths,
    retriesEveryError,
    checksError,
    checkKinds: [...kinds],
    retriedValues,
    stoppedValues,
    alreadyDoneValues,
  };
}

/** A deny-list entry that shows the author thought about errors a retry cannot fix. */
function isKnownStop(value: ErrorValue): boolean {
  return isAlreadyDoneError(value) || isPermanentValue(value);
}

function isPermanentValue(value: ErrorValue): boolean {
  return isPermanentError(value);
}

// ---------------------------------------------------------------------------
// Scope plumbing

/** The handler of `scope` that catches `call`'s failure: the catch of the try around it, or the `.catch` on its chain. */
function getHandlerAround(scope: RetryScope, call: TSESTree.Node | undefined): RetryHandler | undefined {
  const handlers = scope.handlers ?? [];
  if (!call) return handlers[0];
  let best: RetryHandler | undefined;
  for (const handler of handlers) {
    const guarded = getGuardedNode(handler);
    if (!guarded || !contains(guarded, call)) continue;
    if (!best || contains(getGuardedNode(best) ?? best, guarded)) best = handler;
  }
  return best;
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
  visitNodes(fn.body, (node) => {
    if (node !== fn.body && isFunctionNode(node)) return false;
    if (node.type === AST_NODE_TYPES.TryStatement && node.handler && (!call || contains(node.block, call))) found = node.handler;
    return true;
  });
  return found;
}

/** The argument of a `.catch(x)` on the chain that holds `call`, inside `fn`. */
function findCatchArgument(fn: FunctionNode, call: TSESTree.Node | undefined): TSESTree.Node | undefined {
  let found: TSESTree.Node | undefined;
  visitNodes(fn.body, (node) => {
    if (found) return false;
    if (
      node.type === AST_NODE_TYPES.CallExpression &&
      node.callee.type === AST_NODE_TYPES.MemberExpression &&
      getPropertyName(node.callee) === 'catch' &&
      node.arguments[0] &&
      (!call || contains(node.callee.object, call))
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
  const assigned = new Map<string, boolean>();
  visitNodes(handler.body, (node) => {
    if (isFunctionNode(node)) return false;
    if (
      node.type === AST_NODE_TYPES.AssignmentExpression &&
      node.operator === '=' &&
      node.left.type === AST_NODE_TYPES.Identifier &&
      node.right.type === AST_NODE_TYPES.Literal &&
      typeof node.right.value === 'boolean'
    ) {
      assigned.set(node.left.name, node.right.value);
    }
    return true;
  });
  let flag: { name: string; keepsGoing: boolean } | undefined;
  visitNodes(test, (node) => {
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
    if (contains(statement, handler)) break;
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
    const name = getPropertyName(current.callee);
    if (!name || !['then', 'catch', 'finally', 'promise'].includes(name)) break;
    current = current.callee.object;
  }
  return current.type === AST_NODE_TYPES.CallExpression ? getCalleeName(current.callee) : undefined;
}

// ---------------------------------------------------------------------------
// Small helpers

function unwrap(node: TSESTree.Node): TSESTree.Node {
  let current = node;
  for (;;) {
    switch (current.type) {
      case AST_NODE_TYPES.TSAsExpression:
      case AST_NODE_TYPES.TSNonNullExpression:
      case AST_NODE_TYPES.TSSatisfiesExpression:
      case AST_NODE_TYPES.TSTypeAssertion:
        current = current.expression;
        break;
      case AST_NODE_TYPES.ChainExpression:
        current = current.expression;
        break;
      case AST_NODE_TYPES.AwaitExpression:
        current = current.argument;
        break;
      default:
        return current;
    }
  }
}

function getPropertyName(member: TSESTree.MemberExpression): string | undefined {
  if (!member.computed && member.property.type === AST_NODE_TYPES.Identifier) return member.property.name;
  if (member.computed && member.property.type === AST_NODE_TYPES.Literal && typeof member.property.value === 'string') {
    return member.property.value;
  }
  return undefined;
}

function getKeyName(key: TSESTree.Node): string | undefined {
  if (key.type === AST_NODE_TYPES.Identifier) return key.name;
  if (key.type === AST_NODE_TYPES.Literal && typeof key.value === 'string') return key.value;
  return undefined;
}

/** `retry`, `this.save` → `save`, `client.query` → `query`. */
function getCalleeName(callee: TSESTree.Node): string | undefined {
  const node = unwrap(callee);
  if (node.type === AST_NODE_TYPES.Identifier) return node.name;
  if (node.type === AST_NODE_TYPES.MemberExpression) return getPropertyName(node);
  return undefined;
}

function getOwnName(fn: FunctionNode): string | undefined {
  if (fn.id) return fn.id.name;
  const parent = fn.parent;
  if (parent?.type === AST_NODE_TYPES.VariableDeclarator && parent.id.type === AST_NODE_TYPES.Identifier) return parent.id.name;
  if ((parent?.type === AST_NODE_TYPES.MethodDefinition || parent?.type === AST_NODE_TYPES.Property || parent?.type === AST_NODE_TYPES.PropertyDefinition) && !parent.computed) {
    return getKeyName(parent.key);
  }
  return undefined;
}

function getParamName(param: TSESTree.Parameter | undefined): string | undefined {
  return param?.type === AST_NODE_TYPES.Identifier ? param.name : undefined;
}

function isIdentifierCall(call: TSESTree.CallExpression, name: string): boolean {
  const callee = unwrap(call.callee);
  return callee.type === AST_NODE_TYPES.Identifier && callee.name === name;
}

/** `new AbortError(…)`, `new pRetry.AbortError(…)`. */
function isAbortError(node: TSESTree.Node): boolean {
  const value = unwrap(node);
  if (value.type !== AST_NODE_TYPES.NewExpression) return false;
  return getCalleeName(value.callee) === 'AbortError';
}

function isPromiseReject(node: TSESTree.Node): boolean {
  const value = unwrap(node);
  return (
    value.type === AST_NODE_TYPES.CallExpression &&
    value.callee.type === AST_NODE_TYPES.MemberExpression &&
    value.callee.object.type === AST_NODE_TYPES.Identifier &&
    value.callee.object.name === 'Promise' &&
    getPropertyName(value.callee) === 'reject'
  );
}

function containsCall(node: TSESTree.Node, predicate: (call: TSESTree.CallExpression) => boolean): boolean {
  let found = false;
  visitNodes(node, (child) => {
    if (found) return false;
    if (child.type === AST_NODE_TYPES.CallExpression && predicate(child)) found = true;
    return !found;
  });
  return found;
}

function getOptionFunction(options: TSESTree.ObjectExpression, name: string): FunctionNode | undefined {
  for (const property of options.properties) {
    if (property.type !== AST_NODE_TYPES.Property || property.computed) continue;
    if (getKeyName(property.key) !== name) continue;
    return isFunctionNode(property.value) ? property.value : undefined;
  }
  return undefined;
}

function hasOption(options: TSESTree.ObjectExpression, name: string): boolean {
  return options.properties.some(
    (property) => property.type === AST_NODE_TYPES.SpreadElement || (!property.computed && getKeyName(property.key) === name),
  );
}

function contains(outer: TSESTree.Node, inner: TSESTree.Node): boolean {
  return outer.range[0] <= inner.range[0] && outer.range[1] >= inner.range[1];
}

/** Depth-first walk over child nodes (any key holding nodes, `parent` excluded); `visit` returns false to skip children. */
function visitNodes(root: TSESTree.Node, visit: (node: TSESTree.Node) => boolean): void {
  const stack: TSESTree.Node[] = [root];
  while (stack.length > 0) {
    const node = stack.pop() as TSESTree.Node;
    if (!visit(node)) continue;
    for (const key of Object.keys(node)) {
      if (key === 'parent' || key === 'loc' || key === 'range' || key === 'typeAnnotation' || key === 'returnType') continue;
      const value = (node as unknown as Record<string, unknown>)[key];
      if (Array.isArray(value)) {
        for (let index = value.length - 1; index >= 0; index--) {
          const item = value[index] as unknown;
          if (item && typeof item === 'object' && typeof (item as TSESTree.Node).type === 'string') stack.push(item as TSESTree.Node);
        }
      } else if (value && typeof value === 'object' && typeof (value as TSESTree.Node).type === 'string') {
        stack.push(value as TSESTree.Node);
      }
    }
  }
}
