import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import tsParser from '@typescript-eslint/parser';
import { Linter } from 'eslint';
import { describe, expect, it } from 'vitest';
import plugin from '../../eslint-plugin/src/index';

/**
 * The suggestions of the retry rules, applied one at a time the way an editor applies a
 * quick-fix, on every incorrect example of their docs pages and on the example project:
 * the result parses, the finding is gone, and no rule of the plugin reports anything it
 * did not report before.
 */

const RULES = ['require-retry-backoff', 'dynamodb-require-unprocessed-items-handling', 'no-retry-on-permanent-error', 'mongo-no-non-retryable-write'];
const root = path.join(import.meta.dirname, '..', '..');
const docsDir = path.join(root, 'eslint-plugin', 'docs', 'rules');
const examplesDir = path.join(root, 'examples', 'src');
// The example project's settings (its eslint.config.js).
const EXAMPLE_SETTINGS = { 'retry-safety': { documentdb: { engineVersion: '8.0.2' } } };

interface Sample {
  name: string;
  code: string;
  filename: string;
  settings: Record<string, unknown>;
}

function lintAll(sample: Sample, code: string): Linter.LintMessage[] {
  const linter = new Linter({ configType: 'flat' });
  return linter.verify(
    code,
    [
      {
        files: ['**/*.ts', '**/*.js'],
        languageOptions: { parser: tsParser, sourceType: 'module', ecmaVersion: 'latest' },
        plugins: { 'retry-safety': plugin as never },
        rules: Object.fromEntries(plugin.configs.all.flatMap((config) => Object.entries(config.rules ?? {}))),
        settings: sample.settings,
      },
    ],
    { filename: sample.filename },
  );
}

function readSamples(): Sample[] {
  const samples: Sample[] = [];
  for (const ruleId of RULES) {
    const markdown = readFileSync(path.join(docsDir, `${ruleId}.md`), 'utf8');
    const fence = /^(?:<!-- settings: (.*) -->\n)?```(?:ts|js) incorrect\n([\s\S]*?)^```$/gm;
    for (const match of markdown.matchAll(fence)) {
      const line = markdown.slice(0, match.index).split('\n').length;
      samples.push({
        name: `${ruleId}.md:${line}`,
        code: match[2] ?? '',
        filename: 'example.ts',
        settings: match[1] ? (JSON.parse(match[1]) as Record<string, unknown>) : {},
      });
    }
  }
  for (const folder of readdirSync(examplesDir)) {
    for (const file of readdirSync(path.join(examplesDir, folder))) {
      const filename = path.join(examplesDir, folder, file);
      samples.push({ name: `examples/src/${folder}/${file}`, code: readFileSync(filename, 'utf8'), filename: `${folder}-${file}`, settings: EXAMPLE_SETTINGS });
    }
  }
  return samples;
}

const key = (message: Linter.LintMessage): string => `${message.ruleId ?? ''}:${message.messageId ?? ''}`;

function countByKey(messages: readonly Linter.LintMessage[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const message of messages) counts.set(key(message), (counts.get(key(message)) ?? 0) + 1);
  return counts;
}

describe.each(readSamples())('suggestions on $name', (sample) => {
  it('each parses, clears its finding and adds none', () => {
    const before = lintAll(sample, sample.code);
    expect(before.filter((message) => message.fatal)).toEqual([]);
    const beforeCounts = countByKey(before);
    for (const message of before) {
      if (!RULES.some((ruleId) => message.ruleId === `retry-safety/${ruleId}`)) continue;
      for (const suggestion of message.suggestions ?? []) {
        const { range, text } = suggestion.fix;
        const output = sample.code.slice(0, range[0]) + text + sample.code.slice(range[1]);
        const where = `${key(message)} at line ${message.line}, "${suggestion.desc}"`;
        const after = lintAll(sample, output);
        expect(after.filter((item) => item.fatal).map((item) => item.message), `${where} parses`).toEqual([]);
        const afterCounts = countByKey(after);
        expect(afterCounts.get(key(message)) ?? 0, `${where} clears its finding`).toBeLessThan(beforeCounts.get(key(message)) ?? 0);
        const added = [...afterCounts].filter(([name, count]) => count > (beforeCounts.get(name) ?? 0)).map(([name]) => name);
        expect(added, `${where} adds no finding`).toEqual([]);
      }
    }
  });
});
