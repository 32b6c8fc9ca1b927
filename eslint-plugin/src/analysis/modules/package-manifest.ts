import { readFileSync } from 'node:fs';
import path from 'node:path';

/**
 * What the nearest `package.json` above a file depends on (all dependency kinds), read
 * once per folder. Undefined when no readable manifest is found up to the root.
 */

interface Manifest {
  /** The folder that holds the `package.json`. */
  folder: string;
  dependencies: ReadonlySet<string>;
}

const manifests = new Map<string, Manifest | undefined>();
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

/** Per file path as given (the same string for every question about one linted file): its manifest. */
const fileManifests = new Map<string, Manifest | undefined>();

function getFileManifest(file: string): Manifest | undefined {
  if (fileManifests.has(file)) return fileManifests.get(file);
  const found = path.isAbsolute(file) ? getFolderManifest(path.dirname(file)) : undefined;
  if (fileManifests.size >= MAX_FOLDERS) fileManifests.clear();
  fileManifests.set(file, found);
  return found;
}

function getFolderManifest(folder: string): Manifest | undefined {
  if (manifests.has(folder)) return manifests.get(folder);
  let found: Manifest | undefined;
  const text = readManifest(path.join(folder, 'package.json'));
  if (text !== undefined) {
    found = { folder, dependencies: parseDependencies(text) };
  } else {
    const parent = path.dirname(folder);
    found = parent === folder ? undefined : getFolderManifest(parent);
  }
  if (manifests.size >= MAX_FOLDERS) manifests.clear();
  manifests.set(folder, found);
  return found;
}

function readManifest(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
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
