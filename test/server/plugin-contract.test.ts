// The server speaks to the plugin through what the plugin exports, never through copies:
// no string in server/src spells one of the plugin's names or file kinds, the names the
// server uses are the plugin's, the file-kind table decides code or text and the comment
// of "Disable … for this line", and the plugin names the settings the editor's way.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import ts from 'typescript';
import { describe, expect, it, vi } from 'vitest';
import plugin, {
  CONFIG_NAMES,
  CONNECTION_STRING_RULE_ID,
  CONNECTION_STRINGS_PRESET_NAME,
  FILE_KINDS,
  PLUGIN_NAMESPACE,
  RULE_PREFIX,
  SETTINGS_KEY,
  SETTINGS_NAME_KEY,
  TEXT_LANGUAGE_ID,
  getFileExtension,
} from 'eslint-plugin-retry-safety';
import * as constants from 'eslint-plugin-retry-safety/constants';
import { getCommentOpener } from '../../server/src/code-actions';
import { DIAGNOSTIC_SOURCE } from '../../server/src/diagnostics';
import { DocumentLinter, getLintTarget } from '../../server/src/lint';
import { createLogger } from '../../server/src/log';
import { SETTINGS_SECTION, defaultSettings, readSettings, toEslintSettings } from '../../server/src/settings';

// Vitest runs the workspace package's CommonJS bundle itself and hands a default import its
// exports object; Node and esbuild (which bundles the server) hand over `module.exports`,
// the plugin, whose properties are the named exports. So does this mock.
vi.mock('eslint-plugin-retry-safety', async () => {
  const { createRequire } = await import('node:module');
  const bundle = createRequire(import.meta.url)('eslint-plugin-retry-safety') as Record<string, unknown>;
  return { ...Object.fromEntries(Object.getOwnPropertyNames(bundle).map((name) => [name, bundle[name]])), default: bundle };
});

const serverSrc = path.join(import.meta.dirname, '..', '..', 'server', 'src');

/** Every string (literal, template text, regular expression) written in server/src. */
function findServerStrings(): { file: string; text: string }[] {
  const found: { file: string; text: string }[] = [];
  const files = readdirSync(serverSrc, { recursive: true, encoding: 'utf8' }).filter((file) => file.endsWith('.ts'));
  for (const file of files) {
    const source = ts.createSourceFile(file, readFileSync(path.join(serverSrc, file), 'utf8'), ts.ScriptTarget.Latest, true);
    const visit = (node: ts.Node): void => {
      if (ts.isStringLiteralLike(node) || ts.isTemplateLiteralToken(node) || ts.isRegularExpressionLiteral(node)) {
        // Module specifiers name the package, which is the point.
        if (!ts.isImportDeclaration(node.parent) && !ts.isExportDeclaration(node.parent)) found.push({ file, text: node.text });
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return found;
}

describe('the server uses the names the plugin exports', () => {
  it('writes none of them itself: no rule id, namespace, language, preset, settings key or file kind', () => {
    const names = new Set<string>([
      PLUGIN_NAMESPACE,
      TEXT_LANGUAGE_ID,
      CONNECTION_STRING_RULE_ID,
      CONNECTION_STRINGS_PRESET_NAME,
      SETTINGS_NAME_KEY,
      ...FILE_KINDS.flatMap((kind) => [...kind.extensions, ...kind.fileNames]),
    ]);
    const copies = findServerStrings().filter(
      ({ text }) => names.has(text) || text.includes(RULE_PREFIX) || /\*\*\/\*?\./.test(text),
    );
    expect(copies).toEqual([]);
  });

  it('reads them from the package: its entry and its import-free /constants agree', () => {
    // (`default`: how Vitest presents a CommonJS module's exports object.)
    for (const [name, value] of Object.entries(constants).filter(([name]) => name !== 'default')) {
      expect((plugin as unknown as Record<string, unknown>)[name], name).toEqual(value);
    }
    expect(DIAGNOSTIC_SOURCE).toBe(PLUGIN_NAMESPACE);
    expect(plugin.meta?.namespace).toBe(PLUGIN_NAMESPACE);
    expect(Object.keys(plugin.configs).sort()).toEqual([...CONFIG_NAMES].sort());
    expect(plugin.configs[CONNECTION_STRINGS_PRESET_NAME].language).toBe(TEXT_LANGUAGE_ID);
    expect(plugin.rules?.[CONNECTION_STRING_RULE_ID]).toBeDefined();
  });

  it('builds the settings the plugin reads, under the plugin’s key, and says how the editor names them', () => {
    const eslintSettings = toEslintSettings(readSettings({ documentdb: { engineVersion: '8.0.2' } }));
    expect(Object.keys(eslintSettings).sort()).toEqual([SETTINGS_KEY, SETTINGS_NAME_KEY].sort());
    expect(eslintSettings[SETTINGS_NAME_KEY]).toBe(SETTINGS_SECTION);
  });
});

describe('the file-kind table decides how the server lints a document', () => {
  /** A base name of each kind: `file.yaml` for an extension, `.env.local` for `.env*`. */
  const namesOf = (kind: (typeof FILE_KINDS)[number]) => [
    ...kind.extensions.map((extension) => `file${extension}`),
    ...kind.fileNames.map((pattern) => pattern.replace('*', '.local')),
  ];

  it.each(FILE_KINDS.map((kind) => [kind.name, kind] as const))('%s: code or text, and the comment of a disable directive', (_name, kind) => {
    for (const name of namesOf(kind)) {
      const target = getLintTarget(`file:///project/${name}`, 'plaintext');
      expect(target.kind, name).toBe(kind.syntax);
      expect(getCommentOpener(target), name).toBe(kind.lineComments[0]);
    }
  });

  it('writes the disable comment as it always did', () => {
    const opener = (uri: string, languageId = 'plaintext') => getCommentOpener(getLintTarget(uri, languageId));
    const hash = ['.env', '.env.local', '.env.production', 'prod.env', 'A.YAML', 'x.yml', 'app.properties', 'x.toml', 'x.ini', 'main.tf', 'x.tfvars', 'x.sh', 'x.conf', 'x.cfg', '.env.json'];
    for (const name of hash) expect(opener(`file:///p/${name}`), name).toBe('#');
    for (const name of ['x.json', 'x.jsonc', 'notes.txt', 'README', 'x.md']) expect(opener(`file:///p/${name}`), name).toBeUndefined();
    for (const name of ['a.js', 'a.jsx', 'a.mjs', 'a.cjs', 'a.ts', 'a.tsx', 'a.mts', 'a.cts', '.env.ts']) expect(opener(`file:///p/${name}`), name).toBe('//');
    expect(opener('untitled:Untitled-1', 'typescriptreact')).toBe('//');
  });

  it('reads extensions as Node does', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[a-z.]{0,8}$/), (name) => getFileExtension(name) === path.extname(name)),
      { numRuns: 2000 },
    );
  });
});

describe('settings the editor sent, validated by the plugin and named the editor’s way', () => {
  const DOCDB = 'orders.cluster-abc.us-east-1.docdb.amazonaws.com:27017';
  const env = `MONGODB_URI=mongodb://app:pw@${DOCDB}/?tls=true&retryWrites=false\n`;
  const lines: string[] = [];
  const linter = new DocumentLinter(createLogger({ error: (line) => lines.push(line), warn: () => {}, info: () => {}, log: () => {} }, () => false));

  function messages(raw: unknown): string[] {
    const outcome = linter.lint(env, getLintTarget('file:///project/.env', 'dotenv'), readSettings(raw));
    expect(outcome.status).toBe('linted');
    return outcome.status === 'linted' ? outcome.messages.map((message) => message.message) : [];
  }

  it('passes the engine version on as sent; empty means unknown', () => {
    expect(readSettings({ documentdb: { engineVersion: '8' } }).documentdb.engineVersion).toBe('8');
    expect(readSettings({ documentdb: { engineVersion: 8 } }).documentdb.engineVersion).toBe(8);
    for (const empty of ['', '  ', null, undefined]) {
      expect(readSettings({ documentdb: { engineVersion: empty } }).documentdb).toEqual(defaultSettings.documentdb);
    }
  });

  it('reports an invalid engine version as retrySafety.documentdb.engineVersion', () => {
    const [invalid, unknownVersion, ...rest] = messages({ documentdb: { engineVersion: '8' } });
    expect(rest).toEqual([]);
    expect(invalid).toBe(
      'retrySafety.documentdb.engineVersion is a string of 1 character; expected a version such as "8.0.2" or "5.0". Fix it: until then the rule ignores it.',
    );
    expect(unknownVersion).toContain('Set retrySafety.documentdb.engineVersion (for example "8.0.2")');
    // Not a string: also the plugin's to reject.
    expect(messages({ documentdb: { engineVersion: 8 } })[0]).toContain('retrySafety.documentdb.engineVersion is a number;');
  });

  it('names documentdb.hosts the editor’s way too', () => {
    const text = 'MONGODB_URI=mongodb://app:pw@localhost:27017/?retryWrites=false\n';
    const outcome = linter.lint(text, getLintTarget('file:///project/.env', 'dotenv'), readSettings({ documentdb: { engineVersion: '5.0.0' } }));
    expect(outcome.status === 'linted' && outcome.messages.map((message) => message.message)).toEqual([
      expect.stringContaining('list localhost in retrySafety.documentdb.hosts.'),
    ]);
  });

  it('never shows the password of a connection string pasted as the engine version', () => {
    const [invalid] = messages({ documentdb: { engineVersion: 'mongodb://admin:hunter2@db.example.com:27017/?tls=true' } });
    expect(invalid).toContain('retrySafety.documentdb.engineVersion is a string of 54 characters;');
    expect(invalid).not.toContain('hunter2');
    const [bare] = messages({ documentdb: { engineVersion: 'admin:hunter2@db.example.com' } });
    expect(bare).toContain(' is a string of 28 characters;');
    expect(bare).not.toContain('hunter2');
    expect(lines).toEqual([]);
  });
});
