import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import plugin from '../eslint-plugin/src/index';

const readme = readFileSync(path.join(import.meta.dirname, '..', 'README.md'), 'utf8');
const table = readme.slice(readme.indexOf('<!-- rules-table-start -->'), readme.indexOf('<!-- rules-table-end -->'));
const rows = new Map(
  table
    .split('\n')
    .filter((line) => line.startsWith('| [`'))
    .map((line) => {
      // | [`id`](page) | catches | fix | presets |
      const cells = line.split('|').map((cell) => cell.trim());
      const id = /\[`([^`]+)`\]/.exec(cells[1] ?? '')?.[1] ?? '';
      return [id, { fix: cells[3] ?? '', presets: cells[4] ?? '' }] as const;
    }),
);

describe('README rule table', () => {
  it('lists every rule exactly once', () => {
    expect([...rows.keys()].sort()).toEqual(Object.keys(plugin.rules).sort());
  });

  it.each(Object.keys(plugin.rules))('states the truth about %s', (id) => {
    const rule = plugin.rules[id as keyof typeof plugin.rules];
    const row = rows.get(id);
    expect(row).toBeDefined();
    expect(row!.fix.includes('🔧'), 'autofix mark').toBe(Boolean(rule.meta.fixable));
    expect(row!.fix.includes('💡'), 'suggestion mark').toBe(Boolean(rule.meta.hasSuggestions));
    const presets = row!.presets.split(/[\s,]+/);
    for (const [mark, preset] of [['R', 'recommended'], ['S', 'strict'], ['A', 'all']] as const) {
      const inPreset = `retry-safety/${id}` in (plugin.configs[preset][0]?.rules ?? {});
      expect(presets.includes(mark), `${preset} mark`).toBe(inPreset);
    }
    const offInTests = plugin.configs.recommended.slice(1).some((config) => config.rules?.[`retry-safety/${id}`] === 'off');
    expect(presets.includes('T'), 'off-in-test-files mark').toBe(offInTests);
  });
});

describe('README install and CI sections', () => {
  // The commands themselves run in test/packaging/packages.test.ts (install, quick start)
  // and test/cli/ci-recipe.test.ts (the workflow, SARIF, exit codes); here, what they name.
  const pluginManifest = JSON.parse(readFileSync(path.join(import.meta.dirname, '..', 'eslint-plugin', 'package.json'), 'utf8')) as { name: string; version: string };
  const block = (marker: string) => new RegExp(`<!-- ${marker} -->\\n\`\`\`\\w*\\n([\\s\\S]*?)\\n\`\`\`\\n`).exec(readme)?.[1] ?? '';

  it('says the packages are not on the registry yet, installs the tarball npm pack writes, and keeps the registry command', () => {
    expect(readme).toContain('**The packages are not on the npm registry yet**');
    const install = block('install-from-tarball');
    expect(install).toContain('npm pack -w eslint-plugin');
    expect(install).toContain(`${pluginManifest.name}-${pluginManifest.version}.tgz`);
    expect(readme).toContain(`npm install --save-dev eslint ${pluginManifest.name} @typescript-eslint/parser`);
  });

  it('configures the quick start as eslint.config.mjs, which loads in a CommonJS project', () => {
    expect(readme).toMatch(/Then `eslint\.config\.mjs`/);
    expect(block('quick-start-config')).toMatch(/^import /);
  });

  it('has the CI section: command, exit codes, SARIF formatter and a code-scanning workflow', () => {
    const ci = readme.slice(readme.indexOf('## In CI'), readme.indexOf('## Rules'));
    expect(ci).toContain('npx eslint . --max-warnings 0');
    for (const code of ['0', '1', '2']) expect(ci).toMatch(new RegExp(`^\\| ${code} \\| `, 'm'));
    expect(ci).toContain('@microsoft/eslint-formatter-sarif');
    expect(block('ci-workflow')).toContain('github/codeql-action/upload-sarif');
  });
});
