import { AST_NODE_TYPES, ASTUtils, type TSESLint, type TSESTree } from '@typescript-eslint/utils';
import type { AnyRuleContext } from '../per-file-cache';
import { collectIdentifierNames, getWriteTarget, walkOwnCode } from './code-walk';
import { evaluate } from './delay-arithmetic';
import { findUpperBounds, leavesSomewhere } from './attempt-limit';
import type { AttemptCounters } from './attempt-counters';
import type { RetryScope } from './retry-scope';

/**
 * The longest wait, evaluating the delay at the attempt counter's last value before a wait
 * with Math.random() = 1. A counter that counts down (`retriesLeft - 1`) is evaluated at both
 * ends of its range, since the delay may be built on what is left (`2 ** (5 - retriesLeft)`).
 */
export function getLargestDelay(context: AnyRuleContext, scope: RetryScope, delay: TSESTree.Expression, counters: AttemptCounters): number | undefined {
  const counter = scope.attemptVariable;
  if (!counter) return getLoopBoundedDelay(context, scope, delay);
  const countsDown = counters.countingDown.has(counter) || isPassedDecremented(context, scope, counter);
  const ends = countsDown ? [getFirstValue(context, scope, counter), getLastCountdownValue(context, scope, counter)] : [getLastAttemptNumber(context, scope, counter)];
  if (ends.some((end) => end === undefined)) return undefined;
  let largest = -Infinity;
  for (const end of ends as number[]) {
    const value = evaluate(delay, { [counter]: end }, context, 0);
    if (value === undefined || !Number.isFinite(value)) return undefined;
    largest = Math.max(largest, value);
  }
  return largest;
}

/**
 * A wait that the loop's own test bounds: `for (let delay = 100; delay <= 60000; delay *= 2)`
 * or `while (delay <= 60000) { …; await sleep(delay); delay *= 2; }` never waits longer than
 * the bound, provided the loop body changes the variable only after the wait. Each variable
 * the delay reads and the test bounds (`<`, `<=`) is taken at its bound.
 */
function getLoopBoundedDelay(context: AnyRuleContext, scope: RetryScope, delay: TSESTree.Expression): number | undefined {
  const loop = scope.node;
  if ((loop.type !== AST_NODE_TYPES.ForStatement && loop.type !== AST_NODE_TYPES.WhileStatement) || !loop.test) return undefined;
  const bounds: Record<string, number> = {};
  for (const [name, expression] of findUpperBounds(loop.test, context.sourceCode.visitorKeys)) {
    const bound = getNumber(context, expression);
    if (bound !== undefined) bounds[name] = bound;
  }
  const read = [...collectIdentifierNames(delay, context.sourceCode.visitorKeys)].filter((name) => name in bounds);
  if (read.length === 0 || read.some((name) => isWrittenBefore(context, loop.body, name, delay.range[0]))) return undefined;
  const value = evaluate(delay, bounds, context, 0);
  return value !== undefined && Number.isFinite(value) ? value : undefined;
}

/** `name` assigned or updated in `body` before `offset`: between the loop's test and the wait. */
function isWrittenBefore(context: AnyRuleContext, body: TSESTree.Node, name: string, offset: number): boolean {
  let written = false;
  walkOwnCode(body, context.sourceCode.visitorKeys, (node) => {
    if (node.range[0] >= offset) return false;
    const target = getWriteTarget(node);
    if (target?.type === AST_NODE_TYPES.Identifier && target.name === name && target.range[1] <= offset) written = true;
    return !written;
  });
  return written;
}

function getLoopTest(scope: RetryScope): TSESTree.Expression | null | undefined {
  const loop = scope.node;
  return loop.type === AST_NODE_TYPES.ForStatement || loop.type === AST_NODE_TYPES.WhileStatement || loop.type === AST_NODE_TYPES.DoWhileStatement
    ? loop.test
    : undefined;
}

function getLastAttemptNumber(context: AnyRuleContext, scope: RetryScope, counter: string): number | undefined {
  const test = getLoopTest(scope);
  let last: number | undefined;
  if (!test) return getLastAttemptFromGuard(context, scope, counter);
  walkOwnCode(test, context.sourceCode.visitorKeys, (node) => {
    if (node.type !== AST_NODE_TYPES.BinaryExpression || last !== undefined) return last === undefined;
    const left = node.left.type === AST_NODE_TYPES.UpdateExpression ? node.left.argument : node.left;
    if (left.type !== AST_NODE_TYPES.Identifier || left.name !== counter) return true;
    const bound = getNumber(context, node.right);
    if (bound === undefined) return true;
    if (node.operator === '<') last = bound - 1;
    if (node.operator === '<=') last = bound;
    return last === undefined;
  });
  return last ?? getLastAttemptFromGuard(context, scope, counter);
}

/** `if (attempt >= 5) throw err;` / `if (++attempts > 5) throw err;`: the counter's largest value before a wait. */
function getLastAttemptFromGuard(context: AnyRuleContext, scope: RetryScope, counter: string): number | undefined {
  const guard = findGuard(context, scope, counter);
  if (!guard) return undefined;
  if (guard.operator === '>') return guard.bound;
  if (guard.operator === '>=' || guard.operator === '===' || guard.operator === '==') return guard.bound - 1;
  return undefined;
}

/** `if (retriesLeft <= 1) throw err;`, `while (retriesLeft > 0)`: the counter's smallest value before a wait. */
function getLastCountdownValue(context: AnyRuleContext, scope: RetryScope, counter: string): number | undefined {
  const test = getLoopTest(scope);
  if (test?.type === AST_NODE_TYPES.Identifier && test.name === counter) return 1;
  if (test?.type === AST_NODE_TYPES.BinaryExpression && test.left.type === AST_NODE_TYPES.Identifier && test.left.name === counter) {
    const bound = getNumber(context, test.right);
    if (bound !== undefined && test.operator === '>') return bound + 1;
    if (bound !== undefined && test.operator === '>=') return bound;
  }
  const guard = findGuard(context, scope, counter);
  if (!guard) return undefined;
  if (guard.operator === '<=' || guard.operator === '===' || guard.operator === '==') return guard.bound + 1;
  if (guard.operator === '<') return guard.bound;
  return undefined;
}

/** The first `if (<counter> <op> <number>) <leave>` of the attempt. */
function findGuard(context: AnyRuleContext, scope: RetryScope, counter: string): { operator: string; bound: number } | undefined {
  let guard: { operator: string; bound: number } | undefined;
  walkOwnCode(scope.attempt, context.sourceCode.visitorKeys, (node) => {
    if (guard !== undefined) return false;
    if (node.type !== AST_NODE_TYPES.IfStatement || node.test.type !== AST_NODE_TYPES.BinaryExpression || !leavesSomewhere(node.consequent)) {
      return true;
    }
    const test = node.test;
    const left = test.left.type === AST_NODE_TYPES.UpdateExpression ? test.left.argument : test.left;
    if (left.type !== AST_NODE_TYPES.Identifier || left.name !== counter) return true;
    const bound = getNumber(context, test.right);
    if (bound !== undefined) guard = { operator: test.operator, bound };
    return guard === undefined;
  });
  return guard;
}

/** The counter's value at the first attempt: its declaration's initializer or its parameter's default. */
function getFirstValue(context: AnyRuleContext, scope: RetryScope, counter: string): number | undefined {
  let reference: TSESTree.Identifier | undefined;
  walkOwnCode(scope.attempt, context.sourceCode.visitorKeys, (node) => {
    if (node.type === AST_NODE_TYPES.Identifier && node.name === counter) reference = node;
    return reference === undefined;
  });
  if (!reference) return undefined;
  const variable = ASTUtils.findVariable(context.sourceCode.getScope(reference) as TSESLint.Scope.Scope, reference);
  const definition = variable?.defs.length === 1 ? variable.defs[0] : undefined;
  if (!definition) return undefined;
  if (definition.type === 'Parameter') {
    const pattern = definition.name.parent;
    return pattern?.type === AST_NODE_TYPES.AssignmentPattern && pattern.left === definition.name ? getNumber(context, pattern.right) : undefined;
  }
  return definition.node.type === AST_NODE_TYPES.VariableDeclarator && definition.node.init ? getNumber(context, definition.node.init) : undefined;
}

/** A recursive retry that passes `retriesLeft - 1` for its counter. */
function isPassedDecremented(context: AnyRuleContext, scope: RetryScope, counter: string): boolean {
  if (scope.kind !== 'recursion') return false;
  let found = false;
  walkOwnCode(
    scope.attempt,
    context.sourceCode.visitorKeys,
    (node) => {
      if (
        node.type === AST_NODE_TYPES.BinaryExpression &&
        node.operator === '-' &&
        node.left.type === AST_NODE_TYPES.Identifier &&
        node.left.name === counter &&
        (node.parent?.type === AST_NODE_TYPES.CallExpression || node.parent?.type === AST_NODE_TYPES.Property)
      ) {
        found = true;
      }
      return !found;
    },
    true,
  );
  return found;
}

function getNumber(context: AnyRuleContext, node: TSESTree.Node): number | undefined {
  const value = ASTUtils.getStaticValue(node, context.sourceCode.getScope(node) as TSESLint.Scope.Scope);
  return value && typeof value.value === 'number' ? value.value : undefined;
}
