import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';
import type { DbValue } from './db-value';
import { findImportedReads } from '../modules';
import { type AnyRuleContext, createPerFileCache } from '../per-file-cache';

/**
 * Database values a file gets from the project's own modules: `orders` imported from
 * `./db`, `await getDb()` with `getDb` required from `../mongo`. What a module exports
 * comes from its summary (module-exports.ts), made by the same analyses that read the
 * linted file; the summariser is set at load time because it depends on those analyses,
 * which in turn ask this module for their seeds.
 */

export interface ExportedValue {
  value: DbValue;
  /** Calling the export gives the value (or a promise of it): `getDb()`, `getPool()`. */
  returned: boolean;
}

export interface ImportedValue {
  /** The expression in the linted file that evaluates to the value (the call, or `await` of it, for `returned` exports). */
  node: TSESTree.Node;
  value: DbValue;
}

export type ModuleExportLookup = (context: AnyRuleContext, file: string, exportName: string) => ExportedValue | undefined;

let lookUpExport: ModuleExportLookup = () => undefined;

export function setModuleExportLookup(lookup: ModuleExportLookup): void {
  lookUpExport = lookup;
}

/**
 * Method names through which a file uses a database value: a file that calls none of
 * them cannot use one, and its imports are not read (most files of a project).
 */
export const DATABASE_METHOD_CALL =
  /\.\s*(?:collection|db|model|startSession|withSession|withTransaction|startTransaction|commitTransaction|insertOne|insertMany|updateOne|updateMany|replaceOne|deleteOne|deleteMany|bulkWrite|bulkSave|findOneAnd(?:Update|Delete|Replace)|findByIdAnd(?:Update|Delete)|countDocuments|aggregate|query|connect|begin|savepoint|unsafe|reserve|send|promise|batchWrite(?:Item)?|batchGet(?:Item)?|transactWrite(?:Items)?|transactGet(?:Items)?|putItem|getItem|updateItem|deleteItem|executeStatement)\s*[(<]/;

/** The file's reads of database values exported by its relative imports; computed once per file. */
export const getImportedValues = createPerFileCache((context: AnyRuleContext): readonly ImportedValue[] => {
  if (!DATABASE_METHOD_CALL.test(context.sourceCode.text)) return [];
  const found: ImportedValue[] = [];
  for (const read of findImportedReads(context)) {
    const exported = lookUpExport(context, read.file, read.exportName);
    if (!exported) continue;
    if (!exported.returned) {
      found.push({ node: read.node, value: exported.value });
      continue;
    }
    const call = read.node.parent;
    if (call?.type !== AST_NODE_TYPES.CallExpression || call.callee !== read.node) continue;
    const awaited = call.parent;
    found.push({ node: awaited?.type === AST_NODE_TYPES.AwaitExpression ? awaited : call, value: exported.value });
  }
  return found;
});
