import { AST_NODE_TYPES, ASTUtils, type TSESLint, type TSESTree } from '@typescript-eslint/utils';
import { containsNode, type FunctionNode, getEnclosingFunction, isFunctionNode, isInAsyncFunction, isNullOrUndefined } from '../analysis/ast';
import type { UnprocessedResult } from '../analysis/clients';
import type { ServiceBackoff } from '../analysis/retry';
import { getAsyncInsertPoint } from './async-function';
import { getBackoffDelayText, getWaitStatement } from './backoff';
import { type CodeStyle, formatInStyle } from './code-style';
import { getUsedNames, getUsedNamesAround, pickNumberedName } from './fresh-names';
import { getIndent } from './indentation';
import { asFixList, getInsertBeforeStatementFix } from './insert-statement';
import { canAddAttemptParameter, getAttemptParameterFix } from './recursion-limit';
import { getEnclosingInsertableStatement, getListedStatement } from './statement-anchors';

type SourceCode = Readonly<TSESLint.SourceCode>;

/**
 * A DynamoDB batch whose result goes to a handler that sends the leftovers again through
 * the same handler (`send(params).then(handle)`, with `handle` returning
 * `send(params).then(handle)` when `UnprocessedItems` is not empty): the edit counts the
 * responses in a row that leave something unprocessed in a variable next to the handler
 * (each run of the function that makes the handler gets its own), throws once they reach
 * the limit, and makes every send inside the handler wait a capped, jittered exponential
 * delay from that count first — no wait after a response with nothing left, so the next
 * batch of a series goes at once.
 */

/**
 * The local function `call`'s result is handed to: `call.then(handle)`, or SDK v2's
 * `call.promise().then(handle)`, where `handle` is declared as a function or held by a
 * variable given one function (`let handle = null; handle = (data) => { … }`).
 */
export function findResultHandler(sourceCode: SourceCode, call: TSESTree.CallExpression): FunctionNode | undefined {
  let result: TSESTree.Node = call;
  const promiseCall = getMethodCallOn(result, 'promise');
  if (promiseCall && promiseCall.arguments.length === 0) result = promiseCall;
  const thenCall = getMethodCallOn(result, 'then');
  const [handlerName] = thenCall?.arguments ?? [];
  if (thenCall?.arguments.length !== 1 || handlerName?.type !== AST_NODE_TYPES.Identifier) return undefined;
  const variable = ASTUtils.findVariable(sourceCode.getScope(handlerName) as TSESLint.Scope.Scope, handlerName);
  return variable ? getHeldFunction(variable) : undefined;
}

/** `object.name(…)` when `object` is the node: the call. */
function getMethodCallOn(object: TSESTree.Node, name: string): TSESTree.CallExpression | undefined {
  const member = object.parent;
  const call = member?.parent;
  if (member?.type !== AST_NODE_TYPES.MemberExpression || member.object !== object || member.computed) return undefined;
  if (member.property.type !== AST_NODE_TYPES.Identifier || member.property.name !== name) return undefined;
  return call?.type === AST_NODE_TYPES.CallExpression && call.callee === member ? call : undefined;
}

/** The one function a variable is declared as or given; undefined when it may hold anything else. */
function getHeldFunction(variable: TSESLint.Scope.Variable): FunctionNode | undefined {
  const functions: FunctionNode[] = [];
  for (const definition of variable.defs) {
    const node = definition.node as TSESTree.Node;
    if (definition.type === 'FunctionName' && node.type === AST_NODE_TYPES.FunctionDeclaration) functions.push(node);
    else if (definition.type !== 'Variable') return undefined;
  }
  for (const reference of variable.references) {
    if (!reference.isWrite()) continue;
    const value = reference.writeExpr as TSESTree.Node | null | undefined;
    if (value && isFunctionNode(value)) functions.push(value);
    else if (value && !isNullOrUndefined(value)) return undefined;
  }
  return functions.length === 1 ? functions[0] : undefined;
}

export interface LeftoverResendEdit {
  /** The result handler: its first parameter is the batch's response. */
  handler: FunctionNode;
  unprocessed: UnprocessedResult;
  backoff: ServiceBackoff;
  maxAttempts: number;
  style: CodeStyle;
}

/**
 * The edit described at the top of this file. Null when the shape is other: the handler
 * does not take the response as a plain parameter or has no block body; its variable is
 * not local to a function (a counter there would be shared by every caller), is used
 * other than as `.then(handler)`, or is not passed both outside the handler (the first
 * send) and inside it (the re-sends).
 */
export function getLeftoverResendFix(sourceCode: SourceCode, edit: LeftoverResendEdit): TSESLint.ReportFixFunction | null {
  const { handler, unprocessed, backoff, maxAttempts, style } = edit;
  const [response] = handler.params;
  const firstStatement = handler.body.type === AST_NODE_TYPES.BlockStatement ? handler.body.body[0] : undefined;
  if (response?.type !== AST_NODE_TYPES.Identifier || !firstStatement || handler.generator) return null;
  const variable = getHandlerVariable(sourceCode, handler);
  if (!variable || variable.scope.variableScope.type !== 'function' || getHeldFunction(variable) !== handler) return null;
  const statements = getStatementList(variable.scope.block as TSESTree.Node);
  if (!statements) return null;
  const sends: TSESTree.CallExpression[] = [];
  for (const reference of variable.references) {
    if (reference.isWrite()) continue;
    const identifier = reference.identifier as TSESTree.Node;
    const thenCall = identifier.parent;
    if (
      thenCall?.type !== AST_NODE_TYPES.CallExpression ||
      thenCall.arguments.length !== 1 ||
      thenCall.arguments[0] !== identifier ||
      thenCall.callee.type !== AST_NODE_TYPES.MemberExpression ||
      thenCall.callee.object.type !== AST_NODE_TYPES.CallExpression ||
      getMethodCallOn(thenCall.callee.object, 'then') !== thenCall
    ) {
      return null;
    }
    sends.push(thenCall);
  }
  const resends = sends.filter((send) => containsNode(handler, send));
  if (resends.length === 0 || resends.length === sends.length) return null;
  // The counter goes before the first statement that names the handler, so it exists before any response arrives.
  const named = [handler, ...variable.identifiers, ...variable.references.map((reference) => reference.identifier)] as TSESTree.Node[];
  const first = statements.filter((statement) => named.some((node) => containsNode(statement, node))).sort((a, b) => a.range[0] - b.range[0])[0];
  if (!first) return null;
  const taken = getUsedNames(sourceCode, variable.scope.block as TSESTree.Node);
  const counter = pickNumberedName('unprocessedAttempts', (name) => taken.has(name));
  taken.add(counter);
  const delay = pickNumberedName('resendDelay', (name) => taken.has(name));
  const leftovers = `${response.name}.${unprocessed.property}`;
  const check = [
    `if (${leftovers} && Object.keys(${leftovers}).length > 0) {`,
    `  if (++${counter} >= ${maxAttempts}) throw new Error(\`DynamoDB left ${unprocessed.items} unprocessed after \${${counter}} attempts\`);`,
    '} else {',
    `  ${counter} = 0;`,
    '}',
    `const ${delay} = ${counter} > 0 ? ${getBackoffDelayText(counter, backoff)} : 0;`,
  ].join('\n');
  const waitText = formatInStyle(getWaitStatement(sourceCode, firstStatement, delay), style);
  // Before each statement that sends again (the first statement of the handler gets it after the check).
  const waits: TSESLint.ReportFixFunction[] = [];
  let waitsFirst = false;
  for (const statement of new Set(resends.map((send) => getEnclosingInsertableStatement(send)))) {
    if (statement === firstStatement) {
      waitsFirst = true;
      continue;
    }
    const wait = statement && getEnclosingFunction(statement) === handler ? getInsertBeforeStatementFix(sourceCode, statement, waitText) : null;
    if (!wait) return null;
    waits.push(wait);
  }
  const asyncAt = handler.async ? undefined : getAsyncInsertPoint(sourceCode, handler);
  if (!handler.async && asyncAt === undefined) return null;
  const counterText = `${formatInStyle(`let ${counter} = 0;`, style)}\n${getIndent(sourceCode, first, 'line')}`;
  const bodyIndent = getIndent(sourceCode, firstStatement, 'line');
  const checkText = formatInStyle(waitsFirst ? `${check}\n${waitText}` : check, style, bodyIndent);
  return (fixer) => {
    // A function declaration that is itself the first statement gets the counter and `async` in one insert.
    const together = asyncAt === first.range[0];
    return [
      fixer.insertTextBeforeRange(first.range, together ? `${counterText}async ` : counterText),
      ...(asyncAt !== undefined && !together ? [fixer.insertTextBeforeRange([asyncAt, asyncAt], 'async ')] : []),
      fixer.insertTextBefore(firstStatement, `${checkText}\n${bodyIndent}`),
      ...waits.flatMap((wait) => asFixList(wait(fixer))),
    ];
  };
}

/** The variable a handler is declared as or assigned to. */
function getHandlerVariable(sourceCode: SourceCode, handler: FunctionNode): TSESLint.Scope.Variable | undefined {
  const parent = handler.parent;
  if (handler.type === AST_NODE_TYPES.FunctionDeclaration && handler.id) {
    return sourceCode.getDeclaredVariables(handler).find((variable) => variable.name === handler.id?.name);
  }
  if (parent?.type === AST_NODE_TYPES.VariableDeclarator && parent.init === handler && parent.id.type === AST_NODE_TYPES.Identifier) {
    const name = parent.id.name;
    return sourceCode.getDeclaredVariables(parent).find((variable) => variable.name === name);
  }
  if (parent?.type === AST_NODE_TYPES.AssignmentExpression && parent.operator === '=' && parent.right === handler && parent.left.type === AST_NODE_TYPES.Identifier) {
    return ASTUtils.findVariable(sourceCode.getScope(parent) as TSESLint.Scope.Scope, parent.left) ?? undefined;
  }
  return undefined;
}

/** The statements of a function's body or of a block: where the counter can be declared. */
function getStatementList(block: TSESTree.Node): readonly TSESTree.Statement[] | undefined {
  if (isFunctionNode(block)) return block.body.type === AST_NODE_TYPES.BlockStatement ? block.body.body : undefined;
  return block.type === AST_NODE_TYPES.BlockStatement ? block.body : undefined;
}

export interface LeftoverLoopEdit extends Omit<LeftoverResendEdit, 'handler'> {
  /** `while (<leftovers remain>) { … send them again … }`, or a `do … while` / `for` loop. */
  loop: TSESTree.Node;
  /** Nothing was sent before the loop: its first round makes the first send, with no wait or count. */
  firstSendInLoop: boolean;
  /** The loop already bounds its rounds (`round < 5`): only the wait is added. */
  limited: boolean;
  /** The delay of the wait the loop already has (`setTimeout(resolve, 100)`): replaced, not added to. */
  delay?: TSESTree.Node;
}

/**
 * The same limit and wait for a loop that runs once per response that left something
 * unprocessed: `let attempt = 0;` before it, and first in its body `if (++attempt >= N) throw …;`
 * and the wait. When its first round makes the first send (a `do … while`, or a loop with no
 * send before it), that round neither waits nor counts (`if (attempt > 0) { … }` and then
 * `attempt += 1;`). A loop that bounds its rounds itself gets the wait only. A loop that
 * already waits keeps its wait, with the backoff from the count as its delay: then the body
 * only counts, and no `await` is added (compiled code waits with `yield`). Null for a body
 * that is no block, or a new wait outside an `async` function.
 */
export function getLeftoverLoopFix(sourceCode: SourceCode, edit: LeftoverLoopEdit): TSESLint.ReportFixFunction | null {
  const { loop, unprocessed, backoff, maxAttempts, style, firstSendInLoop, limited, delay } = edit;
  const isLoop = loop.type === AST_NODE_TYPES.WhileStatement || loop.type === AST_NODE_TYPES.DoWhileStatement || loop.type === AST_NODE_TYPES.ForStatement;
  if (!isLoop || loop.body.type !== AST_NODE_TYPES.BlockStatement || (!delay && !isInAsyncFunction(loop))) return null;
  const anchor = getListedStatement(loop);
  const firstStatement = loop.body.body[0];
  if (!anchor || !firstStatement) return null;
  const taken = getUsedNamesAround(sourceCode, loop);
  const attempt = pickNumberedName('attempt', (name) => taken.has(name));
  const bodyIndent = getIndent(sourceCode, firstStatement, 'line');
  const delayText = getBackoffDelayText(attempt, backoff);
  const limit = `if (${attempt} >= ${maxAttempts}) ${getLeftoverError(unprocessed, attempt)}`;
  let check: string[];
  if (delay) {
    // The wait stays where it is, after the count of this round.
    const count = limited ? `${attempt} += 1;` : `if (++${attempt} >= ${maxAttempts}) ${getLeftoverError(unprocessed, attempt)}`;
    check = firstSendInLoop ? [...(limited ? [] : [limit]), `${attempt} += 1;`] : [count];
  } else {
    const wait = getWaitStatement(sourceCode, firstStatement, delayText);
    check = firstSendInLoop
      ? [`if (${attempt} > 0) {`, ...(limited ? [] : [`  ${limit}`]), `  ${wait}`, '}', `${attempt} += 1;`]
      : [limited ? `${attempt} += 1;` : `if (++${attempt} >= ${maxAttempts}) ${getLeftoverError(unprocessed, attempt)}`, wait];
  }
  return (fixer) => [
    fixer.insertTextBefore(anchor, `${formatInStyle(`let ${attempt} = 0;`, style)}\n${getIndent(sourceCode, anchor, 'line')}`),
    fixer.insertTextBefore(firstStatement, `${formatInStyle(check.join('\n'), style, bodyIndent)}\n${bodyIndent}`),
    ...(delay ? [fixer.replaceText(delay, delayText)] : []),
  ];
}

/** `throw new Error(`DynamoDB left writes unprocessed after ${attempt} attempts`);` */
function getLeftoverError(unprocessed: UnprocessedResult, attempt: string): string {
  return `throw new Error(\`DynamoDB left ${unprocessed.items} unprocessed after \${${attempt}} attempts\`);`;
}

export interface LeftoverRecursionEdit extends Omit<LeftoverResendEdit, 'handler'> {
  /** The function that sends the leftovers again by calling itself with them. */
  fn: FunctionNode;
  /** Its calls of itself, and the calls the rest of the file makes of it (undefined: not all known). */
  selfCalls: readonly TSESTree.CallExpression[];
  otherCalls: readonly TSESTree.CallExpression[] | undefined;
}

/**
 * For an async function that calls itself with what a batch left unprocessed: a new last
 * parameter `attempt = 1`, passed on as `attempt + 1`, and right before each statement that
 * calls itself `if (attempt >= N) throw …;` and the wait. Each call of itself only happens
 * when a response left something, so the count is of the responses in a row that did.
 * Null when the throw would reach no caller (a call of itself neither awaited nor
 * returned, or inside a callback), or the parameter cannot be added safely.
 */
export function getLeftoverRecursionFix(sourceCode: SourceCode, edit: LeftoverRecursionEdit): TSESLint.ReportFixFunction | null {
  const { fn, selfCalls, otherCalls, unprocessed, backoff, maxAttempts, style } = edit;
  if (!fn.async || fn.generator || !canAddAttemptParameter(fn, selfCalls, otherCalls)) return null;
  const statements = new Set<TSESTree.Statement>();
  for (const call of selfCalls) {
    const statement = getEnclosingInsertableStatement(call);
    if (!statement || getEnclosingFunction(statement) !== fn || getEnclosingFunction(call) !== fn || !isAwaitedOrReturned(call)) return null;
    statements.add(statement);
  }
  const taken = getUsedNamesAround(sourceCode, fn);
  const attempt = pickNumberedName('attempt', (name) => taken.has(name));
  const parameter = getAttemptParameterFix(sourceCode, fn, selfCalls, attempt);
  if (!parameter) return null;
  const inserts: TSESLint.ReportFixFunction[] = [];
  for (const statement of statements) {
    const text = [`if (${attempt} >= ${maxAttempts}) ${getLeftoverError(unprocessed, attempt)}`, getWaitStatement(sourceCode, statement, getBackoffDelayText(attempt, backoff))].join('\n');
    const insert = getInsertBeforeStatementFix(sourceCode, statement, formatInStyle(text, style));
    if (!insert) return null;
    inserts.push(insert);
  }
  return (fixer) => [...parameter(fixer), ...inserts.flatMap((insert) => asFixList(insert(fixer)))];
}

/** `await f(…)` or `return f(…)`: the call's rejection reaches the function's caller. */
function isAwaitedOrReturned(call: TSESTree.CallExpression): boolean {
  const parent = call.parent;
  return parent?.type === AST_NODE_TYPES.AwaitExpression || parent?.type === AST_NODE_TYPES.ReturnStatement || (parent?.type === AST_NODE_TYPES.ArrowFunctionExpression && parent.body === call);
}
