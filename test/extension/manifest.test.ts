// The extension's manifest against what really runs: every contributed setting is read
// by the server (and every setting the server reads is contributed), the engine-version
// pattern accepts what the plugin accepts, every setting that changes what the server
// reports is restricted in untrusted workspaces, every contributed command is registered
// by the extension (and vice versa), activation and the document selector cover the
// plugin's file kinds, and the packaging fields vsce needs are there.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import fc from 'fast-check';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { getEngineVersion } from '../../eslint-plugin/src/analysis/connection-string/engine-version';
import { FILE_KINDS } from '../../eslint-plugin/src/file-kinds';
import { rules } from '../../eslint-plugin/src/rules/index';
import { FILE_NAME_PATTERNS, LANGUAGE_IDS, documentSelector } from '../../extension/src/document-selector';
import { FIX_ALL_COMMAND, FIX_ALL_KIND } from '../../server/src/capabilities';
import { CONFIG_FILE_GLOB } from '../../server/src/config-files';
import { SETTING_KEYS, SETTINGS_SECTION, WORKSPACE_TRUST_GRANTED, defaultSettings, readSettings } from '../../server/src/settings';
import { LspClient } from '../server/lsp-client';

const extensionDir = fileURLToPath(new URL('../../extension/', import.meta.url));
const read = (path: string) => readFileSync(join(extensionDir, path), 'utf8');

interface PropertySchema {
  type: string;
  default?: unknown;
  pattern?: string;
  enum?: string[];
  enumDescriptions?: string[];
  description?: string;
  markdownDescription?: string;
  scope?: string;
  items?: { type: string };
  properties?: Record<string, PropertySchema>;
}
interface Manifest {
  name: string;
  displayName: string;
  description: string;
  publisher: string;
  license: string;
  icon: string;
  main: string;
  repository: { url: string };
  categories: string[];
  activationEvents: string[];
  capabilities: { untrustedWorkspaces: { supported: boolean | string; description?: string; restrictedConfigurations?: string[] } };
  contributes: {
    commands: { command: string; title: string; category?: string }[];
    configuration: { properties: Record<string, PropertySchema> };
  };
}

const manifest = JSON.parse(read('package.json')) as Manifest;
const properties = manifest.contributes.configuration.properties;
const prefix = `${SETTINGS_SECTION}.`;
/** Setting keys as the server sees them, inside the `retrySafety` section. */
const settingKeys = Object.keys(properties).map((key) => key.slice(prefix.length));
const ruleIds = Object.keys(rules);

// ---------------------------------------------------------------- helpers

function setPath(target: Record<string, unknown>, path: string, value: unknown): Record<string, unknown> {
  const parts = path.split('.');
  let node = target;
  for (const part of parts.slice(0, -1)) {
    node[part] ??= {};
    node = node[part] as Record<string, unknown>;
  }
  node[parts[parts.length - 1] as string] = value;
  return target;
}

function getPath(source: unknown, path: string): unknown {
  return path.split('.').reduce<unknown>((node, part) => (node as Record<string, unknown> | undefined)?.[part], source);
}

/** A valid value for a setting that differs from its default. */
function sampleValue(key: string, schema: PropertySchema): unknown {
  if (schema.enum) return schema.enum.find((value) => value !== schema.default);
  switch (schema.type) {
    case 'boolean':
      return !schema.default;
    case 'string':
      return key === 'documentdb.engineVersion' ? '8.0.2' : 'x';
    case 'array':
      return ['docdb.internal.example.com'];
    case 'object':
      return { [ruleIds[0] as string]: 'error' };
    default:
      throw new Error(`no sample for ${key} (${schema.type})`);
  }
}

/** Leaf paths of a settings object; a path the manifest declares as an object is a leaf. */
function leafPaths(value: unknown, base = ''): string[] {
  if (typeof value !== 'object' || value === null || Array.isArray(value) || properties[`${prefix}${base}`]?.type === 'object') {
    return [base];
  }
  return Object.entries(value).flatMap(([key, child]) => leafPaths(child, base ? `${base}.${key}` : key));
}

/** `const NAME = '…'`, the strings of `const NAME = [ … ]` or of `const NAME = { … }` in a source file. */
function readConstant(source: ts.SourceFile, name: string): string | string[] | Record<string, string> {
  let found: string | string[] | Record<string, string> | undefined;
  const visit = (node: ts.Node): void => {
    if (ts.isVariableDeclaration(node) && ts.isIdentifier(node.name) && node.name.text === name && node.initializer) {
      let init = node.initializer;
      while (ts.isAsExpression(init) || ts.isSatisfiesExpression(init)) init = init.expression;
      if (ts.isStringLiteral(init)) {
        found = init.text;
      } else if (ts.isArrayLiteralExpression(init)) {
        found = init.elements.filter(ts.isStringLiteral).map((element) => element.text);
      } else if (ts.isObjectLiteralExpression(init)) {
        found = Object.fromEntries(
          init.properties
            .filter(ts.isPropertyAssignment)
            .filter((property) => ts.isStringLiteral(property.initializer))
            .map((property) => [property.name.getText(source), (property.initializer as ts.StringLiteral).text]),
        );
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  if (!found) throw new Error(`${name} not found in ${source.fileName}`);
  return found;
}

/** Command ids passed to `commands.registerCommand(…)`, resolving `COMMANDS.x`. */
function findRegisteredCommands(source: ts.SourceFile, commandIds: Record<string, string>): string[] {
  const registered: string[] = [];
  const visit = (node: ts.Node): void => {
    if (
      ts.isCallExpression(node) &&
      ts.isPropertyAccessExpression(node.expression) &&
      node.expression.name.text === 'registerCommand'
    ) {
      const [first] = node.arguments;
      if (first && ts.isStringLiteral(first)) registered.push(first.text);
      else if (first && ts.isPropertyAccessExpression(first) && first.expression.getText(source) === 'COMMANDS') {
        registered.push(commandIds[first.name.text] ?? `unknown COMMANDS.${first.name.text}`);
      } else registered.push(`unresolved: ${first?.getText(source)}`);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return registered;
}

const extensionSource = ts.createSourceFile('extension.ts', read('src/extension.ts'), ts.ScriptTarget.Latest, true);

// ---------------------------------------------------------------- settings

describe('settings: manifest and server agree', () => {
  test('the manifest contributes settings under the server section only', () => {
    expect(settingKeys.length).toBeGreaterThan(0);
    expect(Object.keys(properties).filter((key) => !key.startsWith(prefix))).toEqual([]);
  });

  test("the manifest contributes exactly the server's SETTING_KEYS", () => {
    expect([...settingKeys].sort()).toEqual([...SETTING_KEYS].sort());
  });

  test.each(settingKeys)('the server reads "%s" from the section', (key) => {
    const schema = properties[`${prefix}${key}`] as PropertySchema;
    const value = sampleValue(key, schema);
    expect(value).toBeDefined();
    const settings = readSettings(setPath({}, key, value));
    expect(getPath(settings, key)).toEqual(value);
    expect(settings).not.toEqual(readSettings({}));
  });

  test('every setting the server reads is contributed', () => {
    const everything = settingKeys.reduce<Record<string, unknown>>(
      (all, key) => setPath(all, key, sampleValue(key, properties[`${prefix}${key}`] as PropertySchema)),
      {},
    );
    expect(leafPaths(readSettings(everything)).sort()).toEqual([...settingKeys].sort());
    expect(leafPaths(defaultSettings).every((path) => settingKeys.includes(path))).toBe(true);
  });

  test('the manifest defaults mean what the server assumes when nothing is set', () => {
    const defaults = settingKeys.reduce<Record<string, unknown>>(
      (all, key) => setPath(all, key, properties[`${prefix}${key}`]?.default),
      {},
    );
    expect(readSettings(defaults)).toEqual(readSettings({}));
    expect(readSettings({})).toEqual(defaultSettings);
  });

  test.each(settingKeys)('"%s" has a description, a default and a scope', (key) => {
    const schema = properties[`${prefix}${key}`] as PropertySchema;
    expect(schema.description ?? schema.markdownDescription).toMatch(/\w{3,}.*\./);
    expect(schema).toHaveProperty('default');
    expect(['resource', 'window']).toContain(schema.scope);
    if (schema.enum) expect(schema.enumDescriptions).toHaveLength(schema.enum.length);
  });

  test('every enum value is accepted by the server', () => {
    for (const key of settingKeys) {
      for (const value of properties[`${prefix}${key}`]?.enum ?? []) {
        expect(getPath(readSettings(setPath({}, key, value)), key), `${key} = ${value}`).toBe(value);
      }
    }
  });

  test('trace.server is per window (vscode-languageclient reads it once), the rest per resource', () => {
    expect(properties[`${prefix}trace.server`]?.scope).toBe('window');
    const others = settingKeys.filter((key) => key !== 'trace.server');
    expect(others.map((key) => properties[`${prefix}${key}`]?.scope)).toEqual(others.map(() => 'resource'));
  });

  test('"rules" lists every rule of the plugin, each with the four levels the server accepts', () => {
    const ruleSchemas = properties[`${prefix}rules`]?.properties ?? {};
    expect(Object.keys(ruleSchemas).sort()).toEqual([...ruleIds].sort());
    for (const [id, schema] of Object.entries(ruleSchemas)) {
      expect(schema.enum, id).toEqual(['off', 'info', 'warn', 'error']);
      expect(schema.markdownDescription ?? schema.description, id).toContain(id);
      for (const level of schema.enum ?? []) expect(readSettings({ rules: { [id]: level } }).rules[id]).toBe(level);
    }
  });

  test('the engine-version pattern accepts exactly what the server passes on and the plugin accepts', () => {
    const pattern = properties[`${prefix}documentdb.engineVersion`]?.pattern;
    expect(pattern).toBeDefined();
    // VS Code checks a setting's `pattern` as a Unicode regular expression.
    const manifestAccepts = (value: string) => new RegExp(pattern!, 'u').test(value);
    // Empty means unknown (the default); anything else goes to the plugin's validator as the server read it.
    const editorAccepts = (value: string) => {
      const { engineVersion } = readSettings({ documentdb: { engineVersion: value } }).documentdb;
      return engineVersion === undefined || getEngineVersion(engineVersion) !== undefined;
    };
    const accepted = ['', ' ', '8.0.2', '5.0.0', '8.0', '4.0', '3.6.0', '10.0.0', '0.0', '9999.9999.9999', ' 8.0.2 ', '\t5.0.0\n'];
    const rejected = ['8', '08', 'latest', 'v8.0.2', '8.0.2-beta', '8.0.2.1', '8.', '.8', '8..0', '8.0.', '10000.0', '8.0.10000', '8 .0', '８.０', 'mongodb://u:p@h/'];
    for (const value of accepted) {
      expect(editorAccepts(value), JSON.stringify(value)).toBe(true);
      expect(manifestAccepts(value), JSON.stringify(value)).toBe(true);
    }
    for (const value of rejected) {
      expect(editorAccepts(value), JSON.stringify(value)).toBe(false);
      expect(manifestAccepts(value), JSON.stringify(value)).toBe(false);
    }
    fc.assert(
      fc.property(fc.stringMatching(/^[0-9. \tv-]{0,16}$/), (value) => manifestAccepts(value) === editorAccepts(value)),
      { numRuns: 2000 },
    );
  });

  test('the extension synchronises the same section', () => {
    expect(readConstant(extensionSource, 'SETTINGS_SECTION')).toBe(SETTINGS_SECTION);
  });

  test('the extension watches the config files the server looks for, and tells it about trust by the name it listens to', () => {
    expect(readConstant(extensionSource, 'CONFIG_FILE_GLOB')).toBe(CONFIG_FILE_GLOB);
    expect(readConstant(extensionSource, 'WORKSPACE_TRUST_GRANTED')).toBe(WORKSPACE_TRUST_GRANTED);
    const source = read('src/extension.ts');
    expect(source).toContain('configurationSection: SETTINGS_SECTION,');
    expect(source).toContain('fileEvents: vscode.workspace.createFileSystemWatcher(CONFIG_FILE_GLOB)');
    expect(source).toContain('workspaceTrusted: vscode.workspace.isTrusted');
  });
});

// ---------------------------------------------------------------- untrusted workspaces

/**
 * Values to try for a setting, from its schema alone: enough to show whether it changes
 * what is reported over the corpus below. A setting of a new shape needs a line here.
 */
function candidateValues(key: string, schema: PropertySchema): unknown[] {
  if (schema.enum) return schema.enum;
  switch (schema.type) {
    case 'boolean':
      return [true, false];
    case 'string':
      return ['', 'x', '8.0.2', '5.0.0'];
    case 'array':
      return [['*'], ['localhost'], ['localhost:27018'], ['*.internal.example.com']];
    case 'object': {
      // Every property at each of its values: every rule off, every rule at info, …
      const entries = Object.entries(schema.properties ?? {});
      const levels = [...new Set(entries.flatMap(([, property]) => property.enum ?? []))];
      return levels.map((level) => Object.fromEntries(entries.map(([id]) => [id, level])));
    }
    default:
      throw new Error(`no candidate values for ${key} (${schema.type}): add some to candidateValues`);
  }
}

describe('untrusted workspaces: a workspace cannot change what is reported', () => {
  const trust = manifest.capabilities.untrustedWorkspaces;
  const restricted = trust.restrictedConfigurations ?? [];

  test('support is "limited", which is when VS Code honours restrictedConfigurations, and says why', () => {
    expect(trust.supported).toBe('limited');
    expect(trust.description).toMatch(/Restricted Mode/);
    for (const key of restricted) expect(trust.description, key).toContain(key);
  });

  test('restricts contributed settings only, each once', () => {
    expect(restricted.filter((key) => !(key in properties))).toEqual([]);
    expect(new Set(restricted).size).toBe(restricted.length);
  });

  test('the README lists every restricted setting, and the one left open', () => {
    const readme = read('README.md');
    const section = readme.slice(readme.indexOf('## Untrusted workspaces'));
    expect(section).toContain('capabilities.untrustedWorkspaces.restrictedConfigurations');
    for (const key of restricted) expect(section, key).toContain(`| \`${key}\` |`);
    for (const key of settingKeys.filter((key) => !restricted.includes(`${prefix}${key}`))) expect(section, key).toContain(`\`${prefix}${key}\``);
  });

  // Over the real server: what it publishes for a corpus of documents with each setting at
  // each candidate value, against the defaults. A setting is restricted exactly when some
  // value of it changes what is reported (a finding, its range, message, severity or fix).
  describe('over the language server', () => {
    const examplesDir = fileURLToPath(new URL('../../examples/', import.meta.url));
    const codeFiles = (readdirSync(join(examplesDir, 'src'), { recursive: true }) as string[])
      .filter((file) => file.endsWith('.ts'))
      .map((file) => join(examplesDir, 'src', file));
    const corpus = [
      ...codeFiles.map((path) => ({ path, languageId: 'typescript', text: readFileSync(path, 'utf8') })),
      { path: join(examplesDir, '.env'), languageId: 'dotenv', text: readFileSync(join(examplesDir, '.env'), 'utf8') },
      {
        path: join(examplesDir, 'tunnels.env'),
        languageId: 'dotenv',
        text: [
          'TUNNEL=mongodb://app@localhost:27018/orders?tls=true',
          'TUNNEL_OFF=mongodb://app@localhost:27018/orders?tls=true&retryWrites=false',
          'INTERNAL=mongodb://app@docdb.internal.example.com:27017/orders?retryWrites=false',
          'CLUSTER=mongodb://app@orders.cluster-abc.us-east-1.docdb.amazonaws.com:27017/orders?tls=true',
          '',
        ].join('\n'),
      },
    ];
    // The documents live in a workspace folder whose Terraform states the engine version
    // (so that the setting that turns reading it off has something to change).
    const workspaceDir = mkdtempSync(join(os.tmpdir(), 'retry-safety-manifest-'));
    mkdirSync(join(workspaceDir, 'infra'));
    writeFileSync(join(workspaceDir, 'infra', 'docdb.tf'), 'resource "aws_docdb_cluster" "orders" {\n  engine_version = "8.0.2"\n}\n');
    const documents = corpus.map((document) => ({ ...document, uri: pathToFileURL(join(workspaceDir, relative(examplesDir, document.path))).href }));

    let client: LspClient;
    let baseline: string;

    /** Everything published for the corpus once the server has re-linted it with `settings`. */
    async function reportedWith(settings: Record<string, unknown>): Promise<string> {
      const next = documents.map((document) => client.waitForDiagnostics(document.uri, () => true, 60_000));
      await client.changeSettings(settings);
      return JSON.stringify((await Promise.all(next)).map(({ uri, diagnostics }) => ({ uri, diagnostics })));
    }

    beforeAll(async () => {
      client = await LspClient.start({ settings: {}, initializationOptions: { debounceMs: 0 }, workspaceFolders: [pathToFileURL(workspaceDir).href] });
      const first = documents.map((document) => client.waitForDiagnostics(document.uri, () => true, 60_000));
      for (const document of documents) await client.open(document.uri, document.languageId, document.text);
      await Promise.all(first);
      baseline = await reportedWith({});
    });

    afterAll(async () => {
      await client.stop();
      rmSync(workspaceDir, { recursive: true, force: true });
    });

    test('the corpus has findings of several rules, in code and in .env files', () => {
      const findings = JSON.parse(baseline) as { uri: string; diagnostics: { code: string }[] }[];
      expect(new Set(findings.flatMap(({ diagnostics }) => diagnostics.map(({ code }) => code))).size).toBeGreaterThan(3);
      expect(findings.filter(({ uri, diagnostics }) => uri.endsWith('.env') && diagnostics.length > 0).length).toBe(2);
    });

    test.each(settingKeys)('"%s" is restricted exactly when it changes what is reported', async (key) => {
      const schema = properties[`${prefix}${key}`] as PropertySchema;
      const changing: unknown[] = [];
      for (const value of candidateValues(key, schema)) {
        if ((await reportedWith(setPath({}, key, value))) !== baseline) changing.push(value);
      }
      const isRestricted = restricted.includes(`${prefix}${key}`);
      expect(
        { changesWhatIsReported: changing.length > 0, restricted: isRestricted },
        `${key}: values that change what is reported: ${JSON.stringify(changing)}`,
      ).toEqual({ changesWhatIsReported: isRestricted, restricted: isRestricted });
    });
  });
});

// ---------------------------------------------------------------- commands

describe('commands: manifest and extension agree', () => {
  const commandIds = readConstant(extensionSource, 'COMMANDS') as Record<string, string>;
  const declared = manifest.contributes.commands.map((command) => command.command);

  test('every declared command is registered, and every registered command is declared', () => {
    const registered = findRegisteredCommands(extensionSource, commandIds);
    expect([...registered].sort()).toEqual([...declared].sort());
    expect(Object.values(commandIds).sort()).toEqual([...declared].sort());
  });

  test('commands have titles under the "Retry Safety" category', () => {
    for (const command of manifest.contributes.commands) {
      expect(command.category, command.command).toBe('Retry Safety');
      expect(command.title, command.command).toMatch(/^[A-Z]/);
    }
    expect(manifest.contributes.commands.map((command) => `${command.category}: ${command.title}`).sort()).toEqual([
      'Retry Safety: Fix All in File',
      'Retry Safety: Restart Server',
      'Retry Safety: Show Output',
    ]);
  });

  test('"Fix All in File" sends the command the server executes', () => {
    expect(commandIds.fixAll).toBe(FIX_ALL_COMMAND);
  });

  test('the README documents the fix-on-save kind the server offers', () => {
    expect(FIX_ALL_KIND).toBe('source.fixAll.retrySafety');
    expect(read('README.md')).toContain(`"${FIX_ALL_KIND}": "explicit"`);
  });
});

// ---------------------------------------------------------------- activation and packaging

describe('activation and packaging', () => {
  test('activates on every language the client sends to the server', () => {
    const languages = LANGUAGE_IDS;
    expect(languages).toEqual(
      expect.arrayContaining(['javascript', 'javascriptreact', 'typescript', 'typescriptreact', 'dotenv', 'json', 'yaml']),
    );
    expect([...manifest.activationEvents].sort()).toEqual(languages.map((language) => `onLanguage:${language}`).sort());
  });

  test("the document selector is the plugin's file-kind table: its languages, and its file names whatever their language", () => {
    expect([...LANGUAGE_IDS].sort()).toEqual(FILE_KINDS.flatMap((kind) => kind.languageIds).sort());
    expect(FILE_NAME_PATTERNS).toEqual(FILE_KINDS.flatMap((kind) => kind.fileNames.map((name) => `**/${name}`)));
    expect(documentSelector).toEqual([
      ...LANGUAGE_IDS.flatMap((language) => [
        { scheme: 'file', language },
        { scheme: 'untitled', language },
      ]),
      ...FILE_NAME_PATTERNS.map((pattern) => ({ scheme: 'file', pattern })),
    ]);
    // What the extension has always sent to the server.
    expect([...LANGUAGE_IDS].sort()).toEqual(
      ['dotenv', 'ini', 'javascript', 'javascriptreact', 'json', 'jsonc', 'plaintext', 'properties', 'terraform', 'toml', 'typescript', 'typescriptreact', 'yaml'],
    );
    expect(FILE_NAME_PATTERNS).toEqual(['**/.env*']);
  });

  test('has what the Marketplace and vsce need', () => {
    expect(manifest.publisher).toBe('retry-safety');
    expect(manifest.displayName).toBe('Retry Safety');
    expect(manifest.description.length).toBeGreaterThan(20);
    expect(manifest.license).toBe('MIT');
    expect(manifest.repository.url).toMatch(/^https:\/\//);
    expect(manifest.categories).toEqual(['Linters']);
    expect(manifest.capabilities.untrustedWorkspaces.supported).toBe('limited');
    expect(existsSync(join(extensionDir, 'README.md'))).toBe(true);
    expect(read('LICENSE')).toMatch(/^MIT License/);
  });

  test('the icon is a 128×128 PNG', () => {
    const png = readFileSync(join(extensionDir, manifest.icon));
    expect(png.subarray(1, 4).toString('ascii')).toBe('PNG');
    expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([128, 128]);
  });

  test('main, the bundled server and .vscodeignore point at the same files', () => {
    expect(manifest.main).toBe('./dist/extension.js');
    const build = read('build.mjs');
    expect(build).toContain("outfile: here('./dist/extension.js')");
    expect(build).toContain("here('./dist/server.cjs')");
    expect(readConstant(extensionSource, 'SERVER_FILE')).toBe('dist/server.cjs');
    const shipped = read('.vscodeignore')
      .split('\n')
      .filter((line) => line.startsWith('!'))
      .map((line) => line.slice(1));
    expect(shipped).toEqual(
      expect.arrayContaining(['dist/extension.js', 'dist/server.cjs', manifest.icon, 'README.md', 'LICENSE', 'package.json']),
    );
  });

  test("the extension imports only vscode, the language client, Node built-ins and the plugin's import-free file kinds (never ESLint)", () => {
    const importsOf = (source: ts.SourceFile) =>
      source.statements.filter(ts.isImportDeclaration).map((statement) => (statement.moduleSpecifier as ts.StringLiteral).text);
    const selectorSource = ts.createSourceFile('document-selector.ts', read('src/document-selector.ts'), ts.ScriptTarget.Latest, true);
    expect(importsOf(extensionSource).filter((specifier) => !/^(vscode|vscode-languageclient\/node|node:.+|\.\/document-selector)$/.test(specifier))).toEqual([]);
    expect(importsOf(selectorSource)).toEqual(['eslint-plugin-retry-safety/file-kinds']);
    const fileKindsPath = fileURLToPath(new URL('../../eslint-plugin/src/file-kinds.ts', import.meta.url));
    const fileKindsSource = ts.createSourceFile('file-kinds.ts', readFileSync(fileKindsPath, 'utf8'), ts.ScriptTarget.Latest, true);
    expect(importsOf(fileKindsSource)).toEqual([]);
  });

  test('the bundled extension holds no ESLint: of the plugin, only its file kinds', async () => {
    const result = await build({
      entryPoints: [join(extensionDir, 'src/extension.ts')],
      absWorkingDir: extensionDir,
      bundle: true,
      platform: 'node',
      format: 'cjs',
      external: ['vscode'],
      write: false,
      metafile: true,
      logLevel: 'silent',
    });
    const inputs = Object.keys(result.metafile.inputs);
    expect(inputs.filter((input) => input.includes('eslint'))).toEqual(['../eslint-plugin/dist/file-kinds.cjs']);
  });
});
