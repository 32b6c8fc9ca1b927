/**
 * The module index as the language server and the benchmark use it: the editor's text
 * of open documents (read instead of the files on disk when another file imports them),
 * and counts of the modules read. Typed here, so that the package's declarations stay
 * free of the analysis's internal types.
 */
import { getModuleIndexStats as getStats } from './analysis/clients';
import { MODULE_FILE_GLOBS as FILE_GLOBS, noteModuleFileChanged as noteChanged, setOpenModuleText as setOpenText } from './analysis/modules';

export interface ModuleIndexStats {
  /** Imported modules read and parsed. */
  parsed: number;
  /** Imported modules read and skipped without parsing (no database package, no relative import). */
  skipped: number;
  /** Module summaries reused from the cache. */
  reused: number;
}

/** Counts since the process started. */
export const getModuleIndexStats: () => ModuleIndexStats = getStats;

/** Sets (or, with `undefined`, clears) the unsaved text of an open document, read instead of the file by files that import it. */
export const setOpenModuleText: (filePath: string, text: string | undefined) => void = setOpenText;

/** Glob patterns of the files the module index reads (sources, `package.json`, `tsconfig*.json`), for an editor's file watcher. */
export const MODULE_FILE_GLOBS: readonly string[] = FILE_GLOBS;

/**
 * A file changed (`changed`), appeared (`created`) or went away (`deleted`) on disk: the
 * module index reads it, its folder and the imports that may lead to it again at the next
 * lint. Returns `module` for a source file (the files that import it name it), `project`
 * for a `package.json` or `tsconfig*.json` (any file of the project may depend on it), and
 * undefined for a file the index never reads (other extensions, `node_modules`).
 */
export const noteModuleFileChanged: (filePath: string, change: 'created' | 'changed' | 'deleted') => 'module' | 'project' | undefined = noteChanged;
