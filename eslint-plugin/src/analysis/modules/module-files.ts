import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { createPathsMatcher, getTsconfig } from 'get-tsconfig';
import { SOURCE_PATH_KEY } from '../../constants';
import type { AnyRuleContext } from '../per-file-cache';

/**
 * Where a relative import of the project leads on disk, and that module's text. Only
 * reading: no code is run. The editor's unsaved text of an open document wins over the
 * file on disk (`setOpenModuleText`).
 */

/** Modules larger than this are not read (generated or bundled code holds no client of the app's own). */
const MAX_MODULE_BYTES = 512 * 1024;

const SOURCE_EXTENSIONS = ['.ts', '.tsx', '.mts', '.cts', '.js', '.jsx', '.mjs', '.cjs'];
/** `import './db.js'` in TypeScript names `./db.ts`. */
const COMPILED_TO_SOURCE: Record<string, string[]> = {
  '.js': ['.ts', '.tsx'],
  '.jsx': ['.tsx'],
  '.mjs': ['.mts'],
  '.cjs': ['.cts'],
};

const openTexts = new Map<string, string>();

/**
 * Sets (or, with `undefined`, clears) the text of an open, maybe unsaved, document: the
 * module index reads it instead of the file on disk.
 */
export function setOpenModuleText(filePath: string, text: string | undefined): void {
  const key = path.resolve(filePath);
  // A document opened or closed may be a module that did not resolve (or did) a moment ago.
  if (openTexts.has(key) !== (text !== undefined)) {
    resolutions.clear();
    folderListings.clear();
  }
  // A document closed after a save is read from disk again at once, not after the recheck time.
  readTexts.delete(key);
  textVersion += 1;
  if (text === undefined) openTexts.delete(key);
  else openTexts.set(key, text);
}

/** What a file watcher reports of a file. */
export type FileChange = 'created' | 'changed' | 'deleted';

/**
 * A file changed on disk (an editor's file watcher says so): its text is read again at the
 * next question instead of when its trust runs out, and a file created or deleted makes
 * its folder be listed again and every import be resolved again.
 */
export function forgetModuleFile(filePath: string, change: FileChange): void {
  const key = path.resolve(filePath);
  readTexts.delete(key);
  textVersion += 1;
  if (change !== 'changed') {
    folderListings.delete(path.dirname(key));
    resolutions.clear();
  }
}

/** A tsconfig file changed on disk: its `paths` aliases are read again, and every import resolved again. */
export function forgetPathAliases(): void {
  pathMatchers.clear();
  tsconfigCache.clear();
  resolutions.clear();
}

/** Where the linted file is on disk: the host's source-path setting, else the file ESLint lints. */
export function getSourcePath(context: AnyRuleContext): string {
  const given = (context.settings as Record<string, unknown> | undefined)?.[SOURCE_PATH_KEY];
  return typeof given === 'string' && path.isAbsolute(given) ? given : (context.physicalFilename ?? context.filename);
}

/** Shared settings for another module: the host's source path belongs to the linted file only. */
export function getModuleSettings(context: AnyRuleContext): Record<string, unknown> {
  const { [SOURCE_PATH_KEY]: _sourcePath, ...rest } = (context.settings ?? {}) as Record<string, unknown>;
  void _sourcePath;
  return rest;
}

/** True for `./db`, `../models/Record`: the specifiers the module index follows. */
export function isRelativeSpecifier(specifier: string): boolean {
  return specifier.startsWith('./') || specifier.startsWith('../') || specifier === '.' || specifier === '..';
}

/**
 * The file a specifier of `fromFile` names, as Node and TypeScript resolve it: a relative
 * one, or an alias of the nearest `tsconfig.json`'s `paths` (`@/lib/db`). Undefined when
 * it names no file of the project (packages are not followed).
 */
export function resolveModuleFile(fromFile: string, specifier: string): string | undefined {
  if (!path.isAbsolute(fromFile)) return undefined;
  const folder = path.dirname(fromFile);
  let byFolder = resolutions.get(folder);
  const known = byFolder?.get(specifier);
  const now = Date.now();
  if (known && (now < known.trustedUntil || isListingUnchanged(known.listings))) {
    if (now >= known.trustedUntil) known.trustedUntil = getListingsTrustedUntil(known.listings);
    return known.file;
  }
  const listings: FolderFiles[] = [];
  consultedListings = listings;
  let file: string | undefined;
  try {
    file = resolveFromFolder(folder, fromFile, specifier);
  } finally {
    consultedListings = undefined;
  }
  if (!byFolder) {
    if (resolutions.size >= MAX_READ_TEXTS) resolutions.clear();
    resolutions.set(folder, (byFolder = new Map()));
  }
  byFolder.set(specifier, { file, trustedUntil: getListingsTrustedUntil(listings), listings });
  return file;
}

/** An answer read from listings holds while they all do: until the first of them is due for a new look. */
function getListingsTrustedUntil(listings: readonly FolderFiles[]): number {
  let until = Number.POSITIVE_INFINITY;
  for (const { folder } of listings) until = Math.min(until, folderListings.get(folder)?.trustedUntil ?? 0);
  return until;
}

/** A folder's listing as a resolution read it: the listing object stays the same while the folder is unchanged. */
interface FolderFiles {
  folder: string;
  files: ReadonlySet<string> | undefined;
}

/**
 * Resolved specifiers by importing folder, then by specifier, with the folder listings they
 * were read from and until when those are all trusted: the modules of one folder import the
 * same few files. Once that time is up, an answer still holds while every listing it read
 * is the same (one look at each folder's time instead of trying up to 15 paths again).
 */
const resolutions = new Map<string, Map<string, { file: string | undefined; trustedUntil: number; listings: readonly FolderFiles[] }>>();
/** The listings the resolution under way reads, in order. */
let consultedListings: FolderFiles[] | undefined;

function isListingUnchanged(listings: readonly FolderFiles[]): boolean {
  return listings.every(({ folder, files }) => getFolderFiles(folder) === files);
}

function resolveFromFolder(folder: string, fromFile: string, specifier: string): string | undefined {
  if (isRelativeSpecifier(specifier)) return resolveFileBase(path.resolve(folder, specifier));
  for (const candidate of getPathAliases(fromFile)?.(specifier) ?? []) {
    const found = resolveFileBase(path.resolve(candidate));
    if (found) return found;
  }
  return undefined;
}

type PathsMatcher = (specifier: string) => string[];
/** Per folder: the `paths` of the nearest tsconfig.json (null when none, or it has no `paths`). */
const pathMatchers = new Map<string, PathsMatcher | null>();
const tsconfigCache = new Map<string, unknown>();

function getPathAliases(fromFile: string): PathsMatcher | undefined {
  const folder = path.dirname(fromFile);
  let matcher = pathMatchers.get(folder);
  if (matcher === undefined) {
    try {
      const found = getTsconfig(folder, 'tsconfig.json', tsconfigCache as Map<string, never>);
      matcher = found ? createPathsMatcher(found) : null;
    } catch {
      // An unreadable or broken tsconfig.json has no aliases to offer.
      matcher = null;
    }
    if (pathMatchers.size >= MAX_READ_TEXTS) pathMatchers.clear();
    pathMatchers.set(folder, matcher);
  }
  return matcher ?? undefined;
}

function resolveFileBase(base: string): string | undefined {
  const extension = path.extname(base);
  const names: string[] = [];
  const name = path.basename(base);
  if (SOURCE_EXTENSIONS.includes(extension)) {
    names.push(name);
    for (const source of COMPILED_TO_SOURCE[extension] ?? []) names.push(name.slice(0, -extension.length) + source);
  }
  for (const added of SOURCE_EXTENSIONS) names.push(name + added);
  const folder = path.dirname(base);
  const file = findModuleFile(folder, names);
  return file ?? findModuleFile(base, INDEX_NAMES);
}

const INDEX_NAMES = SOURCE_EXTENSIONS.map((extension) => `index${extension}`);

/** The first of `names` that is a file of `folder` (or an open document there). */
function findModuleFile(folder: string, names: readonly string[]): string | undefined {
  const files = getFolderFiles(folder);
  consultedListings?.push({ folder, files });
  for (const name of names) {
    if (files?.has(name) || (openTexts.size > 0 && openTexts.has(path.join(folder, name)))) return path.join(folder, name);
  }
  return undefined;
}

/**
 * Which files a folder holds, with the folder's modification time and when that was
 * last compared. A folder's time changes when an entry is added, removed or renamed, so
 * one `stat` of the folder tells whether a listing still holds: resolving an import tries
 * up to 15 paths, mostly in one or two folders. (Names are compared as written: on a
 * case-insensitive disk, an import spelled in another case than the file is not followed.)
 */
interface FolderListing {
  files: ReadonlySet<string> | undefined;
  /** Its subfolders (not links to folders), for a walk of the project. */
  folders: ReadonlySet<string>;
  mtimeMs: number;
  /** Until when (`Date.now()`) the listing holds without a new look (see `trustFor`). */
  trustedUntil: number;
}

const folderListings = new Map<string, FolderListing>();

/** The regular files (and links to them) of a folder; undefined when it is not a readable folder. */
function getFolderFiles(folder: string): ReadonlySet<string> | undefined {
  return getFolderListing(folder).files;
}

/**
 * The names of a folder's files (undefined when it is not a readable folder) and
 * subfolders, as last listed while that listing is trusted (see `trustFor`).
 */
export function getFolderListing(folder: string): Readonly<Pick<FolderListing, 'files' | 'folders'>> {
  const now = Date.now();
  const known = folderListings.get(folder);
  if (known && now < known.trustedUntil) return known;
  let mtimeMs = -1;
  try {
    const stats = statSync(folder, { throwIfNoEntry: false });
    if (stats?.isDirectory()) mtimeMs = stats.mtimeMs;
  } catch {
    // Unreadable: no files.
  }
  const trustedUntil = now + trustFor(now, mtimeMs, RECHECK_PATHS_AFTER_MS);
  if (known && known.mtimeMs === mtimeMs) {
    known.trustedUntil = trustedUntil;
    return known;
  }
  const listing: FolderListing = { ...(mtimeMs < 0 ? NO_LISTING : listFolder(folder)), mtimeMs, trustedUntil };
  if (folderListings.size >= MAX_READ_TEXTS) folderListings.clear();
  folderListings.set(folder, listing);
  return listing;
}

const NO_LISTING = { files: undefined, folders: new Set<string>() };

function listFolder(folder: string): Pick<FolderListing, 'files' | 'folders'> {
  try {
    const files = new Set<string>();
    const folders = new Set<string>();
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      if (entry.isDirectory()) folders.add(entry.name);
      else if (entry.isFile() || (entry.isSymbolicLink() && isLinkToFile(path.join(folder, entry.name)))) files.add(entry.name);
    }
    return { files, folders };
  } catch {
    return NO_LISTING;
  }
}

function isLinkToFile(file: string): boolean {
  try {
    return statSync(file, { throwIfNoEntry: false })?.isFile() === true;
  } catch {
    return false;
  }
}

interface ReadText {
  text: string | undefined;
  mtimeMs: number;
  size: number;
  /** Until when (`Date.now()`) the text holds without a new look at the file's stats (see `trustFor`). */
  trustedUntil: number;
}

/** Texts read from disk, by path: reread when the file's size or time changes. */
const readTexts = new Map<string, ReadText>();
/**
 * How long a file's stats are trusted at least without a new look: one lint of many files
 * reads a module many times. Open documents are not read from disk, so this only delays
 * seeing a change another program writes.
 */
const RECHECK_AFTER_MS = 3000;
/**
 * How long which paths exist (and what a specifier resolves to) is trusted at least:
 * resolving one import tries up to 15 paths. A file created in the editor is found within
 * this time (or the longer one a folder untouched for minutes gets), or at once when it is opened.
 */
const RECHECK_PATHS_AFTER_MS = 5000;
/** The longest a look at the disk is trusted, for a file or folder unchanged for minutes. */
const MAX_TRUST_MS = 30_000;

/**
 * How long a look at a file or folder (its modification time `mtimeMs`) is trusted: a tenth
 * of how long it has gone unchanged, between `least` and 30 s. A file saved a minute ago is
 * looked at again after 6 s, one being edited after `least`, while a dependency untouched for
 * days is not looked at again on every few files of a long lint (a look at the disk costs
 * more than the rest of a small file's checks on some machines). Unknown times get `least`.
 */
function trustFor(now: number, mtimeMs: number, least: number): number {
  if (!(mtimeMs > 0)) return least;
  return Math.min(MAX_TRUST_MS, Math.max(least, (now - mtimeMs) / 10));
}
const MAX_READ_TEXTS = 5000;

/** Changes whenever a text `readModuleText` gives may differ from the one it gave before (a file read anew, a document opened, edited or closed). */
let textVersion = 0;

/**
 * A number that stays the same while every text `readModuleText` gave still holds within
 * its recheck time: what was compared with those texts needs no new comparison until then.
 */
export function getModuleTextVersion(): number {
  return textVersion;
}

/**
 * Until when (`Date.now()`) `readModuleText(file)` gives its last text again without a new
 * look at the file, unless `getModuleTextVersion()` changes first: for ever for an open
 * document, `0` for a file not read.
 */
export function getModuleTextTrustedUntil(file: string): number {
  if (openTexts.has(file)) return Number.POSITIVE_INFINITY;
  return readTexts.get(file)?.trustedUntil ?? 0;
}

/** The module's text (the open document's, else the file's); undefined when unreadable, too large or binary. */
export function readModuleText(file: string): string | undefined {
  const open = openTexts.get(file);
  if (open !== undefined) return open.length > MAX_MODULE_BYTES ? undefined : open;
  const now = Date.now();
  const known = readTexts.get(file);
  if (known && now < known.trustedUntil) return known.text;
  try {
    const stats = statSync(file, { throwIfNoEntry: false });
    if (!stats?.isFile() || stats.size > MAX_MODULE_BYTES) return remember(file, undefined, 0, 0, now);
    if (known && known.mtimeMs === stats.mtimeMs && known.size === stats.size) {
      known.trustedUntil = now + trustFor(now, stats.mtimeMs, RECHECK_AFTER_MS);
      return known.text;
    }
    const text = readFileSync(file, 'utf8');
    return remember(file, text.includes('\u0000') ? undefined : text, stats.mtimeMs, stats.size, now);
  } catch {
    return remember(file, undefined, 0, 0, now);
  }
}

function remember(file: string, text: string | undefined, mtimeMs: number, size: number, now: number): string | undefined {
  const before = readTexts.get(file);
  if (!before || before.text !== text) textVersion += 1;
  if (readTexts.size >= MAX_READ_TEXTS) readTexts.clear();
  readTexts.set(file, { text, mtimeMs, size, trustedUntil: now + trustFor(now, mtimeMs, RECHECK_AFTER_MS) });
  return text;
}
