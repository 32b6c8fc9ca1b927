import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import plugin from '../../eslint-plugin/src/index';
import { DOCS_BASE_URL } from '../../eslint-plugin/src/util/create-rule';

const repo = path.join(import.meta.dirname, '..', '..');
const ruleIds = Object.keys(plugin.rules);
const ruleFiles = readdirSync(path.join(repo, 'eslint-plugin', 'src', 'rules'))
  .filter((file) => file.endsWith('.ts') && file !== 'index.ts')
  .map((file) => file.replace(/\.ts$/, ''));

type JsonSchema = { type?: string; properties?: Record<string, JsonSchema>; items?: JsonSchema | JsonSchema[]; description?: string; additionalProperties?: unknown };

/** Every object property in a rule's options schema carries a description; objects are closed. */
function findUndocumentedProperties(schema: JsonSchema, at = 'options'): string[] {
  const problems: string[] = [];
  if (schema.properties) {
    if (schema.additionalProperties !== false) problems.push(`${at} is not closed (additionalProperties: false)`);
    for (const [name, property] of Object.entries(schema.properties)) {
      if (!property.description) problems.push(`${at}.${name} has no description`);
      problems.push(...findUndocumentedProperties(property, `${at}.${name}`));
    }
  }
  const items = Array.isArray(schema.items) ? schema.items : schema.items ? [schema.items] : [];
  items.forEach((item, index) => problems.push(...findUndocumentedProperties(item, `${at}[${index}]`)));
  return problems;
}

describe('plugin meta', () => {
  it('exports exactly the rule files, one per id', () => {
    expect([...ruleIds].sort()).toEqual([...ruleFiles].sort());
  });

  it('puts every rule in `all` and `strict`, and all but the strict-only ones in `recommended`', () => {
    const inConfig = (name: 'recommended' | 'strict' | 'all') => Object.keys(plugin.configs[name].rules ?? {});
    const qualified = ruleIds.map((id) => `retry-safety/${id}`);
    expect(inConfig('all').sort()).toEqual([...qualified].sort());
    expect(inConfig('strict').sort()).toEqual([...qualified].sort());
    expect(inConfig('recommended')).not.toContain('retry-safety/mongo-prefer-projection-on-find-and-modify');
    expect(inConfig('recommended')).toContain('retry-safety/mongo-retry-writes-connection-string');
  });
});

describe.each(ruleIds)('rule %s', (ruleId) => {
  const rule = plugin.rules[ruleId as keyof typeof plugin.rules];

  it('has docs, tests and a docs URL pointing at its page', () => {
    expect(rule.meta.docs?.url).toBe(`${DOCS_BASE_URL}${ruleId}.md`);
    expect(existsSync(path.join(repo, 'eslint-plugin', 'docs', 'rules', `${ruleId}.md`))).toBe(true);
    expect(existsSync(path.join(repo, 'test', 'eslint-plugin', 'rules', `${ruleId}.test.ts`))).toBe(true);
  });

  it('has a one-sentence description and real messages', () => {
    const description = rule.meta.docs?.description ?? '';
    expect(description).toMatch(/^(Disallow|Require|Prefer|Enforce) .+\.$/);
    const messages = Object.entries(rule.meta.messages);
    expect(messages.length).toBeGreaterThan(0);
    for (const [id, text] of messages) {
      expect(id).toMatch(/^[a-z][a-zA-Z0-9]*$/);
      expect(text).not.toMatch(/not implemented/i);
    }
  });

  it('has a valid, closed, documented options schema with defaults', () => {
    const schema = rule.meta.schema as JsonSchema | JsonSchema[];
    const list = Array.isArray(schema) ? schema : [schema];
    for (const entry of list) expect(findUndocumentedProperties(entry)).toEqual([]);
    if (list.length > 0) expect((rule.meta as { defaultOptions?: unknown[] }).defaultOptions).toBeDefined();
  });

  it('documents its autofix and suggestions when it has them', () => {
    const page = path.join(repo, 'eslint-plugin', 'docs', 'rules', `${ruleId}.md`);
    if (!existsSync(page)) return expect.fail(`${page} is missing`);
    const markdown = readFileSync(page, 'utf8');
    if (rule.meta.fixable) expect(markdown).toMatch(/--fix|autofix/i);
    if (rule.meta.hasSuggestions) expect(markdown).toMatch(/suggestion/i);
  });
});
