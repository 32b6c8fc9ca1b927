import { readFileSync, existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import tsParser from '@typescript-eslint/parser';
import { Linter } from 'eslint';
import { describe, expect, it } from 'vitest';
import { CONFIG_NAMES, RULE_PREFIX } from '../../eslint-plugin/src/constants';
import plugin from '../../eslint-plugin/src/index';

const docsDir = path.join(import.meta.dirname, '..', '..', 'eslint-plugin', 'docs', 'rules');

interface DocsExample {
  /** `suggested`: what a suggestion makes of the `incorrect` example right before it. */
  kind: 'incorrect' | 'correct' | 'suggested';
  code: string;
  line: number;
  settings: Record<string, unknown>;
}

/** Fenced blocks tagged `ts incorrect` / `ts correct` / `ts suggested`, with an optional `<!-- settings: {...} -->` line before them. */
function findExamples(markdown: string): DocsExample[] {
  const examples: DocsExample[] = [];
  const fence = /^(?:<!-- settings: (.*) -->\n)?```(?:ts|js|typescript|javascript) (incorrect|correct|suggested)\n([\s\S]*?)^```$/gm;
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

function lintWithRule(ruleId: string, example: DocsExample, parser: Linter.Parser = tsParser): Linter.LintMessage[] {
  const linter = new Linter({ configType: 'flat' });
  return linter.verify(
    example.code,
    [
      {
        files: ['**/*.ts'],
        languageOptions: { parser, sourceType: 'module', ecmaVersion: 'latest' },
        plugins: { 'retry-safety': plugin as never },
        rules: { [`retry-safety/${ruleId}`]: 'error' },
        settings: example.settings,
      },
    ],
    { filename: 'example.ts' },
  );
}

/**
 * Whether the rule reads the type information ESLint gives it (typed linting): its docs
 * examples are linted with parser services that count reads of `program` (null here, as
 * without typed linting, so the rule takes its untyped path after asking).
 */
function usesTypeInformation(ruleId: string, examples: DocsExample[]): boolean {
  let reads = 0;
  const countingParser: Linter.Parser = {
    parseForESLint(code: string, options?: Record<string, unknown>) {
      const result = tsParser.parseForESLint(code, options);
      const services = new Proxy(result.services, {
        get(target, key, receiver) {
          if (key === 'program') reads += 1;
          return Reflect.get(target, key, receiver) as unknown;
        },
      });
      return { ...result, services } as never;
    },
  };
  for (const example of examples) lintWithRule(ruleId, example, countingParser);
  return reads > 0;
}

/**
 * The line under each page's title, as typescript-eslint's rule pages have: the presets
 * that turn the rule on (with their level), its autofix and suggestions, and its use of
 * type information. Written from the rule's meta, the presets and the probe above.
 */
function expectedStatusLine(ruleId: string, examples: DocsExample[]): string {
  const rule = plugin.rules[ruleId as keyof typeof plugin.rules];
  const presets = CONFIG_NAMES.flatMap((name) => {
    const [forEveryFile, ...forSomeFiles] = [plugin.configs[name]].flat();
    const level = forEveryFile?.rules?.[`${RULE_PREFIX}${ruleId}`];
    const offInTests = forSomeFiles.some((config) => config.rules?.[`${RULE_PREFIX}${ruleId}`] === 'off');
    return level !== undefined && level !== 'off' ? [`\`${name}\` (${String(level)}${offInTests ? ', off in test files' : ''})`] : [];
  });
  const fixes = [rule.meta.fixable ? '🔧 autofix (`eslint --fix`)' : '', rule.meta.hasSuggestions ? '💡 suggestions (editor quick-fixes)' : ''].filter(Boolean);
  const docs = rule.meta.docs as { requiresTypeChecking?: boolean };
  const types = docs.requiresTypeChecking
    ? '💭 requires type information (typed linting)'
    : usesTypeInformation(ruleId, examples)
      ? '💭 uses type information when typed linting is on, works without it'
      : 'no type information used';
  return `> Presets: ${presets.join(', ') || 'none'} · ${fixes.join(', ') || 'no autofix or suggestion'} · ${types}`;
}

/** The line the status line goes on: the third, after the title and a blank line. */
const STATUS_LINE_INDEX = 2;

describe.each(Object.keys(plugin.rules))('docs page of %s', (ruleId) => {
  const file = path.join(docsDir, `${ruleId}.md`);

  it('exists, is titled with the rule id and has the standard sections', () => {
    expect(existsSync(file), `${file} is missing`).toBe(true);
    const markdown = readFileSync(file, 'utf8');
    expect(markdown.startsWith(`# retry-safety/${ruleId}\n`)).toBe(true);
    for (const section of ['## Why', '## Examples', '## Test files', '## Options']) expect(markdown).toContain(section);
  });

  it('says in its Test files section what `recommended` does in test files', () => {
    if (!existsSync(file)) return expect.fail(`${file} is missing`);
    const markdown = readFileSync(file, 'utf8');
    const section = markdown.slice(markdown.indexOf('## Test files'), markdown.indexOf('## Options')).replace(/\s+/g, ' ');
    const [forEveryFile, ...forTestFiles] = plugin.configs.recommended;
    const inRecommended = forEveryFile?.rules?.[`${RULE_PREFIX}${ruleId}`] !== undefined;
    const offInTests = forTestFiles.some((config) => config.rules?.[`${RULE_PREFIX}${ruleId}`] === 'off');
    if (!inRecommended) expect(section).toContain('Not in `recommended`');
    else if (offInTests) expect(section).toContain('`recommended` turns this rule off in test files');
    else expect(section).toContain('`recommended` keeps this rule on in test files');
  });

  it('opens with a status line that states its presets, fixes and use of types truly', () => {
    if (!existsSync(file)) return expect.fail(`${file} is missing`);
    const markdown = readFileSync(file, 'utf8');
    const lines = markdown.split('\n');
    const expected = expectedStatusLine(ruleId, findExamples(markdown));
    // UPDATE_DOCS_STATUS=1 writes the line (inserting it on a page that has none yet).
    if (process.env.UPDATE_DOCS_STATUS === '1' && lines[STATUS_LINE_INDEX] !== expected) {
      if (lines[STATUS_LINE_INDEX]?.startsWith('> Presets: ')) lines[STATUS_LINE_INDEX] = expected;
      else lines.splice(STATUS_LINE_INDEX, 0, expected, '');
      writeFileSync(file, lines.join('\n'));
      return;
    }
    expect(lines[STATUS_LINE_INDEX - 1], 'a blank line after the title').toBe('');
    expect(lines[STATUS_LINE_INDEX], 'status line (UPDATE_DOCS_STATUS=1 rewrites it)').toBe(expected);
    expect(lines[STATUS_LINE_INDEX + 1], 'a blank line after the status line').toBe('');
  });

  it('has incorrect examples that trigger the rule and correct ones that do not', () => {
    if (!existsSync(file)) return expect.fail(`${file} is missing`);
    const examples = findExamples(readFileSync(file, 'utf8'));
    expect(examples.some((example) => example.kind === 'incorrect')).toBe(true);
    expect(examples.some((example) => example.kind === 'correct')).toBe(true);
    for (const example of examples) {
      if (example.kind === 'suggested') continue;
      const messages = lintWithRule(ruleId, example);
      const fatal = messages.filter((message) => message.fatal);
      expect(fatal, `example at line ${example.line} does not parse`).toEqual([]);
      const fromRule = messages.filter((message) => message.ruleId === `retry-safety/${ruleId}`);
      if (example.kind === 'incorrect') expect(fromRule.length, `incorrect example at line ${example.line}`).toBeGreaterThan(0);
      else expect(fromRule, `correct example at line ${example.line}`).toEqual([]);
    }
  });

  it('shows what its suggestions make of an incorrect example, as the rule makes it', () => {
    if (!existsSync(file)) return expect.fail(`${file} is missing`);
    const examples = findExamples(readFileSync(file, 'utf8'));
    const rule = plugin.rules[ruleId as keyof typeof plugin.rules];
    const suggested = examples.filter((example) => example.kind === 'suggested');
    // A rule with suggestions shows at least one; one without shows none.
    expect(suggested.length > 0, 'a `ts suggested` block after an incorrect example').toBe(Boolean(rule.meta.hasSuggestions));
    for (const example of suggested) {
      const index = examples.indexOf(example);
      const incorrect = examples[index - 1];
      expect(incorrect?.kind, `the block before the suggested example at line ${example.line}`).toBe('incorrect');
      const findings = lintWithRule(ruleId, incorrect!).filter((message) => message.ruleId === `retry-safety/${ruleId}`);
      const outputs = findings.flatMap((message) =>
        (message.suggestions ?? []).map((suggestion) => applyEdit(incorrect!.code, suggestion.fix)),
      );
      expect(outputs, `suggested example at line ${example.line}`).toContain(example.code);
      // Applied, it clears a finding of the rule.
      const after = lintWithRule(ruleId, example).filter((message) => message.ruleId === `retry-safety/${ruleId}`);
      expect(after.length, `findings left in the suggested example at line ${example.line}`).toBeLessThan(findings.length);
    }
  });
});

function applyEdit(text: string, edit: { range: [number, number]; text: string }): string {
  return text.slice(0, edit.range[0]) + edit.text + text.slice(edit.range[1]);
}
