import { AST_NODE_TYPES, type TSESLint, type TSESTree } from '@typescript-eslint/utils';

/** Small AST walking helpers shared by the retry analysis. */

export type FunctionNode =
  | TSESTree.FunctionDeclaration
  | TSESTree.FunctionExpression
  | TSESTree.ArrowFunctionExpression;

export function isFunctionNode(node: TSESTree.Node): node is FunctionNode {
  return (
    node.type === AST_NODE_TYPES.FunctionDeclaration ||
    node.type === AST_NODE_TYPES.FunctionExpression ||
    node.type === AST_NODE_TYPES.ArrowFunctionExpression
  );
}

/** Child nodes in source order, following the parser's visitor keys (skips `parent` and tokens). */
export function findChildNodes(node: TSESTree.Node, keys: TSESLint.SourceCode.VisitorKeys): TSESTree.Node[] {
  const children: TSESTree.Node[] = [];
  const nodeKeys = keys[node.type] ?? [];
  for (const key of nodeKeys) {
    const value = (node as unknown as Record<string, unknown>)[key];
    if (Array.isArray(value)) {
      for (const item of value) if (isNode(item)) children.push(item);
    } else if (isNode(value)) {
      children.push(value);
    }
  }
  return children;
}

function isNode(value: unknown): value is TSESTree.Node {
  return typeof value === 'object' && value !== null && typeof (value as { type?: unknown }).type === 'string';
}

/**
 * Visits `node` and its descendants; `visit` returns false to skip a node's children.
 * Nested functions are skipped (their code runs at another time) unless `intoFunctions`.
 */
export function walkOwnCode(
  node: TSESTree.Node,
  keys: TSESLint.SourceCode.VisitorKeys,
  visit: (node: TSESTree.Node) => boolean,
  intoFunctions = false,
): void {
  const stack: TSESTree.Node[] = [node];
  while (stack.length > 0) {
    const current = stack.pop() as TSESTree.Node;
    if (current !== node && !intoFunctions && isFunctionNode(current)) continue;
    if (!visit(current)) continue;
    const children = findChildNodes(current, keys);
    for (let index = children.length - 1; index >= 0; index--) stack.push(children[index] as TSESTree.Node);
  }
}

/** The name a function is called by: its own name, or the variable, property or method it is assigned to. */
export function getFunctionName(fn: FunctionNode): string | undefined {
  if (fn.id) return fn.id.name;
  const parent = fn.parent;
  if (!parent) return undefined;
  switch (parent.type) {
    case AST_NODE_TYPES.VariableDeclarator:
      return parent.id.type === AST_NODE_TYPES.Identifier ? parent.id.name : undefined;
    case AST_NODE_TYPES.Property:
    case AST_NODE_TYPES.MethodDefinition:
    case AST_NODE_TYPES.PropertyDefinition:
      return !parent.computed && parent.key.type === AST_NODE_TYPES.Identifier ? parent.key.name : undefined;
    case AST_NODE_TYPES.AssignmentExpression:
      if (parent.left.type === AST_NODE_TYPES.Identifier) return parent.left.name;
      if (
        parent.left.type === AST_NODE_TYPES.MemberExpression &&
        !parent.left.computed &&
        parent.left.property.type === AST_NODE_TYPES.Identifier
      ) {
        return parent.left.property.name;
      }
      return undefined;
    default:
      return undefined;
  }
}
