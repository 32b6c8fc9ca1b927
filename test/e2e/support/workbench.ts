// Drives the VS Code workbench in Chromium the way a user does: keyboard shortcuts,
// the command palette, clicks on the lightbulb. Selectors are the workbench's own
// CSS classes (stable across VS Code releases for years).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium as playwrightChromium, type BrowserContext, type Locator, type Page } from 'playwright-core';
import { chromium } from './paths';

/** Squiggles inside an editor (use under `activeEditor(page)`). */
export const SQUIGGLE = '.squiggly-error, .squiggly-warning, .squiggly-info';

export interface Browser {
  page: Page;
  close(): Promise<void>;
}

export async function launchBrowser(): Promise<Browser> {
  const profile = mkdtempSync(join(tmpdir(), 'retry-safety-chromium-'));
  const context: BrowserContext = await playwrightChromium.launchPersistentContext(profile, {
    executablePath: chromium,
    headless: true,
    viewport: { width: 1280, height: 760 },
    deviceScaleFactor: 1,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  const page = context.pages()[0] ?? (await context.newPage());
  return {
    page,
    async close() {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

/** The editor group's active editor (the one with the focused tab). */
export function activeEditor(page: Page): Locator {
  return page.locator('.editor-group-container.active .monaco-editor').first();
}

export async function waitForWorkbench(page: Page): Promise<void> {
  await page.waitForSelector('.monaco-workbench', { timeout: 90_000 });
  await page.waitForSelector('.monaco-editor .view-lines', { timeout: 90_000 });
}

/** Opens a workspace file with Quick Open (Ctrl+P), as a user would. */
export async function openFile(page: Page, relativePath: string): Promise<void> {
  const name = relativePath.split('/').pop() ?? relativePath;
  await page.keyboard.press('Escape'); // close any menu or widget left open
  await page.keyboard.press('Control+P');
  const input = page.locator('.quick-input-widget input');
  await input.waitFor({ state: 'visible' });
  await input.fill(relativePath);
  // Wait for the filtered result (the list first shows recently opened files).
  const row = page.locator('.quick-input-widget .monaco-list-row', { hasText: name }).first();
  await row.waitFor({ timeout: 15_000 });
  await row.click();
  await page.locator('.tabs-container .tab.active', { hasText: name }).waitFor({ timeout: 30_000 });
  await activeEditor(page).locator('.view-lines').waitFor();
}

/** Runs a command by its title from the command palette (F1). */
export async function runCommand(page: Page, title: string): Promise<void> {
  await page.keyboard.press('F1');
  const input = page.locator('.quick-input-widget input');
  await input.waitFor({ state: 'visible' });
  await input.fill(`>${title}`);
  const row = page.locator('.quick-input-widget .monaco-list-row', { hasText: title }).first();
  await row.waitFor({ timeout: 15_000 });
  await row.click();
  await input.waitFor({ state: 'hidden' });
}

/** Text of the active editor as rendered (the files used here fit on one screen). */
export async function editorText(page: Page): Promise<string> {
  const lines = await activeEditor(page)
    .locator('.view-lines .view-line')
    .evaluateAll((nodes) =>
      nodes
        .map((node) => ({ top: parseFloat(/top:\s*([\d.]+)px/.exec(node.getAttribute('style') ?? '')?.[1] ?? '0'), text: node.textContent ?? '' }))
        .sort((a, b) => a.top - b.top)
        .map((line) => line.text),
    );
  // Monaco renders spaces as non-breaking spaces.
  return lines.join('\n').replace(/\u00a0/g, ' ');
}

/**
 * Moves the cursor to the first problem in the active file (Go to Next Problem, F8, which
 * also scrolls to it) and closes the peek view. Retries until the diagnostics arrive.
 */
export async function goToFirstProblem(page: Page, timeout = 15_000): Promise<void> {
  const deadline = Date.now() + timeout;
  const peek = page.locator('.marker-widget').first();
  for (;;) {
    await activeEditor(page).locator('textarea').first().focus();
    await page.keyboard.press('Control+Home');
    await page.keyboard.press('F8');
    try {
      await peek.waitFor({ timeout: 1_000 });
      break;
    } catch (error) {
      if (Date.now() > deadline) throw error;
    }
  }
  // Under load one Escape can land before the peek has focus: press until it closes.
  for (let attempt = 1; ; attempt++) {
    await page.keyboard.press('Escape');
    try {
      await peek.waitFor({ state: 'hidden', timeout: 2_000 });
      return;
    } catch (error) {
      if (attempt >= 10) throw error;
      await peek.focus().catch(() => undefined);
    }
  }
}

/**
 * Hovers the first squiggle of the active editor that has a size on screen and returns the
 * hover widget. Monaco can leave a squiggle element with an empty box for a moment while it
 * lays out the lines, so a hover that finds nothing to point at is tried again.
 */
export async function hoverFirstSquiggle(page: Page, timeout = 20_000): Promise<Locator> {
  const deadline = Date.now() + timeout;
  const squiggle = activeEditor(page).locator(SQUIGGLE).locator('visible=true').first();
  const hover = page.locator('.monaco-hover:not(.hidden)').locator('visible=true').first();
  for (;;) {
    try {
      await squiggle.waitFor({ timeout: 2_000 });
      // Forced: a widget drawn over the text (sticky scroll, a closing peek) takes the
      // pointer events, and the hover is what the test checks, not the widget.
      await squiggle.hover({ timeout: 2_000, force: true });
      await hover.waitFor({ timeout: 3_000 });
      return hover;
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await page.mouse.move(0, 0); // leave the line, so the next hover starts afresh
    }
  }
}

/** Rows of the Problems panel (opened with Ctrl+Shift+M), as text. */
export async function problemsPanelRows(page: Page): Promise<string[]> {
  const rows = page.locator('.markers-panel .monaco-list-row');
  if (!(await page.locator('.markers-panel').isVisible())) await page.keyboard.press('Control+Shift+M');
  await rows.first().waitFor({ timeout: 30_000 });
  return rows.allTextContents();
}
