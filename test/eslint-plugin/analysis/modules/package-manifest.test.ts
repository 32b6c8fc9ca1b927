import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { setOpenModuleText } from '../../../../eslint-plugin/src/analysis/modules/module-files';
import { getManifestDependencies, getManifestFolder, mayUsePackages } from '../../../../eslint-plugin/src/analysis/modules/package-manifest';

describe('package manifests', () => {
  const root = mkdtempSync(path.join(tmpdir(), 'package-manifest-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  const project = (name: string, manifest: string | undefined): string => {
    const folder = path.join(root, name);
    mkdirSync(path.join(folder, 'src', 'db'), { recursive: true });
    if (manifest !== undefined) writeFileSync(path.join(folder, 'package.json'), manifest);
    return folder;
  };

  it('reads every kind of dependency of the nearest package.json, from any folder below it', () => {
    const folder = project('app', JSON.stringify({ dependencies: { pg: '^8' }, devDependencies: { vitest: '4' }, peerDependencies: { mongodb: '*' } }));
    const file = path.join(folder, 'src', 'db', 'pool.ts');
    expect(getManifestFolder(file)).toBe(folder);
    expect([...(getManifestDependencies(file) ?? [])].sort()).toEqual(['mongodb', 'pg', 'vitest']);
    expect(mayUsePackages(file, ['@aws-sdk/client-dynamodb', 'pg'])).toBe(true);
    expect(mayUsePackages(file, ['@aws-sdk/client-dynamodb'])).toBe(false);
  });

  it('sees a dependency added while it runs (here through the editor text of package.json)', () => {
    const folder = project('growing', JSON.stringify({ dependencies: {} }));
    const file = path.join(folder, 'src', 'index.js');
    const manifest = path.join(folder, 'package.json');
    expect(mayUsePackages(file, ['pg'])).toBe(false);
    setOpenModuleText(manifest, JSON.stringify({ dependencies: { pg: '^8' } }));
    try {
      expect(mayUsePackages(file, ['pg'])).toBe(true);
    } finally {
      setOpenModuleText(manifest, undefined);
    }
    expect(mayUsePackages(file, ['pg'])).toBe(false);
  });

  it('says nothing for a broken manifest, a relative path or no manifest at all', () => {
    const broken = project('broken', '{ "dependencies": ');
    expect(getManifestDependencies(path.join(broken, 'src', 'a.js'))?.size).toBe(0);
    expect(getManifestDependencies('src/a.js')).toBeUndefined();
    expect(mayUsePackages('src/a.js', ['pg'])).toBe(true);
  });
});
