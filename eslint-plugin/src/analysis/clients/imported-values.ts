import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';
import { getKeyName } from '../ast';
import { findBindingReads, getCalleeForm, getOutermostSameValue, getValueBinding } from './value-bindings';
import type { DbValue } from './db-value';
import type { ExportedCalls, RemoteDbCall } from './exported-calls';
import { findImportedReads, getCommonJsExportName, type ImportedRead } from '../modules';
import { hasMemberCallText } from '../find-nodes-at-offsets';
import { type AnyRuleContext, createPerFileCache } from '../per-file-cache';

/**
 * Database values a file gets from the project's own modules: `orders` imported from
 * `./db`, `await getDb()` with `getDb` required from `../mongo`. What a module exports
 * comes from its summary (module-exports.ts), made by the same analyses that read the
 * linted file; the summariser is set at load time because it depends on those analyses,
 * which in turn ask this module for their seeds.
 */

export type ExportedValue =
  | {
      value: DbValue;
      /** Calling the export gives the value (or a promise of it): `getDb()`, `getPool()`. */
      returned: boolean;
    }
  /** A function that returns an object (or a promise of one) holding database values: `initState()` → `{ client }`. */
  | { properties: ReadonlyMap<string, DbValue>; returned: true };

export type ImportedValue =
  | {
      /** The expression in the linted file that evaluates to the value (the call, or `await` of it, for `returned` exports). */
      node: TSESTree.Node;
      value: DbValue;
    }
  | {
      /** The call (or `await` of it) that evaluates to an object with database values in these properties. */
      node: TSESTree.Node;
      properties: ReadonlyMap<string, DbValue>;
    };

export interface ModuleExportLookup {
  /** What the module exports under `exportName`, database-wise (reads and parses it when needed). */
  lookUp(context: AnyRuleContext, file: string, exportName: string): ExportedValue | undefined;
  /** Whether the file is a module the index parsed to summarise (not a file being linted). */
  isSummarised(context: AnyRuleContext): boolean;
  /** What calling the export does, database-wise (reads and parses the module when needed). */
  lookUpCalls(context: AnyRuleContext, file: string, exportName: string): ExportedCalls | undefined;
  /** True only when a current summary of the module is at hand and it exports no database value: no reading, no parsing. */
  isKnownToExportNothing(context: AnyRuleContext, file: string): boolean;
  /** True only when a current summary of the module's calls is at hand and no export makes a database call. */
  isKnownToCallNothing(context: AnyRuleContext, file: string): boolean;
}

let moduleExports: ModuleExportLookup = {
  lookUp: () => undefined,
  isSummarised: () => false,
  lookUpCalls: () => undefined,
  isKnownToExportNothing: () => false,
  isKnownToCallNothing: () => false,
};

export function setModuleExportLookup(lookup: ModuleExportLookup): void {
  moduleExports = lookup;
}

/** Method names through which code uses a database value (the drivers' own, and `then`). */
const DATABASE_METHODS = [
  'collection', 'db', 'model', 'startSession', 'withSession', 'withTransaction', 'startTransaction', 'commitTransaction',
  'insertOne', 'insertMany', 'updateOne', 'updateMany', 'replaceOne', 'deleteOne', 'deleteMany', 'bulkWrite', 'bulkSave',
  'findOneAndUpdate', 'findOneAndDelete', 'findOneAndReplace', 'findByIdAndUpdate', 'findByIdAndDelete', 'countDocuments', 'aggregate',
  'query', 'connect', 'begin', 'savepoint', 'unsafe', 'reserve', 'send', 'promise', 'batchWrite', 'batchWriteItem', 'batchGet',
  'batchGetItem', 'transactWrite', 'transactWriteItems', 'transactGet', 'transactGetItems', 'putItem', 'getItem', 'updateItem',
  'deleteItem', 'executeStatement',
];
const DATABASE_METHOD_NAMES = new Set([...DATABASE_METHODS, 'then']);

/** A file that calls none of these methods cannot use a database value, and its imports are not read (most files of a project). */
export const DATABASE_METHOD_CALL = new RegExp(`\\.\\s*(?:${DATABASE_METHODS.join('|')})\\s*[(<]`);

// These patterns scan linearly whatever the text: a list is read up to the next brace of
// either kind (scans from two lists never overlap), and an object given to `module.exports`
// up to the next `}`, less what an earlier one covered.
/** Names bound to a relative module: `const x = require('./x')`, `const { a, b: c } = require('./x')`, `import x, { a as b } from './x'`. */
const RELATIVE_BINDINGS =
  /\b(?:const|let|var)\s+(?:([\w$]+)|\{([^{}]*)\})\s*=\s*require\s*\(\s*['"`]\.|\bimport\s+(?:([\w$]+)\s*,?\s*)?(?:\{([^{}]*)\}|\*\s*as\s+([\w$]+))?\s*from\s*['"`]\./g;
/** A local name in a binding list: `a` and `c` of `a, b: c` (`as` taken out first). */
const BOUND_NAME = /([\w$]+)\s*(?:,|$)/g;
/** `exports.x = y`, `module.exports = y`, `export default y`, `export { … }`, and where an object given to `module.exports` starts. */
const EXPORT_FORMS = /\b(?:module\.)?exports(?:\.[\w$]+)?\s*=\s*(?:([\w$]+)\s*;?\s*$|require\s*\(\s*['"`](\.)|(\{))|\bexport\s+default\s+([\w$]+)|\bexport\s*\{([^{}]*)\}/gm;
const RELATIVE_REQUIRE = /\brequire\s*\(\s*['"`]\./;
const NAME = /[\w$]+/g;

/**
 * Whether a module's text may export again what it imports from the project's own modules
 * (a barrel: `module.exports = { User: require('./user') }`, `exports.pool = pool` after
 * `const pool = require('./db')`, `export { pool }`). Read by text: a module that does not
 * is not worth parsing for it.
 */
export function mayExportImports(text: string): boolean {
  if (!/\bexports?\b/.test(text)) return false;
  const imported = new Set<string>();
  for (const binding of text.matchAll(RELATIVE_BINDINGS)) {
    const bound = [binding[1], binding[2], binding[3], binding[4], binding[5]].filter((part) => part !== undefined).join(',').replace(/\bas\b/g, ' ');
    for (const name of `${bound},`.matchAll(BOUND_NAME)) if (name[1] !== undefined) imported.add(name[1]);
  }
  let braceAfter = -1;
  let readTo = 0;
  for (const form of text.matchAll(EXPORT_FORMS)) {
    if (form[2] !== undefined) return true;
    let exported = form[1] ?? form[4] ?? form[5];
    if (form[3] !== undefined) {
      // The object's text up to its first `}` (enough for `{ User: require('./user'), pool }`),
      // less what an earlier object's text already covered.
      const start = form.index + form[0].length;
      if (braceAfter < start) braceAfter = text.indexOf('}', start);
      if (braceAfter < 0) braceAfter = text.length;
      exported = text.slice(Math.max(start, readTo), braceAfter);
      readTo = Math.max(readTo, braceAfter);
      if (RELATIVE_REQUIRE.test(exported)) return true;
    }
    for (const name of (exported ?? '').matchAll(NAME)) if (imported.has(name[0])) return true;
  }
  return false;
}

/**
 * The read value is exported as it is: `exports.pool = pool`, `module.exports = { User:
 * require('./user') }`, `module.exports = { pool }`, `export { pool }`, `export default pool`.
 */
function isExportedAgain(node: TSESTree.Node): boolean {
  let value = getOutermostSameValue(node);
  // A property of the object given to `module.exports` (nested objects too).
  while (value.parent?.type === AST_NODE_TYPES.Property && value.parent.value === value && value.parent.parent?.type === AST_NODE_TYPES.ObjectExpression) {
    value = getOutermostSameValue(value.parent.parent);
  }
  const parent = value.parent;
  if (parent?.type === AST_NODE_TYPES.AssignmentExpression) return parent.right === value && getCommonJsExportName(parent.left) !== undefined;
  return parent?.type === AST_NODE_TYPES.ExportSpecifier || parent?.type === AST_NODE_TYPES.ExportDefaultDeclaration;
}

/**
 * Whether the value read at `node` may be used as a database value: a database method is
 * called on it (or on a property or result of it), it is passed to a call, stored in a
 * binding that is, or returned. Reads that are none of these are not worth a module's
 * summary (`utils.format(x)`). With `passedOnDeep` (a module read for what it passes to
 * another module's function), a property of the value or a binding of it passed to a call
 * counts too: `batchWrite(state.client)` after `const state = initState(options)`.
 */
function mayBeUsedAsDatabaseValue(context: AnyRuleContext, node: TSESTree.Node, passedOnDeep: boolean, depth = 0): boolean {
  // As a callee, `f` and TypeScript's `(0, m_1.f)` alike.
  let value = getCalleeForm(node);
  if (value.parent?.type === AST_NODE_TYPES.NewExpression && value.parent.callee === value) return mayHoldDatabaseProperties(context, value.parent, depth);
  if (value.parent?.type === AST_NODE_TYPES.CallExpression && value.parent.callee === value) value = getOutermostSameValue(value.parent);
  if (value.parent?.type === AST_NODE_TYPES.AwaitExpression) value = getOutermostSameValue(value.parent);
  const parent = value.parent;
  if (!parent) return false;
  if (parent.type === AST_NODE_TYPES.MemberExpression && parent.object === value) {
    const name = getKeyName(parent);
    if (name !== undefined && DATABASE_METHOD_NAMES.has(name)) return true;
    return depth < 3 && mayBeUsedAsDatabaseValue(context, parent, passedOnDeep, depth + 1);
  }
  // Passed to a function or constructor (its parameter may be used as one), unless only logged;
  // not a property's value (`console.log(util.format(x))` passes a string).
  if ((parent.type === AST_NODE_TYPES.CallExpression || parent.type === AST_NODE_TYPES.NewExpression) && parent.callee !== value) {
    return (depth === 0 || passedOnDeep) && !isConsoleCall(parent);
  }
  if (parent.type === AST_NODE_TYPES.Property || parent.type === AST_NODE_TYPES.ReturnStatement || parent.type === AST_NODE_TYPES.ArrowFunctionExpression) return true;
  if (isExportedAgain(value)) return true;
  // `const { pool } = await connect()`: the properties taken out may be database values.
  if (parent.type === AST_NODE_TYPES.VariableDeclarator && parent.init === value && parent.id.type === AST_NODE_TYPES.ObjectPattern) return true;
  const binding = depth < 3 ? getValueBinding(context, value) : undefined;
  return binding !== undefined && findBindingReads(context, binding).some((read) => read !== value && mayBeUsedAsDatabaseValue(context, read, passedOnDeep, depth + 1));
}

/**
 * `new f(…)` of an imported `f` is worth a summary only when `f` may be a factory whose
 * object holds database values in its properties (`new dynamo(configure).docClient`):
 * instances of the project's own classes are most `new` expressions, and a class's
 * instance is no database value the index knows.
 */
function mayHoldDatabaseProperties(context: AnyRuleContext, made: TSESTree.Node, depth: number): boolean {
  const value = getOutermostSameValue(made);
  const parent = value.parent;
  if (parent?.type === AST_NODE_TYPES.MemberExpression && parent.object === value) {
    // A property read, not a method of the instance (`new Router().handler()`) nor a field written on it.
    const property = getOutermostSameValue(parent);
    const use = property.parent;
    const called = use?.type === AST_NODE_TYPES.CallExpression && use.callee === property;
    const written = use?.type === AST_NODE_TYPES.AssignmentExpression && use.left === property;
    // Passing the property on is not enough here (`this.user = params.user`): a class's fields go everywhere.
    return !called && !written && mayBeUsedAsDatabaseValue(context, parent, false, depth + 1);
  }
  if (parent?.type === AST_NODE_TYPES.VariableDeclarator && parent.init === value && parent.id.type === AST_NODE_TYPES.ObjectPattern) return true;
  const binding = depth < 3 ? getValueBinding(context, value) : undefined;
  return binding !== undefined && findBindingReads(context, binding).some((read) => read !== value && mayHoldDatabaseProperties(context, read, depth + 1));
}

function isConsoleCall(call: TSESTree.CallExpression | TSESTree.NewExpression): boolean {
  const callee = call.callee;
  return callee.type === AST_NODE_TYPES.MemberExpression && callee.object.type === AST_NODE_TYPES.Identifier && callee.object.name === 'console';
}

/** Modules the index parsed to read what they pass to another module's function (`save(sql, order)`). */
const callerModules = new WeakSet<TSESTree.Node>();

/** Marks a module parsed for its calls: its imported values count even where it calls no database method on them. */
export function markCallerModule(context: AnyRuleContext): void {
  callerModules.add(context.sourceCode.ast);
}

/**
 * Whether `getImportedValues` may find anything, told without reading another module: the
 * file calls a database method, was parsed for its calls, or is a module being summarised
 * that may export again what it imports.
 */
export function mayReadImportedDbValues(context: AnyRuleContext): boolean {
  return !isExportsOnly(context) || isSummarisedBarrel(context);
}

function isSummarisedBarrel(context: AnyRuleContext): boolean {
  return moduleExports.isSummarised(context) && mayExportImports(context.sourceCode.text);
}

/**
 * A module that calls no database method may still export again what it imports (a barrel:
 * `module.exports = { User: require('./user') }`): only those reads count there, and only
 * for the module's summary (a linted barrel's own rules have nothing to check).
 */
function isExportsOnly(context: AnyRuleContext): boolean {
  return !callerModules.has(context.sourceCode.ast) && !hasMemberCallText(context, DATABASE_METHODS);
}

/** The file's reads of database values exported by its relative imports; computed once per file. */
export const getImportedValues = createPerFileCache((context: AnyRuleContext): readonly ImportedValue[] => {
  const exportsOnly = isExportsOnly(context);
  if (exportsOnly && !isSummarisedBarrel(context)) return [];
  const isCallerModule = callerModules.has(context.sourceCode.ast);
  const found: ImportedValue[] = [];
  // Most imported modules export nothing database-wise, and the index knows it once it has
  // seen them: their reads are not even listed.
  for (const read of findImportedReads(context, (file) => !moduleExports.isKnownToExportNothing(context, file))) {
    if (exportsOnly ? !isExportedAgain(read.node) : !mayBeUsedAsDatabaseValue(context, read.node, isCallerModule)) continue;
    const exported = moduleExports.lookUp(context, read.file, read.exportName);
    if (!exported) continue;
    if (!exported.returned) {
      found.push({ node: read.node, value: exported.value });
      continue;
    }
    // `new f(…)` of a function that returns an object gives that object, as a call does; `(0, m_1.f)(…)` is TypeScript's call.
    const callee = getCalleeForm(read.node);
    const call = callee.parent;
    if ((call?.type !== AST_NODE_TYPES.CallExpression && call?.type !== AST_NODE_TYPES.NewExpression) || call.callee !== callee) continue;
    const awaited = call.parent;
    const node = awaited?.type === AST_NODE_TYPES.AwaitExpression ? awaited : call;
    found.push('properties' in exported ? { node, properties: exported.properties } : { node, value: exported.value });
  }
  return found;
});

/** Text that a file retrying work may have, around a call of another module's function. */
const RETRY_HINT = /\bcatch\b/;
const RELATIVE_IMPORT = /(?:from\s*|require\s*\(\s*)['"`](?:\.{1,2}\/|[~#@])/;

/**
 * The calls of the file to a function of the project's other modules (`saveOrder(o)`,
 * `orders.markPaid(id)` on an imported instance, `client.getChanges()` after
 * `const client = new PgLogicalDecoding(…)` of an imported class), each with a way to ask
 * for the database calls it makes. Finding them reads no other module; asking reads the
 * module's summary, so only the calls a question is about cost a parse. Only files that
 * import a module of the project and catch errors have any (a retry needs both).
 */
const NO_CALL_SITES: ReadonlyMap<TSESTree.Node, ImportedCallSite> = new Map();

export const findImportedCallSites = createPerFileCache((context: AnyRuleContext): ReadonlyMap<TSESTree.Node, ImportedCallSite> => {
  const text = context.sourceCode.text;
  // `includes` first: most texts have no `catch` at all, and it is many times faster than a pattern.
  if (!text.includes('catch') || !RETRY_HINT.test(text) || !RELATIVE_IMPORT.test(text)) return NO_CALL_SITES;
  const found = new Map<TSESTree.Node, ImportedCallSite>();
  const reads = new Map<TSESTree.Node, ImportedRead>();
  // A module whose summary knows of no database call gives every call of it none: not even listed.
  for (const read of findImportedReads(context, (file) => !moduleExports.isKnownToCallNothing(context, file))) reads.set(read.node, read);
  const lookUpOf = (read: ImportedRead) => (): ExportedCalls | undefined => moduleExports.lookUpCalls(context, read.file, read.exportName);
  for (const read of reads.values()) {
    const node = read.node;
    const parent = node.parent;
    // `saveOrder(o)`, `orders.saveOrder(o)` of a namespace, `(0, orders_1.saveOrder)(o)` compiled.
    const callee = getCalleeForm(node);
    if (callee.parent?.type === AST_NODE_TYPES.CallExpression && callee.parent.callee === callee) {
      const call = callee.parent;
      const lookUp = lookUpOf(read);
      found.set(call, new ImportedCallSite(() => {
        const exported = lookUp();
        return exported?.kind === 'function' ? exported.calls : undefined;
      }));
      continue;
    }
    if (parent?.type === AST_NODE_TYPES.MemberExpression && parent.object === node) {
      // `orders.markPaid(id)` of an imported instance.
      if (!reads.has(parent)) addMethodCall(found, parent, 'instance', lookUpOf(read));
      continue;
    }
    if (parent?.type === AST_NODE_TYPES.NewExpression && parent.callee === node) {
      // `new Orders().markPaid(id)`, or `const orders = new Orders(…)` then `orders.markPaid(id)`.
      const lookUp = lookUpOf(read);
      const member = parent.parent;
      if (member?.type === AST_NODE_TYPES.MemberExpression && member.object === parent) addMethodCall(found, member, 'class', lookUp);
      const binding = getValueBinding(context, parent);
      for (const use of binding ? findBindingReads(context, binding) : []) {
        const useMember = use.parent;
        if (useMember?.type === AST_NODE_TYPES.MemberExpression && useMember.object === use) addMethodCall(found, useMember, 'class', lookUp);
      }
    }
  }
  return found;
});

/** A call of another module's function or method; what it does database-wise is read when first asked. */
export class ImportedCallSite {
  private resolved: readonly RemoteDbCall[] | undefined;

  constructor(private readonly lookUp: () => readonly RemoteDbCall[] | undefined) {}

  /** The database calls it makes (none when the module's summary knows of none). */
  get calls(): readonly RemoteDbCall[] {
    return (this.resolved ??= this.lookUp() ?? []);
  }
}

function addMethodCall(found: Map<TSESTree.Node, ImportedCallSite>, member: TSESTree.MemberExpression, kind: 'class' | 'instance', lookUp: () => ExportedCalls | undefined): void {
  const call = member.parent;
  const name = getKeyName(member);
  if (name === undefined || call?.type !== AST_NODE_TYPES.CallExpression || call.callee !== member) return;
  found.set(call, new ImportedCallSite(() => {
    const exported = lookUp();
    return exported?.kind === kind ? exported.methods.get(name) : undefined;
  }));
}
