/**
 * The module index as the language server and the benchmark use it: the editor's text
 * of open documents (read instead of the files on disk when another file imports them),
 * and counts of the modules read.
 */
export { getModuleIndexStats, type ModuleIndexStats } from './analysis/clients';
export { setOpenModuleText } from './analysis/modules';
