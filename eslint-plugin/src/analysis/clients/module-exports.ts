import path from 'node:path';
import { AST_NODE_TYPES, ASTUtils, type TSESTree } from '@typescript-eslint/utils';
import { getKeyName, getReturnedExpressions, isFunctionNode, isNullOrUndefined, type FunctionNode } from '../ast';
import type { DbCall } from './db-call';
import { type DbValue, isSameDbValue } from './db-value';
import { getDbValue, getDbValues } from './db-values';
import { type ExportedCalls, getExportedCalls } from './exported-calls';
import { findMongoConnectionOpens } from './mongo-connection-opens';
import { DATABASE_METHOD_CALL, type ExportedValue, mayExportImports, markCallerModule, setModuleExportLookup } from './imported-values';
import { findImportedReads, findImporters, type ImportedRead, getCommonJsExportName, getDefaultMemberName, getManifestFolder, getModuleTextTrustedUntil, getModuleTextVersion, isTestFilePath, getRequiredModule, getSourcePath, parseModule, readModuleText, resolveModuleFile, WHOLE_MODULE } from '../modules';
import { getArgumentsInSlot, getFunctionCallers, isStaticMemberUse, type ParameterSlot, setRemoteSlotLookup } from './call-sites';
import type { AnyRuleContext } from '../per-file-cache';
import { type RemoteCall, setRemoteCallLookup } from './result-usage';
import { findOwnerFieldWrites, getBindingOwner, isSameOwner, setBoundFieldLookup, type ThisOwner } from './this-owners';
import { getCalleeForm } from './value-bindings';

/**
 * The module index: what each of the project's own modules exports, database-wise
 * (`export const orders = db.collection('orders')`, `module.exports = pool`,
 * `export async function getDb() { … return client.db(); }`). A module is read and
 * parsed with the linted file's parser, then read by the same analyses as the linted
 * file (so its own imports count, a few levels deep). Summaries are kept for the
 * process, keyed by path, and reused while the module's text, and the texts of the
 * modules it depends on, are unchanged.
 */

interface ModuleSummary {
  named: ReadonlyMap<string, ExportedValue>;
  /** CommonJS `module.exports = value`. */
  whole: ExportedValue | undefined;
  /**
   * What calling each export does, database-wise (exported-calls.ts); undefined until asked,
   * as finding a module's database calls reads the modules it imports in turn.
   */
  calls: ModuleCalls | undefined;
}

interface ModuleCalls {
  named: ReadonlyMap<string, ExportedCalls>;
  whole: ExportedCalls | undefined;
}

interface CacheEntry {
  text: string;
  summary: ModuleSummary;
  /** How deep below a linted file it was summarised: deeper summaries follow fewer imports. */
  depth: number;
  /** Every module read while making the summary, with the text read. */
  dependencies: ReadonlyMap<string, string>;
}

/** How many imports deep the index follows from a linted file. */
const MAX_DEPTH = 3;
/** Summaries kept per parser before the cache starts again (a bound for long-running editors). */
const MAX_ENTRIES = 5000;
/**
 * Which modules are worth parsing: one that names a database package, or one that takes
 * something from a module of its own and uses a database method on it or passes it on
 * (re-exports, `export default x`, `module.exports = x`). Others export no database value.
 */
const NAMES_DATABASE_PACKAGE = /['"`](?:mongodb|mongoose|pg|pg-pool|postgres|aws-sdk(?:\/[\w/-]*)?|@aws-sdk\/(?:client|lib)-dynamodb)['"`]/;
const IMPORTS_RELATIVE = /['"`]\.{1,2}\/[^'"`\n]*['"`]/;
// A list is read up to the next brace of either kind: scans from two lists never overlap,
// so the pattern stays linear whatever the text.
const PASSES_ON = /\bexport\s*(?:\*|\{[^{}]*\}\s*from|default\s+[\w$]+\s*;?\s*$)|\bmodule\.exports\s*=\s*(?:require\s*\(|[\w$]+\s*;?\s*$)|\breturn\s+[\w$.]+\s*;?\s*$/m;

function mayHoldDatabaseValue(text: string): boolean {
  return mayUseDatabaseValue(text) || isBarrelText(text);
}

/** Exports again what it imports from the project's own modules (`module.exports = { User: require('./user') }`). */
function isBarrelText(text: string): boolean {
  return IMPORTS_RELATIVE.test(text) && mayExportImports(text);
}

/** Names a database package, or uses a database method on (or passes on) what it imports. */
function mayUseDatabaseValue(text: string): boolean {
  if (NAMES_DATABASE_PACKAGE.test(text)) return true;
  return IMPORTS_RELATIVE.test(text) && (DATABASE_METHOD_CALL.test(text) || PASSES_ON.test(text));
}

/**
 * The database calls of a file (`findDbCalls`), set by its module: it reads this index, so
 * this module cannot import it. A file being linted hands its calls over as it records its
 * summary, while they are still being computed.
 */
let findFileDbCalls: (context: AnyRuleContext) => readonly DbCall[] = () => [];
const lintedFileCalls = new WeakMap<TSESTree.Node, readonly DbCall[]>();

export function setDbCallFinder(finder: (context: AnyRuleContext) => readonly DbCall[]): void {
  findFileDbCalls = finder;
}

const EMPTY: ModuleSummary = { named: new Map(), whole: undefined, calls: { named: new Map(), whole: undefined } };
const caches = new WeakMap<object, Map<string, CacheEntry>>();
const NO_PARSER = {};
const depths = new WeakMap<TSESTree.Node, number>();
const inProgress = new Set<string>();
/** Dependencies (file → text read) of the summaries being made, innermost last. */
const collectors: Array<Map<string, string>> = [];

export interface ModuleIndexStats {
  /** Modules read and parsed. */
  parsed: number;
  /** Of those, importers parsed to see what they pass to a file's exported functions. */
  parsedImporters: number;
  /** Of those, modules parsed again for their calls after a summary of their values only. */
  parsedAgainForCalls: number;
  /** Modules read but skipped without parsing (no database package, no relative import). */
  skipped: number;
  /** Summaries reused from the cache. */
  reused: number;
}

const stats: ModuleIndexStats = { parsed: 0, parsedImporters: 0, parsedAgainForCalls: 0, skipped: 0, reused: 0 };

/** Counts since the process started (for the benchmark). */
export function getModuleIndexStats(): ModuleIndexStats {
  return { ...stats };
}

function lookUpExport(context: AnyRuleContext, file: string, exportName: string): ExportedValue | undefined {
  const summary = summarise(context, file);
  if (exportName === WHOLE_MODULE) return summary.whole;
  if (exportName === 'default') return summary.named.get('default') ?? summary.whole;
  return summary.named.get(exportName);
}

function lookUpCalls(context: AnyRuleContext, file: string, exportName: string): ExportedCalls | undefined {
  const calls = summarise(context, file, true).calls;
  if (exportName === WHOLE_MODULE) return calls?.whole;
  if (exportName === 'default') return calls?.named.get('default') ?? calls?.whole;
  return calls?.named.get(exportName);
}

setModuleExportLookup({ lookUp: lookUpExport, isSummarised: (context) => depths.has(context.sourceCode.ast), lookUpCalls, isKnownToExportNothing, isKnownToCallNothing });
setRemoteSlotLookup(lookUpRemoteSlot);
setRemoteCallLookup(findRemoteCalls);
setBoundFieldLookup(lookUpBoundField);

/**
 * Test code calls with stand-ins; what production code passes is what counts. Test files
 * are those of the `recommended` preset's patterns, matched from the project's folder (a
 * project that itself sits in a `tests` folder is not all test code).
 */
function isTestImporter(importer: string): boolean {
  const root = getManifestFolder(importer);
  return isTestFilePath(root ? path.relative(root, importer) : importer);
}
/** Parsed modules with the text and depth they were parsed at, the least recently used dropped first. */
class ParsedModules {
  private readonly entries = new Map<string, { text: string; depth: number; context: AnyRuleContext }>();
  private textLength = 0;

  constructor(
    private readonly maxCount: number,
    private readonly maxTextLength: number,
  ) {}

  /** The module's context when it was parsed from `text` at `depth` or shallower. */
  get(file: string, text: string, depth: number): AnyRuleContext | undefined {
    const entry = this.entries.get(file);
    if (!entry || entry.text !== text || entry.depth > depth) return undefined;
    this.entries.delete(file);
    this.entries.set(file, entry);
    return entry.context;
  }

  keep(file: string, entry: { text: string; depth: number; context: AnyRuleContext }): void {
    const replaced = this.entries.get(file);
    if (replaced) {
      this.entries.delete(file);
      this.textLength -= replaced.text.length;
    }
    this.entries.set(file, entry);
    this.textLength += entry.text.length;
    for (const [oldest, kept] of this.entries) {
      if (this.entries.size <= 1 || (this.entries.size <= this.maxCount && this.textLength <= this.maxTextLength)) break;
      this.entries.delete(oldest);
      this.textLength -= kept.text.length;
    }
  }
}

/**
 * Parsed importers kept for further questions about the same module. Each parameter of an
 * exported function asks its importers again, so a project whose modules import each
 * other widely asks for the same few dozen modules over and over: with room for only a
 * few, a cold `eslint .` parsed each of them many times. Bounded by count and by the
 * length of their texts, for memory: a parsed module takes about 25 times its text, and a
 * larger heap makes every garbage collection of the process slower. 2 MB of text parsed
 * as many modules as 4 MB on the benchmark's cold runs, and keeps about 50 MB less.
 */
const importerContexts = new ParsedModules(64, 2 * 1024 * 1024);
/**
 * Modules summarised for their values only, kept a while: a retry around one of their
 * functions asks for their calls next, often while the same file is linted, and would
 * parse them again. A few suffice: the question comes soon after.
 */
const valueOnlyContexts = new ParsedModules(4, 1024 * 1024);

interface RemoteSlotEntry {
  text: string;
  importers: readonly string[];
  /** Every module read for the answer (the importers and what they import), with the text read. */
  dependencies: ReadonlyMap<string, string>;
  values: DbValue[] | undefined;
}

/**
 * Answers kept while the file, its importers and what they import are unchanged: without
 * them, each lint of the file would parse its importers again (only a few parsed
 * importers are kept, for memory).
 */
const remoteSlotAnswers = new Map<string, RemoteSlotEntry>();

function lookUpRemoteSlot(context: AnyRuleContext, slot: ParameterSlot, exportNames: readonly string[]): DbValue[] | undefined {
  const file = getSourcePath(context);
  const depth = (depths.get(context.sourceCode.ast) ?? 0) + 1;
  if (depth > MAX_DEPTH || !path.isAbsolute(file)) return undefined;
  const importers = findImporters(file);
  if (importers.length === 0) return undefined;
  const text = context.sourceCode.text;
  const key = [file, depth, slot.fn.range[0], slot.index, slot.property ?? '', ...exportNames].join('\n');
  const cached = remoteSlotAnswers.get(key);
  if (cached && cached.text === text && isSameList(cached.importers, importers) && isCurrent(cached.dependencies)) return cached.values;
  const dependencies = new Map<string, string>();
  collectors.push(dependencies);
  let values: DbValue[] | undefined;
  try {
    values = collectRemoteSlotValues(context, slot, exportNames);
  } finally {
    collectors.pop();
  }
  if (remoteSlotAnswers.size >= MAX_ENTRIES) remoteSlotAnswers.clear();
  remoteSlotAnswers.set(key, { text, importers, dependencies, values });
  return values;
}

function collectRemoteSlotValues(context: AnyRuleContext, slot: ParameterSlot, exportNames: readonly string[]): DbValue[] | undefined {
  const calls = findRemoteCalls(context, exportNames);
  if (!calls) return undefined;
  const values: DbValue[] = [];
  for (const { context: importerContext, call } of calls) {
    const passed = getArgumentsInSlot([call], slot);
    if (!passed) return undefined;
    for (const argument of passed) {
      const value = getDbValue(importerContext, argument);
      if (!value) return undefined;
      values.push(value);
    }
  }
  // No caller in the project: a package's users may call it with anything.
  return values.length > 0 ? values : undefined;
}

const EXPORT_NAME = /^[A-Za-z_$][\w$]*$/;

/**
 * A test of whether an importer may read one of the named exports `exportNames` (none for
 * `default` or the whole module: those every importer is asked about): a read of a named
 * export (`import { copy }`, `lib.copy(…)`, `(0, _lib.copy)(…)`, `{ copy: c } = require(…)`)
 * spells its name, so a module whose text never does has none, and is not parsed for it.
 * Most importers of a module take other exports. The text read counts for the answer's
 * cache, as a parsed importer's does.
 */
function getExportNameTest(exportNames: readonly string[]): ((importer: string) => boolean) | undefined {
  // A method of the default export is read as `store.save`: its name is spelled as well.
  const names = exportNames.map((name) => getDefaultMemberName(name) ?? name);
  if (names.length === 0 || names.some((name) => name === 'default' || !EXPORT_NAME.test(name))) return undefined;
  const spelled = new RegExp(`(?<![\\w$])(?:${[...new Set(names)].map((name) => name.replace(/\$/g, '\\$')).join('|')})(?![\\w$])`);
  return (importer) => {
    const text = readModuleText(importer);
    if (text === undefined) return true;
    for (const collector of collectors) collector.set(importer, text);
    return spelled.test(text);
  };
}

/** The calls of the exports `exportNames` of the linted file in the project's other modules (test files aside). */
function findRemoteCalls(context: AnyRuleContext, exportNames: readonly string[]): RemoteCall[] | undefined {
  const file = getSourcePath(context);
  const depth = (depths.get(context.sourceCode.ast) ?? 0) + 1;
  if (depth > MAX_DEPTH || !path.isAbsolute(file)) return undefined;
  const calls: RemoteCall[] = [];
  const mayReadExports = getExportNameTest(exportNames);
  const defaultMembers = getDefaultMembers(exportNames);
  for (const importer of findImporters(file)) {
    if (isTestImporter(importer) || (mayReadExports && !mayReadExports(importer))) continue;
    const importerContext = getImporterContext(context, importer, depth);
    if (!importerContext) return undefined;
    for (const collector of collectors) collector.set(importer, importerContext.sourceCode.text);
    for (const read of findImportedReads(importerContext)) {
      if (read.file !== file) continue;
      const node = exportNames.includes(read.exportName) ? read.node : getDefaultMemberRead(read, defaultMembers);
      if (node === undefined) continue;
      if (node === null) return undefined;
      // `save(o)`, or TypeScript's compiled `(0, orders_1.save)(o)`.
      const callee = getCalleeForm(node);
      const call = callee.parent;
      if ((call?.type !== AST_NODE_TYPES.CallExpression && call?.type !== AST_NODE_TYPES.NewExpression) || call.callee !== callee) {
        // `ns.other()` after `const ns = require('./x')`: the namespace, not this export; `Store.collation()`: a static member.
        if (read.exportName === WHOLE_MODULE && call?.type === AST_NODE_TYPES.MemberExpression && call.object === node) continue;
        if (isStaticMemberUse(node)) continue;
        return undefined;
      }
      calls.push({ context: importerContext, call });
    }
  }
  return calls;
}

/** The methods of the default export among `exportNames` (`default.save`: `save`). */
function getDefaultMembers(exportNames: readonly string[]): ReadonlySet<string> {
  const members = new Set<string>();
  for (const name of exportNames) {
    const member = getDefaultMemberName(name);
    if (member !== undefined) members.add(member);
  }
  return members;
}

/**
 * `store.save` when `store` is the default export and `save` one of `defaultMembers` (methods
 * of the exported object); undefined when the read is of another member or export, null when
 * the default export is used whole (`const { save } = store`, passed on): then any of its
 * methods may be called from anywhere.
 */
function getDefaultMemberRead(read: ImportedRead, defaultMembers: ReadonlySet<string>): TSESTree.Node | null | undefined {
  if (read.exportName !== 'default' || defaultMembers.size === 0) return undefined;
  const member = read.node.parent;
  const key = member?.type === AST_NODE_TYPES.MemberExpression && member.object === read.node ? getKeyName(member) : undefined;
  if (key === undefined) return null;
  return defaultMembers.has(key) ? member : undefined;
}

function getImporterContext(context: AnyRuleContext, file: string, depth: number): AnyRuleContext | undefined {
  const text = readModuleText(file);
  if (text === undefined) return undefined;
  const cached = importerContexts.get(file, text, depth);
  if (cached) return cached;
  const parsed = parseModule(context, file, text);
  if (!parsed) return undefined;
  stats.parsed++;
  stats.parsedImporters++;
  depths.set(parsed.sourceCode.ast, depth);
  markCallerModule(parsed);
  importerContexts.keep(file, { text, depth, context: parsed });
  return parsed;
}

function getCache(context: AnyRuleContext): Map<string, CacheEntry> {
  const parser = (context.languageOptions as { parser?: object } | undefined)?.parser ?? NO_PARSER;
  let cache = caches.get(parser);
  if (!cache) caches.set(parser, (cache = new Map()));
  if (cache.size >= MAX_ENTRIES) cache.clear();
  return cache;
}

/**
 * Keeps the summary of a file being linted, made from the analyses the rules ran on it
 * anyway: a file that imports it later in the same run does not parse it again.
 */
export function recordLintedModule(context: AnyRuleContext, calls: readonly DbCall[]): void {
  if (depths.has(context.sourceCode.ast)) return;
  lintedFileCalls.set(context.sourceCode.ast, calls);
  const file = getSourcePath(context);
  const text = context.sourceCode.text;
  if (!path.isAbsolute(file) || inProgress.has(file)) return;
  const cache = getCache(context);
  const cached = cache.get(file);
  if (cached?.text === text && cached.summary.calls) return;
  // Importers read the file itself (or its open document): a summary of other text is of no use to them.
  if (readModuleText(file) !== text) return;
  const usesDatabase = mayUseDatabaseValue(text);
  // A barrel (it only exports again what it imports) is summarised when an importer asks:
  // most are never asked, and summarising one reads every module it gathers.
  if (!usesDatabase && isBarrelText(text)) return;
  const dependencies = new Map<string, string>();
  let summary = EMPTY;
  if (usesDatabase) {
    inProgress.add(file);
    collectors.push(dependencies);
    try {
      summary = summariseModule(context, true);
    } catch {
      summary = EMPTY;
    } finally {
      collectors.pop();
      inProgress.delete(file);
    }
  }
  cache.set(file, { text, summary, depth: 0, dependencies });
}

/** A current summary of `file` is cached and it has no export of a database value (a module never summarised is not known). */
function isKnownToExportNothing(context: AnyRuleContext, file: string): boolean {
  return isKnownToBeEmpty(context, file, (summary) => !summary.whole && summary.named.size === 0);
}

/** A current summary of `file`'s calls is cached and no export of it makes a database call (`lookUpCalls` would find none). */
function isKnownToCallNothing(context: AnyRuleContext, file: string): boolean {
  return isKnownToBeEmpty(context, file, ({ calls }) => calls !== undefined && !calls.whole && calls.named.size === 0);
}

function isKnownToBeEmpty(context: AnyRuleContext, file: string, isEmpty: (summary: ModuleSummary) => boolean): boolean {
  const depth = (depths.get(context.sourceCode.ast) ?? 0) + 1;
  if (depth > MAX_DEPTH || inProgress.has(file)) return false;
  const cached = getCache(context).get(file);
  // Only an empty summary answers; the file is read only then.
  if (!cached || !isEmpty(cached.summary)) return false;
  const text = readModuleText(file);
  const current = text === undefined ? undefined : getCurrentEntry(context, file, depth, text);
  if (!current) return false;
  reuse(file, current);
  return true;
}

/** The cached entry of `file` while it holds: the same text, made at `depth` or shallower, and every module it read unchanged. */
function getCurrentEntry(context: AnyRuleContext, file: string, depth: number, text: string): CacheEntry | undefined {
  const cached = getCache(context).get(file);
  return cached && cached.text === text && cached.depth <= depth && isCurrent(cached.dependencies) ? cached : undefined;
}

/** A cached summary used again: the modules it read count as read by the summaries in progress. */
function reuse(file: string, entry: CacheEntry): ModuleSummary {
  stats.reused++;
  for (const collector of collectors) {
    collector.set(file, entry.text);
    for (const [dependency, dependencyText] of entry.dependencies) collector.set(dependency, dependencyText);
  }
  return entry.summary;
}

function summarise(context: AnyRuleContext, file: string, withCalls = false): ModuleSummary {
  const depth = (depths.get(context.sourceCode.ast) ?? 0) + 1;
  if (depth > MAX_DEPTH || inProgress.has(file)) return EMPTY;
  const text = readModuleText(file);
  if (text === undefined) return EMPTY;
  for (const collector of collectors) collector.set(file, text);
  const current = getCurrentEntry(context, file, depth, text);
  if (current && (current.summary.calls || !withCalls)) return reuse(file, current);
  const cache = getCache(context);
  // Asked for calls after a summary of values only: what that summary read counts too, as the
  // analyses kept on a module parsed then do not read it again.
  const dependencies = new Map<string, string>(current?.dependencies);
  let summary = EMPTY;
  if (mayHoldDatabaseValue(text)) {
    let moduleContext = current ? valueOnlyContexts.get(file, text, depth) : undefined;
    if (!moduleContext) {
      moduleContext = parseModule(context, file, text);
      stats.parsed++;
      if (current) stats.parsedAgainForCalls++;
      if (moduleContext) depths.set(moduleContext.sourceCode.ast, depth);
      if (moduleContext && !withCalls) valueOnlyContexts.keep(file, { text, depth, context: moduleContext });
    }
    if (moduleContext) {
      inProgress.add(file);
      collectors.push(dependencies);
      try {
        summary = summariseModule(moduleContext, withCalls);
      } catch {
        summary = EMPTY;
      } finally {
        collectors.pop();
        inProgress.delete(file);
      }
    }
  } else {
    stats.skipped++;
  }
  cache.set(file, { text, summary, depth, dependencies });
  return summary;
}

/** The project's import list is made again every few seconds: compare its content, not its identity. */
function isSameList(a: readonly string[], b: readonly string[]): boolean {
  return a === b || (a.length === b.length && a.every((item, index) => item === b[index]));
}

/**
 * Whether every module a summary read still has the text it read. A yes holds, without
 * reading them again, while no text read changes and none of theirs is due for a new look:
 * a linted file asks about each of its imports, and many files import the same modules.
 */
function isCurrent(dependencies: ReadonlyMap<string, string>): boolean {
  const known = currentUntil.get(dependencies);
  if (known && known.version === getModuleTextVersion() && Date.now() < known.until) return true;
  let until = Number.POSITIVE_INFINITY;
  for (const [file, text] of dependencies) {
    if (readModuleText(file) !== text) return false;
    until = Math.min(until, getModuleTextTrustedUntil(file));
  }
  currentUntil.set(dependencies, { version: getModuleTextVersion(), until });
  return true;
}

/** The last yes of `isCurrent`, by the dependencies it was about. */
const currentUntil = new WeakMap<ReadonlyMap<string, string>, { version: number; until: number }>();

function summariseModule(context: AnyRuleContext, withCalls: boolean): ModuleSummary {
  const named = new Map<string, ExportedValue>();
  let whole: ExportedValue | undefined;
  const calls = new Map<string, ExportedCalls>();
  let wholeCalls: ExportedCalls | undefined;
  const file = getSourcePath(context);
  const set = (name: string | undefined, value: ExportedValue | undefined): void => {
    if (name !== undefined && value) named.set(name, value);
  };
  const fileCalls = withCalls ? (lintedFileCalls.get(context.sourceCode.ast) ?? findFileDbCalls(context)) : [];
  // A module that makes no database call exports none (most modules of a project).
  const makesCalls = withCalls && (fileCalls.length > 0 || findMongoConnectionOpens(context).length > 0);
  const setCalls = (name: string | undefined, node: TSESTree.Node): void => {
    const found = name === undefined || !makesCalls ? undefined : getExportedCalls(context, node, fileCalls);
    if (name !== undefined && found) calls.set(name, found);
  };
  for (const statement of context.sourceCode.ast.body) {
    switch (statement.type) {
      case AST_NODE_TYPES.ExportNamedDeclaration: {
        if (statement.exportKind === 'type') break;
        if (statement.source) {
          const target = resolveModuleFile(file, String(statement.source.value));
          for (const specifier of statement.specifiers) {
            const local = getModuleExportName(specifier.local);
            if (!target) continue;
            set(getModuleExportName(specifier.exported), lookUpExport(context, target, local));
            const found = withCalls ? lookUpCalls(context, target, local) : undefined;
            if (found) calls.set(getModuleExportName(specifier.exported), found);
          }
          break;
        }
        const declaration = statement.declaration;
        if (declaration?.type === AST_NODE_TYPES.VariableDeclaration) {
          for (const declarator of declaration.declarations) {
            if (declarator.id.type !== AST_NODE_TYPES.Identifier || !declarator.init) continue;
            set(declarator.id.name, getExportedValue(context, declarator.init));
            setCalls(declarator.id.name, declarator.init);
          }
        } else if (declaration?.type === AST_NODE_TYPES.FunctionDeclaration && declaration.id) {
          set(declaration.id.name, getReturnedValue(context, declaration));
          setCalls(declaration.id.name, declaration);
        } else if (declaration?.type === AST_NODE_TYPES.ClassDeclaration && declaration.id) {
          setCalls(declaration.id.name, declaration);
        }
        for (const specifier of statement.specifiers) {
          if (specifier.local.type !== AST_NODE_TYPES.Identifier) continue;
          set(getModuleExportName(specifier.exported), getExportedValue(context, specifier.local));
          setCalls(getModuleExportName(specifier.exported), specifier.local);
        }
        break;
      }
      case AST_NODE_TYPES.ExportDefaultDeclaration: {
        const declaration = statement.declaration;
        if (declaration.type !== AST_NODE_TYPES.TSInterfaceDeclaration && declaration.type !== AST_NODE_TYPES.TSDeclareFunction) setCalls('default', declaration);
        if (declaration.type === AST_NODE_TYPES.FunctionDeclaration) set('default', getReturnedValue(context, declaration));
        else if (declaration.type !== AST_NODE_TYPES.ClassDeclaration && declaration.type !== AST_NODE_TYPES.TSInterfaceDeclaration && declaration.type !== AST_NODE_TYPES.TSDeclareFunction) {
          set('default', getExportedValue(context, declaration));
          if (declaration.type === AST_NODE_TYPES.ObjectExpression) addObjectProperties(context, declaration, set);
        }
        break;
      }
      case AST_NODE_TYPES.ExportAllDeclaration: {
        const target = statement.source && !statement.exported ? resolveModuleFile(file, String(statement.source.value)) : undefined;
        if (!target) break;
        const other = summarise(context, target, withCalls);
        for (const [name, value] of other.named) if (name !== 'default' && !named.has(name)) named.set(name, value);
        for (const [name, value] of other.calls?.named ?? []) if (name !== 'default' && !calls.has(name)) calls.set(name, value);
        break;
      }
      case AST_NODE_TYPES.ExpressionStatement: {
        const expression = statement.expression;
        if (expression.type !== AST_NODE_TYPES.AssignmentExpression || expression.operator !== '=') break;
        const target = getCommonJsExportName(expression.left);
        if (target === undefined) break;
        if (target !== WHOLE_MODULE) {
          set(target, getExportedValue(context, expression.right));
          setCalls(target, expression.right);
          break;
        }
        const right = skipExportsAlias(expression.right);
        const required = getRequiredRelative(right);
        const requiredFile = required === undefined ? undefined : resolveModuleFile(file, required);
        if (requiredFile) {
          const other = summarise(context, requiredFile, withCalls);
          whole = other.whole;
          wholeCalls = other.calls?.whole;
          for (const [name, value] of other.named) named.set(name, value);
          for (const [name, value] of other.calls?.named ?? []) calls.set(name, value);
        } else if (right.type === AST_NODE_TYPES.ObjectExpression) {
          addObjectProperties(context, right, set);
          for (const property of right.properties) {
            if (property.type === AST_NODE_TYPES.Property && !property.computed) setCalls(getKeyName(property), property.value);
          }
        } else {
          whole = getExportedValue(context, right);
          wholeCalls = makesCalls ? getExportedCalls(context, right, fileCalls) : undefined;
          if (isFunctionNode(right) || right.type === AST_NODE_TYPES.Identifier) set('default', whole);
        }
        break;
      }
      default:
    }
  }
  // A module that exports `query(text, params)` forwarding to a pool (node-postgres' own
  // recommended layout) is used as the pool: `db.query('INSERT …')`.
  whole ??= named.get(QUERY_WRAPPER_KEY);
  return { named, whole, calls: withCalls ? { named: calls, whole: wholeCalls } : undefined };
}

const QUERY_WRAPPER_KEY = '\u0000query-wrapper';

function addObjectProperties(context: AnyRuleContext, object: TSESTree.ObjectExpression, set: (name: string | undefined, value: ExportedValue | undefined) => void): void {
  for (const property of object.properties) {
    if (property.type !== AST_NODE_TYPES.Property || property.computed) continue;
    const name = getKeyName(property);
    const value = property.method ? getReturnedValue(context, property.value as FunctionNode) : getExportedValue(context, property.value);
    set(name, value);
    if (name === 'query' && isFunctionNode(property.value)) set(QUERY_WRAPPER_KEY, getQueryWrapperPool(context, property.value));
  }
}

/** `module.exports = exports = value`: the value. */
function skipExportsAlias(node: TSESTree.Expression): TSESTree.Expression {
  let current = node;
  while (current.type === AST_NODE_TYPES.AssignmentExpression && current.operator === '=' && current.left.type === AST_NODE_TYPES.Identifier && current.left.name === 'exports') current = current.right;
  return current;
}

/** `require('./x')`: its specifier. */
function getRequiredRelative(node: TSESTree.Node): string | undefined {
  return node.type === AST_NODE_TYPES.CallExpression && node.callee.type === AST_NODE_TYPES.Identifier && node.callee.name === 'require' ? getRequiredModule(node) : undefined;
}

function getModuleExportName(node: TSESTree.Identifier | TSESTree.StringLiteral): string {
  return node.type === AST_NODE_TYPES.Identifier ? node.name : node.value;
}

/** The value of an exported expression: a database value, or a function that returns one. */
function getExportedValue(context: AnyRuleContext, node: TSESTree.Node): ExportedValue | undefined {
  if (isFunctionNode(node)) return getReturnedValue(context, node);
  if (node.type === AST_NODE_TYPES.Identifier) {
    const definition = findDefinition(context, node);
    if (definition?.type === AST_NODE_TYPES.FunctionDeclaration) return getReturnedValue(context, definition);
    if (definition?.type === AST_NODE_TYPES.VariableDeclarator && definition.init && isFunctionNode(definition.init)) {
      return getReturnedValue(context, definition.init);
    }
  }
  const value = getDbValue(context, node);
  return value && { value, returned: false };
}

function findDefinition(context: AnyRuleContext, identifier: TSESTree.Identifier): TSESTree.Node | undefined {
  try {
    const variable = ASTUtils.findVariable(context.sourceCode.getScope(identifier), identifier);
    return variable?.defs.length === 1 ? variable.defs[0]?.node : undefined;
  } catch {
    return undefined;
  }
}

/**
 * A function whose every `return` gives the same database value (`null` / `undefined`
 * aside), else one whose every `return` gives an object the code builds, with the
 * properties whose database values all returns agree on (`return { client, table }`).
 */
function getReturnedValue(context: AnyRuleContext, fn: FunctionNode): ExportedValue | undefined {
  let found: DbValue | undefined;
  let unknown = false;
  const returns = getReturnedExpressions(fn).filter((returned) => !isNullOrUndefined(returned));
  for (const returned of returns) {
    const value = getDbValue(context, returned);
    if (!value || (found && !isSameDbValue(found, value))) {
      unknown = true;
      break;
    }
    found = value;
  }
  if (found && !unknown) return { value: found, returned: true };
  const properties = getReturnedProperties(context, returns);
  return properties && { properties, returned: true };
}

function getReturnedProperties(context: AnyRuleContext, returns: readonly TSESTree.Node[]): ReadonlyMap<string, DbValue> | undefined {
  const values = getDbValues(context);
  const properties = new Map<string, DbValue>();
  const disagreed = new Set<string>();
  for (const returned of returns) {
    const object = values.getObjectProperties(returned);
    if (!object) return undefined;
    for (const [name, value] of object) {
      if (value === undefined || value === 'other' || disagreed.has(name)) continue;
      const earlier = properties.get(name);
      if (earlier && !isSameDbValue(earlier, value)) {
        properties.delete(name);
        disagreed.add(name);
      } else properties.set(name, value);
    }
  }
  return properties.size > 0 ? properties : undefined;
}

/** `(text, params) => pool.query(text, params)`: the pool it forwards to. */
function getQueryWrapperPool(context: AnyRuleContext, fn: FunctionNode): ExportedValue | undefined {
  const returned = getReturnedExpressions(fn);
  if (returned.length !== 1) return undefined;
  let call = returned[0];
  if (call?.type === AST_NODE_TYPES.AwaitExpression) call = call.argument;
  if (call?.type !== AST_NODE_TYPES.CallExpression || call.callee.type !== AST_NODE_TYPES.MemberExpression || getKeyName(call.callee) !== 'query') return undefined;
  const value = getDbValue(context, call.callee.object);
  return value?.database === 'postgres' ? { value, returned: false } : undefined;
}

/** Answers about fields of bound `this`, kept like the remote-slot answers (with the modules read for them). */
const boundFieldAnswers = new Map<string, { text: string; dependencies: ReadonlyMap<string, string>; value: DbValue | undefined }>();
const boundFieldsInProgress = new Set<string>();

/**
 * The field `name` of the `this` an exported function of the linted file runs with: every
 * project module that imports the function binds it to instances of one class (see
 * `getBindingOwner`); the field's value is what that class gives it (its annotation, its
 * constructor) and what the other functions bound to the class write into it. Undefined
 * when a read is not a binding, the owners differ, or the values disagree.
 */
function lookUpBoundField(context: AnyRuleContext, fn: FunctionNode, name: string): DbValue | undefined {
  const file = getSourcePath(context);
  const depth = (depths.get(context.sourceCode.ast) ?? 0) + 1;
  if (depth > MAX_DEPTH || !path.isAbsolute(file)) return undefined;
  const callers = getFunctionCallers(context, fn);
  if (!callers || callers.calls.length > 0 || callers.exportNames.length === 0) return undefined;
  const key = [file, depth, fn.range[0], name].join('\n');
  const text = context.sourceCode.text;
  const cached = boundFieldAnswers.get(key);
  if (cached && cached.text === text && isCurrent(cached.dependencies)) return cached.value;
  if (boundFieldsInProgress.has(key)) return undefined;
  const dependencies = new Map<string, string>();
  boundFieldsInProgress.add(key);
  collectors.push(dependencies);
  let value: DbValue | undefined;
  try {
    value = findBoundFieldValue(context, file, depth, callers.exportNames, name);
  } catch {
    value = undefined;
  } finally {
    collectors.pop();
    boundFieldsInProgress.delete(key);
  }
  if (boundFieldAnswers.size >= MAX_ENTRIES) boundFieldAnswers.clear();
  boundFieldAnswers.set(key, { text, dependencies, value });
  return value;
}

function findBoundFieldValue(context: AnyRuleContext, file: string, depth: number, exportNames: readonly string[], name: string): DbValue | undefined {
  const found = findBindingOwner(context, file, depth, exportNames);
  if (!found) return undefined;
  const { context: ownerContext, owner } = found;
  const values: Array<DbValue | undefined> = [];
  const ownerValue = getDbValues(ownerContext).getFieldValue(owner, name);
  if (ownerValue === 'other') return undefined;
  values.push(ownerValue);
  // The other functions bound to the same class, in their own modules: what they write into the field.
  const written = new RegExp(`\\.\\s*${name.replace(/[\\^$.*+?()[\]{}|/]/g, '\\$&')}\\s*=(?![=>])`);
  const seen = new Set<string>();
  for (const read of findImportedReads(ownerContext)) {
    const key = `${read.file}\n${read.exportName}`;
    if (seen.has(key) || !isSameOwner(getBindingOwner(ownerContext, read.node), owner)) continue;
    seen.add(key);
    const moduleText = readModuleText(read.file);
    if (moduleText === undefined || !written.test(moduleText)) continue;
    const moduleContext = getImporterContext(ownerContext, read.file, depth + 1);
    if (!moduleContext) return undefined;
    for (const collector of collectors) collector.set(read.file, moduleText);
    const moduleValues = getDbValues(moduleContext);
    for (const write of findExportedFunctionFieldWrites(moduleContext, read.exportName, name)) {
      const written = moduleValues.getValue(write);
      if (written === 'other') return undefined;
      values.push(written);
    }
  }
  let value: DbValue | undefined;
  for (const next of values) {
    if (!next) continue;
    if (value && !isSameDbValue(value, next)) return undefined;
    value = next;
  }
  return value;
}

/**
 * The one class every importer binds the exports `exportNames` of `file` to, following
 * modules that re-export them (`export * from`, `tslib_1.__exportStar(require('./x'), exports)`)
 * one level; undefined when a read is not a binding or two owners differ.
 */
function findBindingOwner(context: AnyRuleContext, file: string, depth: number, exportNames: readonly string[], reexported = false): { context: AnyRuleContext; owner: ThisOwner } | undefined {
  if (depth > MAX_DEPTH) return undefined;
  let found: { context: AnyRuleContext; owner: ThisOwner } | undefined;
  const agree = (next: { context: AnyRuleContext; owner: ThisOwner } | undefined): boolean => {
    if (!next || (found && (found.context !== next.context || !isSameOwner(found.owner, next.owner)))) return false;
    found = next;
    return true;
  };
  for (const importer of findImporters(file)) {
    if (isTestImporter(importer)) continue;
    const importerContext = getImporterContext(context, importer, depth);
    if (!importerContext) return undefined;
    for (const collector of collectors) collector.set(importer, importerContext.sourceCode.text);
    if (reexportsAll(importerContext, file)) {
      if (reexported || !agree(findBindingOwner(importerContext, importer, depth + 1, exportNames, true))) return undefined;
      continue;
    }
    for (const read of findImportedReads(importerContext)) {
      if (read.file !== file || !exportNames.includes(read.exportName)) continue;
      const owner = getBindingOwner(importerContext, read.node);
      if (!owner) return undefined;
      if (owner.type !== 'exported') {
        if (!agree({ context: importerContext, owner })) return undefined;
        continue;
      }
      // Bound to the `this` of a function that is itself exported to be bound (`processJobs.call(this, job)` in `saveJob`).
      const callers = getFunctionCallers(importerContext, owner.fn);
      if (!callers || callers.calls.length > 0 || callers.exportNames.length === 0 || !agree(findBindingOwner(importerContext, importer, depth + 1, callers.exportNames))) return undefined;
    }
  }
  return found;
}

/** Babel's and TypeScript's CommonJS re-export helpers. */
const EXPORT_STAR_HELPER = /^_?_?(?:exportStar|export)$/;

/** `export * from './x'` or its CommonJS output `tslib_1.__exportStar(require('./x'), exports)`, for `file`. */
function reexportsAll(context: AnyRuleContext, file: string): boolean {
  const from = getSourcePath(context);
  return context.sourceCode.ast.body.some((statement) => {
    if (statement.type === AST_NODE_TYPES.ExportAllDeclaration) return !statement.exported && resolveModuleFile(from, String(statement.source.value)) === file;
    if (statement.type !== AST_NODE_TYPES.ExpressionStatement || statement.expression.type !== AST_NODE_TYPES.CallExpression) return false;
    const call = statement.expression;
    const callee = call.callee;
    const helper = callee.type === AST_NODE_TYPES.Identifier ? callee.name : callee.type === AST_NODE_TYPES.MemberExpression ? getKeyName(callee) : undefined;
    const required = call.arguments[0] && getRequiredRelative(call.arguments[0]);
    return helper !== undefined && EXPORT_STAR_HELPER.test(helper) && required !== undefined && resolveModuleFile(from, required) === file;
  });
}

/** `this.<name> = …` / `self.<name> = …` in the function a module exports as `exportName` (the function's own `this`). */
function findExportedFunctionFieldWrites(context: AnyRuleContext, exportName: string, name: string): TSESTree.Expression[] {
  const writes: TSESTree.Expression[] = [];
  for (const statement of context.sourceCode.ast.body) {
    const fn = getStatementFunction(statement);
    if (!fn || !getFunctionCallers(context, fn)?.exportNames.includes(exportName)) continue;
    writes.push(...findOwnerFieldWrites(context, { type: 'exported', fn }, name));
  }
  return writes;
}

/** The function a top-level statement declares: `function f() {}`, `const f = function () {}`, and their `export` forms. */
function getStatementFunction(statement: TSESTree.ProgramStatement): TSESTree.FunctionDeclaration | TSESTree.FunctionExpression | undefined {
  const declaration = statement.type === AST_NODE_TYPES.ExportNamedDeclaration ? statement.declaration : statement;
  if (declaration?.type === AST_NODE_TYPES.FunctionDeclaration) return declaration;
  if (declaration?.type !== AST_NODE_TYPES.VariableDeclaration || declaration.declarations.length !== 1) return undefined;
  const init = declaration.declarations[0]?.init;
  return init?.type === AST_NODE_TYPES.FunctionExpression ? init : undefined;
}
