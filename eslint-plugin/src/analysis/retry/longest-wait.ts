import { AST_NODE_TYPES, ASTUtils, type TSESLint, type TSESTree } from '@typescript-eslint/utils';
import type { AnyRuleContext } from '../per-file-cache';
import { walkOwnCode } from './code-walk';
import { evaluate } from './delay-arithmetic';
import { leavesSomewhere } from './attempt-limit';
import type { RetryScope } from './retry-scope';

/** The longest wait, evaluating the delay at the loop's last attempt with Math.random() = 1. */
export function getLargestDelay(context: AnyRuleContext, scope: RetryScope, delay: TSESTree.Expression): number | undefined {
  const last = getLastAttemptNumber(context, scope);
  if (last === undefined || !scope.attemptVariable) return undefined;
  const value = evaluate(delay, { [scope.attemptVariable]: last }, context, 0);
  return value !== undefined && Number.isFinite(value) ? value : undefined;
}

function getLastAttemptNumber(context: AnyRuleContext, scope: RetryScope): number | undefined {
  const loop = scope.node;
  const counter = scope.attemptVariable;
  if (!counter) return undefined;
  const test =
    loop.type === AST_NODE_TYPES.ForStatement || loop.type === AST_NODE_TYPES.WhileStatement || loop.type === AST_NODE_TYPES.DoWhileStatement
      ? loop.test
      : undefined;
  let last: number | undefined;
  if (!test) return getLastAttemptFromGuard(context, scope, counter);
  walkOwnCode(test, context.sourceCode.visitorKeys, (node) => {
    if (node.type !== AST_NODE_TYPES.BinaryExpression || last !== undefined) return last === undefined;
    const left = node.left.type === AST_NODE_TYPES.UpdateExpression ? node.left.argument : node.left;
    if (left.type !== AST_NODE_TYPES.Identifier || left.name !== counter) return true;
    const bound = ASTUtils.getStaticValue(node.right, context.sourceCode.getScope(node) as TSESLint.Scope.Scope);
    if (!bound || typeof bound.value !== 'number') return true;
    if (node.operator === '<') last = bound.value - 1;
    if (node.operator === '<=') last = bound.value;
    return last === undefined;
  });
  return last ?? getLastAttemptFromGuard(context, scope, counter);
}

/** `if (attempt >= 5) throw err;` / `if (++attempts > 5) throw err;`: the counter's largest value before a wait. */
function getLastAttemptFromGuard(context: AnyRuleContext, scope: RetryScope, counter: string): number | undefined {
  let last: number | undefined;
  walkOwnCode(scope.attempt, context.sourceCode.visitorKeys, (node) => {
    if (last !== undefined) return false;
    if (node.type !== AST_NODE_TYPES.IfStatement || node.test.type !== AST_NODE_TYPES.BinaryExpression || !leavesSomewhere(node.consequent)) {
      return true;
    }
    const test = node.test;
    const left = test.left.type === AST_NODE_TYPES.UpdateExpression ? test.left.argument : test.left;
    if (left.type !== AST_NODE_TYPES.Identifier || left.name !== counter) return true;
    const bound = ASTUtils.getStaticValue(test.right, context.sourceCode.getScope(test) as TSESLint.Scope.Scope);
    if (!bound || typeof bound.value !== 'number') return true;
    if (test.operator === '>') last = bound.value;
    else if (test.operator === '>=' || test.operator === '===' || test.operator === '==') last = bound.value - 1;
    return last === undefined;
  });
  return last;
}
