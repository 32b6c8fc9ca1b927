import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';
import { unwrapExpression } from '../ast';
import { analyzeCase, analyzeTest, collectAliases, type ErrorBinding, type ErrorCheckKind, type ErrorCondition, type ErrorValueCheck, getCalleeName, isErrorReference, THROUGH_AWAIT } from './error-checks';
import { type ErrorValue, isAlreadyDoneError, isPermanentError } from './transient-errors';

/**
 * A retry decision (a `catch` body, a `.catch` callback, a predicate) read as paths:
 * the conditions on the error met on the way, and what happens at the end — go round
 * again, give up with the error, or leave as if successful. `summarize` turns the
 * paths into the answers rules ask; `error-classification.ts` sets the rules per
 * retry shape.
 */

/** What a path through the decision does: go round again, give up with the error, or leave as if successful. */
export type RetryOutcome = 'retry' | 'fail' | 'done';

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
export interface DecisionRules extends ErrorBinding {
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

export function classifyBody(statements: readonly TSESTree.Statement[], rules: DecisionRules, endNode: TSESTree.Node): ErrorClassification {
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
      // `if (cond && operation.retry(err)) return;`: the call retries when `cond` holds.
      const test = unwrapExpression(statement.test, THROUGH_AWAIT) as TSESTree.Expression;
      const guard = test.type === AST_NODE_TYPES.LogicalExpression && test.operator === '&&' && getDecidingCall(test.right, rules) === 'retry' ? test.left : undefined;
      if (getDecidingCall(statement.test, rules) === 'retry' || guard) {
        const retryAtoms: Atom[] = guard ? [...atoms, { kind: 'test', test: guard, negated: false }] : atoms;
        const alternate = statement.alternate ? walkStatement(statement.alternate, atoms, rules, inSwitch) : { paths: [], fallsThrough: true };
        return { paths: [{ outcome: 'retry', node: statement.test, atoms: retryAtoms }, ...alternate.paths], fallsThrough: alternate.fallsThrough };
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
      // `retry = isRetryable(e)`: retry where the check passes, leave where it does not.
      const checked = getCheckedFlagValue(statement.expression, rules);
      if (checked && rules.flag) {
        const keepsGoing = rules.flag.keepsGoing;
        return {
          paths: [
            { outcome: 'retry', node: statement, atoms: [...atoms, { kind: 'test', test: checked, negated: !keepsGoing }] },
            { outcome: 'done', node: statement, atoms: [...atoms, { kind: 'test', test: checked, negated: keepsGoing }] },
          ],
          fallsThrough: false,
        };
      }
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
  const discriminant = statement.discriminant;
  const allTests = statement.cases.flatMap((switchCase) => (switchCase.test ? [switchCase.test] : []));
  let pending: TSESTree.Expression[] = [];
  let hasDefault = false;
  let previousFalls = false;
  // Cases whose code goes on after the switch (`undefined` once one cannot be named: a
  // default, a fall-through), and cases whose code never does (throw, return, continue).
  let exitTests: TSESTree.Expression[] | undefined = [];
  const stayTests: TSESTree.Expression[] = [];
  let exits = false;
  for (const switchCase of statement.cases) {
    if (switchCase.test) pending.push(switchCase.test);
    else hasDefault = true;
    if (switchCase.consequent.length === 0) continue;
    const isDefault = switchCase.test === null || pending.length === 0 || hasDefault;
    const atom: Atom = isDefault
      ? { kind: 'case', discriminant, tests: allTests, negated: true }
      : { kind: 'case', discriminant, tests: pending, negated: false };
    const caseAtoms = previousFalls ? atoms : [...atoms, atom];
    const result = walkStatements(switchCase.consequent, caseAtoms, rules, true);
    paths.push(...result.paths);
    const isLast = switchCase === statement.cases.at(-1);
    if ((result.fallsThrough && isLast) || result.breaksSwitch) {
      exits = true;
      if (isDefault || previousFalls || result.continueWith) exitTests = undefined;
      else exitTests?.push(...pending);
    } else if (!result.fallsThrough && !isDefault && !previousFalls) {
      stayTests.push(...pending);
    }
    previousFalls = result.fallsThrough && !isLast;
    pending = [];
  }
  // No default, or empty cases at the end (`default:` with no code): control leaves the switch.
  const last = statement.cases.at(-1);
  if (!hasDefault || (last && last.consequent.length === 0)) {
    exits = true;
    exitTests = undefined;
  }
  if (!exits) return { paths, fallsThrough: false };
  if (exitTests && exitTests.length > 0) {
    return { paths, fallsThrough: true, continueWith: [...atoms, { kind: 'case', discriminant, tests: exitTests, negated: false }] };
  }
  // Leaving through a default: the cases that never leave are excluded.
  const continueWith: Atom[] | undefined =
    stayTests.length > 0 ? [...atoms, { kind: 'case', discriminant, tests: stayTests, negated: true }] : undefined;
  return { paths, fallsThrough: true, continueWith };
}

/** `return a ? retry() : Promise.reject(e)`: one path per branch. */
function returnPaths(argument: TSESTree.Expression | null, node: TSESTree.Node, atoms: Atom[], rules: DecisionRules): Walk['paths'] {
  const value = argument ? (unwrapExpression(argument, THROUGH_AWAIT) as TSESTree.Expression) : null;
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
  const value = unwrapExpression(expression, THROUGH_AWAIT) as TSESTree.Expression;
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
  const value = unwrapExpression(expression, THROUGH_AWAIT);
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

/** The expression of `flag = <expression>` when it is not a literal (`retry = isRetryable(e)`). */
function getCheckedFlagValue(expression: TSESTree.Expression, rules: DecisionRules): TSESTree.Expression | undefined {
  const value = unwrapExpression(expression, THROUGH_AWAIT);
  if (
    !rules.flag ||
    value.type !== AST_NODE_TYPES.AssignmentExpression ||
    value.operator !== '=' ||
    value.left.type !== AST_NODE_TYPES.Identifier ||
    value.left.name !== rules.flag.name ||
    value.right.type === AST_NODE_TYPES.Literal
  ) {
    return undefined;
  }
  return value.right;
}

/** Methods that only record an error (`console.error(err)`, `logger.warn(…, err)`, `Sentry.captureException(err)`). */
const RECORDING_METHODS = new Set([
  'log', 'warn', 'error', 'info', 'debug', 'trace', 'fatal', 'verbose', 'captureException', 'captureError', 'recordException',
  'push', 'add', 'set', 'emit', 'next', 'reject', 'resolve',
]);

/** A call that hands the error to a function that may decide (by throwing) whether to go on. */
function getDelegatingCall(expression: TSESTree.Expression, rules: DecisionRules): TSESTree.CallExpression | undefined {
  const value = unwrapExpression(expression, THROUGH_AWAIT);
  if (value.type !== AST_NODE_TYPES.CallExpression || rules.errorName === undefined) return undefined;
  if (!value.arguments.some((argument) => isErrorReference(argument, rules))) return undefined;
  const name = getCalleeName(value.callee);
  if (name === undefined || RECORDING_METHODS.has(name) || /^(log|report|record|track|notify|capture)/i.test(name)) return undefined;
  return value;
}

function getDecidingCall(test: TSESTree.Expression, rules: DecisionRules): RetryOutcome | undefined {
  const value = unwrapExpression(test, THROUGH_AWAIT);
  return value.type === AST_NODE_TYPES.CallExpression ? rules.callOutcome(value) : undefined;
}

export function summarize(paths: ErrorDecisionPath[], errorName: string | undefined, decision: TSESTree.Node): ErrorClassification {
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

/** A predicate written as an expression (`(e) => e.name === 'X'`): true retries. */
export function classifyExpression(expression: TSESTree.Expression, rules: DecisionRules, decision: TSESTree.Node): ErrorClassification {
  const paths = decideExpression(expression, expression, [], rules);
  return summarize(
    paths.map((path) => ({ outcome: path.outcome, node: path.node, conditions: toConditions(path.atoms, rules) })),
    rules.errorName,
    decision,
  );
}

function toConditions(atoms: readonly Atom[], rules: DecisionRules): ErrorCondition[] {
  const conditions: ErrorCondition[] = [];
  for (const atom of atoms) {
    const condition =
      atom.kind === 'test' ? analyzeTest(atom.test, atom.negated, rules) : analyzeCase(atom.discriminant, atom.tests, atom.negated, rules);
    if (condition) conditions.push(condition);
  }
  return conditions;
}
