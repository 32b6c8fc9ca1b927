// A throwaway copy of examples/ for an editor to open and edit, with the editor
// settings the scenarios need. examples/ itself is never written to.
import { cpSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { examplesDir } from './paths';

export interface TempWorkspace {
  root: string;
  dir: string;
  /** Absolute path of a file in the copy. */
  file(relativePath: string): string;
  read(relativePath: string): string;
  dispose(): void;
}

export const ENGINE_VERSION = '8.0.2';

export function createTempWorkspace(prefix: string, vscodeSettings: Record<string, unknown> = {}): TempWorkspace {
  const root = mkdtempSync(join(tmpdir(), `${prefix}-`));
  const dir = join(root, 'examples');
  cpSync(examplesDir, dir, { recursive: true, filter: (source) => !source.split('/').includes('node_modules') });
  mkdirSync(join(dir, '.vscode'), { recursive: true });
  writeFileSync(
    join(dir, '.vscode', 'settings.json'),
    JSON.stringify({ 'retrySafety.documentdb.engineVersion': ENGINE_VERSION, ...vscodeSettings }, null, 2),
  );
  return {
    root,
    dir,
    file: (relativePath) => join(dir, relativePath),
    read: (relativePath) => readFileSync(join(dir, relativePath), 'utf8'),
    dispose: () => rmSync(root, { recursive: true, force: true }),
  };
}

/** Files under `dir` (relative paths), skipping dot-folders and node_modules. */
export function listFiles(dir: string, base = dir): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      return entry.name === 'node_modules' || entry.name.startsWith('.') ? [] : listFiles(path, base);
    }
    return [relative(base, path)];
  });
}

/** The first TypeScript file whose text matches, in a stable order. */
export function findTypeScriptFile(dir: string, pattern: RegExp): string | undefined {
  return listFiles(dir)
    .filter((file) => /\.[cm]?tsx?$/.test(file))
    .sort()
    .find((file) => pattern.test(readFileSync(join(dir, file), 'utf8')));
}
