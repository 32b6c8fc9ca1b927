import path from 'node:path';
import { readModuleText } from './module-files';

/**
 * What the nearest `package.json` above a file depends on (all dependency kinds). Where
 * the manifest is, is found once per folder; what it says is read like a module's text
 * (an open document's, else the file's, looked at again after a few seconds), so a
 * dependency added while an editor runs counts without a restart. Undefined when no
 * readable manifest is found up to the root.
 */

interface Manifest {
  /** The folder that holds the `package.json`. */
  folder: string;
  dependencies: ReadonlySet<string>;
}

/** Folder → the folder of its nearest manifest (null: none up to the root). */
const manifestFolders = new Map<string, string | null>();
/** Manifest folder → its dependencies, with the text they were read from. */
const parsedManifests = new Map<string, { text: string; manifest: Manifest }>();
/** Folders remembered before the cache starts again (a bound for long-running editors). */
const MAX_FOLDERS = 5000;
const DEPENDENCY_FIELDS = ['dependencies', 'devDependencies', 'peerDependencies', 'optionalDependencies'];

export function getManifestDependencies(file: string): ReadonlySet<string> | undefined {
  return getFileManifest(file)?.dependencies;
}

/**
 * False only when the file's project has a `package.json` that lists none of `packages`:
 * its code cannot make their clients, so a parameter there holds none made in the project.
 */
export function mayUsePackages(file: string, packages: readonly string[]): boolean {
  const dependencies = getManifestDependencies(file);
  return dependencies === undefined || packages.some((name) => dependencies.has(name));
}

/** The folder of the nearest `package.json` above `file`: its project. */
export function getManifestFolder(file: string): string | undefined {
  return getFileManifest(file)?.folder;
}

/**
 * Per file path as given (the same string for every question about one linted file): its
 * manifest's folder and path, the path kept so that each question looks up the same
 * string instead of joining a new one (asked once per file by each database's analysis,
 * and again for every module the index reads).
 */
const fileManifestPaths = new Map<string, { folder: string; manifestPath: string } | null>();

function getFileManifest(file: string): Manifest | undefined {
  let location = fileManifestPaths.get(file);
  if (location === undefined) {
    const folder = path.isAbsolute(file) ? findManifestFolder(path.dirname(file)) : null;
    location = folder === null ? null : { folder, manifestPath: path.join(folder, 'package.json') };
    if (fileManifestPaths.size >= MAX_FOLDERS) fileManifestPaths.clear();
    fileManifestPaths.set(file, location);
  }
  if (location === null) return undefined;
  const text = readModuleText(location.manifestPath);
  if (text === undefined) return undefined;
  const { folder } = location;
  let parsed = parsedManifests.get(folder);
  if (parsed?.text !== text) {
    parsed = { text, manifest: { folder, dependencies: parseDependencies(text) } };
    if (parsedManifests.size >= MAX_FOLDERS) parsedManifests.clear();
    parsedManifests.set(folder, parsed);
  }
  return parsed.manifest;
}

function findManifestFolder(folder: string): string | null {
  const known = manifestFolders.get(folder);
  if (known !== undefined) return known;
  let found: string | null;
  if (readModuleText(path.join(folder, 'package.json')) !== undefined) {
    found = folder;
  } else {
    const parent = path.dirname(folder);
    found = parent === folder ? null : findManifestFolder(parent);
  }
  if (manifestFolders.size >= MAX_FOLDERS) manifestFolders.clear();
  manifestFolders.set(folder, found);
  return found;
}

function parseDependencies(text: string): ReadonlySet<string> {
  const names = new Set<string>();
  try {
    const manifest = JSON.parse(text) as Record<string, unknown>;
    for (const field of DEPENDENCY_FIELDS) {
      const dependencies = manifest[field];
      if (dependencies && typeof dependencies === 'object') for (const name of Object.keys(dependencies)) names.add(name);
    }
  } catch {
    // A broken manifest says nothing.
  }
  return names;
}

/** A `package.json` created or deleted: where each folder's nearest manifest is, is looked for again. */
export function forgetManifestLocations(): void {
  manifestFolders.clear();
  fileManifestPaths.clear();
}
