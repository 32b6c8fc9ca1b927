// The bounded walk and the per-root cache: what is skipped, what cannot break it (links
// that loop, binary and huge files), the limits, and when a root is looked at again.
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { clearInfraEngineVersions, DEFAULT_WALK_LIMITS, findInfraEngineVersions, getInfraRoot, noteInfraFileChanged } from '../../../../eslint-plugin/src/analysis/infra';
import { INFRA_ROOT_KEY } from '../../../../eslint-plugin/src/constants';

const dirs: string[] = [];
const cluster = (version: string) => `resource "aws_docdb_cluster" "x" {\n  engine_version = "${version}"\n}\n`;

function makeRoot(files: Record<string, string | Buffer>): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'retry-safety-infra-'));
  dirs.push(dir);
  for (const [name, content] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    writeFileSync(path.join(dir, name), content);
  }
  return dir;
}

const places = (root: string) => findInfraEngineVersions(root).map(({ version, file, line }) => `${version} ${file}:${line}`);

beforeEach(() => clearInfraEngineVersions());
afterAll(() => {
  vi.useRealTimers();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

describe('the walk', () => {
  it('finds every kind in walk order and skips dependency, build and dot-folders', () => {
    const root = makeRoot({
      'main.tf': cluster('5.0.0'),
      'stacks/orders.yaml': 'Resources:\n  Db:\n    Type: AWS::DocDB::DBCluster\n    Properties:\n      EngineVersion: "5.0.0"\n',
      'node_modules/mod/main.tf': cluster('3.6.0'),
      'cdk.out/Stack.template.json': '{"Resources":{"D":{"Type":"AWS::DocDB::DBCluster","Properties":{"EngineVersion":"3.6.0"}}}}',
      'dist/main.tf': cluster('3.6.0'),
      'build/main.tf': cluster('3.6.0'),
      '.git/main.tf': cluster('3.6.0'),
      '.terraform/modules/m/main.tf': cluster('3.6.0'),
      'types/stack.d.ts': "import * as docdb from 'aws-cdk-lib/aws-docdb';\nnew docdb.DatabaseCluster(this, 'A', { engineVersion: '3.6.0' });\n",
    });
    expect(places(root)).toEqual(['5.0.0 main.tf:2', '5.0.0 stacks/orders.yaml:5']);
  });

  it('does not follow symbolic links (no loop), and skips binary, huge and unreadable files', () => {
    const root = makeRoot({
      'a/main.tf': cluster('5.0.0'),
      'binary.tf': Buffer.from([0x72, 0x65, 0, 0x61, 0x77, 0x73, 0x5f, 0x64, 0x6f, 0x63, 0x64, 0x62]),
      'huge.tf': cluster('3.6.0') + '#'.repeat(DEFAULT_WALK_LIMITS.maxFileBytes),
    });
    symlinkSync(root, path.join(root, 'a', 'loop'), 'dir');
    symlinkSync(path.join(root, 'a', 'main.tf'), path.join(root, 'linked.tf'));
    symlinkSync(path.join(root, 'missing.tf'), path.join(root, 'dangling.tf'));
    expect(places(root)).toEqual(['5.0.0 a/main.tf:2']);
  });

  it('stops at the depth and entry limits', () => {
    const deep = `${Array.from({ length: 10 }, (_, index) => `d${index}`).join('/')}/main.tf`;
    const root = makeRoot({ [deep]: cluster('5.0.0'), 'top.tf': cluster('5.0.0') });
    expect(places(root)).toEqual(['5.0.0 top.tf:2']);
    clearInfraEngineVersions();
    expect(findInfraEngineVersions(root, { ...DEFAULT_WALK_LIMITS, maxDepth: 12 }).length).toBe(2);
    clearInfraEngineVersions();
    const wide = makeRoot(Object.fromEntries([...Array.from({ length: 30 }, (_, index) => [`a${String(index).padStart(2, '0')}.txt`, '']), ['z.tf', cluster('5.0.0')]]));
    expect(findInfraEngineVersions(wide, { ...DEFAULT_WALK_LIMITS, maxEntries: 10 })).toEqual([]);
  });

  it('finds nothing in a folder that does not exist', () => {
    expect(findInfraEngineVersions(path.join(os.tmpdir(), 'retry-safety-no-such-folder'))).toEqual([]);
  });
});

describe('the cache', () => {
  it('keeps a root for a while, then notices a changed or added file', () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const root = makeRoot({ 'main.tf': cluster('5.0.0') });
    expect(places(root)).toEqual(['5.0.0 main.tf:2']);
    writeFileSync(path.join(root, 'main.tf'), cluster('8.0.2'));
    utimesSync(path.join(root, 'main.tf'), new Date(2030, 0, 1), new Date(2030, 0, 1));
    // Within the recheck interval: the cached result.
    expect(places(root)).toEqual(['5.0.0 main.tf:2']);
    vi.setSystemTime(Date.now() + 5000);
    expect(places(root)).toEqual(['8.0.2 main.tf:2']);
    mkdirSync(path.join(root, 'more'));
    writeFileSync(path.join(root, 'more', 'global.tf'), cluster('8.0.2').replace('aws_docdb_cluster', 'aws_docdb_global_cluster'));
    vi.setSystemTime(Date.now() + 5000);
    expect(places(root)).toEqual(['8.0.2 main.tf:2', '8.0.2 more/global.tf:2']);
    vi.useRealTimers();
  });

  it('looks again at once when a host reports a change that matters, and not for one that does not', () => {
    const root = makeRoot({ 'main.tf': cluster('5.0.0'), 'src/app.ts': 'export const x = 1;\n' });
    expect(places(root)).toEqual(['5.0.0 main.tf:2']);
    expect(noteInfraFileChanged(path.join(root, 'src', 'app.ts'))).toBe(false);
    expect(noteInfraFileChanged(path.join(root, 'node_modules', 'x', 'main.tf'))).toBe(false);
    expect(noteInfraFileChanged(path.join(os.tmpdir(), 'elsewhere.tf'))).toBe(false);
    writeFileSync(path.join(root, 'main.tf'), cluster('4.0.0'));
    expect(noteInfraFileChanged(path.join(root, 'main.tf'))).toBe(true);
    expect(places(root)).toEqual(['4.0.0 main.tf:2']);
    // A file that did not state a cluster now does.
    writeFileSync(path.join(root, 'src', 'app.ts'), "import * as docdb from 'aws-cdk-lib/aws-docdb';\nnew docdb.DatabaseCluster(this, 'Db', { engineVersion: '4.0.0' });\n");
    expect(noteInfraFileChanged(path.join(root, 'src', 'app.ts'))).toBe(true);
    expect(places(root)).toEqual(['4.0.0 main.tf:2', '4.0.0 src/app.ts:2']);
    // Gone.
    rmSync(path.join(root, 'main.tf'));
    expect(noteInfraFileChanged(path.join(root, 'main.tf'))).toBe(true);
    expect(places(root)).toEqual(['4.0.0 src/app.ts:2']);
  });
});

describe('the root', () => {
  it("is the host's folder when given (none for null), else ESLint's cwd", () => {
    expect(getInfraRoot({ [INFRA_ROOT_KEY]: '/work/app' }, '/retry-safety')).toBe('/work/app');
    expect(getInfraRoot({ [INFRA_ROOT_KEY]: null }, '/retry-safety')).toBeUndefined();
    expect(getInfraRoot({ [INFRA_ROOT_KEY]: 'relative' }, '/work')).toBeUndefined();
    expect(getInfraRoot({}, '/work/app')).toBe('/work/app');
    expect(getInfraRoot(undefined, undefined)).toBeUndefined();
  });
});
