// Bundles the server into one self-contained CommonJS file: ESLint's Linter, the
// TypeScript parser and the plugin included, so the extension can ship it as one file.
import { build } from 'esbuild';

await build({
  entryPoints: [new URL('./src/main.ts', import.meta.url).pathname],
  outfile: new URL('./dist/server.cjs', import.meta.url).pathname,
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  sourcemap: 'linked',
  // ESLint's config loader imports jiti only to load TypeScript config files, which the server never does.
  external: ['jiti', 'jiti/package.json'],
  logLevel: 'warning',
  metafile: false,
});
