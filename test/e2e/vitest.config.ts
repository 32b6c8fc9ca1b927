// Real-editor tests (`npm run test:e2e`): code-server driven by Chromium, and headless
// Neovim. Kept out of the default `vitest run`; they need the tools installed by
// scripts/e2e-install.sh and take about a minute.
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    root: new URL('../..', import.meta.url).pathname,
    include: ['test/e2e/**/*.e2e.test.ts'],
    fileParallelism: false,
    testTimeout: 120_000,
    hookTimeout: 180_000,
    reporters: ['verbose'],
  },
});
