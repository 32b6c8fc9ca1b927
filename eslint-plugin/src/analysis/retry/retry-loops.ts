import { AST_NODE_TYPES, type TSESLint, type TSESTree } from '@typescript-eslint/utils';
import { alwaysLeaves } from './control-flow';
import { ATTEMPT_NAME, getIncrementedName } from './attempt-counters';
import { collectAssignedNames, collectDeclaredNames, collectIdentifierNames, containsCollectionSize, findChildNodes, walkOwnCode } from './code-walk';
import { containsNode, isFunctionNode, isLoopNode } from '../ast';
import type { RetryScope } from './retry-scope';
import type { AnyRuleContext } from '../per-file-cache';
import { isResultDecidedLoop, readsLeftovers } from './result-retries';

/**
 * Loops that retry: they catch a failure (or read a failed result) and go round again to
 * redo the same work, and leave on success. Loops that move on to the next item or page
 * after a failure are not retries — that distinction is most of this file.
 */

export type LoopNode =
  | TSESTree.ForStatement
  | TSESTree.WhileStatement
  | TSESTree.DoWhileStatement
  | TSESTree.ForOfStatement;

export function isRetryLoopType(node: TSESTree.Node): node is LoopNode {
  return (
    node.type === AST_NODE_TYPES.ForStatement ||
    node.type === AST_NODE_TYPES.WhileStatement ||
    node.type === AST_NODE_TYPES.DoWhileStatement ||
    node.type === AST_NODE_TYPES.ForOfStatement
  );
}

export function getLoopRetryScope(context: AnyRuleContext, loop: LoopNode): RetryScope | undefined {
  const keys = context.sourceCode.visitorKeys;
  const test = loop.type === AST_NODE_TYPES.ForOfStatement ? null : loop.test;
  if (loop.type === AST_NODE_TYPES.ForOfStatement && loop.await) return undefined;
  const testNames = test ? collectIdentifierNames(test, keys) : new Set<string>();
  const counter = getLoopCounter(loop, keys);
  // `for (…; i < items.length; …)`, `while (queue.length)`: walking a collection, not retrying —
  // unless an attempt counter is also held to a fixed limit
  // (`while (Object.keys(unprocessed).length && attempt < 5)`).
  // A batch's leftovers sent again are a retry, whatever their size is read for.
  if (
    test &&
    containsCollectionSize(test, keys) &&
    !(counter && ATTEMPT_NAME.test(counter) && isCounterHeldToLimit(test, counter, keys)) &&
    !readsLeftovers(context, test)
  ) {
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

  const hasCatch = tryStatements.some((tryStatement) => tryStatement.handler);
  return getCountedResultScope(loop, test, testNames, counter, hasCatch, keys) ?? getResultScope(context, loop, counter, hasCatch, keys);
}

/**
 * Retry decided from a response with no attempt counter: leftovers sent again, a status polled
 * until done, `while (true)` left on a good result. None of them has a bound of its own.
 */
function getResultScope(
  context: AnyRuleContext,
  loop: LoopNode,
  counter: string | undefined,
  hasCatch: boolean,
  keys: TSESLint.SourceCode.VisitorKeys,
): RetryScope | undefined {
  if (hasCatch || loop.type === AST_NODE_TYPES.ForOfStatement) return undefined;
  if (loop.body.type === AST_NODE_TYPES.BlockStatement && isPerItemWork(loop, loop.body, counter, keys)) return undefined;
  if (!hasOwnCall(loop.body, keys) || !isResultDecidedLoop(context, loop)) return undefined;
  return { kind: 'loop', node: loop, attempt: loop.body, attemptVariable: counter, handlers: [], decidedByResult: true };
}

function getCountedResultScope(
  loop: LoopNode,
  test: TSESTree.Expression | null,
  testNames: ReadonlySet<string>,
  counter: string | undefined,
  hasCatch: boolean,
  keys: TSESLint.SourceCode.VisitorKeys,
): RetryScope | undefined {
  // Retry decided from a result, as in the DynamoDB seed:
  // `do { … } while (retry && retries++ < MAX_RETRIES)` — a counter named as one, compared
  // in the condition, and a way out on success (a flag in the condition, `break`, `return`).
  if (loop.type === AST_NODE_TYPES.ForOfStatement || !test || !counter || !ATTEMPT_NAME.test(counter)) return undefined;
  if (!isCounterCompared(test, counter, keys)) return undefined;
  // A try/catch that was not a retry above (it rethrows, or works per item) settles it.
  if (hasCatch) return undefined;
  if (loop.body.type === AST_NODE_TYPES.BlockStatement && isPerItemWork(loop, loop.body, counter, keys)) return undefined;
  if (!hasOwnCall(loop.body, keys)) return undefined;
  // With an attempt counter in the condition, any variable of the condition set in the body
  // (`unprocessed = out.UnprocessedItems`) is the way out on success.
  const exits =
    hasLoopExit(loop.body, loop, keys) ||
    [...collectAssignedNames(loop.body, keys)].some((name) => name !== counter && testNames.has(name));
  if (!exits) return undefined;
  return { kind: 'loop', node: loop, attempt: loop.body, attemptVariable: counter, handlers: [], decidedByResult: true };
}

/** Try statements of the loop body that belong to this loop (not to a nested loop or function). */
function findLoopTryStatements(body: TSESTree.Statement, keys: TSESLint.SourceCode.VisitorKeys): TSESTree.TryStatement[] {
  const found: TSESTree.TryStatement[] = [];
  walkOwnCode(body, keys, (node) => {
    if (isLoopNode(node)) return false;
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
  const test = loop.type === AST_NODE_TYPES.ForOfStatement ? null : loop.test;
  if (hasLoopExit(tryStatement.block, loop, keys)) return true;
  if (hasFlagAssignedInBody(tryStatement.block, testNames, undefined, keys)) return true;
  // `try { r = await x(); } catch { … continue; } break;` / `if (r) return r;`
  const body = loop.body.type === AST_NODE_TYPES.BlockStatement ? loop.body.body : [loop.body];
  const index = body.findIndex((statement) => containsNode(statement, tryStatement));
  if (index === -1) return false;
  // `retry = false; try { … } catch { retry = true; }` with `while (retry && …)`: the flag is
  // reset before each attempt and only a failure sets it again, so success leaves.
  // In the catch, a literal counts, and so does a check of the caught error
  // (`retry = isRetryable(e)`, `retry = e.code === '40001'`): retry when the check passes.
  const handler = tryStatement.handler;
  if (handler && index > 0 && test) {
    const errorName = handler.param?.type === AST_NODE_TYPES.Identifier ? handler.param.name : undefined;
    for (const statement of body.slice(0, index)) {
      const reset = getFlagReset(statement, test);
      if (!reset) continue;
      const values = findFlagValues(handler.body, reset.name, errorName, keys);
      if ((values.includes(!reset.value) || values.includes('checked')) && values.every((value) => value !== undefined)) return true;
    }
  }
  const assigned = collectAssignedNames(tryStatement.block, keys);
  for (const statement of body.slice(index + 1)) {
    if (alwaysLeaves(statement, loop)) return true;
    // `if (ok) break;`, and `if (!ok) { await sleep(ms); } else { break; }`
    if (statement.type === AST_NODE_TYPES.IfStatement && (alwaysLeaves(statement.consequent, loop) || (statement.alternate && alwaysLeaves(statement.alternate, loop)))) {
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
 * `retry = false;` (or `done = true;` with `while (!done)`): a statement that sets a flag of
 * the loop condition so that the condition fails, i.e. the loop ends unless something sets
 * the flag again. Returns the flag's name and the value it is reset to.
 */
function getFlagReset(statement: TSESTree.Statement, test: TSESTree.Expression): { name: string; value: boolean } | undefined {
  if (statement.type !== AST_NODE_TYPES.ExpressionStatement) return undefined;
  const assignment = statement.expression;
  if (
    assignment.type !== AST_NODE_TYPES.AssignmentExpression ||
    assignment.operator !== '=' ||
    assignment.left.type !== AST_NODE_TYPES.Identifier ||
    assignment.right.type !== AST_NODE_TYPES.Literal ||
    typeof assignment.right.value !== 'boolean'
  ) {
    return undefined;
  }
  const name = assignment.left.name;
  const polarity = getFlagPolarity(test, name);
  if (polarity === undefined) return undefined;
  // `while (retry && …)` ends on `retry = false`; `while (!done)` ends on `done = true`.
  return polarity === assignment.right.value ? undefined : { name, value: assignment.right.value };
}

/**
 * The values `name` is assigned in `node`: `true`/`false` for literals, `'checked'` for an
 * expression that reads the caught error `errorName`, undefined for anything else.
 */
function findFlagValues(
  node: TSESTree.Node,
  name: string,
  errorName: string | undefined,
  keys: TSESLint.SourceCode.VisitorKeys,
): (boolean | 'checked' | undefined)[] {
  const values: (boolean | 'checked' | undefined)[] = [];
  walkOwnCode(node, keys, (child) => {
    if (child.type === AST_NODE_TYPES.AssignmentExpression && child.left.type === AST_NODE_TYPES.Identifier && child.left.name === name) {
      const right = child.right;
      if (child.operator !== '=') values.push(undefined);
      else if (right.type === AST_NODE_TYPES.Literal) values.push(typeof right.value === 'boolean' ? right.value : undefined);
      else values.push(errorName !== undefined && collectIdentifierNames(right, keys).has(errorName) ? 'checked' : undefined);
    }
    return true;
  });
  return values;
}

/**
 * How the condition reads `name`: true for `retry` (in `retry && n++ < 5`), false for `!done`;
 * undefined when it is read some other way or not at all. Only `&&` chains count: with `||`
 * the other side may keep the loop going.
 */
function getFlagPolarity(test: TSESTree.Expression, name: string): boolean | undefined {
  if (test.type === AST_NODE_TYPES.Identifier) return test.name === name ? true : undefined;
  if (test.type === AST_NODE_TYPES.UnaryExpression && test.operator === '!' && test.argument.type === AST_NODE_TYPES.Identifier) {
    return test.argument.name === name ? false : undefined;
  }
  if (test.type === AST_NODE_TYPES.LogicalExpression && test.operator === '&&') {
    return getFlagPolarity(test.left, name) ?? getFlagPolarity(test.right, name);
  }
  return undefined;
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
    const innerBreakable = breakable || isLoopNode(child) || child.type === AST_NODE_TYPES.SwitchStatement;
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
