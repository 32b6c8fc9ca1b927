import type { TSESLint, TSESTree } from '@typescript-eslint/utils';

/** Not computed yet for this file (a computed value may be `undefined`). */
const NOT_COMPUTED: unique symbol = Symbol('not computed');

type Slots = unknown[];

/** How many caches exist: each owns one slot of every file's slots. */
let slotCount = 0;
/** Each file's values, by cache: one lookup per file, however many caches a rule asks. */
const slotsByRoot = new WeakMap<TSESTree.Node, Slots>();
// Rules ask about the file being linted many times in a row: its slots are kept at hand.
let lastRoot: TSESTree.Node | undefined;
let lastSlots: Slots = [];

function getSlots(root: TSESTree.Node): Slots {
  if (root === lastRoot) return lastSlots;
  let slots = slotsByRoot.get(root);
  if (!slots) {
    slots = new Array<unknown>(slotCount).fill(NOT_COMPUTED);
    slotsByRoot.set(root, slots);
  }
  lastRoot = root;
  lastSlots = slots;
  return slots;
}

/**
 * One analysis per file, shared by every rule: the first rule that asks computes
 * the result, kept with the file's root node, and the others read it.
 */
export function createPerFileCache<T>(
  compute: (context: Readonly<TSESLint.RuleContext<string, readonly unknown[]>>) => T,
): (context: Readonly<TSESLint.RuleContext<string, readonly unknown[]>>) => T {
  const slot = slotCount++;
  return (context) => {
    const slots = getSlots(context.sourceCode.ast as TSESTree.Node);
    // A cache made after this file's slots were (none is, in practice) has no slot there yet.
    let value = slot < slots.length ? slots[slot] : NOT_COMPUTED;
    if (value === NOT_COMPUTED) {
      value = compute(context);
      while (slots.length < slot) slots.push(NOT_COMPUTED);
      slots[slot] = value;
    }
    return value as T;
  };
}

export type AnyRuleContext = Readonly<TSESLint.RuleContext<string, readonly unknown[]>>;
