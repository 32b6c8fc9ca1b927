// Bundles the extension into dist/extension.js (CommonJS, `vscode` provided by the editor)
// and puts the language server's self-contained bundle beside it as dist/server.cjs.
// `--require-server` (used by `npm run package`) fails when the server is not built;
// a plain build only warns, so the rest of the workspace still builds.
import { build } from 'esbuild';
import { copyFileSync, existsSync, mkdirSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const here = (path) => fileURLToPath(new URL(path, import.meta.url));
const serverBundle = here('../server/dist/server.cjs');
const requireServer = process.argv.includes('--require-server');

mkdirSync(here('./dist'), { recursive: true });

await build({
  entryPoints: [here('./src/extension.ts')],
  outfile: here('./dist/extension.js'),
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  external: ['vscode'],
  minify: true,
  sourcemap: false,
  logLevel: 'warning',
});

if (existsSync(serverBundle)) {
  copyFileSync(serverBundle, here('./dist/server.cjs'));
  const kib = (file) => `${Math.round(statSync(file).size / 1024)} KiB`;
  console.log(`extension: dist/extension.js ${kib(here('./dist/extension.js'))}, dist/server.cjs ${kib(here('./dist/server.cjs'))}`);
} else if (requireServer) {
  console.error('extension: server/dist/server.cjs is missing; run `npm run build -w server` first.');
  process.exit(1);
} else {
  console.warn('extension: server/dist/server.cjs is missing; dist/ holds the client only.');
}
