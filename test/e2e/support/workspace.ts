// A throwaway copy of examples/ for an editor to open and edit, with the editor
// settings the scenarios need. examples/ itself is never written to.
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
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
