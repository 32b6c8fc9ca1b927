import { mkdirSync, mkdtempSync, rmSync, symlinkSync, unlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { noteModuleFileChanged } from '../../../../eslint-plugin/src/analysis/modules/disk-changes';
import { readModuleText, resolveModuleFile, setOpenModuleText } from '../../../../eslint-plugin/src/analysis/modules/module-files';
import { getManifestDependencies } from '../../../../eslint-plugin/src/analysis/modules/package-manifest';

/** Longer than the module index trusts what it saw of the disk. */
const LATER_MS = 10_000;

describe('resolveModuleFile', () => {
  let root: string;
  let from: string;

  beforeEach(() => {
    root = mkdtempSync(path.join(tmpdir(), 'module-files-'));
    from = path.join(root, 'src', 'app.ts');
    mkdirSync(path.dirname(from), { recursive: true });
    writeFileSync(from, '');
    vi.useFakeTimers({ toFake: ['Date'] });
  });

  afterEach(() => {
    vi.useRealTimers();
    rmSync(root, { recursive: true, force: true });
  });

  const write = (relative: string, text = 'export {};'): string => {
    const file = path.join(root, relative);
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, text);
    return file;
  };

  it('tries the extensions, then the folder index, in Node and TypeScript order', () => {
    const index = write('src/db/index.js');
    const source = write('src/orders.ts');
    write('src/orders.js');
    const pool = write('src/pool.ts');
    expect(resolveModuleFile(from, './db')).toBe(index);
    expect(resolveModuleFile(from, './orders')).toBe(source);
    // `import './pool.js'` in TypeScript names `./pool.ts`.
    expect(resolveModuleFile(from, './pool.js')).toBe(pool);
    expect(resolveModuleFile(from, '../src/pool')).toBe(pool);
  });

  it('does not take a folder, or a file of another kind, for a module', () => {
    mkdirSync(path.join(root, 'src', 'models.ts'), { recursive: true });
    write('src/config.json', '{}');
    expect(resolveModuleFile(from, './models.ts')).toBeUndefined();
    expect(resolveModuleFile(from, './config')).toBeUndefined();
    expect(resolveModuleFile(from, './missing')).toBeUndefined();
  });

  it('follows a link to a file, not a link to nothing', () => {
    const target = write('shared/mongo.js');
    symlinkSync(target, path.join(root, 'src', 'mongo.js'));
    symlinkSync(path.join(root, 'nowhere.js'), path.join(root, 'src', 'broken.js'));
    expect(resolveModuleFile(from, './mongo')).toBe(path.join(root, 'src', 'mongo.js'));
    expect(resolveModuleFile(from, './broken')).toBeUndefined();
  });

  it('sees a module created or deleted on disk once the earlier answer is old', () => {
    expect(resolveModuleFile(from, './db')).toBeUndefined();
    const created = write('src/db.ts');
    // Within the trusted time the earlier answer stands (one lint run asks many times).
    expect(resolveModuleFile(from, './db')).toBeUndefined();
    vi.setSystemTime(Date.now() + LATER_MS);
    expect(resolveModuleFile(from, './db')).toBe(created);
    unlinkSync(created);
    vi.setSystemTime(Date.now() + LATER_MS);
    expect(resolveModuleFile(from, './db')).toBeUndefined();
  });

  it('finds a module that shadows an earlier answer (db.ts before db/index.ts)', () => {
    const index = write('src/db/index.ts');
    expect(resolveModuleFile(from, './db')).toBe(index);
    const file = write('src/db.ts');
    vi.setSystemTime(Date.now() + LATER_MS);
    expect(resolveModuleFile(from, './db')).toBe(file);
  });

  it('reads a changed module again once the earlier read is old, and at once when its document closes', () => {
    const file = write('src/db.ts', 'export const a = 1;');
    expect(readModuleText(file)).toBe('export const a = 1;');
    writeFileSync(file, 'export const b = 22;');
    // Within the trusted time the earlier text stands (one lint run reads a module many times).
    expect(readModuleText(file)).toBe('export const a = 1;');
    vi.setSystemTime(Date.now() + LATER_MS);
    expect(readModuleText(file)).toBe('export const b = 22;');
    setOpenModuleText(file, 'export const unsaved = 3;');
    expect(readModuleText(file)).toBe('export const unsaved = 3;');
    // Saved and closed: the disk's text, without waiting.
    writeFileSync(file, 'export const saved = 4444;');
    setOpenModuleText(file, undefined);
    expect(readModuleText(file)).toBe('export const saved = 4444;');
  });

  it('trusts a module unchanged for minutes up to 30 s, and one just saved for 3 s', () => {
    const file = write('src/db.ts', 'export const a = 1;');
    const tenMinutesAgo = new Date(Date.now() - 600_000);
    utimesSync(file, tenMinutesAgo, tenMinutesAgo);
    const start = Date.now();
    expect(readModuleText(file)).toBe('export const a = 1;');
    writeFileSync(file, 'export const b = 22;');
    vi.setSystemTime(start + 10_000);
    expect(readModuleText(file)).toBe('export const a = 1;');
    vi.setSystemTime(start + 31_000);
    expect(readModuleText(file)).toBe('export const b = 22;');
    // Saved seconds ago: looked at again after 3 s.
    writeFileSync(file, 'export const c = 333;');
    vi.setSystemTime(start + 35_000);
    expect(readModuleText(file)).toBe('export const c = 333;');
  });

  it('trusts the listing of a folder unchanged for minutes up to 30 s', () => {
    const folder = path.dirname(from);
    const tenMinutesAgo = new Date(Date.now() - 600_000);
    utimesSync(folder, tenMinutesAgo, tenMinutesAgo);
    const start = Date.now();
    expect(resolveModuleFile(from, './db')).toBeUndefined();
    const created = write('src/db.ts');
    vi.setSystemTime(start + 10_000);
    expect(resolveModuleFile(from, './db')).toBeUndefined();
    vi.setSystemTime(start + 31_000);
    expect(resolveModuleFile(from, './db')).toBe(created);
  });

  it('finds an open document that is not on disk at once', () => {
    const unsaved = path.join(root, 'src', 'draft.ts');
    expect(resolveModuleFile(from, './draft')).toBeUndefined();
    setOpenModuleText(unsaved, 'export const pool = 1;');
    try {
      expect(resolveModuleFile(from, './draft')).toBe(unsaved);
    } finally {
      setOpenModuleText(unsaved, undefined);
    }
    expect(resolveModuleFile(from, './draft')).toBeUndefined();
  });

  it('sees a change a file watcher reports at once: a module changed, created or deleted, a manifest created', () => {
    const file = write('src/db.ts', 'export const a = 1;');
    const tenMinutesAgo = new Date(Date.now() - 600_000);
    utimesSync(file, tenMinutesAgo, tenMinutesAgo);
    utimesSync(path.dirname(file), tenMinutesAgo, tenMinutesAgo);
    expect(readModuleText(file)).toBe('export const a = 1;');
    expect(resolveModuleFile(from, './orders')).toBeUndefined();

    // Changed: trusted for up to 30 s on its own, read again as soon as the change is reported.
    writeFileSync(file, 'export const b = 22;');
    expect(readModuleText(file)).toBe('export const a = 1;');
    expect(noteModuleFileChanged(file, 'changed')).toBe('module');
    expect(readModuleText(file)).toBe('export const b = 22;');

    // Created: the folder's listing and the imports are looked at again.
    const orders = write('src/orders.ts');
    expect(resolveModuleFile(from, './orders')).toBeUndefined();
    noteModuleFileChanged(orders, 'created');
    expect(resolveModuleFile(from, './orders')).toBe(orders);

    // Deleted: no longer found.
    unlinkSync(orders);
    noteModuleFileChanged(orders, 'deleted');
    expect(resolveModuleFile(from, './orders')).toBeUndefined();

    // A project's manifest appears above the file: its dependencies count at once.
    expect(getManifestDependencies(file)).not.toEqual(new Set(['pg']));
    const manifest = write('package.json', JSON.stringify({ dependencies: { pg: '^8' } }));
    noteModuleFileChanged(manifest, 'created');
    expect(getManifestDependencies(file)).toEqual(new Set(['pg']));
  });

  it('tells modules from project files, and leaves files it never reads alone', () => {
    expect(noteModuleFileChanged(path.join(root, 'README.md'), 'changed')).toBeUndefined();
    expect(noteModuleFileChanged(path.join(root, 'data.json'), 'changed')).toBeUndefined();
    expect(noteModuleFileChanged(path.join(root, 'node_modules', 'pg', 'lib', 'index.js'), 'changed')).toBeUndefined();
    expect(noteModuleFileChanged(path.join(root, '.next', 'server', 'app', 'page.js'), 'created')).toBeUndefined();
    expect(noteModuleFileChanged(path.join(root, 'tsconfig.build.json'), 'changed')).toBe('project');
    expect(noteModuleFileChanged(path.join(root, 'src', 'view.tsx'), 'created')).toBe('module');
  });
});
