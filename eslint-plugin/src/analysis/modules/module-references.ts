import { AST_NODE_TYPES, ASTUtils, type TSESLint, type TSESTree } from '@typescript-eslint/utils';
import { getKeyName } from '../ast';
import { findNodesAtOffsets, isNameChar } from '../find-nodes-at-offsets';
import { type AnyRuleContext, createPerFileCache } from '../per-file-cache';

/** The whole module's value: CommonJS `module.exports = value` (what `require()` returns). */
export const WHOLE_MODULE = '*';

const DEFAULT_MEMBER_PREFIX = 'default.';

/**
 * The export name of a method of the object a module exports as its default
 * (`export default { save() {} }`, or `module.exports = { save }` imported with
 * `import store from …`): importers reach it as `store.save`, a member of the default export.
 */
export function getDefaultMemberExportName(member: string): string {
  return DEFAULT_MEMBER_PREFIX + member;
}

/** The member an export name made by `getDefaultMemberExportName` stands for; undefined for any other name. */
export function getDefaultMemberName(exportName: string): string | undefined {
  return exportName.startsWith(DEFAULT_MEMBER_PREFIX) ? exportName.slice(DEFAULT_MEMBER_PREFIX.length) : undefined;
}

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

/** A `require('…')` call of a module by name. */
export interface RequireCall {
  call: TSESTree.CallExpression;
  module: string;
}

export interface ModuleReferenceOptions {
  /**
   * The `require('…')` calls to follow, when the caller found them already (e.g. with
   * `findRequireCallsByText`); by default the file's calls of Node's `require` (found by
   * text, then those of a local function named `require` left out).
   */
  requireCalls?: readonly RequireCall[];
}

/** The call's `require` is not a parameter or variable of the file (a global: Node's). */
function isNodeRequire(context: AnyRuleContext, call: TSESTree.CallExpression): boolean {
  if (call.callee.type !== AST_NODE_TYPES.Identifier) return false;
  try {
    const variable = ASTUtils.findVariable(context.sourceCode.getScope(call.callee), call.callee);
    return !variable || variable.defs.length === 0;
  } catch {
    return false;
  }
}

/** References of `traceMap` through both ESM imports and CommonJS `require`, in source order. */
export function findModuleReferences<T>(
  context: AnyRuleContext,
  traceMap: TraceMap<T>,
  options: ModuleReferenceOptions = {},
): FoundReference<T>[] {
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
    // (`iteratePropertyReferences` exists at runtime but is missing from the typings.)
    const propertyTracker = tracker as unknown as {
      iteratePropertyReferences(node: TSESTree.Node, map: unknown): Iterable<unknown>;
    };
    const requireCalls = options.requireCalls ?? findRequireCallsByText(context, Object.keys(traceMap)).filter(({ call }) => isNodeRequire(context, call));
    for (const { call, module } of requireCalls) {
      if (Object.hasOwn(traceMap, module)) add(propertyTracker.iteratePropertyReferences(getInteropWrapper(call) ?? call, traceMap[module]));
    }
  } catch {
    // A tracker failure on odd code must never crash linting: use what was found.
  }
  return [...found.values()].sort((a, b) => a.node.range[0] - b.node.range[0]);
}

/**
 * `require('…')` calls of `modules` found by a text search first, then only at those
 * offsets in the tree: much cheaper than walking the scopes on a large file. Any
 * function named `require` counts (also `const require = createRequire(import.meta.url)`).
 */
export function findRequireCallsByText(context: AnyRuleContext, modules: readonly string[]): RequireCall[] {
  return findRequireCallsWhere(context, (module) => modules.includes(module));
}

/** `require('…')` calls whose specifier matches `specifier` (a regular expression's source). */
export function findRequireCallsMatching(context: AnyRuleContext, specifier: string): RequireCall[] {
  let pattern = specifierPatterns.get(specifier);
  if (!pattern) {
    if (specifierPatterns.size >= 200) specifierPatterns.clear();
    specifierPatterns.set(specifier, (pattern = new RegExp(`^(?:${specifier})$`)));
  }
  const matching = pattern;
  return findRequireCallsWhere(context, (module) => matching.test(module));
}

const specifierPatterns = new Map<string, RegExp>();

interface RequireText {
  offset: number;
  /** The specifier as written between the quotes. */
  written: string;
}

/**
 * Every `require('…')` of the file's text, with the specifier as written; once per file.
 * Any function named `require` counts (also `createRequire(import.meta.url)`'s).
 */
const findRequireTexts = createPerFileCache((context: AnyRuleContext): readonly RequireText[] => {
  const text = context.sourceCode.text;
  const found: RequireText[] = [];
  // Each `require` of the text, then the call's shape from there: a search for the word
  // first is several times faster than the pattern tried at every offset.
  for (let offset = text.indexOf('require'); offset >= 0; offset = text.indexOf('require', offset + 7)) {
    if (isNameChar(text[offset - 1])) continue;
    REQUIRE_CALL_AT.lastIndex = offset;
    const match = REQUIRE_CALL_AT.exec(text);
    if (match) found.push({ offset, written: match[2] as string });
  }
  return found;
});

const REQUIRE_CALL_AT = /require\s*\(\s*(['"])([^'"\n]*)\1\s*\)/y;

/** Per file, the call found at each offset asked about so far (null: no `require` call there). */
const getResolvedRequires = createPerFileCache((): Map<number, RequireCall | null> => new Map());

/**
 * The `require('…')` calls whose specifier passes `wanted`: found by a text search first,
 * and only those are looked up in the tree (much cheaper than walking the scopes of a
 * large file, or than looking up every `require` of a CommonJS file).
 */
export function findRequireCallsWhere(context: AnyRuleContext, wanted: (module: string) => boolean): RequireCall[] {
  // An escape in the written specifier (`'\x70g'`) is read from the tree.
  // Most questions match no require of the file: nothing is allocated for them.
  let texts: RequireText[] | undefined;
  for (const text of findRequireTexts(context)) if (text.written.includes('\\') || wanted(text.written)) (texts ??= []).push(text);
  if (!texts) return [];
  const resolved = getResolvedRequires(context);
  const missing = texts.filter(({ offset }) => !resolved.has(offset)).map(({ offset }) => offset);
  if (missing.length > 0) {
    const nodes = findNodesAtOffsets(context, missing);
    for (const offset of missing) resolved.set(offset, getRequireCallAt(nodes.get(offset)));
  }
  // In source order already: each call starts at its `require`, and the texts are in order.
  const calls: RequireCall[] = [];
  for (const { offset } of texts) {
    const call = resolved.get(offset);
    if (call && wanted(call.module)) calls.push(call);
  }
  return calls;
}

function getRequireCallAt(node: TSESTree.Node | undefined): RequireCall | null {
  const call = node?.parent;
  // The name itself: the text search may land inside a longer one (`\u0024require`).
  if (node?.type !== AST_NODE_TYPES.Identifier || node.name !== 'require' || call?.type !== AST_NODE_TYPES.CallExpression || call.callee !== node) return null;
  const module = getRequiredModule(call);
  return module === undefined ? null : { call, module };
}

/**
 * Identifiers that refer to the global `name`: unresolved references (the config does
 * not declare it) and references of a declared global that the file does not define.
 */
export function findGlobalIdentifiers(globalScope: TSESLint.Scope.Scope, name: string): TSESTree.Identifier[] {
  const identifiers: TSESTree.Identifier[] = globalScope.through
    .filter((reference) => reference.identifier.name === name)
    .map((reference) => reference.identifier as TSESTree.Identifier);
  const declared = globalScope.set.get(name);
  if (declared && declared.defs.length === 0) identifiers.push(...declared.references.map((reference) => reference.identifier as TSESTree.Identifier));
  return identifiers;
}

/** References of globals (`Date.now()`) described by `traceMap`; declared globals only. */
export function findGlobalReferences<T>(context: AnyRuleContext, traceMap: TraceMap<T>): FoundReference<T>[] {
  const globalScope = context.sourceCode.scopeManager?.globalScope;
  if (!globalScope) return [];
  const found: FoundReference<T>[] = [];
  try {
    const tracker = new ASTUtils.ReferenceTracker(globalScope);
    const untyped = traceMap as Parameters<typeof tracker.iterateGlobalReferences>[0];
    for (const reference of tracker.iterateGlobalReferences(untyped)) found.push(reference as unknown as FoundReference<T>);
  } catch {
    // Odd code must never break linting.
  }
  return found;
}

/** Babel's and TypeScript's CommonJS interop helpers: `_interopRequireDefault`, `__importDefault`, `__importStar`. */
const INTEROP_HELPER = /^_?_?(?:interopRequire(?:Default|Wildcard)|importDefault|importStar)$/;

/**
 * The helper call around a `require()` in compiled ESM (`_interopRequireDefault(require('x'))`,
 * `tslib_1.__importDefault(require('x'))`): its value is the module, or `{ default: module }`,
 * which the trace maps' `default` entries follow.
 */
export function getInteropWrapper(requireCall: TSESTree.CallExpression): TSESTree.CallExpression | undefined {
  const wrapper = requireCall.parent;
  if (wrapper?.type !== AST_NODE_TYPES.CallExpression || wrapper.arguments[0] !== requireCall) return undefined;
  const callee = wrapper.callee;
  const name = callee.type === AST_NODE_TYPES.Identifier ? callee.name : callee.type === AST_NODE_TYPES.MemberExpression ? getKeyName(callee) : undefined;
  return name !== undefined && INTEROP_HELPER.test(name) ? wrapper : undefined;
}

/** `'mongodb'` of `require('mongodb')`: the first argument when it is a string literal. */
export function getRequiredModule(call: TSESTree.CallExpression): string | undefined {
  const argument = call.arguments[0];
  return argument?.type === AST_NODE_TYPES.Literal && typeof argument.value === 'string' ? argument.value : undefined;
}

/** Quick pre-check: does the file import or require any of `modules`? (Any quoted occurrence of a name counts.) */
export function hasModuleImport(context: AnyRuleContext, modules: readonly string[]): boolean {
  if (modules.length === 0) return false;
  const found = getQuotedModuleNames(context, modules);
  return modules.some((name) => found.has(name));
}

/**
 * Every module name asked about so far in the process, searched for in one pass per file:
 * the analyses ask with a few constant lists (the drivers, the AWS SDK, retry strategies),
 * and a quoted name is rare in a text, so one search for all of them costs about what one
 * search for one list did.
 */
const askedModuleNames = new Set<string>();
const MAX_ASKED_MODULE_NAMES = 200;
let quotedModulePattern: RegExp | undefined;
const quotedModulesByFile = new WeakMap<TSESTree.Node, { pattern: RegExp; found: Set<string> }>();

/** Which of the asked names (all asked so far, `modules` among them) appear inside quotes of one kind in the text. */
function getQuotedModuleNames(context: AnyRuleContext, modules: readonly string[]): ReadonlySet<string> {
  // The callers' lists are constants; the bound only keeps a caller with changing lists from growing the search forever.
  if (askedModuleNames.size + modules.length > MAX_ASKED_MODULE_NAMES) askedModuleNames.clear();
  const before = askedModuleNames.size;
  for (const name of modules) askedModuleNames.add(name);
  if (!quotedModulePattern || askedModuleNames.size !== before) {
    const alternatives = [...askedModuleNames].map((name) => name.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')).join('|');
    quotedModulePattern = new RegExp(`(['"\`])(${alternatives})\\1`, 'g');
  }
  const root = context.sourceCode.ast as TSESTree.Node;
  const known = quotedModulesByFile.get(root);
  if (known?.pattern === quotedModulePattern) return known.found;
  const pattern = quotedModulePattern;
  const text = context.sourceCode.text;
  const found = new Set<string>();
  pattern.lastIndex = 0;
  for (let match = pattern.exec(text); match; match = pattern.exec(text)) {
    found.add(match[2]!);
    // The closing quote may open the next name (`'x'pg'`): the search goes on from it.
    pattern.lastIndex -= 1;
  }
  quotedModulesByFile.set(root, { pattern, found });
  return found;
}

/** A type reference that names an export of a module: `Pool`, `AWS.DynamoDB.DocumentClient`, `Collection` in `Collection<Order> | undefined`. */
export interface ImportedTypeReference {
  reference: TSESTree.TSTypeReference;
  /** Export path inside the module: `['Pool']`, `['DynamoDB', 'DocumentClient']`; `[]` for the module itself. */
  path: string[];
  module: string;
}

/**
 * Type references, anywhere in a type (annotations, unions, generic arguments), that name an
 * export of one of `modules`, through named, default and namespace imports (ESM only: types
 * do not come from `require`).
 */
export function findImportedTypeReferences(context: AnyRuleContext, modules: readonly string[]): ImportedTypeReference[] {
  const result: ImportedTypeReference[] = [];
  for (const statement of context.sourceCode.ast.body) {
    if (statement.type !== AST_NODE_TYPES.ImportDeclaration || !modules.includes(statement.source.value)) continue;
    for (const specifier of statement.specifiers) {
      const base =
        specifier.type === AST_NODE_TYPES.ImportSpecifier
          ? [specifier.imported.type === AST_NODE_TYPES.Identifier ? specifier.imported.name : String(specifier.imported.value)]
          : [];
      const variable = context.sourceCode.getDeclaredVariables(specifier)[0];
      if (!variable) continue;
      for (const { identifier } of variable.references) {
        const path = [...base];
        let node: TSESTree.Node = identifier as TSESTree.Node;
        while (node.parent?.type === AST_NODE_TYPES.TSQualifiedName && node.parent.left === node) {
          path.push(node.parent.right.name);
          node = node.parent;
        }
        const reference = node.parent;
        if (reference?.type === AST_NODE_TYPES.TSTypeReference && reference.typeName === node) result.push({ reference, path, module: statement.source.value });
      }
    }
  }
  return result;
}

/**
 * What a CommonJS assignment target exports: `module.exports` the whole module
 * (`WHOLE_MODULE`), `module.exports.x` and `exports.x` the export `x`.
 */
export function getCommonJsExportName(target: TSESTree.Node): string | undefined {
  if (target.type !== AST_NODE_TYPES.MemberExpression) return undefined;
  const name = getKeyName(target);
  const isNamed = (node: TSESTree.Node, expected: string): boolean => node.type === AST_NODE_TYPES.Identifier && node.name === expected;
  if (isNamed(target.object, 'module') && name === 'exports') return WHOLE_MODULE;
  if (isNamed(target.object, 'exports')) return name;
  if (target.object.type === AST_NODE_TYPES.MemberExpression && isNamed(target.object.object, 'module') && getKeyName(target.object) === 'exports') return name;
  return undefined;
}
