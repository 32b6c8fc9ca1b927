// Where a project's ESLint config is, by name only: nothing is loaded here, so the server
// can find and watch config files before (and without) running any workspace code.
import { statSync } from 'node:fs';
import path from 'node:path';

/** The file names ESLint looks for in each folder, in its order. */
export const CONFIG_FILE_NAMES = [
  'eslint.config.js',
  'eslint.config.mjs',
  'eslint.config.cjs',
  'eslint.config.ts',
  'eslint.config.mts',
  'eslint.config.cts',
] as const;

/** The glob an editor watches for config changes. */
export const CONFIG_FILE_GLOB = `**/eslint.config.{${CONFIG_FILE_NAMES.map((name) => name.slice('eslint.config.'.length)).join(',')}}`;

export function isConfigFileName(fileName: string): boolean {
  return (CONFIG_FILE_NAMES as readonly string[]).includes(fileName);
}

export function getModifiedTime(filePath: string): number | undefined {
  try {
    const stats = statSync(filePath);
    return stats.isFile() ? stats.mtimeMs : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The config file `eslint` would use for `filePath`: the nearest `eslint.config.*` in its
 * folder or a parent folder (ESLint 10's lookup, and ESLint 9's when run from that folder).
 * Not cached: a few `stat` calls per lint, and a config created or deleted is seen at once.
 */
export function findConfigFile(filePath: string): string | undefined {
  let folder = path.dirname(filePath);
  for (;;) {
    for (const name of CONFIG_FILE_NAMES) {
      const candidate = path.join(folder, name);
      if (getModifiedTime(candidate) !== undefined) return candidate;
    }
    const parent = path.dirname(folder);
    if (parent === folder) return undefined;
    folder = parent;
  }
}


