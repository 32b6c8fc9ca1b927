// The language server in a second real editor: headless Neovim 0.7 (Debian's), attached
// with `vim.lsp.start_client` to a TypeScript file and the .env file of a copy of the
// example project. Neovim must receive what ESLint reports for the same files with the
// same presets and settings (the editor and CI agree), at the same positions.
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import tsParser from '@typescript-eslint/parser';
import { ESLint, type Linter } from 'eslint';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import plugin from '../../eslint-plugin/src/index';
import { nvim, serverBin, startTimer } from './support/paths';
import { ENGINE_VERSION, createTempWorkspace, type TempWorkspace } from './support/workspace';

const TS_FILE = 'src/repositories/order-repository.ts';
const ENV_FILE = '.env';
/** Diagnostics are coded with the rule's name; their source, `retry-safety`, is the plugin. */
const CONNECTION_STRING_RULE = 'mongo-retry-writes-connection-string';
const ATTACH_SCRIPT = fileURLToPath(new URL('./neovim/attach.lua', import.meta.url));
const CHECK_CONFIG_SCRIPT = fileURLToPath(new URL('./neovim/check-config.lua', import.meta.url));
const README = fileURLToPath(new URL('../../extension/README.md', import.meta.url));

/** Runs headless Neovim with its state (log, shada, swap) inside `state`; input goes in $RETRY_SAFETY_NVIM. */
function runNeovim(args: string[], input: unknown, state: string, extraPath?: string): void {
  mkdirSync(state, { recursive: true });
  execFileSync(nvim, ['--headless', '-i', 'NONE', '-n', ...args], {
    cwd: workspace.dir,
    env: {
      ...process.env,
      PATH: extraPath ? `${extraPath}:${process.env.PATH ?? ''}` : process.env.PATH,
      RETRY_SAFETY_NVIM: JSON.stringify(input),
      HOME: state,
      XDG_CONFIG_HOME: join(state, 'config'),
      XDG_DATA_HOME: join(state, 'data'),
      XDG_STATE_HOME: join(state, 'state'),
      XDG_CACHE_HOME: join(state, 'cache'),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
    timeout: 90_000,
  });
}

interface Range {
  start: { line: number; character: number };
  end: { line: number; character: number };
}
interface PublishedDiagnostic {
  range: Range;
  severity?: number;
  code?: string | number;
  codeDescription?: { href: string };
  source?: string;
  message: string;
}
interface ShownDiagnostic {
  lnum: number;
  col: number;
  end_lnum: number;
  end_col: number;
  severity: number;
  source?: string;
  message: string;
}
interface FileResult {
  path: string;
  uri: string;
  filetype: string;
  published: PublishedDiagnostic[] | null;
  shown: ShownDiagnostic[];
  actions: { title: string; kind: string | null; has_edit: boolean }[];
}
interface NeovimResult {
  files: FileResult[];
  errors: string[];
  wait_ms: number;
}

/** What ESLint itself reports, as `ruleId@line:col-line:col` keys (0-based, like LSP). */
async function eslintFindings(workspace: TempWorkspace, file: string): Promise<string[]> {
  const eslint = new ESLint({
    cwd: workspace.dir,
    overrideConfigFile: true,
    overrideConfig: [
      { files: ['**/*.ts'], languageOptions: { parser: tsParser as Linter.Parser } },
      ...plugin.configs.recommended,
      plugin.configs['connection-strings'],
      { settings: { 'retry-safety': { documentdb: { engineVersion: ENGINE_VERSION } } } },
    ] as Linter.Config[],
  });
  const [result] = await eslint.lintText(workspace.read(file), { filePath: workspace.file(file) });
  const messages = result?.messages ?? [];
  expect(messages.filter((message) => message.fatal)).toEqual([]);
  return messages
    .map((m) => `${m.ruleId}@${m.line - 1}:${m.column - 1}-${(m.endLine ?? m.line) - 1}:${(m.endColumn ?? m.column) - 1}`)
    .sort();
}

/** As ESLint names the finding: `<source>/<code>` is the rule id. */
const key = (d: PublishedDiagnostic) =>
  `${d.source}/${d.code}@${d.range.start.line}:${d.range.start.character}-${d.range.end.line}:${d.range.end.character}`;

const timer = startTimer('neovim');
let workspace: TempWorkspace;
let result: NeovimResult;

beforeAll(() => {
  workspace = createTempWorkspace('retry-safety-neovim');
  const state = join(workspace.root, 'nvim-state');
  const out = join(workspace.root, 'neovim-result.json');
  const input = {
    cmd: [process.execPath, serverBin, '--stdio'],
    root: workspace.dir,
    settings: { retrySafety: { documentdb: { engineVersion: ENGINE_VERSION } } },
    files: [workspace.file(TS_FILE), workspace.file(ENV_FILE)],
    out,
    timeout_ms: 30_000,
  };
  runNeovim(['-u', 'NONE', '-c', `luafile ${ATTACH_SCRIPT}`], input, state);
  result = JSON.parse(readFileSync(out, 'utf8')) as NeovimResult;
  timer(`Neovim session (diagnostics after ${Math.round(result.wait_ms)} ms)`);
});

afterAll(() => workspace?.dispose());

function fileResult(file: string): FileResult {
  const entry = result.files.find((candidate) => candidate.path === workspace.file(file));
  expect(entry, file).toBeDefined();
  return entry as FileResult;
}

describe('Neovim 0.7 with the Retry Safety language server', () => {
  test('the session had no LSP errors', () => {
    expect(result.errors).toEqual([]);
  });

  test('receives the TypeScript diagnostics ESLint reports, at the same ranges', async () => {
    const entry = fileResult(TS_FILE);
    expect(entry.filetype).toBe('typescript');
    const published = entry.published ?? [];
    expect(published.length).toBeGreaterThan(0);
    expect(published.map(key).sort()).toEqual(await eslintFindings(workspace, TS_FILE));
    for (const diagnostic of published) {
      expect(diagnostic.source).toBe('retry-safety');
      expect(diagnostic.code).toMatch(/^[a-z-]+$/);
      expect(diagnostic.codeDescription?.href).toMatch(new RegExp(`/docs/rules/${String(diagnostic.code)}\\.md$`));
      expect(diagnostic.message).not.toMatch(/change-me/);
    }
  });

  test('receives the .env connection-string diagnostic on retryWrites=false', async () => {
    const entry = fileResult(ENV_FILE);
    expect(entry.filetype, 'Neovim 0.7 calls .env files sh').toBe('sh');
    const published = entry.published ?? [];
    expect(published.map(key).sort()).toEqual(await eslintFindings(workspace, ENV_FILE));
    expect(published.map((d) => d.code)).toEqual([CONNECTION_STRING_RULE]);

    const lines = workspace.read(ENV_FILE).split('\n');
    const line = lines.findIndex((text) => text.includes('retryWrites=false'));
    const column = (lines[line] ?? '').indexOf('retryWrites=false');
    const [diagnostic] = published;
    expect(diagnostic?.range.start.line).toBe(line);
    expect(diagnostic?.range.end.line).toBe(line);
    // The range lies on the option (or spans it).
    expect(diagnostic?.range.start.character).toBeLessThanOrEqual(column);
    expect(diagnostic?.range.end.character).toBeGreaterThan(column);
    expect(diagnostic?.severity).toBe(1); // an error in the recommended preset
  });

  test('shows the diagnostics in Neovim at the published positions', () => {
    for (const file of [TS_FILE, ENV_FILE]) {
      const entry = fileResult(file);
      const published = (entry.published ?? []).map((d) => `${d.range.start.line}:${d.range.start.character}`).sort();
      const shown = entry.shown.map((d) => `${d.lnum}:${d.col}`).sort();
      expect(shown, file).toEqual(published);
      expect(entry.shown.every((d) => d.source === 'retry-safety')).toBe(true);
    }
  });

  test('offers the connection-string quick-fix as a code action', () => {
    const actions = fileResult(ENV_FILE).actions;
    expect(actions.some((action) => action.kind === 'quickfix' && action.has_edit)).toBe(true);
  });
});

describe("the README's Neovim 0.7 config", () => {
  interface ConfigResult {
    files: { path: string; filetype: string; clients: string[]; diagnostics: ShownDiagnostic[] }[];
  }
  let configResult: ConfigResult;

  beforeAll(() => {
    const snippet = /<!-- neovim-0.7-config -->\s*```lua\n([\s\S]*?)```/.exec(readFileSync(README, 'utf8'))?.[1];
    expect(snippet, 'the marked Lua block in extension/README.md').toBeDefined();
    const dir = join(workspace.root, 'readme-config');
    const bin = join(dir, 'bin');
    mkdirSync(bin, { recursive: true });
    // The README runs `retry-safety-language-server` from PATH, as after `npm install --global`.
    const launcher = join(bin, 'retry-safety-language-server');
    writeFileSync(launcher, `#!/bin/sh\nexec "${process.execPath}" "${serverBin}" "$@"\n`);
    chmodSync(launcher, 0o755);
    const init = join(dir, 'init.lua');
    writeFileSync(init, `vim.cmd('filetype on')\n${snippet}`);
    // A second env file that Neovim 0.7 gives no filetype at all.
    writeFileSync(workspace.file('.env.local'), workspace.read(ENV_FILE));
    const out = join(dir, 'result.json');
    const input = { files: [workspace.file(TS_FILE), workspace.file('.env.local')], out, timeout_ms: 30_000 };
    runNeovim(['-u', init, '-c', `luafile ${CHECK_CONFIG_SCRIPT}`], input, join(dir, 'state'), bin);
    configResult = JSON.parse(readFileSync(out, 'utf8')) as ConfigResult;
    timer("README config session");
  });

  test('attaches the server to a TypeScript file and to .env.local, which is not even sh to Neovim 0.7', () => {
    const [tsFile, envFile] = configResult.files;
    expect(tsFile?.clients).toEqual(['retry-safety']);
    expect(envFile?.filetype).not.toBe('sh');
    expect(envFile?.clients).toEqual(['retry-safety']);
    expect(envFile?.diagnostics.map((d) => d.source)).toEqual(['retry-safety']);
    expect(tsFile?.diagnostics.length).toBe(fileResult(TS_FILE).shown.length);
  });

  test('passes its settings: require-retry-backoff raised to an error', () => {
    const published = (fileResult(TS_FILE).published ?? []).filter((d) => d.code === 'require-retry-backoff');
    expect(published.length).toBeGreaterThan(0);
    expect(published.every((d) => d.severity === 2), 'a warning in the recommended preset').toBe(true);
    const atBackoff = (configResult.files[0]?.diagnostics ?? []).filter((d) =>
      published.some((p) => p.range.start.line === d.lnum && p.range.start.character === d.col),
    );
    expect(atBackoff.length).toBe(published.length);
    expect(atBackoff.every((d) => d.severity === 1), 'an error with the README settings').toBe(true);
  });
});
