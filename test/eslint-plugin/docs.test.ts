import { readFileSync, existsSync } from 'node:fs';
import path from 'node:path';
import tsParser from '@typescript-eslint/parser';
import { Linter } from 'eslint';
import { describe, expect, it } from 'vitest';
import plugin from '../../eslint-plugin/src/index';

const docsDir = path.join(import.meta.dirname, '..', '..', 'eslint-plugin', 'docs', 'rules');

interface DocsExample {
  kind: 'incorrect' | 'correct';
  code: string;
  line: number;
  settings: Record<string, unknown>;
}

/** Fenced blocks tagged `ts incorrect` / `ts correct`, with an optional `<!-- settings: {...} -->` line before them. */
function findExamples(markdown: string): DocsExample[] {
  const examples: DocsExample[] = [];
  const fence = /^(?:<!-- settings: (.*) -->\n)?```(?:ts|js|typescript|javascript) (incorrect|correct)\n([\s\S]*?)^```$/gm;
  for (const match of markdown.matchAll(fence)) {
    examples.push({
      kind: match[2] as DocsExample['kind'],
      code: match[3] ?? '',
      line: markdown.slice(0, match.index).split('\n').length,
      settings: match[1] ? (JSON.parse(match[1]) as Record<string, unknown>) : {},
    });
  }
  return examples;
}

function lintWithRule(ruleId: string, example: DocsExample): Linter.LintMessage[] {
  const linter = new Linter({ configType: 'flat' });
  return linter.verify(
    example.code,
    [
      {
        files: ['**/*.ts'],
        languageOptions: { parser: tsParser, sourceType: 'module', ecmaVersion: 'latest' },
        plugins: { 'retry-safety': plugin as never },
        rules: { [`retry-safety/${ruleId}`]: 'error' },
        settings: example.settings,
      },
    ],
    { filename: 'example.ts' },
  );
}

describe.each(Object.keys(plugin.rules))('docs page of %s', (ruleId) => {
  const file = path.join(docsDir, `${ruleId}.md`);

  it('exists, is titled with the rule id and has the standard sections', () => {
    expect(existsSync(file), `${file} is missing`).toBe(true);
    const markdown = readFileSync(file, 'utf8');
    expect(markdown.startsWith(`# retry-safety/${ruleId}\n`)).toBe(true);
    for (const section of ['## Why', '## Examples', '## Options']) expect(markdown).toContain(section);
  });

  it('has incorrect examples that trigger the rule and correct ones that do not', () => {
    if (!existsSync(file)) return expect.fail(`${file} is missing`);
    const examples = findExamples(readFileSync(file, 'utf8'));
    expect(examples.some((example) => example.kind === 'incorrect')).toBe(true);
    expect(examples.some((example) => example.kind === 'correct')).toBe(true);
    for (const example of examples) {
      const messages = lintWithRule(ruleId, example);
      const fatal = messages.filter((message) => message.fatal);
      expect(fatal, `example at line ${example.line} does not parse`).toEqual([]);
      const fromRule = messages.filter((message) => message.ruleId === `retry-safety/${ruleId}`);
      if (example.kind === 'incorrect') expect(fromRule.length, `incorrect example at line ${example.line}`).toBeGreaterThan(0);
      else expect(fromRule, `correct example at line ${example.line}`).toEqual([]);
    }
  });
});
