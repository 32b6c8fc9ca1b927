import { AST_NODE_TYPES, ASTUtils, type TSESLint, type TSESTree } from '@typescript-eslint/utils';
import type { AnyRuleContext } from './per-file-cache';

/**
 * Finding what a module exports being used, by following its `import` / `require`
 * (eslint-plugin-n's way): aliases, destructuring, namespaces and default imports.
 */

/** What to follow: module name → export → property…, with `[CALL]`/`[CONSTRUCT]`/`[READ]` leaves holding `T`. */
export interface TraceMap<T> {
  [key: string]: TraceMap<T>;
  [key: symbol]: T;
}

export interface FoundReference<T> {
  info: T;
  node: TSESTree.Node;
  path: readonly string[];
  type: symbol;
}

export const { CALL, CONSTRUCT, READ } = ASTUtils.ReferenceTracker;

/** References of `traceMap` through both ESM imports and CommonJS `require`, in source order. */
export function findModuleReferences<T>(context: AnyRuleContext, traceMap: TraceMap<T>): FoundReference<T>[] {
  const globalScope = context.sourceCode.scopeManager?.globalScope;
  if (!globalScope) return [];
  // "legacy": these packages are CommonJS, so both `import x from` and `import { y } from` work.
  const tracker = new ASTUtils.ReferenceTracker(globalScope, { mode: 'legacy' });
  const found = new Map<TSESTree.Node, FoundReference<T>>();
  const untyped = traceMap as Parameters<typeof tracker.iterateEsmReferences>[0];
  const add = (references: Iterable<unknown>): void => {
    for (const reference of references as Iterable<FoundReference<T>>) {
      if (!found.has(reference.node)) found.set(reference.node, reference);
    }
  };
  try {
    add(tracker.iterateEsmReferences(untyped));
    // `require` is followed whether or not the config declares Node's globals (a
    // TypeScript file linted as a module still may use it).
    const propertyTracker = tracker as unknown as {
      iteratePropertyReferences(node: TSESTree.Node, map: unknown): Iterable<unknown>;
    };
    for (const call of findRequireCalls(globalScope)) {
      const argument = call.arguments[0];
      const name = argument?.type === AST_NODE_TYPES.Literal && typeof argument.value === 'string' ? argument.value : undefined;
      if (name === undefined || !Object.hasOwn(traceMap, name)) continue;
      add(propertyTracker.iteratePropertyReferences(call, traceMap[name]));
    }
  } catch {
    // A tracker failure on odd code must never crash linting: use what was found.
  }
  return [...found.values()].sort((a, b) => a.node.range[0] - b.node.range[0]);
}

/** `require('…')` calls where `require` is Node's (not a local variable of that name). */
function findRequireCalls(globalScope: TSESLint.Scope.Scope): TSESTree.CallExpression[] {
  const identifiers: TSESTree.Node[] = globalScope.through
    .filter((reference) => reference.identifier.name === 'require')
    .map((reference) => reference.identifier);
  const declared = globalScope.set.get('require');
  if (declared && declared.defs.length === 0) identifiers.push(...declared.references.map((reference) => reference.identifier));
  const calls: TSESTree.CallExpression[] = [];
  for (const identifier of identifiers) {
    const call = identifier.parent;
    if (call?.type === AST_NODE_TYPES.CallExpression && call.callee === identifier) calls.push(call);
  }
  return calls;
}

/** Quick pre-check: does the file import or require any of `modules`? */
export function hasModuleImport(context: AnyRuleContext, modules: readonly string[]): boolean {
  const text = context.sourceCode.text;
  return modules.some((name) => text.includes(`'${name}'`) || text.includes(`"${name}"`) || text.includes(`\`${name}\``));
}

/** A type annotation whose type is an export of a module: `pool: Pool`, `ddb: AWS.DynamoDB.DocumentClient`. */
export interface ImportedTypeAnnotation {
  annotation: TSESTree.TSTypeAnnotation;
  /** Export path inside the module: `['Pool']`, `['DynamoDB', 'DocumentClient']`; `[]` for the module itself. */
  path: string[];
  module: string;
}

/** Type annotations that name an export of one of `modules` (ESM imports only: types do not come from `require`). */
export function findImportedTypeAnnotations(context: AnyRuleContext, modules: readonly string[]): ImportedTypeAnnotation[] {
  const result: ImportedTypeAnnotation[] = [];
  for (const statement of context.sourceCode.ast.body) {
    if (statement.type !== AST_NODE_TYPES.ImportDeclaration || !modules.includes(statement.source.value)) continue;
    for (const specifier of statement.specifiers) {
      const base =
        specifier.type === AST_NODE_TYPES.ImportSpecifier
          ? [specifier.imported.type === AST_NODE_TYPES.Identifier ? specifier.imported.name : String(specifier.imported.value)]
          : [];
      const variable = context.sourceCode.getDeclaredVariables(specifier)[0];
      if (!variable) continue;
      for (const reference of variable.references) {
        const found = getAnnotationOfTypeName(reference.identifier, base);
        if (found) result.push({ ...found, module: statement.source.value });
      }
    }
  }
  return result;
}

function getAnnotationOfTypeName(
  identifier: TSESTree.Node,
  base: string[],
): { annotation: TSESTree.TSTypeAnnotation; path: string[] } | undefined {
  const path = [...base];
  let node: TSESTree.Node = identifier;
  while (node.parent?.type === AST_NODE_TYPES.TSQualifiedName && node.parent.left === node) {
    path.push(node.parent.right.name);
    node = node.parent;
  }
  const typeReference = node.parent;
  if (typeReference?.type !== AST_NODE_TYPES.TSTypeReference || typeReference.typeName !== node) return undefined;
  const annotation = typeReference.parent;
  if (annotation?.type !== AST_NODE_TYPES.TSTypeAnnotation) return undefined;
  return { annotation, path };
}
