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

/** Keys that only hold types: the retry analysis never needs to look inside them. */
const TYPE_KEYS = new Set([
  'typeAnnotation',
  'returnType',
  'typeParameters',
  'typeArguments',
  'superTypeArguments',
  'superTypeParameters',
  'implements',
  'decorators',
]);

/** TypeScript nodes that hold no runtime code. */
function isTypeOnlyNode(type: string): boolean {
  return (
    type === 'TSInterfaceDeclaration' ||
    type === 'TSTypeAliasDeclaration' ||
    type === 'TSDeclareFunction' ||
    type === 'TSTypeAnnotation' ||
    type === 'TSTypeParameterDeclaration' ||
    type === 'TSTypeParameterInstantiation' ||
    type === 'TSIndexSignature' ||
    (type.startsWith('TS') && (type.endsWith('Type') || type.endsWith('Keyword')))
  );
}

const codeKeysCache = new WeakMap<TSESLint.SourceCode.VisitorKeys, Map<string, readonly string[]>>();

/** The parser's visitor keys for `type`, without the type-only ones (computed once per key set). */
function getCodeKeys(keys: TSESLint.SourceCode.VisitorKeys, type: string): readonly string[] {
  let byType = codeKeysCache.get(keys);
  if (!byType) {
    byType = new Map();
    codeKeysCache.set(keys, byType);
  }
  let codeKeys = byType.get(type);
  if (!codeKeys) {
    codeKeys = isTypeOnlyNode(type) ? [] : (keys[type] ?? []).filter((key) => !TYPE_KEYS.has(key));
    byType.set(type, codeKeys);
  }
  return codeKeys;
}

/** Child nodes that hold code, in source order, following the parser's visitor keys. */
export function findChildNodes(node: TSESTree.Node, keys: TSESLint.SourceCode.VisitorKeys): TSESTree.Node[] {
  const children: TSESTree.Node[] = [];
  for (const key of getCodeKeys(keys, node.type)) {
    const value = (node as unknown as Record<string, unknown>)[key];
    if (Array.isArray(value)) {
      for (const item of value) if (isNode(item)) children.push(item);
    } else if (isNode(value)) {
      children.push(value);
    }
  }
  return children;
}

/** Pushes the code children of `node` on `stack`, last child first (so they pop in source order). */
export function pushChildNodes(node: TSESTree.Node, keys: TSESLint.SourceCode.VisitorKeys, stack: TSESTree.Node[]): void {
  const codeKeys = getCodeKeys(keys, node.type);
  for (let keyIndex = codeKeys.length - 1; keyIndex >= 0; keyIndex--) {
    const value = (node as unknown as Record<string, unknown>)[codeKeys[keyIndex] as string];
    if (Array.isArray(value)) {
      for (let index = value.length - 1; index >= 0; index--) {
        const item: unknown = value[index];
        if (isNode(item)) stack.push(item);
      }
    } else if (isNode(value)) {
      stack.push(value);
    }
  }
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
    pushChildNodes(current, keys, stack);
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
