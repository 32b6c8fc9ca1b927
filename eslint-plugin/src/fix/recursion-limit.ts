import { AST_NODE_TYPES, type TSESLint, type TSESTree } from '@typescript-eslint/utils';
import { containsNode, type FunctionNode, getEnclosingFunction } from '../analysis/ast';
import type { RetryHandler } from '../analysis/retry';
import { fillEmptyBlock } from './fill-block';
import { getUsedNamesAround, pickNumberedName } from './fresh-names';
import { getIndent } from './indentation';

type SourceCode = Readonly<TSESLint.SourceCode>;

export interface RecursionLimitEdit {
  /** The function that calls itself to retry. */
  fn: FunctionNode;
  /** Its calls of itself (each passes the next attempt number). */
  selfCalls: readonly TSESTree.CallExpression[];
  /** Where a failure leads to those calls: `catch` clauses, `.catch` callbacks. */
  handlers: readonly RetryHandler[];
  /** The calls made of it from elsewhere in the file, when they can all be found. */
  otherCalls: readonly TSESTree.CallExpression[] | undefined;
  maxAttempts: number;
  /**
   * The wait between attempts, given the new parameter's name: a statement added right before
   * the statement that calls the function again (in an async handler), or a new delay for the
   * wait already there; none to leave the wait as it is.
   */
  wait?: { insert: (attempt: string) => string } | { replace: TSESTree.Node; delay: (attempt: string) => string };
}

/**
 * Counts the attempts of a function that retries by calling itself: a new last parameter
 * `attempt = 1`, `attempt + 1` passed by each call of itself, and `if (attempt >= N) throw err;`
 * first in each handler, so the last failure reaches the caller. Null when that is not
 * clearly right: a rest parameter, a call of itself with a spread or fewer arguments than
 * parameters (or another caller passing more), a handler whose throw would not reach the
 * function's caller (inside a timer or a callback, a `.catch` whose promise is not returned),
 * a Node-style callback.
 */
export function getRecursionLimitFix(sourceCode: SourceCode, edit: RecursionLimitEdit): { attempt: string; fix: TSESLint.ReportFixFunction } | null {
  const { fn, selfCalls, handlers, otherCalls, maxAttempts } = edit;
  if (handlers.length === 0 || !canAddAttemptParameter(fn, selfCalls, otherCalls)) return null;
  if (!selfCalls.every((call) => handlers.some((handler) => containsNode(handler, call)))) return null;
  const taken = getUsedNamesAround(sourceCode, fn);
  const attempt = pickNumberedName('attempt', (name) => taken.has(name));
  const errorName = pickNumberedName('error', (name) => taken.has(name));
  const wait = edit.wait;
  const waitStatement = wait && 'insert' in wait ? wait.insert(attempt) : undefined;
  const handlerEdits = handlers.map((handler) => getHandlerEdit(sourceCode, fn, handler, selfCalls, { attempt, fallbackError: errorName, maxAttempts, waitStatement }));
  if (handlerEdits.some((handlerEdit) => handlerEdit === null)) return null;
  const rewrittenCalls = new Set(handlerEdits.flatMap((handlerEdit) => handlerEdit?.rewrittenCalls ?? []));
  const parameterEdit = getAttemptParameterFix(sourceCode, fn, selfCalls.filter((call) => !rewrittenCalls.has(call)), attempt);
  if (!parameterEdit) return null;
  return {
    attempt,
    fix: (fixer) => [
      ...parameterEdit(fixer),
      ...handlerEdits.flatMap((handlerEdit) => (handlerEdit ? handlerEdit.fix(fixer) : [])),
      ...(wait && 'replace' in wait ? [fixer.replaceText(wait.replace, wait.delay(attempt))] : []),
    ],
  };
}

/**
 * A new last parameter can count the attempts: no rest parameter, each call of itself passes
 * every parameter (no spread), and no other caller in the file passes more than the
 * parameters (it would land in the counter). Undefined `otherCalls`: they cannot all be found.
 */
export function canAddAttemptParameter(fn: FunctionNode, selfCalls: readonly TSESTree.CallExpression[], otherCalls: readonly TSESTree.CallExpression[] | undefined): boolean {
  const params = fn.params;
  if (params.some((param) => param.type === AST_NODE_TYPES.RestElement || param.type === AST_NODE_TYPES.TSParameterProperty)) return false;
  if (selfCalls.length === 0 || !otherCalls) return false;
  if (selfCalls.some((call) => call.arguments.length !== params.length || call.arguments.some((arg) => arg.type === AST_NODE_TYPES.SpreadElement))) return false;
  return !otherCalls.some((call) => call.arguments.length > params.length || call.arguments.some((arg) => arg.type === AST_NODE_TYPES.SpreadElement));
}

/** `<attempt> = 1` as the function's last parameter and `<attempt> + 1` as the last argument of `selfCalls`. */
export function getAttemptParameterFix(
  sourceCode: SourceCode,
  fn: FunctionNode,
  selfCalls: readonly TSESTree.CallExpression[],
  attempt: string,
): ((fixer: TSESLint.RuleFixer) => TSESLint.RuleFix[]) | null {
  const parameterEdit = getParameterEdit(sourceCode, fn, `${attempt} = 1`);
  if (!parameterEdit) return null;
  return (fixer) => [parameterEdit(fixer), ...selfCalls.map((call) => addLastArgument(sourceCode, fixer, call, `${attempt} + 1`))];
}

interface HandlerEdit {
  fix: (fixer: TSESLint.RuleFixer) => TSESLint.RuleFix[];
  /** Self-calls whose text the edit writes itself (an arrow's body it replaces). */
  rewrittenCalls: TSESTree.CallExpression[];
}

interface HandlerOptions {
  attempt: string;
  /** The error's name when the handler binds none. */
  fallbackError: string;
  maxAttempts: number;
  /** A wait to add before the statement that calls the function again. */
  waitStatement: string | undefined;
}

function getHandlerEdit(
  sourceCode: SourceCode,
  fn: FunctionNode,
  handler: RetryHandler,
  selfCalls: readonly TSESTree.CallExpression[],
  options: HandlerOptions,
): HandlerEdit | null {
  const { attempt, fallbackError, maxAttempts, waitStatement } = options;
  const guard = (error: string): string => `if (${attempt} >= ${maxAttempts}) throw ${error};`;
  const ownCalls = selfCalls.filter((call) => containsNode(handler, call));
  if (handler.type === AST_NODE_TYPES.CatchClause) {
    if (getEnclosingFunction(handler) !== fn) return null;
    if (handler.param && handler.param.type !== AST_NODE_TYPES.Identifier) return null;
    const error = handler.param?.name ?? fallbackError;
    const catchKeyword = sourceCode.getFirstToken(handler);
    const inserts = getBlockInserts(sourceCode, handler.body, ownCalls, guard(error), waitStatement, fn.async);
    if (!inserts) return null;
    return {
      rewrittenCalls: [],
      fix: (fixer) => [...(!handler.param && catchKeyword ? [fixer.insertTextAfter(catchKeyword, ` (${error})`)] : []), ...inserts(fixer, handler)],
    };
  }
  // A `.catch(…)` callback: its throw rejects the promise the function returns.
  const call = handler.parent;
  if (call?.type !== AST_NODE_TYPES.CallExpression || getEnclosingFunction(call) !== fn || !isReturnedBy(call, fn)) return null;
  const [param] = handler.params;
  if (handler.params.length > 1 || (param && param.type !== AST_NODE_TYPES.Identifier)) return null;
  const error = param?.name ?? fallbackError;
  const parameterEdit = param ? undefined : getParameterEdit(sourceCode, handler, error);
  if (!param && !parameterEdit) return null;
  const body = handler.body;
  if (body.type === AST_NODE_TYPES.BlockStatement) {
    const inserts = getBlockInserts(sourceCode, body, ownCalls, guard(error), waitStatement, handler.async);
    if (!inserts) return null;
    return { rewrittenCalls: [], fix: (fixer) => [...(parameterEdit ? [parameterEdit(fixer)] : []), ...inserts(fixer, handler)] };
  }
  // `() => retry(x)`: a body of its own, with the guard and the call (a wait needs an async handler).
  const selfCall = ownCalls.find((candidate) => candidate === body);
  if (!selfCall || (waitStatement && !handler.async)) return null;
  const callText = withLastArgument(sourceCode, selfCall, `${attempt} + 1`);
  const statements = [guard(error), ...(waitStatement ? [waitStatement] : []), `return ${callText};`];
  return {
    rewrittenCalls: [selfCall],
    fix: (fixer) => [...(parameterEdit ? [parameterEdit(fixer)] : []), fixer.replaceText(body, `{ ${statements.join(' ')} }`)],
  };
}

/**
 * The guard first in `block`, and the wait right before the statement of `block` that calls
 * the function again (one such statement, in an async function). Null when the wait has no
 * such place.
 */
function getBlockInserts(
  sourceCode: SourceCode,
  block: TSESTree.BlockStatement,
  calls: readonly TSESTree.CallExpression[],
  guard: string,
  waitStatement: string | undefined,
  isAsync: boolean,
): ((fixer: TSESLint.RuleFixer, owner: TSESTree.Node) => TSESLint.RuleFix[]) | null {
  const first = block.body[0];
  let waitBefore: TSESTree.Statement | undefined;
  if (waitStatement) {
    const statements = new Set(calls.map((call) => block.body.find((statement) => containsNode(statement, call))));
    const [statement] = statements;
    if (!isAsync || statements.size !== 1 || !statement) return null;
    waitBefore = statement;
  }
  return (fixer, owner) => {
    if (!first) {
      const fill = fillEmptyBlock(sourceCode, fixer, block, guard, owner);
      return fill ? [fill] : [];
    }
    const lines = (statement: TSESTree.Node, texts: string[]): TSESLint.RuleFix =>
      fixer.insertTextBefore(statement, texts.map((text) => `${text}\n${getIndent(sourceCode, statement, 'line')}`).join(''));
    if (waitBefore === first && waitStatement) return [lines(first, [guard, waitStatement])];
    return [lines(first, [guard]), ...(waitBefore && waitStatement ? [lines(waitBefore, [waitStatement])] : [])];
  };
}

/** `return call`, `return await call`, or the arrow's body: the function's result is that promise. */
function isReturnedBy(call: TSESTree.Node, fn: FunctionNode): boolean {
  const value = call.parent?.type === AST_NODE_TYPES.AwaitExpression ? call.parent : call;
  if (fn.body === value) return true;
  return value.parent?.type === AST_NODE_TYPES.ReturnStatement;
}

/** Adds `text` as the last parameter of `fn` (`(a) =>` → `(a, text) =>`, `x =>` → `(x, text) =>`, `()` → `(text)`). */
function getParameterEdit(sourceCode: SourceCode, fn: FunctionNode, text: string): ((fixer: TSESLint.RuleFixer) => TSESLint.RuleFix) | null {
  const last = fn.params.at(-1);
  if (last) {
    const before = sourceCode.getTokenBefore(fn.params[0] as TSESTree.Node);
    if (before?.value !== '(') return (fixer) => fixer.replaceText(last, `(${sourceCode.getText(last)}, ${text})`);
    return (fixer) => fixer.insertTextAfter(last, `, ${text}`);
  }
  let closing = sourceCode.getTokenBefore(fn.returnType ?? fn.body);
  if (closing?.value === '=>') closing = sourceCode.getTokenBefore(closing);
  if (closing?.value !== ')') return null;
  const closingParen = closing;
  return (fixer) => fixer.insertTextBefore(closingParen, text);
}

function addLastArgument(sourceCode: SourceCode, fixer: TSESLint.RuleFixer, call: TSESTree.CallExpression, text: string): TSESLint.RuleFix {
  const last = call.arguments.at(-1);
  if (last) return fixer.insertTextAfter(last, `, ${text}`);
  return fixer.insertTextBefore(sourceCode.getLastToken(call) as TSESTree.Token, text);
}

function withLastArgument(sourceCode: SourceCode, call: TSESTree.CallExpression, text: string): string {
  const last = call.arguments.at(-1);
  const at = last ? last.range[1] : (sourceCode.getLastToken(call) as TSESTree.Token).range[0];
  const inserted = last ? `, ${text}` : text;
  return sourceCode.text.slice(call.range[0], at) + inserted + sourceCode.text.slice(at, call.range[1]);
}
