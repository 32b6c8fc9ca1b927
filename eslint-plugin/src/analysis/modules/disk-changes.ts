import path from 'node:path';
import { type FileChange, forgetModuleFile, forgetPathAliases } from './module-files';
import { forgetProjectImporters, SKIPPED_FOLDERS, SOURCE_FILE } from './module-importers';
import { forgetManifestLocations } from './package-manifest';

export type { FileChange };

/**
 * Files the module index reads: sources, manifests, tsconfig files. An editor that watches
 * them and reports each change (`noteModuleFileChanged`) has on-disk changes seen at the
 * next lint, not when the index would look again on its own (3 to 30 s later).
 */
export const MODULE_FILE_GLOBS: readonly string[] = ['**/*.{ts,tsx,mts,cts,js,jsx,mjs,cjs}', '**/package.json', '**/tsconfig*.json'];

/** What a changed file is to the module index: a module its importers name, or a project file (`package.json`, `tsconfig*.json`) every file may depend on. */
export type ModuleFileKind = 'module' | 'project';

const TSCONFIG_FILE = /^tsconfig.*\.json$/;

/**
 * A file changed, was created or was deleted on disk. When the module index may read it
 * (a source, manifest or tsconfig file outside `node_modules` and tools' output folders
 * such as `.next`, which a dev server rewrites all the time), what depends on it is
 * looked at again at the next lint, and its kind is returned; else undefined.
 */
export function noteModuleFileChanged(filePath: string, change: FileChange): ModuleFileKind | undefined {
  const name = path.basename(filePath);
  const isManifest = name === 'package.json';
  const isTsconfig = TSCONFIG_FILE.test(name);
  if ((!isManifest && !isTsconfig && !SOURCE_FILE.test(name)) || isInSkippedFolder(filePath)) return undefined;
  forgetModuleFile(filePath, change);
  if (isManifest && change !== 'changed') forgetManifestLocations();
  if (isTsconfig) forgetPathAliases();
  forgetProjectImporters();
  return isManifest || isTsconfig ? 'project' : 'module';
}

function isInSkippedFolder(filePath: string): boolean {
  return filePath.split(/[\\/]/).some((segment) => SKIPPED_FOLDERS.has(segment));
}
