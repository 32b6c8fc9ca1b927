// Bundles the server into one self-contained CommonJS file: ESLint's Linter, the
// TypeScript parser and the plugin included, so the package has no runtime
// dependency and the extension can ship it as one file. Minified, without a source map
// (the package and the .vsix ship this file as built); `--debug` builds it readable,
// with a linked source map, for stepping through the server. Beside it,
// THIRD-PARTY-NOTICES.txt: the licence of every package inside the bundle.
import { build } from 'esbuild';
import { rmSync, statSync, writeFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { fileURLToPath } from 'node:url';
import { thirdPartyNotices } from './third-party-notices.mjs';

const here = (file) => fileURLToPath(new URL(file, import.meta.url));
const debug = process.argv.includes('--debug');
const outfile = here('./dist/server.cjs');

// A map left by an earlier debug build would no longer match.
rmSync(`${outfile}.map`, { force: true });

const { metafile } = await build({
  entryPoints: [here('./src/main.ts')],
  outfile,
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  minify: !debug,
  sourcemap: debug ? 'linked' : false,
  // ESLint's config loader imports jiti only to load TypeScript config files, which the server never does.
  external: ['jiti', 'jiti/package.json'],
  metafile: true,
  logLevel: 'warning',
});

const heading = 'retry-safety-language-server bundles the following packages in dist/server.cjs.';
writeFileSync(here('./dist/THIRD-PARTY-NOTICES.txt'), thirdPartyNotices(Object.keys(metafile.inputs), heading));
// On stderr, so that `npm pack --json` (which runs this build first) prints JSON alone.
console.error(`server: dist/server.cjs ${Math.round(statSync(outfile).size / 1024)} KiB${debug ? ' (debug build)' : ''}`);

// Fail the build if the bundle needs a package at run time that is not inside it. Allowed:
// jiti (above), and requires wrapped in try/catch whose absence is expected
// (TypeScript's `source-map-support`, fdir's optional `picomatch`).
const OPTIONAL_REQUIRES = new Set(['jiti', 'jiti/package.json', 'source-map-support', 'picomatch']);
for (const output of Object.values(metafile.outputs)) {
  const missing = output.imports.filter(
    (entry) => entry.external && !entry.path.startsWith('node:') && !builtinModules.includes(entry.path) && !OPTIONAL_REQUIRES.has(entry.path),
  );
  if (missing.length > 0) throw new Error(`server bundle requires packages outside it: ${missing.map((entry) => entry.path).join(', ')}`);
}
