// Bundles the extension into dist/extension.js (CommonJS, `vscode` provided by the editor)
// and puts the language server's self-contained bundle beside it as dist/server.cjs
// (minified by the server's build), with the licences of the packages inside both
// (dist/THIRD-PARTY-NOTICES.txt).
// `--require-server` (used by `npm run package`) fails when the server is not built;
// a plain build only warns, so the rest of the workspace still builds.
import { build } from 'esbuild';
import { copyFileSync, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { thirdPartyNotices } from '../server/third-party-notices.mjs';

const here = (path) => fileURLToPath(new URL(path, import.meta.url));
const serverBundle = here('../server/dist/server.cjs');
const serverNotices = here('../server/dist/THIRD-PARTY-NOTICES.txt');
const requireServer = process.argv.includes('--require-server');

mkdirSync(here('./dist'), { recursive: true });

const { metafile } = await build({
  entryPoints: [here('./src/extension.ts')],
  outfile: here('./dist/extension.js'),
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  external: ['vscode'],
  minify: true,
  sourcemap: false,
  metafile: true,
  logLevel: 'warning',
});
const clientNotices = thirdPartyNotices(Object.keys(metafile.inputs), 'dist/extension.js bundles the following packages.');

if (existsSync(serverBundle) && existsSync(serverNotices)) {
  copyFileSync(serverBundle, here('./dist/server.cjs'));
  writeFileSync(here('./dist/THIRD-PARTY-NOTICES.txt'), `${clientNotices}\n${'='.repeat(72)}\n\n${readFileSync(serverNotices, 'utf8')}`);
  const kib = (file) => `${Math.round(statSync(file).size / 1024)} KiB`;
  console.log(`extension: dist/extension.js ${kib(here('./dist/extension.js'))}, dist/server.cjs ${kib(here('./dist/server.cjs'))}`);
} else if (requireServer) {
  console.error('extension: server/dist/server.cjs is missing; run `npm run build -w server` first.');
  process.exit(1);
} else {
  writeFileSync(here('./dist/THIRD-PARTY-NOTICES.txt'), clientNotices);
  console.warn('extension: server/dist/server.cjs is missing; dist/ holds the client only.');
}
