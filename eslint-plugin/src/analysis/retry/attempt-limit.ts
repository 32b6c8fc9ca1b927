import { AST_NODE_TYPES, type TSESLint, type TSESTree } from '@typescript-eslint/utils';
import type { AnyRuleContext } from '../per-file-cache';
import { collectIdentifierNames, getWriteTarget, walkOwnCode } from './code-walk';
import { getKeyName } from '../ast';
import { ATTEMPT_NAME, type AttemptCounters } from './attempt-counters';
import { isProcessExit } from './control-flow';
import type { RetryScope } from './retry-scope';

/** The number of attempts of `scope` is limited: a counter compared in the loop's test or guarding an exit. */
export function isAttemptBounded(context: AnyRuleContext, scope: RetryScope, counters: AttemptCounters): boolean | undefined {
  const keys = context.sourceCode.visitorKeys;
  const comparesCounter = (node: TSESTree.Node): boolean => comparesAttemptCounter(node, keys, counters);
  if (scope.kind === 'catch-retry') {
    // A `.catch` that calls the same thing again retries once; a named retry helper decides for itself.
    return undefined;
  }
  if (scope.kind === 'loop') {
    const loop = scope.node;
    if (loop.type === AST_NODE_TYPES.ForOfStatement) return true;
    const test =
      loop.type === AST_NODE_TYPES.ForStatement || loop.type === AST_NODE_TYPES.WhileStatement || loop.type === AST_NODE_TYPES.DoWhileStatement
        ? loop.test
        : null;
    if (test && (comparesCounter(test) || readsCountdown(test, counters) || growsPastBound(context, loop, test))) return true;
    if (hasGuardedExit(scope.attempt, keys, comparesCounter)) return true;
    // A condition we cannot read as a counter (`while (shouldRetry(err))`) may still bound it.
    // …unless the loop goes round on a response: then the condition reads the response, not a count.
    if (test && !isAlwaysTrue(test) && !isFlagTest(test)) return scope.decidedByResult ? false : undefined;
    return false;
  }
  // Recursion: a comparison of the counter that guards the self-call or a throw.
  return comparesCounter(scope.attempt) ? true : scope.attemptVariable ? undefined : false;
}

/**
 * Whether `node` compares an attempt counter (`attempt >= MAX`, `retries === 0`,
 * `this.retries < max`), tests one (`!retriesLeft`) or counts one down (`retries--`): a
 * variable of `counters`, a name that says it counts attempts, or such a field of `this` or
 * of an object.
 */
export function comparesAttemptCounter(node: TSESTree.Node, keys: TSESLint.SourceCode.VisitorKeys, counters: AttemptCounters): boolean {
  const isCounter = (name: string): boolean => counters.counters.has(name) || ATTEMPT_NAME.test(name);
  /** `this.retries`, `options.retries`: a counter kept on an object that goes from attempt to attempt. */
  const isCounterField = (operand: TSESTree.Node): boolean =>
    operand.type === AST_NODE_TYPES.MemberExpression &&
    (operand.object.type === AST_NODE_TYPES.ThisExpression || operand.object.type === AST_NODE_TYPES.Identifier) &&
    ATTEMPT_NAME.test(getKeyName(operand, { computed: false, privateNames: 'none' }) ?? '');
  let found = false;
  walkOwnCode(node, keys, (child) => {
    if (
      child.type === AST_NODE_TYPES.BinaryExpression &&
      ['<', '<=', '>', '>=', '===', '==', '!==', '!='].includes(child.operator) &&
      ([...collectIdentifierNames(child, keys)].some(isCounter) || [child.left, child.right].some(isCounterField))
    ) {
      found = true;
    }
    // `if (!retriesLeft)`, `while (retries--)`
    if (child.type === AST_NODE_TYPES.UnaryExpression && child.operator === '!' && child.argument.type === AST_NODE_TYPES.Identifier && isCounter(child.argument.name)) {
      found = true;
    }
    if (child.type === AST_NODE_TYPES.UpdateExpression && child.argument.type === AST_NODE_TYPES.Identifier && isCounter(child.argument.name) && child.operator === '--') {
      found = true;
    }
    return !found;
  }, true);
  return found;
}

/**
 * `for (let delay = 100; delay <= 60000; delay *= 2)`, `while (delay < 3200) { …; delay += 500; }`:
 * a variable that the test keeps under a number and that the loop only grows by a constant
 * factor above 1 or a constant step above 0 (at least one such write, no other) stops the loop.
 */
function growsPastBound(context: AnyRuleContext, loop: TSESTree.Node, test: TSESTree.Node): boolean {
  const keys = context.sourceCode.visitorKeys;
  const bounded = new Set(findUpperBounds(test, keys).filter(([, bound]) => isNumber(bound)).map(([name]) => name));
  if (bounded.size === 0) return false;
  const grown = new Map<string, boolean>();
  walkOwnCode(loop, keys, (node) => {
    const target = getWriteTarget(node);
    if (target?.type !== AST_NODE_TYPES.Identifier || !bounded.has(target.name)) return true;
    // The loop variable's own declaration is no write in the loop.
    grown.set(target.name, (grown.get(target.name) ?? true) && isGrowth(node, target.name));
    return true;
  });
  return [...grown.values()].some(Boolean);
}

/** Each comparison of a loop's test that keeps a variable under something (`delay <= 60000`, `n < max`): the variable and that bound. */
export function findUpperBounds(test: TSESTree.Node, keys: TSESLint.SourceCode.VisitorKeys): Array<[name: string, bound: TSESTree.Expression]> {
  const bounds: Array<[string, TSESTree.Expression]> = [];
  walkOwnCode(test, keys, (node) => {
    if (node.type === AST_NODE_TYPES.BinaryExpression && (node.operator === '<' || node.operator === '<=') && node.left.type === AST_NODE_TYPES.Identifier) {
      bounds.push([node.left.name, node.right]);
    }
    return true;
  });
  return bounds;
}

/** `v *= 2`, `v += 500`, `v++`, `v = v * 2`, `v = v + 500`. */
function isGrowth(write: TSESTree.Node, name: string): boolean {
  if (write.type === AST_NODE_TYPES.UpdateExpression) return write.operator === '++';
  if (write.type !== AST_NODE_TYPES.AssignmentExpression) return false;
  const step = (operator: string, value: TSESTree.Node): boolean => {
    const number = getNumberValue(value);
    return number !== undefined && (operator === '*' ? number > 1 : operator === '+' && number > 0);
  };
  if (write.operator === '*=' || write.operator === '+=') return step(write.operator[0] as string, write.right);
  const right = write.right;
  return (
    write.operator === '=' &&
    right.type === AST_NODE_TYPES.BinaryExpression &&
    right.left.type === AST_NODE_TYPES.Identifier &&
    right.left.name === name &&
    step(right.operator, right.right)
  );
}

/** A number written as such (`60000`, `60_000`). */
function getNumberValue(node: TSESTree.Node): number | undefined {
  return isNumber(node) ? node.value : undefined;
}

/** `if (attempt >= MAX) throw err;` (or return/break) anywhere in the attempt. */
function hasGuardedExit(root: TSESTree.Node, keys: TSESLint.SourceCode.VisitorKeys, comparesCounter: (node: TSESTree.Node) => boolean): boolean {
  let found = false;
  walkOwnCode(root, keys, (node) => {
    if (node.type === AST_NODE_TYPES.IfStatement && comparesCounter(node.test)) {
      // `if (attempt >= MAX) throw err;`, `if (attempt < MAX) { … } else throw err;`, or
      // `if (retryable && attempt < MAX) continue; throw err;`: going round only under the limit.
      if (leavesSomewhere(node.consequent) || (node.alternate && leavesSomewhere(node.alternate))) found = true;
      else if (isContinue(node.consequent) && isFollowedByExit(node)) found = true;
    }
    if (
      node.type === AST_NODE_TYPES.ConditionalExpression &&
      comparesCounter(node.test)
    ) {
      found = true;
    }
    return !found;
  });
  return found;
}

/** `while (retries)` with `retries -= 1` in the loop: the count runs out at zero. */
function readsCountdown(test: TSESTree.Expression, counters: AttemptCounters): boolean {
  if (test.type === AST_NODE_TYPES.Identifier) return counters.countingDown.has(test.name);
  if (test.type === AST_NODE_TYPES.LogicalExpression && test.operator === '&&') return readsCountdown(test.left, counters) || readsCountdown(test.right, counters);
  return false;
}

function isAlwaysTrue(test: TSESTree.Expression): boolean {
  return (test.type === AST_NODE_TYPES.Literal && Boolean(test.value)) || (test.type === AST_NODE_TYPES.UnaryExpression && test.operator === '!' && test.argument.type === AST_NODE_TYPES.Literal && !test.argument.value);
}

/** `while (!done)`, `while (retry)`: a flag, not a count. */
function isFlagTest(test: TSESTree.Expression): boolean {
  if (test.type === AST_NODE_TYPES.Identifier) return true;
  if (test.type === AST_NODE_TYPES.UnaryExpression && test.operator === '!') return isFlagTest(test.argument);
  if (test.type === AST_NODE_TYPES.LogicalExpression) return isFlagTest(test.left) && isFlagTest(test.right);
  return false;
}

function isContinue(statement: TSESTree.Statement): boolean {
  if (statement.type === AST_NODE_TYPES.ContinueStatement) return true;
  return statement.type === AST_NODE_TYPES.BlockStatement && statement.body.length > 0 && isContinue(statement.body[statement.body.length - 1] as TSESTree.Statement);
}

/** The statement right after `node` in its block leaves (`if (…) continue; throw err;`). */
function isFollowedByExit(node: TSESTree.Statement): boolean {
  const parent = node.parent;
  if (parent?.type !== AST_NODE_TYPES.BlockStatement) return false;
  const next = parent.body[parent.body.indexOf(node) + 1];
  return next !== undefined && leavesSomewhere(next) && next.type !== AST_NODE_TYPES.IfStatement;
}

/** The statement throws, returns or breaks (in a block: one of its statements does). */
export function leavesSomewhere(statement: TSESTree.Statement): boolean {
  if (
    statement.type === AST_NODE_TYPES.ThrowStatement ||
    statement.type === AST_NODE_TYPES.ReturnStatement ||
    statement.type === AST_NODE_TYPES.BreakStatement ||
    (statement.type === AST_NODE_TYPES.ExpressionStatement && isProcessExit(statement.expression))
  ) {
    return true;
  }
  if (statement.type === AST_NODE_TYPES.BlockStatement) return statement.body.some(leavesSomewhere);
  if (statement.type === AST_NODE_TYPES.IfStatement) return leavesSomewhere(statement.consequent);
  return false;
}

/**
 * How many attempts a counted `for` loop makes at most, when its head says so in numbers:
 * `for (let attempt = 0; attempt < 2; attempt++)` → 2. Undefined for any other shape.
 */
export function getLoopAttemptCount(scope: RetryScope): number | undefined {
  const loop = scope.node;
  if (scope.kind !== 'loop' || loop.type !== AST_NODE_TYPES.ForStatement) return undefined;
  const init = loop.init?.type === AST_NODE_TYPES.VariableDeclaration ? loop.init.declarations[0] : undefined;
  const test = loop.test;
  const update = loop.update;
  if (init?.id.type !== AST_NODE_TYPES.Identifier || !isNumber(init.init) || test?.type !== AST_NODE_TYPES.BinaryExpression) return undefined;
  const name = init.id.name;
  if (update?.type !== AST_NODE_TYPES.UpdateExpression || update.operator !== '++' || update.argument.type !== AST_NODE_TYPES.Identifier || update.argument.name !== name) return undefined;
  if (test.left.type !== AST_NODE_TYPES.Identifier || test.left.name !== name || !isNumber(test.right)) return undefined;
  const start = init.init.value;
  const end = test.right.value;
  if (test.operator === '<') return Math.max(0, end - start);
  if (test.operator === '<=') return Math.max(0, end - start + 1);
  return undefined;
}

function isNumber(node: TSESTree.Node | null | undefined): node is TSESTree.NumberLiteral {
  return node?.type === AST_NODE_TYPES.Literal && typeof node.value === 'number';
}
