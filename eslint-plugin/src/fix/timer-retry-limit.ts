import { AST_NODE_TYPES, ASTUtils, type TSESLint, type TSESTree } from '@typescript-eslint/utils';
import { containsNode, type FunctionNode, getKeyName, getReturnedExpressions, getThisBinder, isFunctionNode, isNullOrUndefined, visitNodes } from '../analysis/ast';
import { ATTEMPT_NAME, getFunctionName } from '../analysis/retry';
import { type CodeStyle, formatInStyle } from './code-style';
import { getUsedNamesAround, pickNumberedName } from './fresh-names';
import { asFixList, getInsertBeforeStatementFix } from './insert-statement';
import { canAddAttemptParameter, getAttemptParameterFix } from './recursion-limit';
import { getEnclosingInsertableStatement } from './statement-anchors';

type SourceCode = Readonly<TSESLint.SourceCode>;

/**
 * A function that retries by calling itself from a timer (`setTimeout(() => put(options, done), ms)`)
 * and counts its attempts (`options.retries++`) without ever stopping: the limit goes right
 * before the timer, and the error goes where the code already sends its errors — the
 * function's own error-first callback (`if (err) return done(err)`, `done(null, result)`):
 * `if (options.retries >= 5) return done(new Error(…, { cause: err }));` (the error that set the
 * timer, when there is one); else, for an arrow function that returns nothing, the `'error'`
 * event the code around it already emits (`this.emit('error', err)` on the same `this`, or
 * on the same emitter variable). Without either there is no one to tell (a timer has no
 * caller): no edit. Without a counter, a new last parameter `attempt = 1` counts, passed on as
 * `attempt + 1` by the timer's call, when that is the function's only call of itself.
 */

export interface TimerRetryLimitEdit {
  fn: FunctionNode;
  maxAttempts: number;
  /** What is retried, for the error's message: `DynamoDB BatchWriteItem`. */
  what: string;
  style: CodeStyle;
  /**
   * The calls `fn` makes of itself and those the rest of the file makes of it (undefined: not
   * all known): with no counter, a new `attempt = 1` parameter counts, passed on as
   * `attempt + 1` by the one call of itself, the one in the timer.
   */
  calls?: { selfCalls: readonly TSESTree.CallExpression[]; otherCalls: readonly TSESTree.CallExpression[] | undefined };
}

/** Where the error of giving up goes: an error-first callback, or an `'error'` event on an emitter (`this`, `self`). */
export interface GiveUpReport {
  kind: 'callback' | 'event';
  /** The callback's or the emitter's text. */
  target: string;
}

export interface TimerRetryLimit {
  /** The counter as written (`options.retries`, or the new parameter) and where the error goes. */
  counter: string;
  report: GiveUpReport;
  /** The counter is a parameter the edit adds. */
  addsParameter: boolean;
  fix: TSESLint.ReportFixFunction;
}

export function getTimerRetryLimitFix(sourceCode: SourceCode, edit: TimerRetryLimitEdit): TimerRetryLimit | null {
  const { fn, maxAttempts, what, style } = edit;
  const name = getFunctionName(fn);
  if (!name) return null;
  const timers: TSESTree.CallExpression[] = [];
  visitNodes(fn.body, { skipTypeAnnotations: true }, (node) => {
    if (node.type === AST_NODE_TYPES.CallExpression && isTimerCalling(node, name)) timers.push(node);
    return true;
  });
  const [timer] = timers;
  if (timers.length !== 1 || !timer) return null;
  const statement = getEnclosingInsertableStatement(timer);
  if (!statement) return null;
  const callback = findErrorCallback(sourceCode, fn, statement);
  const emitter = callback ? undefined : findErrorEmitter(sourceCode, fn, statement);
  const report: GiveUpReport | undefined = callback ? { kind: 'callback', target: callback } : emitter ? { kind: 'event', target: emitter } : undefined;
  if (!report) return null;
  const cause = findRetriedError(fn, statement);
  const options = cause ? `, { cause: ${cause} }` : '';
  const guardText = (counter: string): string => {
    const error = `new Error(\`Gave up on ${what} after \${${counter}} attempts\`${options})`;
    const text =
      report.kind === 'callback'
        ? `if (${counter} >= ${maxAttempts}) return ${report.target}(${error});`
        : `if (${counter} >= ${maxAttempts}) {\n  ${report.target}.emit('error', ${error});\n  return;\n}`;
    return formatInStyle(text, style);
  };
  const counter = findCounterBefore(sourceCode, statement);
  if (counter) {
    const fix = getInsertBeforeStatementFix(sourceCode, statement, guardText(counter));
    return fix ? { counter, report, addsParameter: false, fix } : null;
  }
  // No counter: one in a new parameter, when the timer's call is the function's only call of itself.
  const calls = edit.calls;
  const [selfCall] = calls?.selfCalls ?? [];
  if (!calls || calls.selfCalls.length !== 1 || !selfCall || !containsNode(timer, selfCall) || !canAddAttemptParameter(fn, calls.selfCalls, calls.otherCalls)) return null;
  const taken = getUsedNamesAround(sourceCode, fn);
  const attempt = pickNumberedName('attempt', (candidate) => taken.has(candidate));
  const parameter = getAttemptParameterFix(sourceCode, fn, calls.selfCalls, attempt);
  const guard = getInsertBeforeStatementFix(sourceCode, statement, guardText(attempt));
  if (!parameter || !guard) return null;
  return { counter: attempt, report, addsParameter: true, fix: (fixer) => [...parameter(fixer), ...asFixList(guard(fixer))] };
}

/** `setTimeout(name, ms)`, `setTimeout(() => name(…), ms)`, `timers.setTimeout(function () { name(…) }, ms)`. */
function isTimerCalling(call: TSESTree.CallExpression, name: string): boolean {
  const callee = call.callee;
  const calleeName = callee.type === AST_NODE_TYPES.Identifier ? callee.name : callee.type === AST_NODE_TYPES.MemberExpression ? getKeyName(callee) : undefined;
  const [first] = call.arguments;
  if (calleeName !== 'setTimeout' || !first || call.arguments.length < 2) return false;
  if (first.type === AST_NODE_TYPES.Identifier) return first.name === name;
  if (!isFunctionNode(first)) return false;
  let calls = false;
  visitNodes(first.body, { skipTypeAnnotations: true }, (node) => {
    if (node.type === AST_NODE_TYPES.CallExpression && node.callee.type === AST_NODE_TYPES.Identifier && node.callee.name === name) calls = true;
    return !calls;
  });
  return calls;
}

/** The last `retries++` (or `options.retries += 1`) among the statements before `statement` in its block: a counter's text. */
function findCounterBefore(sourceCode: SourceCode, statement: TSESTree.Statement): string | undefined {
  const block = statement.parent;
  if (block?.type !== AST_NODE_TYPES.BlockStatement) return undefined;
  let counter: string | undefined;
  for (const before of block.body.slice(0, block.body.indexOf(statement))) {
    if (before.type !== AST_NODE_TYPES.ExpressionStatement) continue;
    const expression = before.expression;
    const target =
      expression.type === AST_NODE_TYPES.UpdateExpression && expression.operator === '++'
        ? expression.argument
        : expression.type === AST_NODE_TYPES.AssignmentExpression && expression.operator === '+=' && expression.right.type === AST_NODE_TYPES.Literal && expression.right.value === 1
          ? expression.left
          : undefined;
    if (target && isCounterTarget(target)) counter = sourceCode.getText(target);
  }
  return counter;
}

/** `attempt`, `options.retries`, `this.tries`: a name that says it counts attempts. */
function isCounterTarget(node: TSESTree.Node): boolean {
  if (node.type === AST_NODE_TYPES.Identifier) return ATTEMPT_NAME.test(node.name);
  return (
    node.type === AST_NODE_TYPES.MemberExpression &&
    !node.computed &&
    (node.object.type === AST_NODE_TYPES.Identifier || node.object.type === AST_NODE_TYPES.ThisExpression) &&
    ATTEMPT_NAME.test(getKeyName(node) ?? '')
  );
}

/**
 * A parameter of `fn` that is an error-first callback — `fn` passes it an error it got
 * (`callback(err, …)`, `err` the first parameter of a callback inside `fn`) or `null` and a
 * result (`callback(null, client)`) — and that is the same variable at `at`.
 */
function findErrorCallback(sourceCode: SourceCode, fn: FunctionNode, at: TSESTree.Node): string | undefined {
  const params = new Set(fn.params.flatMap((param) => (param.type === AST_NODE_TYPES.Identifier ? [param.name] : [])));
  let found: string | undefined;
  visitNodes(fn.body, { skipTypeAnnotations: true }, (node) => {
    if (found) return false;
    if (node.type !== AST_NODE_TYPES.CallExpression || node.callee.type !== AST_NODE_TYPES.Identifier || !params.has(node.callee.name)) return true;
    const [error] = node.arguments;
    // `done(err)` passing a callback's error on, or `done(null, result)`: Node's error-first convention.
    const isNull = error?.type === AST_NODE_TYPES.Literal && error.value === null && node.arguments.length >= 2;
    if (isNull || (error?.type === AST_NODE_TYPES.Identifier && isErrorFirstParameter(error, fn))) found = node.callee.name;
    return !found;
  });
  if (!found) return undefined;
  const variable = ASTUtils.findVariable(sourceCode.getScope(at) as TSESLint.Scope.Scope, found);
  return variable?.defs[0]?.type === 'Parameter' && variable.defs[0].node === fn ? found : undefined;
}

/**
 * `this` or a variable (`self`, `emitter`) on which the code around `fn` emits `'error'`
 * events (`this.emit('error', err)`) and which is the same object at `at`: the `this` of the
 * same function (`fn` is an arrow function, so its `this` is its parent's), or the same
 * variable. Only for an arrow function that returns no value, since the edit adds a bare
 * `return`.
 */
function findErrorEmitter(sourceCode: SourceCode, fn: FunctionNode, at: TSESTree.Node): string | undefined {
  if (fn.type !== AST_NODE_TYPES.ArrowFunctionExpression || fn.body.type !== AST_NODE_TYPES.BlockStatement || getReturnedExpressions(fn).length > 0) return undefined;
  const thisBinder = getThisBinder(fn);
  const scopeAt = sourceCode.getScope(at) as TSESLint.Scope.Scope;
  let found: string | undefined;
  visitNodes(thisBinder, { skipTypeAnnotations: true }, (node) => {
    if (found) return false;
    if (node.type !== AST_NODE_TYPES.CallExpression || !isErrorEmit(node) || node.callee.type !== AST_NODE_TYPES.MemberExpression) return true;
    const emitter = node.callee.object;
    if (emitter.type === AST_NODE_TYPES.ThisExpression) {
      if (thisBinder.type !== AST_NODE_TYPES.Program && getThisBinder(emitter) === thisBinder) found = 'this';
    } else if (emitter.type === AST_NODE_TYPES.Identifier) {
      const variable = ASTUtils.findVariable(sourceCode.getScope(emitter) as TSESLint.Scope.Scope, emitter);
      if (variable && variable === ASTUtils.findVariable(scopeAt, emitter.name)) found = emitter.name;
    }
    return !found;
  });
  return found;
}

/** `x.emit('error', …)`. */
function isErrorEmit(call: TSESTree.CallExpression): boolean {
  const [event] = call.arguments;
  return call.callee.type === AST_NODE_TYPES.MemberExpression && getKeyName(call.callee) === 'emit' && event?.type === AST_NODE_TYPES.Literal && event.value === 'error' && call.arguments.length >= 2;
}

/** `err` is the first parameter of a function inside `fn` that holds the reference. */
function isErrorFirstParameter(reference: TSESTree.Identifier, fn: FunctionNode): boolean {
  return getInnerCallbackParameter(reference, fn) === reference.name;
}

/** The name of the first parameter of the nearest function around `node` inside `fn` (a callback's `err`). */
function getInnerCallbackParameter(node: TSESTree.Node, fn: FunctionNode): string | undefined {
  for (let current: TSESTree.Node | undefined = node.parent; current && current !== fn; current = current.parent) {
    if (!isFunctionNode(current)) continue;
    const first = current.params[0];
    return first?.type === AST_NODE_TYPES.Identifier && containsNode(fn, current) ? first.name : undefined;
  }
  return undefined;
}

/**
 * The error the timer is set for: `err` when `at` sits in the `if (err)` branch of a callback
 * inside `fn` whose first parameter is `err` (`(err) => { if (err) setTimeout(…) }`).
 */
function findRetriedError(fn: FunctionNode, at: TSESTree.Node): string | undefined {
  const error = getInnerCallbackParameter(at, fn);
  if (error === undefined) return undefined;
  let child: TSESTree.Node = at;
  for (let current = at.parent; current && !isFunctionNode(current); child = current, current = current.parent) {
    if (current.type === AST_NODE_TYPES.IfStatement && current.consequent === child && getTestedNames(current.test).includes(error)) return error;
  }
  return undefined;
}

/** `err`, `err != null`, `err !== undefined`, `err && …`: names whose truth the test asks about. */
function getTestedNames(test: TSESTree.Expression): string[] {
  if (test.type === AST_NODE_TYPES.Identifier) return [test.name];
  if (test.type === AST_NODE_TYPES.LogicalExpression && test.operator === '&&') return [...getTestedNames(test.left), ...getTestedNames(test.right)];
  if (test.type === AST_NODE_TYPES.BinaryExpression && (test.operator === '!=' || test.operator === '!==') && test.left.type === AST_NODE_TYPES.Identifier) {
    return isNullOrUndefined(test.right) ? [test.left.name] : [];
  }
  return [];
}
