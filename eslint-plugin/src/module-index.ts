/**
 * The module index as the language server and the benchmark use it: the editor's text
 * of open documents (read instead of the files on disk when another file imports them),
 * and counts of the modules read. Typed here, so that the package's declarations stay
 * free of the analysis's internal types.
 */
import { getModuleIndexStats as getStats } from './analysis/clients';
import { setOpenModuleText as setOpenText } from './analysis/modules';

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
