import type { TSESTree } from '@typescript-eslint/utils';

const SIMPLE_RECEIVER_DEPTH = 4;

/** `orders`, `this.orders`, `db.orders`: a receiver that can be read twice without side effects. */
export function isSimpleReference(node: TSESTree.Node, depth = 0): boolean {
  if (node.type === 'Identifier' || node.type === 'ThisExpression') return true;
  if (node.type === 'MemberExpression' && !node.computed && !node.optional && depth < SIMPLE_RECEIVER_DEPTH) {
    return isSimpleReference(node.object, depth + 1);
  }
  return false;
}
