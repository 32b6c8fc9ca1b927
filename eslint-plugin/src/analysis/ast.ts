import { AST_NODE_TYPES, type TSESLint, type TSESTree } from '@typescript-eslint/utils';
import { visitorKeys } from '@typescript-eslint/visitor-keys';

/** Small AST helpers shared by the analysis, the rules and the fixers. */

export type FunctionNode = TSESTree.FunctionDeclaration | TSESTree.FunctionExpression | TSESTree.ArrowFunctionExpression;

/** True for a function declaration, function expression or arrow function. */
export function isFunctionNode(node: TSESTree.Node): node is FunctionNode {
  return (
    node.type === AST_NODE_TYPES.FunctionExpression ||
    node.type === AST_NODE_TYPES.ArrowFunctionExpression ||
    node.type === AST_NODE_TYPES.FunctionDeclaration
  );
}

/** The innermost function around `node` is `async` (so code added there may `await`). */
export function isInAsyncFunction(node: TSESTree.Node): boolean {
  for (let current = node.parent; current; current = current.parent) {
    if (isFunctionNode(current)) return current.async;
  }
  return false;
}

/** `.then`, `.catch` or `.finally` of a promise chain (`p.then(…)`). */
export function isPromiseMethod(member: TSESTree.MemberExpression): boolean {
  return !member.computed && member.property.type === AST_NODE_TYPES.Identifier && PROMISE_METHODS.has(member.property.name);
}

const PROMISE_METHODS = new Set(['then', 'catch', 'finally']);

/** True for a `for`, `for…in`, `for…of`, `while` or `do…while` statement. */
export function isLoopNode(
  node: TSESTree.Node,
): node is TSESTree.ForStatement | TSESTree.ForInStatement | TSESTree.ForOfStatement | TSESTree.WhileStatement | TSESTree.DoWhileStatement {
  return (
    node.type === AST_NODE_TYPES.ForStatement ||
    node.type === AST_NODE_TYPES.ForInStatement ||
    node.type === AST_NODE_TYPES.ForOfStatement ||
    node.type === AST_NODE_TYPES.WhileStatement ||
    node.type === AST_NODE_TYPES.DoWhileStatement
  );
}

/** The function holding `node` (itself excluded). */
export function getEnclosingFunction(node: TSESTree.Node): FunctionNode | undefined {
  for (let current = node.parent; current; current = current.parent) if (isFunctionNode(current)) return current;
  return undefined;
}

/** What gives `node` its `this`: the nearest function that is not an arrow function, a class field, a static block, or the program. */
export function getThisBinder(node: TSESTree.Node): TSESTree.Node {
  let current: TSESTree.Node = node;
  while (current.parent) {
    current = current.parent;
    if (current.type === AST_NODE_TYPES.FunctionDeclaration || current.type === AST_NODE_TYPES.FunctionExpression) return current;
    if (current.type === AST_NODE_TYPES.PropertyDefinition || current.type === AST_NODE_TYPES.StaticBlock) return current;
  }
  return current;
}

/** True when `inner` lies within `outer`'s source range (a node contains itself). */
export function containsNode(outer: TSESTree.Node, inner: TSESTree.Node): boolean {
  return outer.range[0] <= inner.range[0] && outer.range[1] >= inner.range[1];
}

export interface VisitIdentifiersOptions {
  /** Also skip the keys of object literals and patterns (`{ key: value }`, not shorthand `{ key }`). */
  skipObjectKeys: boolean;
}

/** Calls `visit` for each identifier that names a variable inside `root` (never a `.property` name). */
export function visitIdentifiers(
  root: TSESTree.Node,
  options: VisitIdentifiersOptions,
  visit: (identifier: TSESTree.Identifier) => void,
): void {
  visitNodes(root, { skipTypeAnnotations: false }, (node) => {
    if (node.type !== AST_NODE_TYPES.Identifier) return true;
    const parent = node.parent;
    const isPropertyName = parent?.type === AST_NODE_TYPES.MemberExpression && parent.property === node && !parent.computed;
    const isKey =
      options.skipObjectKeys && parent?.type === AST_NODE_TYPES.Property && parent.key === node && !parent.computed && !parent.shorthand;
    if (!isPropertyName && !isKey) visit(node);
    return false;
  });
}

export interface VisitNodesOptions {
  /** Do not enter type annotations and return types (`x: T`, `(): T`). */
  skipTypeAnnotations: boolean;
}

/** Calls `visit` on `root` and every node below it, depth first (parents before children); `visit` returns false to skip a node's children. */
export function visitNodes(root: TSESTree.Node, options: VisitNodesOptions, visit: (node: TSESTree.Node) => boolean | void): void {
  const stack: TSESTree.Node[] = [root];
  while (stack.length > 0) {
    const node = stack.pop() as TSESTree.Node;
    if (visit(node) === false) continue;
    for (const key of getChildKeys(node)) {
      if (options.skipTypeAnnotations && (key === 'typeAnnotation' || key === 'returnType')) continue;
      const value = (node as unknown as Record<string, unknown>)[key];
      if (Array.isArray(value)) {
        for (let index = value.length - 1; index >= 0; index -= 1) {
          const item: unknown = value[index];
          if (isNode(item)) stack.push(item);
        }
      } else if (isNode(value)) {
        stack.push(value);
      }
    }
  }
}

const NOT_CHILDREN = new Set(['parent', 'loc', 'range', 'tokens', 'comments']);

/** The keys that hold a node's children: the parser's visitor keys, or every key for a node type they do not know. */
function getChildKeys(node: TSESTree.Node): readonly string[] {
  return (visitorKeys as Record<string, readonly string[] | undefined>)[node.type] ?? Object.keys(node).filter((key) => !NOT_CHILDREN.has(key));
}

/** `null` or `undefined` written as such. */
export function isNullOrUndefined(node: TSESTree.Node): boolean {
  return (node.type === AST_NODE_TYPES.Literal && node.raw === 'null') || (node.type === AST_NODE_TYPES.Identifier && node.name === 'undefined');
}

/** True for an AST node (any object with a string `type`), as found in a node's child keys. */
export function isNode(value: unknown): value is TSESTree.Node {
  return typeof value === 'object' && value !== null && typeof (value as { type?: unknown }).type === 'string';
}

export interface UnwrapOptions {
  /** Look through `<T>x` (default true). */
  typeAssertions?: boolean;
  /** Look through the `ChainExpression` around `a?.b` (default true). */
  chains?: boolean;
  /** Look through `await x` (default false). */
  awaits?: boolean;
}

/** `node` without the wrappers that keep its value: `x as T`, `x!`, `x satisfies T`, and those chosen in `options`. */
export function unwrapExpression(node: TSESTree.Node, options: UnwrapOptions = {}): TSESTree.Node {
  const { typeAssertions = true, chains = true, awaits = false } = options;
  let current = node;
  for (;;) {
    if (
      current.type === AST_NODE_TYPES.TSAsExpression ||
      current.type === AST_NODE_TYPES.TSNonNullExpression ||
      current.type === AST_NODE_TYPES.TSSatisfiesExpression ||
      (typeAssertions && current.type === AST_NODE_TYPES.TSTypeAssertion) ||
      (chains && current.type === AST_NODE_TYPES.ChainExpression)
    ) {
      current = current.expression;
    } else if (awaits && current.type === AST_NODE_TYPES.AwaitExpression) {
      current = current.argument;
    } else {
      return current;
    }
  }
}

export type KeyedNode = TSESTree.MemberExpression | TSESTree.Property | TSESTree.PropertyDefinition | TSESTree.MethodDefinition;

export interface KeyNameOptions {
  /** Read computed keys written as a string (`a['b']`, `{ ['b']: 1 }`) (default true). */
  computed?: boolean;
  /** Read computed keys written as a template without expressions (`` a[`b`] ``) (default true). */
  templates?: boolean;
  /** How a private name `#b` reads: `'b'` (`'bare'`, default), `'#b'` (`'hashed'`), or not at all (`'none'`). */
  privateNames?: 'bare' | 'hashed' | 'none';
}

/** The static name of a member or key (`a.b`, `a['b']`, `{ b: 1 }`, `{ 'b': 1 }`), as `options` allow. */
export function getKeyName(node: KeyedNode, options: KeyNameOptions = {}): string | undefined {
  const { computed = true, templates = true, privateNames = 'bare' } = options;
  const key = node.type === AST_NODE_TYPES.MemberExpression ? node.property : node.key;
  if (!node.computed) {
    if (key.type === AST_NODE_TYPES.Identifier) return key.name;
    if (key.type === AST_NODE_TYPES.PrivateIdentifier) {
      if (privateNames === 'none') return undefined;
      return privateNames === 'hashed' ? `#${key.name}` : key.name;
    }
  } else if (!computed) {
    return undefined;
  }
  if (key.type === AST_NODE_TYPES.Literal && typeof key.value === 'string') return key.value;
  if (templates && key.type === AST_NODE_TYPES.TemplateLiteral && key.expressions.length === 0) return key.quasis[0]?.value.cooked ?? undefined;
  return undefined;
}

/** The expressions `fn` returns: its expression body, or the arguments of its own `return`s (not those of nested functions). */
export function getReturnedExpressions(fn: FunctionNode): TSESTree.Node[] {
  if (fn.body && fn.body.type !== AST_NODE_TYPES.BlockStatement) return [fn.body];
  const found: TSESTree.Node[] = [];
  if (!fn.body) return found;
  visitNodes(fn.body, { skipTypeAnnotations: true }, (node) => {
    if (node !== fn.body && isFunctionNode(node)) return false;
    if (node.type === AST_NODE_TYPES.ReturnStatement && node.argument) found.push(node.argument);
    return true;
  });
  return found;
}

/**
 * The scope of the file's top-level bindings: an ES module's, the function scope ESLint's
 * own parser gives a CommonJS file, or else the global scope of a script.
 */
export function getFileScope(sourceCode: Readonly<TSESLint.SourceCode>): TSESLint.Scope.Scope | undefined {
  const globalScope = sourceCode.scopeManager?.globalScope ?? undefined;
  return globalScope?.childScopes.find((scope) => scope.block.type === AST_NODE_TYPES.Program) ?? globalScope;
}
