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

  /** One offset left: follow the one child that holds it at each level (no bookkeeping). */
  const descendToOne = (node: TSESTree.Node, offset: number): void => {
    let current = node;
    for (let child = findChildAt(current, offset, keys); child; child = findChildAt(current, offset, keys)) current = child;
    found.set(offset, current);
  };

  const descend = (node: TSESTree.Node, lo: number, hi: number): void => {
    if (hi - lo === 1) {
      descendToOne(node, sorted[lo] as number);
      return;
    }
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

/** The child of `node` whose range holds `offset`, if any. */
function findChildAt(node: TSESTree.Node, offset: number, keys: Record<string, readonly string[] | undefined>): TSESTree.Node | undefined {
  for (const key of keys[node.type] ?? []) {
    const value = (node as unknown as Record<string, unknown>)[key];
    if (Array.isArray(value)) {
      const child = findInList(value, offset);
      if (child) return child;
    } else if (isNode(value) && value.range[0] <= offset && offset < value.range[1]) {
      return value;
    }
  }
  return undefined;
}

/**
 * Lists of children (statements, arguments, elements) are in source order: a binary search
 * in long ones, checked, else a scan (holes such as `[a, , b]` or an offset in no child).
 */
function findInList(list: readonly unknown[], offset: number): TSESTree.Node | undefined {
  if (list.length > 8) {
    let lo = 0;
    let hi = list.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const child = list[mid];
      if (isNode(child) && child.range[0] > offset) hi = mid;
      else lo = mid + 1;
    }
    const candidate = list[lo - 1];
    if (isNode(candidate) && candidate.range[0] <= offset && offset < candidate.range[1]) return candidate;
  }
  for (const child of list) if (isNode(child) && child.range[0] <= offset && offset < child.range[1]) return child;
  return undefined;
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
