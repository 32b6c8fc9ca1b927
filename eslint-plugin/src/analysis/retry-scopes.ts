import type { TSESTree } from '@typescript-eslint/utils';
import { createPerFileCache, type AnyRuleContext } from './per-file-cache';

/**
 * A piece of code that runs again when an attempt fails: a loop that catches and
 * goes round, a function that calls itself from its catch, `.catch(() => retry())`,
 * or a retry library's callback.
 */
export interface RetryScope {
  kind: 'loop' | 'recursion' | 'catch-retry' | 'library';
  /** The loop statement, the recursive function, the `.catch` call or the library call. */
  node: TSESTree.Node;
  /** The code that runs once per attempt (loop body, function body, callback). */
  attempt: TSESTree.Node;
  /** Name of the variable that counts attempts, when there is one. */
  attemptVariable?: string;
  /** The retry library's module name, for `kind: 'library'`. */
  library?: string;
}

/** Every retry scope of the file; computed once per file. Placeholder until retry analysis lands. */
export const findRetryScopes = createPerFileCache((context: AnyRuleContext): readonly RetryScope[] => {
  void context;
  return [];
});

/** Retry scopes whose attempt contains `node`, innermost first. */
export function findEnclosingRetryScopes(context: AnyRuleContext, node: TSESTree.Node): RetryScope[] {
  const [start, end] = node.range;
  return findRetryScopes(context)
    .filter((scope) => scope.attempt.range[0] <= start && scope.attempt.range[1] >= end)
    .sort((a, b) => b.attempt.range[0] - a.attempt.range[0]);
}
