import { AST_NODE_TYPES, ASTUtils, type TSESLint, type TSESTree } from '@typescript-eslint/utils';
import { getKeyName } from '../ast';
import { createPerFileCache, type AnyRuleContext } from '../per-file-cache';
import { getSourcePath, isRelativeSpecifier, resolveModuleFile } from './module-files';
import { findRequireCallsMatching, getInteropWrapper, WHOLE_MODULE } from './module-references';

export { WHOLE_MODULE };

/**
 * The places of a file that read what one of the project's own modules exports:
 * `orders` imported by name from `./db`, `db.pool` after a namespace import,
 * `const pool = require('../db')`, `const { getDb } = require('./mongo')`,
 * `require('./db').pool`.
 */


export interface ImportedRead {
  /** The expression that evaluates to the export. */
  node: TSESTree.Node;
  /** The module's file. */
  file: string;
  /** The export's name, `default`, or `WHOLE_MODULE`. */
  exportName: string;
}

/** A relative specifier inside quotes, as a regular expression's source. */
const RELATIVE_SPECIFIER = String.raw`\.{1,2}(?:/[^'"\n]*)?`;

/**
 * Every read of a relative module's export in the file, in no particular order; with
 * `isWanted`, only the reads of the modules it accepts (asked once per module, and the
 * others' reads not even listed).
 */
export function findImportedReads(context: AnyRuleContext, isWanted?: (file: string) => boolean): readonly ImportedRead[] {
  if (!isWanted) return findAllImportedReads(context);
  const reads: ImportedRead[] = [];
  for (const module of findImportedModules(context).values()) if (isWanted(module.file)) reads.push(...module.reads);
  return reads;
}

const findAllImportedReads = createPerFileCache((context): readonly ImportedRead[] =>
  [...findImportedModules(context).values()].flatMap((module) => module.reads),
);

/**
 * A module of the project the file imports. Its reads are listed when first asked: most
 * questions are about a few modules (the others known to export nothing database-wise),
 * and a widely used import has hundreds of reads.
 */
class ImportedModule {
  private listed: readonly ImportedRead[] | undefined;
  /** The `import` statements and `require(…)` calls that name the module. */
  readonly sources: Array<TSESTree.ImportDeclaration | TSESTree.CallExpression> = [];

  constructor(
    private readonly context: AnyRuleContext,
    readonly file: string,
  ) {}

  get reads(): readonly ImportedRead[] {
    if (!this.listed) {
      const reads: ImportedRead[] = [];
      for (const source of this.sources) {
        if (source.type === AST_NODE_TYPES.ImportDeclaration) addImportReads(this.context, reads, source, this.file);
        else addRequireReads(this.context, reads, source, this.file);
      }
      this.listed = reads;
    }
    return this.listed;
  }
}

/** The project's modules the file imports or requires, by file, in the order first imported. */
const findImportedModules = createPerFileCache((context): ReadonlyMap<string, ImportedModule> => {
  const file = getSourcePath(context);
  const modules = new Map<string, ImportedModule>();
  const add = (target: string, source: TSESTree.ImportDeclaration | TSESTree.CallExpression): void => {
    let module = modules.get(target);
    if (!module) modules.set(target, (module = new ImportedModule(context, target)));
    module.sources.push(source);
  };
  for (const statement of context.sourceCode.ast.body) {
    if (statement.type !== AST_NODE_TYPES.ImportDeclaration || statement.importKind === 'type') continue;
    const specifier = String(statement.source.value);
    // Relative imports, and aliases a tsconfig.json's `paths` maps to the project's files.
    if (!isRelativeSpecifier(specifier) && !isAliasLike(specifier)) continue;
    const target = resolveModuleFile(file, specifier);
    if (target) add(target, statement);
  }
  for (const { call, specifier } of findRelativeRequireCalls(context)) {
    const target = resolveModuleFile(file, specifier);
    if (target) add(target, call);
  }
  return modules;
});

function addImportReads(context: AnyRuleContext, reads: ImportedRead[], statement: TSESTree.ImportDeclaration, file: string): void {
  for (const imported of statement.specifiers) {
    if (imported.type === AST_NODE_TYPES.ImportSpecifier && imported.importKind === 'type') continue;
    const variable = context.sourceCode.getDeclaredVariables(imported)[0];
    if (!variable) continue;
    if (imported.type === AST_NODE_TYPES.ImportNamespaceSpecifier) {
      addNamespaceReads(reads, variable, file);
      continue;
    }
    const exportName =
      imported.type === AST_NODE_TYPES.ImportDefaultSpecifier
        ? 'default'
        : imported.imported.type === AST_NODE_TYPES.Identifier
          ? imported.imported.name
          : String(imported.imported.value);
    addVariableReads(reads, variable, file, exportName);
  }
}

/** `@/lib/db`, `~/db`, `#db`, `src/db`: could be a `paths` alias; a scoped or bare package name of a database driver is not. */
function isAliasLike(specifier: string): boolean {
  return specifier.includes('/') || /^[~#@]/.test(specifier);
}

function addVariableReads(reads: ImportedRead[], variable: TSESLint.Scope.Variable, file: string, exportName: string): void {
  for (const reference of variable.references) {
    if (reference.isRead()) reads.push({ node: reference.identifier as TSESTree.Node, file, exportName });
  }
}

/** `db.pool` reads the export `pool`; the namespace itself is the whole module. */
function addNamespaceReads(reads: ImportedRead[], variable: TSESLint.Scope.Variable, file: string): void {
  for (const reference of variable.references) {
    if (!reference.isRead()) continue;
    const identifier = reference.identifier as TSESTree.Node;
    const member = identifier.parent;
    const name = member?.type === AST_NODE_TYPES.MemberExpression && member.object === identifier ? getKeyName(member) : undefined;
    // Both: `db.pool` may read the export `pool`, or `db` may be the module's whole value (a pool itself).
    if (member && name !== undefined) reads.push({ node: member, file, exportName: name });
    reads.push({ node: identifier, file, exportName: WHOLE_MODULE });
  }
}

function addRequireReads(context: AnyRuleContext, reads: ImportedRead[], requireCall: TSESTree.CallExpression, file: string): void {
  // Babel's and TypeScript's CommonJS output: `_interopRequireDefault(require('./x'))`, `tslib_1.__importDefault(…)`.
  const call = getInteropWrapper(requireCall) ?? requireCall;
  const parent = call.parent;
  if (parent?.type === AST_NODE_TYPES.MemberExpression && parent.object === call) {
    const name = getKeyName(parent);
    if (name !== undefined) reads.push({ node: parent, file, exportName: name });
    return;
  }
  if (parent?.type === AST_NODE_TYPES.VariableDeclarator && parent.init === call) {
    if (parent.id.type === AST_NODE_TYPES.Identifier) {
      const variable = context.sourceCode.getDeclaredVariables(parent)[0];
      if (variable) addNamespaceReads(reads, variable, file);
      return;
    }
    if (parent.id.type === AST_NODE_TYPES.ObjectPattern) {
      for (const property of parent.id.properties) {
        if (property.type !== AST_NODE_TYPES.Property || property.value.type !== AST_NODE_TYPES.Identifier) continue;
        const name = getKeyName(property);
        const variable = name === undefined ? undefined : findVariable(context, property.value);
        if (variable && name !== undefined) addVariableReads(reads, variable, file, name);
      }
    }
    return;
  }
  reads.push({ node: call, file, exportName: WHOLE_MODULE });
}

function findVariable(context: AnyRuleContext, identifier: TSESTree.Identifier): TSESLint.Scope.Variable | undefined {
  try {
    return ASTUtils.findVariable(context.sourceCode.getScope(identifier), identifier) ?? undefined;
  } catch {
    return undefined;
  }
}

/** `require('./x')` / `require('../x')` calls, found by text first. */
function findRelativeRequireCalls(context: AnyRuleContext): { call: TSESTree.CallExpression; specifier: string }[] {
  return findRequireCallsMatching(context, RELATIVE_SPECIFIER).map(({ call, module }) => ({ call, specifier: module }));
}
