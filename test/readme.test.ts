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
      const inPreset = `retry-safety/${id}` in (plugin.configs[preset].rules ?? {});
      expect(presets.includes(mark), `${preset} mark`).toBe(inPreset);
    }
  });
});
