// Bundles the plugin into one CommonJS file: `require()` and `import` both load it,
// so it works from eslint.config.js (ESM) and eslint.config.cjs alike.
import { build } from 'esbuild';
import { readFileSync, writeFileSync } from 'node:fs';

const pkg = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8'));

await build({
  entryPoints: [new URL('./src/index.ts', import.meta.url).pathname],
  outfile: new URL('./dist/index.cjs', import.meta.url).pathname,
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  sourcemap: true,
  external: [...Object.keys(pkg.dependencies ?? {}), ...Object.keys(pkg.peerDependencies ?? {})],
  footer: { js: 'module.exports = module.exports.default;' },
  logLevel: 'warning',
});

// Consumers type-check `eslint.config.ts` against this; the rules' own types stay internal.
writeFileSync(
  new URL('./dist/index.d.ts', import.meta.url),
  `import type { ESLint, Linter } from 'eslint';

declare const plugin: ESLint.Plugin & {
  configs: Record<'recommended' | 'strict' | 'all' | 'connection-strings', Linter.Config>;
};
export = plugin;
`,
);
