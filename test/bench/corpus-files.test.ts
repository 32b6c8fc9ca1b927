import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  corpusPackages,
  findPackageFiles,
  getSourceType,
  isMinified,
  maxFileBytes,
  stripInlineSourceMap,
} from '../../bench/corpus-files.mjs';

const readableLine = 'const value = compute(input, options); // a normal line of code\n';

describe('findPackageFiles', () => {
  let packageDir: string;
  const write = (path: string, text: string) => {
    const absolute = join(packageDir, path);
    mkdirSync(dirname(absolute), { recursive: true });
    writeFileSync(absolute, text);
  };

  beforeAll(() => {
    packageDir = mkdtempSync(join(tmpdir(), 'corpus-files-'));
    write('lib/index.js', readableLine.repeat(50));
    write('lib/store.ts', 'export const a = 1;\n');
    write('lib/esm/index.mjs', 'export default 1;\n');
    write('lib/cjs/index.cjs', 'module.exports = 1;\n');
    write('lib/index.d.ts', 'export declare const a: number;\n');
    write('lib/index.d.cts', 'export declare const a: number;\n');
    write('lib/index.js.map', '{}');
    write('lib/bundle.min.js', 'var a=1;\n');
    write('lib/packed.js', `${'x'.repeat(20_000)}\n`);
    write('lib/huge.js', readableLine.repeat(Math.ceil(maxFileBytes / readableLine.length) + 10));
    write('lib/node_modules/dep/index.js', 'module.exports = 2;\n');
    write('lib/babel.js', `${readableLine.repeat(20)}//# sourceMappingURL=data:application/json;base64,${'A'.repeat(50_000)}\n`);
    write('index.js', 'module.exports = require("./lib");\n');
    write('README.md', '# readme\n');
  });

  afterAll(() => rmSync(packageDir, { recursive: true, force: true }));

  it('keeps source files and leaves out declarations, maps, minified, huge files and node_modules', () => {
    const files = findPackageFiles(packageDir, ['index.js', 'lib']).map((file) => file.relativePath);
    expect(files).toEqual([
      'index.js',
      'lib/babel.js',
      'lib/cjs/index.cjs',
      'lib/esm/index.mjs',
      'lib/index.js',
      'lib/store.ts',
    ]);
  });

  it('lists only what is included, once, and tolerates missing entries', () => {
    const files = findPackageFiles(packageDir, ['lib/esm', 'lib/esm/index.mjs', 'missing']);
    expect(files.map((file) => file.relativePath)).toEqual(['lib/esm/index.mjs']);
  });
});

describe('corpus helpers', () => {
  it('strips a trailing inline source map without moving code lines', () => {
    const text = `a();\nb();\n//# sourceMappingURL=data:application/json;base64,AAAA\n`;
    expect(stripInlineSourceMap(text)).toBe('a();\nb();\n');
    expect(stripInlineSourceMap('a();\n//# sourceMappingURL=index.js.map\n')).toBe(
      'a();\n//# sourceMappingURL=index.js.map\n',
    );
  });

  it('tells minified code from compiled code', () => {
    expect(isMinified(readableLine.repeat(100))).toBe(false);
    expect(isMinified(`${'a=1;'.repeat(5_000)}\n`)).toBe(true);
  });

  it('chooses the source type from the extension, then from the code', () => {
    expect(getSourceType('a.mjs', 'require("x")')).toBe('module');
    expect(getSourceType('a.cjs', 'export {}')).toBe('commonjs');
    expect(getSourceType('a.ts', '')).toBe('module');
    expect(getSourceType('a.js', '"use strict";\nimport { x } from "y";\n')).toBe('module');
    expect(getSourceType('a.js', '"use strict";\nexport class A {}\n')).toBe('module');
    expect(getSourceType('a.js', '"use strict";\nconst x = require("y");\nexports.x = x;\n')).toBe('commonjs');
  });

  it('covers the three databases with libraries and real projects', () => {
    const names = corpusPackages.map((pkg) => pkg.name);
    expect(new Set(names).size).toBe(names.length);
    for (const database of ['mongodb', 'dynamodb', 'postgresql'] as const) {
      const own = corpusPackages.filter((pkg) => pkg.database === database);
      expect(own.some((pkg) => pkg.kind === 'library')).toBe(true);
      expect(own.some((pkg) => pkg.kind === 'project')).toBe(true);
    }
  });
});
