import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import ts from 'typescript';
import { afterAll, describe, expect, it } from 'vitest';
import { getRetrySafetySettings } from '../../eslint-plugin/src/analysis/connection-string';
import * as constants from '../../eslint-plugin/src/constants';
import * as fileKinds from '../../eslint-plugin/src/file-kinds';
import * as testFiles from '../../eslint-plugin/src/test-files';
import * as entry from '../../eslint-plugin/src/index';
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
    const inConfig = (name: 'recommended' | 'strict' | 'all') => Object.keys(plugin.configs[name][0]?.rules ?? {});
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

describe('the names the plugin exports', () => {
  const {
    CONFIG_NAMES,
    CONNECTION_STRING_RULE_ID,
    CONNECTION_STRINGS_PRESET_NAME,
    ESLINT_SETTINGS_NAME,
    PLUGIN_NAMESPACE,
    RULE_PREFIX,
    SETTINGS_KEY,
    TEXT_LANGUAGE_ID,
    TEXT_LANGUAGE_NAME,
  } = constants;

  it('are the ones the plugin object, its presets and its settings use', () => {
    expect(plugin.meta.namespace).toBe(PLUGIN_NAMESPACE);
    expect(RULE_PREFIX).toBe(`${PLUGIN_NAMESPACE}/`);
    expect(Object.keys(plugin.configs)).toEqual([...CONFIG_NAMES]);
    for (const name of CONFIG_NAMES) {
      const [forEveryFile, ...more] = [plugin.configs[name]].flat();
      expect(forEveryFile?.name).toBe(`${PLUGIN_NAMESPACE}/${name}`);
      expect(Object.keys(forEveryFile?.plugins ?? {})).toEqual([PLUGIN_NAMESPACE]);
      for (const config of [forEveryFile, ...more]) expect(Object.keys(config?.rules ?? {}).every((id) => id.startsWith(RULE_PREFIX)), name).toBe(true);
      // Only `recommended` adds a config object: its test-file levels.
      expect(more.map((config) => config.name)).toEqual(name === 'recommended' ? [`${PLUGIN_NAMESPACE}/recommended/test-files`] : []);
    }
    expect(Object.keys(plugin.languages)).toEqual([TEXT_LANGUAGE_NAME]);
    expect(TEXT_LANGUAGE_ID).toBe(`${PLUGIN_NAMESPACE}/${TEXT_LANGUAGE_NAME}`);
    expect(plugin.configs[CONNECTION_STRINGS_PRESET_NAME].language).toBe(TEXT_LANGUAGE_ID);
    expect(ruleIds).toContain(CONNECTION_STRING_RULE_ID);
    expect(plugin.configs[CONNECTION_STRINGS_PRESET_NAME].rules?.[RULE_PREFIX + CONNECTION_STRING_RULE_ID]).toBe('error');
    expect(getRetrySafetySettings({ [SETTINGS_KEY]: { documentdb: { engineVersion: '8.0.2' } } }).documentdb.engineVersion?.text).toBe('8.0.2');
    expect(ESLINT_SETTINGS_NAME).toBe(`settings["${SETTINGS_KEY}"]`);
  });
});

describe('the package entry', () => {
  const named = { ...constants, ...fileKinds, ...testFiles };
  const pluginKeys = ['meta', 'rules', 'languages', 'configs'];
  const distEntry = path.join(repo, 'eslint-plugin', 'dist', 'index.cjs');
  const tempDirs: string[] = [];
  afterAll(() => {
    for (const dir of tempDirs) rmSync(dir, { recursive: true, force: true });
  });

  it('exports the constants and the file kinds by name, and carries them on the plugin object without adding to its keys', () => {
    for (const [name, value] of Object.entries(named)) {
      expect((entry as Record<string, unknown>)[name], name).toBe(value);
      expect((plugin as unknown as Record<string, unknown>)[name], name).toBe(value);
    }
    expect(Object.keys(plugin)).toEqual(pluginKeys);
  });

  it('as built: require() and import both get the plugin, with the named exports', () => {
    if (!existsSync(distEntry)) throw new Error('Build the plugin first: npm run build');
    const built = createRequire(import.meta.url)('eslint-plugin-retry-safety') as Record<string, unknown>;
    expect(Object.keys(built)).toEqual(pluginKeys);
    for (const [name, value] of Object.entries(named)) {
      if (typeof value === 'function') expect(typeof built[name], name).toBe('function');
      else expect(built[name], name).toEqual(value);
    }
    const script = [
      "import plugin, { RULE_PREFIX, FILE_KINDS } from 'eslint-plugin-retry-safety';",
      "import { TEXT_LANGUAGE_ID } from 'eslint-plugin-retry-safety/constants';",
      "import { findFileKind } from 'eslint-plugin-retry-safety/file-kinds';",
      'console.log(JSON.stringify([Object.keys(plugin), RULE_PREFIX, FILE_KINDS.length, TEXT_LANGUAGE_ID, findFileKind(".env.local").name]));',
    ].join('\n');
    const output = execFileSync(process.execPath, ['--input-type=module', '-e', script], { cwd: repo, encoding: 'utf8' });
    expect(JSON.parse(output)).toEqual([pluginKeys, constants.RULE_PREFIX, fileKinds.FILE_KINDS.length, constants.TEXT_LANGUAGE_ID, 'dotenv']);
  });

  it("type-checks a user's eslint.config.ts, ESM or CommonJS, against the built declarations", () => {
    if (!existsSync(distEntry)) throw new Error('Build the plugin first: npm run build');
    const dir = mkdtempSync(path.join(os.tmpdir(), 'retry-safety-types-'));
    tempDirs.push(dir);
    mkdirSync(path.join(dir, 'node_modules'));
    symlinkSync(path.join(repo, 'eslint-plugin'), path.join(dir, 'node_modules', 'eslint-plugin-retry-safety'), 'dir');
    symlinkSync(path.join(repo, 'node_modules', 'eslint'), path.join(dir, 'node_modules', 'eslint'), 'dir');
    const files: Record<string, string> = {
      'package.json': '{ "type": "module" }',
      'eslint.config.ts': [
        "import type { Linter } from 'eslint';",
        "import retrySafety, { CONNECTION_STRING_RULE_ID, RULE_PREFIX, TEXT_LANGUAGE_ID, type ConfigName } from 'eslint-plugin-retry-safety';",
        "import { FILE_KINDS } from 'eslint-plugin-retry-safety/file-kinds';",
        "const preset: ConfigName = 'recommended';",
        'export default [',
        '  ...retrySafety.configs[preset],',
        "  retrySafety.configs['connection-strings'],",
        "  { plugins: { 'retry-safety': retrySafety }, rules: { [`${RULE_PREFIX}${CONNECTION_STRING_RULE_ID}`]: 'error' } },",
        "  { files: FILE_KINDS.filter((kind) => kind.syntax === 'text').flatMap((kind) => kind.extensions.map((extension) => `**/*${extension}`)), language: TEXT_LANGUAGE_ID },",
        '] satisfies Linter.Config[];',
      ].join('\n'),
      'eslint.config.cts': [
        "import retrySafety = require('eslint-plugin-retry-safety');",
        "const config: import('eslint').Linter.Config[] = [...retrySafety.configs.all, { settings: { [retrySafety.SETTINGS_KEY]: {} } }];",
        'export = config;',
      ].join('\n'),
      'misspelt.ts': "import retrySafety from 'eslint-plugin-retry-safety';\nexport const config = retrySafety.configs.recomended;\n",
    };
    for (const [name, content] of Object.entries(files)) writeFileSync(path.join(dir, name), content);
    const program = ts.createProgram(
      ['eslint.config.ts', 'eslint.config.cts', 'misspelt.ts'].map((name) => path.join(dir, name)),
      { strict: true, module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext, noEmit: true, skipLibCheck: true, types: [] },
    );
    const problems = ts.getPreEmitDiagnostics(program).map((diagnostic) => [
      path.basename(diagnostic.file?.fileName ?? ''),
      ts.flattenDiagnosticMessageText(diagnostic.messageText, ' '),
    ]);
    // The presets are typed: only the misspelt one fails.
    expect(problems).toEqual([['misspelt.ts', expect.stringContaining("Property 'recomended' does not exist")]]);
  });
});
