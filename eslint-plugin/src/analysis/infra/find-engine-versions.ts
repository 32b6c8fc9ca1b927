import path from 'node:path';
import { INFRA_ROOT_KEY } from '../../constants';
import { findCodeEngineVersions, CODE_MARKER } from './code';
import type { FoundEngineVersion } from './found-version';
import { DEFAULT_WALK_LIMITS, getInfraFileKind, getStamp, type InfraFileKind, type InfraWalkLimits, isSkippedFolder, readSmallTextFile, walkInfraFiles } from './infra-files';
import { findTemplateEngineVersions, TEMPLATE_MARKER } from './templates';
import { findTerraformEngineVersions, TERRAFORM_MARKER } from './terraform';

/**
 * The DocumentDB engine versions that a repository's infrastructure code states, found
 * from a root folder (ESLint's `cwd`, the editor's workspace folder) and kept per root
 * for the process. A root is looked at again at most every `RECHECK_MS`: when a folder
 * read by the walk or a file that declares a cluster has changed (size or time), it is
 * walked again; files that did not change are not read again. A host that sees files
 * change (the language server) says so with `noteInfraFileChanged`, which takes effect
 * at once.
 */

const RECHECK_MS = 2000;
/** Per-file results kept for files that did not change; dropped whole past this many. */
const MAX_FILE_RESULTS = 20_000;

const MARKERS: Record<InfraFileKind, RegExp> = { terraform: TERRAFORM_MARKER, template: TEMPLATE_MARKER, code: CODE_MARKER };
const READERS: Record<InfraFileKind, (text: string, file: string) => FoundEngineVersion[]> = {
  terraform: findTerraformEngineVersions,
  template: findTemplateEngineVersions,
  code: findCodeEngineVersions,
};

interface RootEntry {
  versions: readonly FoundEngineVersion[];
  /** Stamps of the folders read and of the files that name a cluster type. */
  stamps: Map<string, string | undefined>;
  checkedAt: number;
}

interface FileResult {
  stamp: string;
  /** The file names a cluster type (its marker), so a change to it matters. */
  marked: boolean;
  /** With paths relative to the root they were found from. */
  versions: FoundEngineVersion[];
  root: string;
}

const roots = new Map<string, RootEntry>();
const fileResults = new Map<string, FileResult>();

/** The engine versions stated under `root`, in walk order; empty for a folder that cannot be read. Never throws. */
export function findInfraEngineVersions(root: string, limits: InfraWalkLimits = DEFAULT_WALK_LIMITS): readonly FoundEngineVersion[] {
  const key = path.resolve(root);
  const now = Date.now();
  const entry = roots.get(key);
  if (entry) {
    if (now - entry.checkedAt < RECHECK_MS) return entry.versions;
    entry.checkedAt = now;
    if ([...entry.stamps].every(([file, stamp]) => getStamp(file) === stamp)) return entry.versions;
  }
  const scanned = scanRoot(key, limits);
  roots.set(key, { ...scanned, checkedAt: now });
  return scanned.versions;
}

function scanRoot(root: string, limits: InfraWalkLimits): Omit<RootEntry, 'checkedAt'> {
  const walk = walkInfraFiles(root, limits);
  const stamps = new Map<string, string | undefined>();
  for (const folder of walk.folders) stamps.set(folder, getStamp(folder));
  const versions: FoundEngineVersion[] = [];
  let read = 0;
  for (const { path: file, kind } of walk.files) {
    const stamp = getStamp(file);
    if (stamp === undefined) continue;
    let result = fileResults.get(file);
    if (result?.stamp !== stamp || result.root !== root) {
      if (read >= limits.maxFiles) break;
      read++;
      result = readInfraFile(root, file, kind, stamp, limits.maxFileBytes);
      if (fileResults.size >= MAX_FILE_RESULTS) fileResults.clear();
      fileResults.set(file, result);
    }
    if (result.marked) stamps.set(file, stamp);
    versions.push(...result.versions);
  }
  return { versions, stamps };
}

function readInfraFile(root: string, file: string, kind: InfraFileKind, stamp: string, maxBytes: number): FileResult {
  const text = readSmallTextFile(file, maxBytes);
  if (text === undefined || !MARKERS[kind].test(text)) return { stamp, marked: false, versions: [], root };
  const relative = path.relative(root, file).split(path.sep).join('/');
  let versions: FoundEngineVersion[] = [];
  try {
    versions = READERS[kind](text, relative);
  } catch {
    // A reader that fails on an odd file finds nothing in it; the others still count.
  }
  return { stamp, marked: true, versions, root };
}

/**
 * A host saw `filePath` change, appear or go (an editor's file watcher, a save): the
 * roots whose result it may change are looked at again on their next use. True when any
 * was. A file the walk would not read (wrong kind, in `node_modules`…) changes nothing;
 * nor does one that neither declared a cluster before nor names one now.
 */
export function noteInfraFileChanged(filePath: string): boolean {
  const file = path.resolve(filePath);
  let changed = false;
  for (const [root, entry] of roots) {
    const relative = path.relative(root, file);
    if (relative === '' || relative.startsWith('..') || path.isAbsolute(relative)) continue;
    if (entry.stamps.has(file) || (isWalked(relative) && mayDeclareCluster(file))) {
      roots.delete(root);
      changed = true;
    }
  }
  return changed;
}

/** Inside no skipped folder and of a kind the walk reads. */
function isWalked(relative: string): boolean {
  const parts = relative.split(path.sep);
  const name = parts.pop() ?? '';
  return !parts.some(isSkippedFolder) && getInfraFileKind(name) !== undefined;
}

function mayDeclareCluster(file: string): boolean {
  const kind = getInfraFileKind(path.basename(file));
  if (!kind) return false;
  const text = readSmallTextFile(file, DEFAULT_WALK_LIMITS.maxFileBytes);
  return text !== undefined && MARKERS[kind].test(text);
}

/** Forgets every root and file (tests, and hosts that start over). */
export function clearInfraEngineVersions(): void {
  roots.clear();
  fileResults.clear();
}

/**
 * Where a linted file's repository is searched: the host's folder (`INFRA_ROOT_KEY`, set by
 * the language server, which lints under a folder of its own; `null`: none), else ESLint's
 * `cwd`.
 */
export function getInfraRoot(settings: Readonly<Record<string, unknown>> | undefined, cwd: string | undefined): string | undefined {
  const given = settings?.[INFRA_ROOT_KEY];
  if (given === null) return undefined;
  if (typeof given === 'string') return path.isAbsolute(given) ? given : undefined;
  return cwd && path.isAbsolute(cwd) ? cwd : undefined;
}
