import { type Dirent, lstatSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

/**
 * Which files of a repository may declare an Amazon DocumentDB cluster, found by a bounded
 * walk: nothing is followed through a symbolic link (no loops), folders that hold
 * dependencies, build output or tool state are skipped, and the walk stops at fixed
 * depth and size limits, so a huge repository costs no more than a small one.
 */

export type InfraFileKind = 'terraform' | 'template' | 'code';

export interface InfraWalkLimits {
  /** Folders below the root that are entered (the root is depth 0). */
  maxDepth: number;
  /** Folder entries looked at, in all. */
  maxEntries: number;
  /** Files read, in all. */
  maxFiles: number;
  /** Larger files are not read. */
  maxFileBytes: number;
}

export const DEFAULT_WALK_LIMITS: InfraWalkLimits = { maxDepth: 8, maxEntries: 20_000, maxFiles: 2_000, maxFileBytes: 512 * 1024 };

/** Dependencies, build output, caches and tool state: never infrastructure the team writes. */
const SKIPPED_FOLDERS = new Set([
  'node_modules',
  'bower_components',
  'jspm_packages',
  'cdk.out',
  'dist',
  'build',
  'out',
  'coverage',
  'vendor',
  'target',
  '__pycache__',
  'venv',
]);

/** `*.tf`, and `*.tf.json` (Terraform's JSON syntax). */
const TERRAFORM = /\.tf$/i;
const TEMPLATE = /\.(?:ya?ml|json|template)$/i;
/** CDK and Pulumi programs; no JSX (infrastructure code has none, and JSX text would confuse the scanner). */
const CODE = /\.(?:ts|mts|cts|js|mjs|cjs)$/i;
/** Declaration files and minified bundles declare no cluster. */
const NOT_CODE = /(?:\.d\.[mc]?ts|\.min\.js)$/i;

/** The files `getInfraFileKind` accepts, as a glob (for an editor's file watcher). */
export const INFRA_FILE_GLOB = '**/*.{tf,json,yaml,yml,template,ts,mts,cts,js,mjs,cjs}';

export function getInfraFileKind(fileName: string): InfraFileKind | undefined {
  if (TERRAFORM.test(fileName)) return 'terraform';
  if (TEMPLATE.test(fileName)) return 'template';
  if (CODE.test(fileName) && !NOT_CODE.test(fileName)) return 'code';
  return undefined;
}

/** Folders the walk does not enter: dot-folders (.git, .terraform, .aws-sam, .serverless…) and those above. */
export function isSkippedFolder(name: string): boolean {
  return name.startsWith('.') || SKIPPED_FOLDERS.has(name.toLowerCase());
}

export interface InfraWalk {
  /** Files that may hold infrastructure, in walk order (breadth first, names sorted). */
  files: Array<{ path: string; kind: InfraFileKind }>;
  /** Every folder read, for a cheap check that nothing was added or removed. */
  folders: string[];
  /** True when a limit cut the walk short. */
  truncated: boolean;
}

/** Breadth first from `root`; never throws (an unreadable folder is skipped). */
export function walkInfraFiles(root: string, limits: InfraWalkLimits = DEFAULT_WALK_LIMITS): InfraWalk {
  const files: InfraWalk['files'] = [];
  const folders: string[] = [];
  let entries = 0;
  let truncated = false;
  let level = [root];
  for (let depth = 0; depth <= limits.maxDepth && level.length > 0; depth++) {
    const next: string[] = [];
    for (const folder of level) {
      let dirents: Dirent[];
      try {
        dirents = readdirSync(folder, { withFileTypes: true });
      } catch {
        continue;
      }
      folders.push(folder);
      dirents.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
      for (const dirent of dirents) {
        if (++entries > limits.maxEntries) return { files, folders, truncated: true };
        // Dirent types come from the folder listing: a symbolic link is neither a file nor a folder here.
        if (dirent.isDirectory()) {
          if (!isSkippedFolder(dirent.name)) next.push(path.join(folder, dirent.name));
        } else if (dirent.isFile()) {
          const kind = getInfraFileKind(dirent.name);
          if (kind) files.push({ path: path.join(folder, dirent.name), kind });
        }
      }
    }
    if (depth === limits.maxDepth && next.length > 0) truncated = true;
    level = next;
  }
  return { files, folders, truncated };
}

/** A file's modification stamp (size and time); undefined when it is gone or not a plain file. */
export function getStamp(filePath: string): string | undefined {
  try {
    const stats = lstatSync(filePath);
    return stats.isFile() || stats.isDirectory() ? `${stats.size}:${stats.mtimeMs}` : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The file's text when it is a plain file no larger than `maxBytes` and not binary (no NUL
 * byte); undefined otherwise. Not a FIFO or a device (reading one could block), not a link.
 */
export function readSmallTextFile(filePath: string, maxBytes: number): string | undefined {
  try {
    const stats = lstatSync(filePath);
    if (!stats.isFile() || stats.size > maxBytes) return undefined;
    const bytes = readFileSync(filePath);
    // It may have grown since: the limit holds for what was read.
    if (bytes.length > maxBytes || bytes.includes(0)) return undefined;
    return bytes.toString('utf8');
  } catch {
    return undefined;
  }
}
