import type { TSESTree } from '@typescript-eslint/utils';
import { type AnyRuleContext, createPerFileCache } from './per-file-cache';

/**
 * The deepest node that covers each offset, found in one descent that only enters
 * subtrees holding an offset. A text search (`/\.updateMany\b/`) plus this lookup is
 * much cheaper than visiting every node of a file that has a handful of candidates.
 */
export function findNodesAtOffsets(context: AnyRuleContext, offsets: readonly number[]): Map<number, TSESTree.Node> {
  // Text searches give their offsets in order: copied and sorted only when they are not.
  const sorted = isIncreasing(offsets) ? offsets : [...new Set(offsets)].sort((a, b) => a - b);
  // The deepest node found so far for each offset of `sorted`: a node claims its offsets,
  // then its children claim theirs.
  const deepest = new Array<TSESTree.Node | undefined>(sorted.length);
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
  const descendToOne = (node: TSESTree.Node, index: number): void => {
    const offset = sorted[index] as number;
    let current = node;
    for (let child = findChildAt(current, offset, keys); child; child = findChildAt(current, offset, keys)) current = child;
    deepest[index] = current;
  };

  /** The offsets lo..hi, all inside `node`. */
  const descend = (node: TSESTree.Node, lo: number, hi: number): void => {
    if (hi - lo === 1) {
      descendToOne(node, lo);
      return;
    }
    deepest.fill(node, lo, hi);
    const names = keys[node.type] ?? NO_KEYS;
    for (let keyIndex = 0; keyIndex < names.length; keyIndex++) {
      const value = (node as unknown as Record<string, unknown>)[names[keyIndex] as string];
      if (!Array.isArray(value)) {
        if (isNode(value)) descendIfHolding(value, lo, hi);
      } else if (value.length <= SHORT_LIST) {
        for (let childIndex = 0; childIndex < value.length; childIndex++) {
          const child: unknown = value[childIndex];
          if (isNode(child)) descendIfHolding(child, lo, hi);
        }
      } else {
        // A long list (a program's statements): look each group of offsets up in it
        // rather than every child against the offsets.
        for (let index = lo; index < hi; ) {
          const child = findInList(value, sorted[index] as number);
          if (!child) {
            index += 1;
            continue;
          }
          const to = lowerBound(child.range[1], index + 1, hi);
          descend(child, index, to);
          index = to;
        }
      }
    }
  };

  const descendIfHolding = (child: TSESTree.Node, lo: number, hi: number): void => {
    const from = lowerBound(child.range[0], lo, hi);
    const to = lowerBound(child.range[1], from, hi);
    if (from < to) descend(child, from, to);
  };

  const root = context.sourceCode.ast as TSESTree.Node;
  const from = lowerBound(root.range[0], 0, sorted.length);
  const to = lowerBound(root.range[1], from, sorted.length);
  if (from < to) descend(root, from, to);
  const found = new Map<number, TSESTree.Node>();
  for (let index = from; index < to; index++) found.set(sorted[index] as number, deepest[index] as TSESTree.Node);
  return found;
}

/** The child of `node` whose range holds `offset`, if any. */
function findChildAt(node: TSESTree.Node, offset: number, keys: Record<string, readonly string[] | undefined>): TSESTree.Node | undefined {
  const names = keys[node.type] ?? NO_KEYS;
  // Indexed loops: the hottest code of the look-up, run for every level of every offset.
  for (let index = 0; index < names.length; index++) {
    const value = (node as unknown as Record<string, unknown>)[names[index] as string];
    if (Array.isArray(value)) {
      const child = findInList(value, offset);
      if (child) return child;
    } else if (isNode(value) && value.range[0] <= offset && offset < value.range[1]) {
      return value;
    }
  }
  return undefined;
}

/** Lists up to this length are scanned; longer ones are searched. */
const SHORT_LIST = 8;

/**
 * Lists of children (statements, arguments, elements) are in source order and do not
 * overlap: in a long one, a binary search finds the last child starting at or before the
 * offset, and the offset is in it or in no child. A hole (`[a, , b]`) there falls back to a scan.
 */
function findInList(list: readonly unknown[], offset: number): TSESTree.Node | undefined {
  if (list.length > SHORT_LIST) {
    let lo = 0;
    let hi = list.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const child = list[mid];
      if (isNode(child) && child.range[0] > offset) hi = mid;
      else lo = mid + 1;
    }
    if (lo === 0) return undefined;
    const candidate = list[lo - 1];
    if (isNode(candidate)) return offset < candidate.range[1] ? candidate : undefined;
  }
  for (let index = 0; index < list.length; index++) {
    const child = list[index];
    if (isNode(child) && child.range[0] <= offset && offset < child.range[1]) return child;
  }
  return undefined;
}

const NO_KEYS: readonly string[] = [];

function isNode(value: unknown): value is TSESTree.Node {
  return typeof value === 'object' && value !== null && typeof (value as { type?: unknown }).type === 'string' && Array.isArray((value as { range?: unknown }).range);
}

/** A member call `<receiver>.<name>(…)`: the call, the member, its receiver and the name. */
export interface MemberCall {
  call: TSESTree.CallExpression;
  member: TSESTree.MemberExpression;
  receiver: TSESTree.Expression;
  name: string;
}

/**
 * Member calls `<receiver>.<name>(…)` with one of `names` (the whole name); comments,
 * strings and computed members are skipped by the look-up in the tree.
 */
export function findMemberCallsNamed(context: AnyRuleContext, names: readonly string[]): MemberCall[] {
  const calls: MemberCall[] = [];
  for (const member of findMembersNamed(context, names)) {
    const call = member.parent;
    if (call?.type !== 'CallExpression' || call.callee !== member) continue;
    calls.push({ call, member, receiver: member.object, name: (member.property as TSESTree.Identifier).name });
  }
  return calls;
}

/** Members `<object>.<name>` (not computed) with one of `names`, in source order. */
export function findMembersNamed(context: AnyRuleContext, names: readonly string[]): TSESTree.MemberExpression[] {
  const offsets = findMemberNameOffsets(context, names);
  if (offsets.length === 0) return [];
  const members: TSESTree.MemberExpression[] = [];
  for (const node of findNodesAtOffsets(context, offsets).values()) {
    if (node.type !== 'Identifier') continue;
    const member = node.parent;
    if (member?.type === 'MemberExpression' && member.property === node && !member.computed) members.push(member);
  }
  return members.sort((a, b) => a.range[0] - b.range[0]);
}

/** Whether the text has `.name(` or `.name<` for one of `names` (a quick test before any look-up). */
export function hasMemberCallText(context: AnyRuleContext, names: readonly string[]): boolean {
  const text = context.sourceCode.text;
  return findMemberNameOffsets(context, names).some((offset) => {
    const after = skipSpaces(text, skipName(text, offset, 1), 1);
    return text[after] === '(' || text[after] === '<';
  });
}

function findMemberNameOffsets(context: AnyRuleContext, names: readonly string[]): number[] {
  const byName = getMemberNames(context, names);
  const offsets: number[] = [];
  for (const name of names) {
    const found = byName.get(name);
    if (found) offsets.push(...found);
  }
  return offsets;
}

/**
 * Every name asked for so far in the process, searched for in one pass per file: the
 * analyses ask for several fixed lists, so after the first files the search stops growing.
 */
const askedNames = new Set<string>();
const MAX_ASKED_NAMES = 500;
let askedNamesPattern: RegExp | undefined;
const memberNamesByFile = new WeakMap<TSESTree.Node, { pattern: RegExp; byName: Map<string, number[]> }>();
/** Lists up to this length are added to the search on every call, longer ones once. */
const SHORT_NAME_LIST = 4;
/** Lists whose names are all in `askedNames`: most callers ask with the same constant list for every file. */
let listsAsked = new WeakSet<readonly string[]>();

/** Where each asked name follows a `.` in the text (`.updateMany`, `. query`), by name. */
function getMemberNames(context: AnyRuleContext, names: readonly string[]): ReadonlyMap<string, number[]> {
  // The callers' lists are constants; the bound only keeps a caller with changing lists from growing the search forever.
  if (askedNames.size > MAX_ASKED_NAMES) {
    askedNames.clear();
    listsAsked = new WeakSet();
  }
  const before = askedNames.size;
  // A short list (often a literal made per call) is cheaper to add again than to remember.
  const remembered = names.length > SHORT_NAME_LIST;
  if (!remembered || !listsAsked.has(names)) {
    for (const name of names) askedNames.add(name);
    if (remembered) listsAsked.add(names);
  }
  if (!askedNamesPattern || askedNames.size !== before) {
    const alternatives = [...askedNames].map((name) => name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|');
    askedNamesPattern = new RegExp(`\\.\\s*(${alternatives})(?![\\w$])`, 'g');
  }
  const root = context.sourceCode.ast as TSESTree.Node;
  const known = memberNamesByFile.get(root);
  if (known?.pattern === askedNamesPattern) return known.byName;
  const text = context.sourceCode.text;
  const pattern = askedNamesPattern;
  const byName = new Map<string, number[]>();
  pattern.lastIndex = 0;
  // `test` and the name read back from the match's end: no match array per hit.
  while (pattern.test(text)) {
    const end = pattern.lastIndex;
    const offset = skipName(text, end - 1, -1) + 1;
    const name = text.slice(offset, end);
    const found = byName.get(name);
    if (found) found.push(offset);
    else byName.set(name, [offset]);
  }
  memberNamesByFile.set(root, { pattern, byName });
  return byName;
}

/**
 * Every `this` inside `within` (nested functions and classes included), found from the
 * text: a large class has few `this` among thousands of nodes. Kept per node: a class body
 * is asked for its field reads, its field writes and each method's calls.
 */
export function findThisExpressions(context: AnyRuleContext, within: TSESTree.Node): readonly TSESTree.ThisExpression[] {
  let found = thisExpressionsByNode.get(within);
  if (!found) thisExpressionsByNode.set(within, (found = searchThisExpressions(context, within)));
  return found;
}

const thisExpressionsByNode = new WeakMap<TSESTree.Node, readonly TSESTree.ThisExpression[]>();

function searchThisExpressions(context: AnyRuleContext, within: TSESTree.Node): TSESTree.ThisExpression[] {
  const text = context.sourceCode.text;
  const [start, end] = within.range;
  const offsets: number[] = [];
  for (let at = text.indexOf('this', start); at >= 0 && at + 4 <= end; at = text.indexOf('this', at + 4)) {
    if (!isNameChar(text[at - 1]) && !isNameChar(text[at + 4])) offsets.push(at);
  }
  if (offsets.length === 0) return [];
  const found: TSESTree.ThisExpression[] = [];
  for (const node of findNodesAtOffsets(context, offsets).values()) if (node.type === 'ThisExpression') found.push(node);
  return found.sort((a, b) => a.range[0] - b.range[0]);
}

/** A character of a JavaScript name (ASCII: what the searches here look for). */
export function isNameChar(char: string | undefined): boolean {
  return char !== undefined && char.length === 1 && isNameCode(char.charCodeAt(0));
}

/** From `offset`, stepping by `step` (1 forward, -1 back), the first offset that is not whitespace (may be outside the text). */
export function skipSpaces(text: string, offset: number, step: 1 | -1): number {
  let at = offset;
  while (at >= 0 && at < text.length && isSpaceCode(text.charCodeAt(at))) at += step;
  return at;
}

/** From `offset`, stepping by `step`, the first offset that is not a name character (may be outside the text). */
export function skipName(text: string, offset: number, step: 1 | -1): number {
  let at = offset;
  while (at >= 0 && at < text.length && isNameCode(text.charCodeAt(at))) at += step;
  return at;
}

// Character codes rather than a pattern per character: these run on every candidate of the text searches.
/** `[A-Za-z0-9_$]`. */
function isNameCode(code: number): boolean {
  return (code >= 97 && code <= 122) || (code >= 65 && code <= 90) || (code >= 48 && code <= 57) || code === 95 || code === 36;
}

/** What `\s` matches: ASCII spaces at once, other characters by the pattern (no-break and Unicode spaces). */
function isSpaceCode(code: number): boolean {
  if (code < 128) return code === 32 || (code >= 9 && code <= 13);
  return SPACE.test(String.fromCharCode(code));
}

const SPACE = /\s/;

function isIncreasing(values: readonly number[]): boolean {
  for (let index = 1; index < values.length; index++) if ((values[index] as number) <= (values[index - 1] as number)) return false;
  return true;
}

/**
 * A computed key that can hold a method's name: not `list[0]`, not `obj[Symbol.asyncDispose]`
 * (their receivers would be resolved for nothing, and that can cost a class's every field).
 */
function mayBeMethodName(key: TSESTree.Expression): boolean {
  if (key.type === 'Literal') return typeof key.value === 'string';
  return !(key.type === 'MemberExpression' && key.object.type === 'Identifier' && key.object.name === 'Symbol');
}

/** Calls of a computed member, `<receiver>[<key>](…)`: found by the `](` text first. */
export const findComputedMemberCalls = createPerFileCache((context: AnyRuleContext): ReadonlyArray<{ call: TSESTree.CallExpression; member: TSESTree.MemberExpression }> => {
  const text = context.sourceCode.text;
  const offsets: number[] = [];
  for (let offset = text.indexOf(']'); offset >= 0; offset = text.indexOf(']', offset + 1)) {
    if (text[skipSpaces(text, offset + 1, 1)] === '(') offsets.push(offset);
  }
  if (offsets.length === 0) return [];
  const calls: Array<{ call: TSESTree.CallExpression; member: TSESTree.MemberExpression }> = [];
  for (const node of findNodesAtOffsets(context, offsets).values()) {
    if (node.type !== 'MemberExpression' || !node.computed || !mayBeMethodName(node.property)) continue;
    const call = node.parent;
    if (call?.type === 'CallExpression' && call.callee === node) calls.push({ call, member: node });
  }
  return calls.sort((a, b) => a.call.range[0] - b.call.range[0]);
});
