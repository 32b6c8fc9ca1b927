import type { TSESLint, TSESTree } from '@typescript-eslint/utils';

/**
 * One analysis per file, shared by every rule: the first rule that asks computes
 * the result, keyed by the file's root node, and the others read it.
 */
export function createPerFileCache<T>(
  compute: (context: Readonly<TSESLint.RuleContext<string, readonly unknown[]>>) => T,
): (context: Readonly<TSESLint.RuleContext<string, readonly unknown[]>>) => T {
  const cache = new WeakMap<TSESTree.Node, T>();
  return (context) => {
    const root = context.sourceCode.ast as TSESTree.Node;
    let value = cache.get(root);
    if (value === undefined && !cache.has(root)) {
      value = compute(context);
      cache.set(root, value);
    }
    return value as T;
  };
}

export type AnyRuleContext = Readonly<TSESLint.RuleContext<string, readonly unknown[]>>;
