import { AST_NODE_TYPES, type TSESLint, type TSESTree } from '@typescript-eslint/utils';
import { isFunctionNode, isNode } from '../ast';

/** Walking the code of one attempt (runtime code only, types skipped) and collecting the names it binds, reads and assigns. */

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

/** Visits `root` and every code node below it, nested functions included. */
export function walkAll(
  root: TSESTree.Node,
  keys: TSESLint.SourceCode.VisitorKeys,
  visit: (node: TSESTree.Node) => void,
): void {
  const stack: TSESTree.Node[] = [root];
  while (stack.length > 0) {
    const node = stack.pop() as TSESTree.Node;
    visit(node);
    pushChildNodes(node, keys, stack);
  }
}

/** Names of identifiers read or written in `node` (not in nested functions' own parameters). */
export function collectIdentifierNames(node: TSESTree.Node, keys: TSESLint.SourceCode.VisitorKeys): Set<string> {
  const names = new Set<string>();
  walkOwnCode(
    node,
    keys,
    (child) => {
      if (child.type === AST_NODE_TYPES.Identifier) {
        const parent = child.parent;
        const isPropertyName =
          parent?.type === AST_NODE_TYPES.MemberExpression && parent.property === child && !parent.computed;
        const isKey = parent?.type === AST_NODE_TYPES.Property && parent.key === child && !parent.computed && !parent.shorthand;
        if (!isPropertyName && !isKey) names.add(child.name);
      }
      return true;
    },
    true,
  );
  return names;
}

/** Containers whose size is read: `items.length`, `map.size`. */
export function containsCollectionSize(node: TSESTree.Node, keys: TSESLint.SourceCode.VisitorKeys): boolean {
  let found = false;
  walkOwnCode(node, keys, (child) => {
    if (
      child.type === AST_NODE_TYPES.MemberExpression &&
      !child.computed &&
      child.property.type === AST_NODE_TYPES.Identifier &&
      (child.property.name === 'length' || child.property.name === 'size')
    ) {
      found = true;
    }
    return !found;
  });
  return found;
}

/** What an assignment (`x = …`, `x *= …`) or an update (`x++`) writes to; undefined for any other node. */
export function getWriteTarget(node: TSESTree.Node): TSESTree.Node | undefined {
  return node.type === AST_NODE_TYPES.AssignmentExpression ? node.left : node.type === AST_NODE_TYPES.UpdateExpression ? node.argument : undefined;
}

/** Identifiers assigned in `node`: `x = …`, `x += …`, `x++`, and destructuring targets. */
export function collectAssignedNames(
  node: TSESTree.Node,
  keys: TSESLint.SourceCode.VisitorKeys,
  onlyFlags = false,
): Set<string> {
  const names = new Set<string>();
  walkOwnCode(node, keys, (child) => {
    if (child.type === AST_NODE_TYPES.AssignmentExpression) {
      if (onlyFlags && !isFlagValue(child.right)) return true;
      for (const name of collectDeclaredNames(child.left)) names.add(name);
    } else if (child.type === AST_NODE_TYPES.UpdateExpression && child.argument.type === AST_NODE_TYPES.Identifier) {
      names.add(child.argument.name);
    }
    return true;
  });
  return names;
}

/**
 * A value that says "done" or "go again": `true`/`false`, `!x`, or the attempt's own result
 * (`result = await x()`). A cursor read from a response (`lastKey = page.LastEvaluatedKey`)
 * is not one: that loop pages, it does not retry.
 */
function isFlagValue(value: TSESTree.Expression): boolean {
  if (value.type === AST_NODE_TYPES.Literal) return typeof value.value === 'boolean';
  if (value.type === AST_NODE_TYPES.UnaryExpression) return value.operator === '!';
  if (value.type === AST_NODE_TYPES.LogicalExpression) return isFlagValue(value.left) && isFlagValue(value.right);
  if (value.type === AST_NODE_TYPES.BinaryExpression) return ['===', '!==', '==', '!=', '<', '<=', '>', '>=', 'instanceof', 'in'].includes(value.operator);
  if (value.type === AST_NODE_TYPES.AwaitExpression) return value.argument.type === AST_NODE_TYPES.CallExpression;
  return value.type === AST_NODE_TYPES.CallExpression;
}

/** Names bound by a pattern or declaration (`x`, `{ a, b: c }`, `[d, ...e]`, `const f = …`). */
export function collectDeclaredNames(node: TSESTree.Node): Set<string> {
  const names = new Set<string>();
  const visit = (pattern: TSESTree.Node | null): void => {
    if (!pattern) return;
    switch (pattern.type) {
      case AST_NODE_TYPES.Identifier:
        names.add(pattern.name);
        break;
      case AST_NODE_TYPES.VariableDeclaration:
        for (const declarator of pattern.declarations) visit(declarator.id);
        break;
      case AST_NODE_TYPES.ObjectPattern:
        for (const property of pattern.properties) visit(property.type === AST_NODE_TYPES.Property ? property.value : property);
        break;
      case AST_NODE_TYPES.ArrayPattern:
        for (const element of pattern.elements) visit(element);
        break;
      case AST_NODE_TYPES.RestElement:
        visit(pattern.argument);
        break;
      case AST_NODE_TYPES.AssignmentPattern:
        visit(pattern.left);
        break;
      case AST_NODE_TYPES.TSParameterProperty:
        visit(pattern.parameter);
        break;
      default:
        break;
    }
  };
  visit(node);
  return names;
}
