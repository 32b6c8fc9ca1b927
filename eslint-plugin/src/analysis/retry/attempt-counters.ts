import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';
import type { AnyRuleContext } from '../per-file-cache';
import { walkOwnCode } from './code-walk';
import type { RetryScope } from './retry-scope';

/** The variables of a retry that change from one attempt to the next. */
export interface AttemptCounters {
  /** Variables that change from one attempt to the next: counters and delays updated in the attempt. */
  readonly counters: ReadonlySet<string>;
  /** Counters that go down (`retriesLeft--`): a delay built on them shrinks. */
  readonly countingDown: ReadonlySet<string>;
}

/** The attempt variable of `scope` and every variable incremented or decremented in its loop or attempt. */
export function collectAttemptCounters(context: AnyRuleContext, scope: RetryScope): AttemptCounters {
  const counters = new Set<string>();
  const countingDown = new Set<string>();
  if (scope.attemptVariable) counters.add(scope.attemptVariable);
  const counted = scope.kind === 'loop' ? scope.node : scope.attempt;
  walkOwnCode(counted, context.sourceCode.visitorKeys, (node) => {
    const name = getIncrementedName(node);
    if (name) counters.add(name);
    if (
      (node.type === AST_NODE_TYPES.UpdateExpression && node.operator === '--' && node.argument.type === AST_NODE_TYPES.Identifier) ||
      (node.type === AST_NODE_TYPES.AssignmentExpression && node.operator === '-=' && node.left.type === AST_NODE_TYPES.Identifier)
    ) {
      countingDown.add(node.type === AST_NODE_TYPES.UpdateExpression ? (node.argument as TSESTree.Identifier).name : (node.left as TSESTree.Identifier).name);
    }
    return true;
  });
  return { counters, countingDown };
}

/** Names that say a variable counts attempts. */
export const ATTEMPT_NAME = /retr(y|ies)|attempt|tries|tried/i;

/** `n++`, `++n`, `n--`, `n += 1`, `n -= 1`, `n = n + 1`: the name of `n`. */
export function getIncrementedName(node: TSESTree.Node): string | undefined {
  if (node.type === AST_NODE_TYPES.UpdateExpression && node.argument.type === AST_NODE_TYPES.Identifier) {
    return node.argument.name;
  }
  if (node.type === AST_NODE_TYPES.AssignmentExpression && node.left.type === AST_NODE_TYPES.Identifier) {
    if (node.operator === '+=' || node.operator === '-=') return node.left.name;
    if (
      node.operator === '=' &&
      node.right.type === AST_NODE_TYPES.BinaryExpression &&
      (node.right.operator === '+' || node.right.operator === '-') &&
      node.right.left.type === AST_NODE_TYPES.Identifier &&
      node.right.left.name === node.left.name
    ) {
      return node.left.name;
    }
  }
  return undefined;
}
