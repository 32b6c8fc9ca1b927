import path from 'node:path';
import { getManifestFolder } from './package-manifest';
import { getFolderListing, readModuleText, resolveModuleFile } from './module-files';

/**
 * Which modules of a project import a given one: the reverse of the module index, so
 * that the callers of an exported function or class can be read. The project is the
 * folder of the nearest `package.json`; its files are listed and their relative import
 * specifiers found by text, at most every few seconds per project, within bounds.
 */

const MAX_FILES = 3000;
const MAX_DEPTH = 12;
/** How long a project's list is used before it is made again (files come and go in an editor). */
const REFRESH_AFTER_MS = 10_000;
/** Folders of dependencies, tools' output and caches: no project module lives there. */
export const SKIPPED_FOLDERS: ReadonlySet<string> = new Set(['node_modules', '.git', 'coverage', '.next', '.nuxt', '.turbo', '.cache']);
/** A JavaScript or TypeScript source file's name. */
export const SOURCE_FILE = /\.(?:[cm]?[jt]sx?)$/;
const DECLARATION_FILE = /\.d\.[cm]?ts$/;
const RELATIVE_SPECIFIER = /(?:\bfrom\s*|\brequire\s*\(\s*|\bimport\s*\(\s*)(['"])(\.{1,2}(?:\/[^'"\n]*)?)\1/g;

interface ProjectImports {
  builtAt: number;
  /** Module file → the files that import it. */
  importers: Map<string, string[]>;
}

const projects = new Map<string, ProjectImports>();

/** The files of `file`'s project that import it (never `file` itself). */
export function findImporters(file: string): readonly string[] {
  const root = getManifestFolder(file);
  if (!root) return [];
  const now = Date.now();
  let project = projects.get(root);
  if (!project || now - project.builtAt > REFRESH_AFTER_MS) {
    project = { builtAt: now, importers: indexProject(root) };
    if (projects.size > 50) projects.clear();
    projects.set(root, project);
  }
  return project.importers.get(file) ?? [];
}

/** A file of some project changed on disk: every project's list of importers is made again when next asked. */
export function forgetProjectImporters(): void {
  projects.clear();
}

function indexProject(root: string): Map<string, string[]> {
  const importers = new Map<string, string[]>();
  for (const file of listSourceFiles(root)) {
    const text = readModuleText(file);
    if (text === undefined) continue;
    for (const target of getImportTargets(file, text)) {
      const list = importers.get(target);
      if (list) list.push(file);
      else importers.set(target, [file]);
    }
  }
  return importers;
}

/**
 * Per file, the modules its text imports: a new list of the project resolves again only
 * the files that changed, and the specifiers that named no file yet (it may exist now).
 */
const importTargets = new Map<string, { text: string; targets: Set<string>; unresolved: string[] }>();
const MAX_IMPORT_TARGETS = 20_000;

function getImportTargets(file: string, text: string): ReadonlySet<string> {
  const known = importTargets.get(file);
  if (known?.text === text) {
    if (known.unresolved.length > 0) known.unresolved = resolveInto(file, known.unresolved, known.targets);
    return known.targets;
  }
  const targets = new Set<string>();
  const specifiers = Array.from(text.matchAll(RELATIVE_SPECIFIER), (match) => match[2] as string);
  const unresolved = resolveInto(file, specifiers, targets);
  if (importTargets.size >= MAX_IMPORT_TARGETS) importTargets.clear();
  importTargets.set(file, { text, targets, unresolved });
  return targets;
}

/** Adds the files the specifiers name to `targets`; returns the specifiers that name none. */
function resolveInto(file: string, specifiers: readonly string[], targets: Set<string>): string[] {
  const unresolved: string[] = [];
  for (const specifier of specifiers) {
    const target = resolveModuleFile(file, specifier);
    if (target === undefined) unresolved.push(specifier);
    else if (target !== file) targets.add(target);
  }
  return unresolved;
}

function listSourceFiles(root: string): string[] {
  const files: string[] = [];
  const folders: Array<{ folder: string; depth: number }> = [{ folder: root, depth: 0 }];
  for (let next = folders.pop(); next && files.length < MAX_FILES; next = folders.pop()) {
    // The module index's listings: a folder unchanged since it was last listed is not read again.
    const listing = getFolderListing(next.folder);
    if (next.depth < MAX_DEPTH) {
      for (const name of listing.folders) if (!SKIPPED_FOLDERS.has(name)) folders.push({ folder: path.join(next.folder, name), depth: next.depth + 1 });
    }
    for (const file of getSourcePaths(next.folder, listing.files)) {
      files.push(file);
      if (files.length >= MAX_FILES) break;
    }
  }
  return files;
}

/** A folder's source files as paths, kept with its listing: each new list of the project would join them again. */
const sourcePathsByListing = new WeakMap<ReadonlySet<string>, readonly string[]>();

function getSourcePaths(folder: string, names: ReadonlySet<string> | undefined): readonly string[] {
  if (!names) return [];
  let paths = sourcePathsByListing.get(names);
  if (!paths) {
    paths = [...names].filter((name) => SOURCE_FILE.test(name) && !DECLARATION_FILE.test(name)).map((name) => path.join(folder, name));
    sourcePathsByListing.set(names, paths);
  }
  return paths;
}
