import type { TSESTree } from '@typescript-eslint/utils';
import { type AnyRuleContext, createPerFileCache } from './per-file-cache';

/**
 * The deepest node that covers each offset, found in one descent that only enters
 * subtrees holding an offset. A text search (`/\.updateMany\b/`) plus this lookup is
 * much cheaper than visiting every node of a file that has a handful of candidates.
 */
export function findNodesAtOffsets(context: AnyRuleContext, offsets: readonly number[]): Map<number, TSESTree.Node> {
  const sorted = [...new Set(offsets)].sort((a, b) => a - b);
  const found = new Map<number, TSESTree.Node>();
  const keys = context.sourceCode.visitorKeys as Record<string, readonly string[] | undefined>;

  const lowerBound = (value: number, lo: number, hi: number): number => {
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if ((sorted[mid] as number) < value) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };

  const descend = (node: TSESTree.Node, lo: number, hi: number): void => {
    const covered = new Array<boolean>(hi - lo).fill(false);
    for (const key of keys[node.type] ?? []) {
      const value = (node as unknown as Record<string, unknown>)[key];
      const children = Array.isArray(value) ? value : [value];
      for (const child of children) {
        if (!isNode(child)) continue;
        const from = lowerBound(child.range[0], lo, hi);
        const to = lowerBound(child.range[1], from, hi);
        if (from === to) continue;
        for (let i = from; i < to; i++) covered[i - lo] = true;
        descend(child, from, to);
      }
    }
    for (let i = lo; i < hi; i++) if (!covered[i - lo]) found.set(sorted[i] as number, node);
  };

  const root = context.sourceCode.ast as TSESTree.Node;
  const from = lowerBound(root.range[0], 0, sorted.length);
  const to = lowerBound(root.range[1], from, sorted.length);
  if (from < to) descend(root, from, to);
  return found;
}

function isNode(value: unknown): value is TSESTree.Node {
  return typeof value === 'object' && value !== null && typeof (value as { type?: unknown }).type === 'string' && Array.isArray((value as { range?: unknown }).range);
}

/**
 * Member calls `<receiver>.<name>(…)` whose property name matches `pattern` (a regex
 * source of alternatives). Returns the call, receiver and name; skips comments, strings
 * and computed members.
 */
export interface MemberCall {
  call: TSESTree.CallExpression;
  member: TSESTree.MemberExpression;
  receiver: TSESTree.Expression;
  name: string;
}

export function findMemberCallsNamed(context: AnyRuleContext, names: readonly string[]): MemberCall[] {
  const text = context.sourceCode.text;
  const pattern = new RegExp(`\\.\\s*(${names.join('|')})\\b`, 'g');
  const offsets: number[] = [];
  for (const match of text.matchAll(pattern)) {
    offsets.push((match.index ?? 0) + match[0].length - (match[1] as string).length);
  }
  if (offsets.length === 0) return [];
  const calls: MemberCall[] = [];
  for (const node of findNodesAtOffsets(context, offsets).values()) {
    if (node.type !== 'Identifier') continue;
    const member = node.parent;
    if (member?.type !== 'MemberExpression' || member.property !== node || member.computed) continue;
    const call = member.parent;
    if (call?.type !== 'CallExpression' || call.callee !== member) continue;
    calls.push({ call, member, receiver: member.object, name: node.name });
  }
  return calls.sort((a, b) => a.call.range[0] - b.call.range[0]);
}

/** Calls of a computed member, `<receiver>[<key>](…)`: found by the `](` text first. */
export const findComputedMemberCalls = createPerFileCache((context: AnyRuleContext): ReadonlyArray<{ call: TSESTree.CallExpression; member: TSESTree.MemberExpression }> => {
  const offsets = [...context.sourceCode.text.matchAll(/\]\s*\(/g)].map((match) => match.index ?? 0);
  if (offsets.length === 0) return [];
  const calls: Array<{ call: TSESTree.CallExpression; member: TSESTree.MemberExpression }> = [];
  for (const node of findNodesAtOffsets(context, offsets).values()) {
    if (node.type !== 'MemberExpression' || !node.computed) continue;
    const call = node.parent;
    if (call?.type === 'CallExpression' && call.callee === node) calls.push({ call, member: node });
  }
  return calls.sort((a, b) => a.call.range[0] - b.call.range[0]);
});
