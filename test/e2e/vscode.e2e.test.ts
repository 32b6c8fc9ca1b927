// The packaged .vsix in a real VS Code (code-server 4.139 = VS Code 1.139), driven in
// headless Chromium: squiggles, hover, Problems panel, lightbulb quick-fix, fix-on-save
// and the extension's commands, on a copy of the example project (with the editor
// settings); and, in a second window, a project whose own eslint.config.mjs says the
// engine version (no editor setting).
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createProject, removeProjects } from '../cli/project';
import { startCodeServer, sleep, type CodeServer } from './support/code-server';
import { problemsScreenshotPath, repoRoot, screenshotPath, startTimer, vsixPath } from './support/paths';
import { createTempWorkspace, type TempWorkspace } from './support/workspace';
import type { Page } from 'playwright-core';
import {
  SQUIGGLE,
  activeEditor,
  editorText,
  goToFirstProblem,
  hoverFirstSquiggle,
  launchBrowser,
  openFile,
  problemsPanelRows,
  runCommand,
  waitForWorkbench,
  type Browser,
} from './support/workbench';

const CONNECTION_STRING_RULE = 'mongo-retry-writes-connection-string';
/** How VS Code labels a finding, `source(code)`: the plugin's name once, then the rule's. */
const LABEL = /retry-safety\(?[a-z]+(?:-[a-z]+)+\)?/;
// VS Code draws the parentheses around the code with CSS, so the page text may hold `retry-safetymongo-…`.
const REPEATED_PREFIX = /retry-safety\(?retry-safety\//;
const DOCDB_URI = 'mongodb://orders.cluster-c1a2b3.eu-west-1.docdb.amazonaws.com:27017/orders?tls=true&replicaSet=rs0';

// Files of examples/ the scenarios use: one with many findings, one whose connection
// string fix-on-save repairs. A YAML file is added to the copy for the Fix All command.
const FINDINGS_FILE = 'src/repositories/order-repository.ts';
const FIX_ON_SAVE_FILE = 'src/db/documentdb-client.ts';
const FIX_ALL_FILE = 'config/database.yaml';
const FIX_ALL_TEXT = ['orders:', '  mongodb:', `    uri: "${DOCDB_URI}&retryWrites=false"`, ''].join('\n');

const timer = startTimer('vscode');
/** Screenshots of failed steps (gitignored). */
const failuresDir = join(repoRoot, 'test-results', 'e2e');
let server: CodeServer;
let browser: Browser;
let workspace: TempWorkspace;

beforeAll(async () => {
  workspace = createTempWorkspace('retry-safety-vscode', {
    'editor.codeActionsOnSave': { 'source.fixAll.retrySafety': 'explicit' },
    // These scenarios use the editor settings; the example's eslint.config.js is left alone.
    'retrySafety.useProjectConfig': false,
  });
  mkdirSync(dirname(workspace.file(FIX_ALL_FILE)), { recursive: true });
  writeFileSync(workspace.file(FIX_ALL_FILE), FIX_ALL_TEXT);
  for (const file of ['.env', FINDINGS_FILE, FIX_ON_SAVE_FILE]) {
    expect(existsSync(workspace.file(file)), `examples/${file}`).toBe(true);
  }
  expect(workspace.read('.env')).toContain('retryWrites=false');
  expect(workspace.read(FIX_ON_SAVE_FILE)).toContain('retryWrites=false');

  const vsix = vsixPath();
  expect(existsSync(vsix), `${vsix} (run npm run package)`).toBe(true);
  server = await startCodeServer(vsix, {
    'editor.wordWrap': 'on',
    'editor.minimap.enabled': false,
    // Sticky scroll pins a class's first line over the text, where F8 puts the first finding.
    'editor.stickyScroll.enabled': false,
  });
  timer('code-server started, extension installed');
  browser = await launchBrowser();
  await browser.page.goto(server.url(workspace.dir, workspace.file(FINDINGS_FILE)));
  await waitForWorkbench(browser.page);
  timer('workbench loaded');
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  workspace?.dispose();
  removeProjects();
  timer('stopped');
});

/** Fails with the workbench and extension-host logs attached, which is what one needs to debug. */
async function withLogs<T>(run: () => Promise<T>, page: () => Page = () => browser.page): Promise<T> {
  try {
    return await run();
  } catch (error) {
    const name = expect.getState().currentTestName?.replace(/[^\w]+/g, '-') ?? 'failure';
    const shot = join(failuresDir, `${name}.png`);
    mkdirSync(failuresDir, { recursive: true });
    await page().screenshot({ path: shot }).catch(() => undefined);
    throw new Error(`${(error as Error).message}\n\nscreenshot: ${shot}\n${server.logs()}`, { cause: error });
  }
}

/** Opens the lightbulb's menu at the first problem of the active editor: its rows and their titles. */
async function openQuickFixMenu(page: Page) {
  await goToFirstProblem(page);
  // The lightbulb sits in the gutter when the line has room, else inline.
  const lightbulb = activeEditor(page)
    .locator('[class*="codicon-gutter-lightbulb"], .lightBulbWidget')
    .locator('visible=true')
    .first();
  await lightbulb.waitFor({ timeout: 15_000 });
  await lightbulb.click();
  const menu = page.locator('.action-widget').locator('visible=true').first();
  await menu.waitFor({ timeout: 15_000 });
  const items = menu.locator('.monaco-list-row.action');
  await items.first().waitFor();
  return { items, titles: await items.allTextContents() };
}

describe('VS Code with the Retry Safety extension', () => {
  test('shows squiggles and hovers in a TypeScript file', () =>
    withLogs(async () => {
      const { page } = browser;
      // The first findings are below the fold: Go to Next Problem scrolls to them.
      await goToFirstProblem(page, 60_000);
      await activeEditor(page).locator(SQUIGGLE).first().waitFor({ timeout: 10_000 });
      timer('first squiggle (TypeScript)');
      const hover = await hoverFirstSquiggle(page);
      const hoverText = (await hover.textContent()) ?? '';
      expect(hoverText).toMatch(LABEL);
      expect(hoverText).not.toMatch(REPEATED_PREFIX);
      await page.keyboard.press('Escape');
    }));

  test('shows squiggles in the .env file', () =>
    withLogs(async () => {
      const { page } = browser;
      await openFile(page, '.env');
      await activeEditor(page).locator(SQUIGGLE).first().waitFor({ timeout: 30_000 });
      timer('squiggle (.env)');
    }));

  test('lists the problems of both files in the Problems panel', () =>
    withLogs(async () => {
      const { page } = browser;
      const rows = await problemsPanelRows(page);
      const text = rows.join('\n');
      expect(text).toContain('.env');
      expect(text).toContain(FINDINGS_FILE.split('/').pop());
      expect(text).toMatch(new RegExp(`retry-safety\\(?${CONNECTION_STRING_RULE}\\b`));
      expect(text).not.toMatch(REPEATED_PREFIX);
      for (const row of rows.filter((candidate) => candidate.includes('retry-safety'))) expect(row).toMatch(LABEL);
      expect(text, 'no password in a message').not.toContain('change-me');
      // The connection-string findings name the host, not the whole URI.
      expect(text).not.toMatch(/mongodb(?:\+srv)?:\/\//);
      mkdirSync(dirname(problemsScreenshotPath), { recursive: true });
      await page.screenshot({ path: problemsScreenshotPath });
      await page.keyboard.press('Control+J'); // hide the panel again
      timer('Problems panel');
    }));

  test('fixes the DocumentDB connection string in .env from the lightbulb', () =>
    withLogs(async () => {
      const { page } = browser;
      await openFile(page, '.env');
      expect(await editorText(page)).toContain('retryWrites=false');
      const { items, titles } = await openQuickFixMenu(page);
      const fix = titles.findIndex(
        (title) => (title.includes(CONNECTION_STRING_RULE) || /retryWrites/i.test(title)) && !/disable/i.test(title),
      );
      expect(fix, `a connection-string quick-fix among ${JSON.stringify(titles)}`).toBeGreaterThanOrEqual(0);
      await items.nth(fix).hover();
      mkdirSync(dirname(screenshotPath), { recursive: true });
      await page.screenshot({ path: screenshotPath });
      timer('quick-fix menu (screenshot saved)');
      await items.nth(fix).click();
      await expect.poll(() => editorText(page), { timeout: 10_000 }).not.toContain('retryWrites=false');
      await page.keyboard.press('Control+S');
      await expect.poll(() => workspace.read('.env'), { timeout: 10_000 }).not.toContain('retryWrites=false');
      await expect.poll(() => activeEditor(page).locator(SQUIGGLE).count(), { timeout: 15_000 }).toBe(0);
      timer('quick-fix applied');
    }));

  test('fixes on save with editor.codeActionsOnSave', () =>
    withLogs(async () => {
      const { page } = browser;
      await openFile(page, FIX_ON_SAVE_FILE);
      await activeEditor(page).locator(SQUIGGLE).first().waitFor({ timeout: 30_000 });
      await page.keyboard.press('Control+End');
      await page.keyboard.type('// edited\n');
      await page.keyboard.press('Control+S');
      // Saved with the edit, and the URI has lost retryWrites=false (the prose and the
      // comment that mention it keep theirs: they are not configuration).
      const docdbUriWithRetryWritesOff = /docdb\.amazonaws\.com[^'\n]*retryWrites=false'/;
      const isSavedAndFixed = (text: string) => text.includes('// edited') && !docdbUriWithRetryWritesOff.test(text);
      await expect.poll(() => isSavedAndFixed(workspace.read(FIX_ON_SAVE_FILE)), { timeout: 15_000 }).toBe(true);
      timer('fix on save');
    }));

  test('"Retry Safety: Fix All in File" fixes the active file', () =>
    withLogs(async () => {
      const { page } = browser;
      await openFile(page, FIX_ALL_FILE);
      await activeEditor(page).locator(SQUIGGLE).first().waitFor({ timeout: 30_000 });
      await runCommand(page, 'Retry Safety: Fix All in File');
      await expect.poll(() => editorText(page), { timeout: 15_000 }).not.toContain('retryWrites=false');
      expect(readFileSync(workspace.file(FIX_ALL_FILE), 'utf8'), 'not saved by the command').toContain('retryWrites=false');
      timer('Fix All command');
    }));

  test('"Retry Safety: Restart Server" and "Show Output" work', () =>
    withLogs(async () => {
      const { page } = browser;
      await openFile(page, FINDINGS_FILE);
      await runCommand(page, 'Retry Safety: Restart Server');
      await sleep(500);
      await goToFirstProblem(page, 30_000);
      await activeEditor(page).locator(SQUIGGLE).first().waitFor({ timeout: 10_000 });
      await runCommand(page, 'Retry Safety: Show Output');
      const output = page.locator('.panel .monaco-editor .view-lines');
      const outputText = async () => ((await output.textContent()) ?? '').replace(/\u00a0/g, ' ');
      await expect.poll(outputText, { timeout: 15_000 }).toContain('Restarting the Retry Safety language server');
      timer('restart and output');
    }));

  test('"retrySafety.enable": false in the folder settings clears the squiggles', () =>
    withLogs(async () => {
      const { page } = browser;
      await openFile(page, FINDINGS_FILE);
      await goToFirstProblem(page, 30_000);
      await activeEditor(page).locator(SQUIGGLE).first().waitFor({ timeout: 10_000 });
      const settingsFile = workspace.file('.vscode/settings.json');
      const settings = JSON.parse(readFileSync(settingsFile, 'utf8')) as Record<string, unknown>;
      writeFileSync(settingsFile, JSON.stringify({ ...settings, 'retrySafety.enable': false }, null, 2));
      await expect.poll(() => activeEditor(page).locator(SQUIGGLE).count(), { timeout: 20_000 }).toBe(0);
      timer('enable: false');
    }));
});

describe("VS Code with a project's own eslint.config.mjs", () => {
  const CONFIG = `import retrySafety from 'eslint-plugin-retry-safety';

export default [
  retrySafety.configs['connection-strings'],
  { settings: { 'retry-safety': { documentdb: { engineVersion: '8.0.2' } } } },
];
`;
  let projectBrowser: Browser | undefined;

  afterAll(async () => {
    await projectBrowser?.close();
  });

  test('the engine version comes from the config: the quick-fix that removes retryWrites=false, without any editor setting', () =>
    withLogs(
      async () => {
        // A trusted folder (code-server runs with workspace trust off) with no .vscode/settings.json.
        const project = createProject({ 'eslint.config.mjs': CONFIG, '.env': `PORT=3000\nMONGODB_URI=${DOCDB_URI}&retryWrites=false\n` }, 'eslint');
        projectBrowser = await launchBrowser();
        const { page } = projectBrowser;
        await page.goto(server.url(project, join(project, '.env')));
        await waitForWorkbench(page);
        await activeEditor(page).locator(SQUIGGLE).first().waitFor({ timeout: 90_000 });
        timer('squiggle from the project config');
        const { items, titles } = await openQuickFixMenu(page);
        const fix = titles.findIndex((title) => title.includes('Remove "&retryWrites=false"'));
        expect(fix, `the autofix among ${JSON.stringify(titles)}`).toBeGreaterThanOrEqual(0);
        await items.nth(fix).click();
        await expect.poll(() => editorText(page), { timeout: 10_000 }).not.toContain('retryWrites=false');
        await runCommand(page, 'Retry Safety: Show Output');
        const output = page.locator('.panel .monaco-editor .view-lines');
        const outputText = async () => ((await output.textContent()) ?? '').replace(/\u00a0/g, ' ');
        await expect.poll(outputText, { timeout: 15_000 }).toContain('eslint.config.mjs (ESLint');
        timer('quick-fix from the project config');
      },
      () => projectBrowser?.page ?? browser.page,
    ),
  // A second window starts its own extension host and language server.
  300_000);
});
