// Runs ESLint's `Linter` in-process with the plugin: code through `@typescript-eslint/parser`,
// everything else through the plugin's text language (the connection-string rule). Nothing
// is loaded from the workspace: the config is built here, from the settings only.
import path from 'node:path';
import * as tsParser from '@typescript-eslint/parser';
import type { Linter as LinterTypes } from 'eslint';
import { Linter } from 'eslint/universal';
import {
  CONNECTION_STRINGS_PRESET_NAME,
  FILE_KINDS,
  INFRA_ROOT_KEY,
  PLUGIN_NAMESPACE,
  RULE_PREFIX,
  SOURCE_PATH_KEY,
  TEXT_LANGUAGE_ID,
  findCodeKindByLanguageId,
  findFileKind,
  isTestFilePath,
} from 'eslint-plugin-retry-safety';
import { getFilePath } from './file-paths';
import { describeError, type Logger } from './log';
import { getPresetRules, getTestFileRules, plugin } from './plugin';
import { JS_LINE_BREAK, TEXT_LINE_BREAK } from './positions';
import { toEslintSettings, type RuleLevel, type Settings } from './settings';

/** Documents above this many characters are not linted (one log line instead). */
export const MAX_TEXT_LENGTH = 2 * 1024 * 1024;

/** Every code file extension of the plugin's file-kind table. */
const CODE_EXTENSIONS = FILE_KINDS.filter((kind) => kind.syntax === 'code').flatMap((kind) => kind.extensions);

// Files are linted under a fixed virtual folder, by base name: patterns then match
// whatever the real path is (outside any cwd, inside node_modules, untitled buffers).
// Text goes under `text/`, matched by `text/?*`: a pattern ending in `/*` or `/**`
// would be "universal" for ESLint and not count as a match on its own.
const VIRTUAL_ROOT = path.resolve('/retry-safety');
const TEXT_FOLDER = 'text';

function getVirtualPath(target: LintTarget): string {
  return target.kind === 'code' ? path.join(VIRTUAL_ROOT, target.filename) : path.join(VIRTUAL_ROOT, TEXT_FOLDER, target.filename);
}

export interface LintTarget {
  kind: 'code' | 'text';
  /** The name ESLint sees: the document's base name (plus an extension for untitled code). */
  filename: string;
  /** The document's path on disk (`file:` documents): the plugin's module index reads its relative imports from there. */
  sourcePath?: string;
  /**
   * The workspace folder whose infrastructure code may state the DocumentDB engine version
   * (set by the server); none for a document outside every folder.
   */
  infraRoot?: string;
  /**
   * A test file by the `recommended` preset's patterns (code only): the rules that preset
   * keeps quiet in tests are off unless the settings set their level.
   */
  testFile?: boolean;
}

export type LintOutcome =
  | {
      status: 'linted';
      /** Messages of this plugin's rules only, located in the text without its BOM. */
      messages: LinterTypes.LintMessage[];
      /** Level of each enabled rule, by full id (`retry-safety/<id>`). */
      levels: ReadonlyMap<string, RuleLevel>;
      lineBreak: RegExp;
      /** 1 when the text starts with a BOM: ESLint's offsets and columns leave it out. */
      bomLength: number;
    }
  | { status: 'parse-error'; message: string }
  | { status: 'skipped'; reason: string };

interface LintSetup {
  config: LinterTypes.Config[];
  levels: ReadonlyMap<string, RuleLevel>;
}

/** The last path segment of a document URI, decoded; never throws on a malformed URI. */
function getBaseName(uri: string): string {
  // `untitled:Untitled-1` has no path: drop the scheme.
  const withoutQuery = uri.replace(/[?#].*$/s, '').replace(/^[a-z][a-z0-9+.-]*:(?!\/)/i, '');
  const segment = withoutQuery.slice(withoutQuery.lastIndexOf('/') + 1);
  let decoded = segment;
  try {
    decoded = decodeURIComponent(segment);
  } catch {
    // A malformed escape: keep the raw segment.
  }
  const cleaned = decoded.replace(/[\\/\0:]/g, '_');
  return cleaned === '' || cleaned === '.' || cleaned === '..' ? 'untitled' : cleaned;
}

/**
 * How a document is linted, from its URI's extension and, failing that, its language id (the
 * plugin's file kinds). `workspaceFolders` (paths on disk) decide what a test file is: its
 * path is matched relative to the innermost folder that holds it, as ESLint matches `files`
 * relative to the config's folder; outside every folder, the whole path is matched.
 */
export function getLintTarget(uri: string, languageId: string, workspaceFolders: readonly string[] = []): LintTarget {
  const baseName = getBaseName(uri);
  const sourcePath = getFilePath(uri);
  const withPath = sourcePath ? { sourcePath } : {};
  let filename: string | undefined;
  if (findFileKind(baseName)?.syntax === 'code') filename = baseName;
  else {
    const extension = findCodeKindByLanguageId(languageId)?.extensions[0];
    if (extension) filename = `${baseName}${extension}`;
  }
  if (filename === undefined) return { kind: 'text', filename: baseName };
  const testFile = isTestFilePath(getWorkspaceRelativePath(sourcePath, workspaceFolders) ?? filename);
  return { kind: 'code', filename, ...withPath, ...(testFile ? { testFile } : {}) };
}

/** `file` relative to the innermost workspace folder holding it, else the whole path; undefined without a path. */
function getWorkspaceRelativePath(file: string | undefined, workspaceFolders: readonly string[]): string | undefined {
  if (file === undefined) return undefined;
  const inside = workspaceFolders
    .map((folder) => path.relative(folder, file))
    .filter((relative) => relative !== '' && !relative.startsWith('..') && !path.isAbsolute(relative))
    .sort((a, b) => a.length - b.length);
  return inside[0] ?? file;
}


function toEslintSeverity(level: RuleLevel): LinterTypes.Severity {
  if (level === 'off') return 0;
  return level === 'error' ? 2 : 1;
}

function toRuleLevel(entry: LinterTypes.RuleEntry | undefined): RuleLevel {
  const severity = Array.isArray(entry) ? entry[0] : entry;
  if (severity === 'error' || severity === 2) return 'error';
  if (severity === 'warn' || severity === 1) return 'warn';
  return 'off';
}

/** Preset levels with the user's per-rule levels on top; `allowed` limits which rules may run. */
function resolveRules(preset: LinterTypes.RulesRecord, overrides: Record<string, RuleLevel>, allowed: (id: string) => boolean) {
  const levels = new Map<string, RuleLevel>();
  const rules: LinterTypes.RulesRecord = {};
  const ids = new Set([...Object.keys(preset), ...Object.keys(overrides).map((id) => RULE_PREFIX + id)]);
  for (const fullId of ids) {
    const id = fullId.slice(RULE_PREFIX.length);
    if (!fullId.startsWith(RULE_PREFIX) || !plugin.rules?.[id] || !allowed(id)) continue;
    const level = overrides[id] ?? toRuleLevel(preset[fullId]);
    if (level === 'off') continue;
    const entry = preset[fullId];
    rules[fullId] = Array.isArray(entry) ? [toEslintSeverity(level), ...entry.slice(1)] : toEslintSeverity(level);
    levels.set(fullId, level);
  }
  return { rules, levels };
}

/** The `recommended` preset for a code file; in a test file, with the preset's test-file levels on top. */
function buildCodeSetup(settings: Settings, testFile: boolean): LintSetup {
  const preset = testFile ? { ...getPresetRules('recommended'), ...getTestFileRules() } : getPresetRules('recommended');
  const { rules, levels } = resolveRules(preset, settings.rules, () => true);
  const config: LinterTypes.Config = {
    files: CODE_EXTENSIONS.map((extension) => `**/*${extension}`),
    plugins: { [PLUGIN_NAMESPACE]: plugin },
    languageOptions: {
      parser: tsParser as LinterTypes.Parser,
      ecmaVersion: 'latest',
      sourceType: 'module',
      // typescript-estree decides JSX by extension for .ts/.tsx; this covers JSX in .js.
      parserOptions: { ecmaFeatures: { jsx: true } },
    },
    // Directives for other tools' rules are not ours to judge.
    linterOptions: { reportUnusedDisableDirectives: 'off' },
    settings: toEslintSettings(settings),
    rules,
  };
  return { config: [config], levels };
}

function buildTextSetup(settings: Settings): LintSetup {
  const preset = getPresetRules(CONNECTION_STRINGS_PRESET_NAME);
  const textRules = new Set(Object.keys(preset).map((fullId) => fullId.slice(RULE_PREFIX.length)));
  const { rules, levels } = resolveRules(preset, settings.rules, (id) => textRules.has(id));
  const config: LinterTypes.Config = {
    files: [`${TEXT_FOLDER}/?*`],
    plugins: { [PLUGIN_NAMESPACE]: plugin },
    language: TEXT_LANGUAGE_ID,
    linterOptions: { reportUnusedDisableDirectives: 'off' },
    settings: toEslintSettings(settings),
    rules,
  };
  return { config: [config], levels };
}

/** Error → id of the rule that threw, when ESLint says so. */
function getThrowingRule(error: unknown): string | undefined {
  const ruleId = (error as { ruleId?: unknown } | undefined)?.ruleId;
  if (typeof ruleId === 'string') return ruleId;
  const message = error instanceof Error ? error.message : '';
  return /Error while loading rule '([^']+)'/.exec(message)?.[1];
}

/**
 * The config with what the plugin needs to know of the document's place on disk, in the
 * shared settings: its real path (the module index) and its workspace folder (where the
 * engine version may be stated; none, rather than the linter's virtual folder).
 */
function withDocumentPlace(config: LinterTypes.Config[], target: LintTarget): LinterTypes.Config[] {
  const place = { ...(target.sourcePath ? { [SOURCE_PATH_KEY]: target.sourcePath } : {}), [INFRA_ROOT_KEY]: target.infraRoot ?? null };
  return config.map((object) => ({ ...object, settings: { ...object.settings, ...place } }));
}

/** The same config with only the rules `keep` accepts left on. */
function withRules(config: LinterTypes.Config[], keep: (ruleId: string) => boolean): LinterTypes.Config[] {
  return config.map((object) => ({
    ...object,
    rules: Object.fromEntries(Object.entries(object.rules ?? {}).map(([ruleId, entry]) => [ruleId, keep(ruleId) ? entry : 'off'])),
  }));
}

export class DocumentLinter {
  readonly #linter = new Linter({ cwd: VIRTUAL_ROOT });
  readonly #setups = new Map<string, { code: LintSetup; testCode: LintSetup; text: LintSetup }>();
  readonly #reportedFailures = new Set<string>();

  constructor(private readonly log: Logger) {}

  /** Lints one document's text; never throws. */
  lint(text: string, target: LintTarget, settings: Settings): LintOutcome {
    const skipped = this.#getSkipReason(text);
    if (skipped) return { status: 'skipped', reason: skipped };
    const setup = this.#getSetup(target, settings);
    const bomLength = text.charCodeAt(0) === 0xfeff ? 1 : 0;
    const source = bomLength ? text.slice(bomLength) : text;
    try {
      const messages = this.#runIsolated(target, setup, (config) =>
        this.#linter.verify(source, withDocumentPlace(config, target), { filename: getVirtualPath(target) }),
      );
      const fatal = messages.find((message) => message.fatal);
      if (fatal) return { status: 'parse-error', message: `${fatal.message} (${fatal.line}:${fatal.column})` };
      return {
        status: 'linted',
        messages: messages.filter((message) => message.ruleId?.startsWith(RULE_PREFIX)),
        levels: setup.levels,
        lineBreak: target.kind === 'code' ? JS_LINE_BREAK : TEXT_LINE_BREAK,
        bomLength,
      };
    } catch (error) {
      this.log.error(`Linting ${target.filename} failed: ${describeError(error)}`);
      return { status: 'skipped', reason: 'the linter failed' };
    }
  }

  /**
   * The text after every autofix (never a suggestion), as `eslint --fix` would write it;
   * undefined when nothing changes or the text cannot be linted.
   */
  fix(text: string, target: LintTarget, settings: Settings): string | undefined {
    if (this.#getSkipReason(text)) return undefined;
    const setup = this.#getSetup(target, settings);
    const bomLength = text.charCodeAt(0) === 0xfeff ? 1 : 0;
    const source = bomLength ? text.slice(bomLength) : text;
    try {
      const report = this.#runIsolated(target, setup, (config) =>
        this.#linter.verifyAndFix(source, withDocumentPlace(config, target), { filename: getVirtualPath(target), fix: true }),
      );
      return report.fixed ? text.slice(0, bomLength) + report.output : undefined;
    } catch (error) {
      this.log.error(`Fixing ${target.filename} failed: ${describeError(error)}`);
      return undefined;
    }
  }

  #getSkipReason(text: string): string | undefined {
    if (text.length > MAX_TEXT_LENGTH) return `larger than ${MAX_TEXT_LENGTH} characters`;
    if (text.includes('\0')) return 'binary content';
    return undefined;
  }

  #getSetup(target: LintTarget, settings: Settings): LintSetup {
    const key = JSON.stringify([settings.documentdb, settings.rules]);
    let setups = this.#setups.get(key);
    if (!setups) {
      // Settings rarely take more than a few shapes; a small bound keeps this from growing.
      if (this.#setups.size >= 16) this.#setups.clear();
      setups = { code: buildCodeSetup(settings, false), testCode: buildCodeSetup(settings, true), text: buildTextSetup(settings) };
      this.#setups.set(key, setups);
    }
    if (target.kind === 'text') return setups.text;
    return target.testFile ? setups.testCode : setups.code;
  }

  /**
   * Runs the linter; when a rule throws, runs again without that rule, so one broken rule
   * costs its own findings only. A rule ESLint does not name is found by running each alone.
   */
  #runIsolated<T>(target: LintTarget, setup: LintSetup, run: (config: LinterTypes.Config[]) => T): T {
    const failed = new Set<string>();
    for (;;) {
      try {
        return run(failed.size ? withRules(setup.config, (ruleId) => !failed.has(ruleId)) : setup.config);
      } catch (error) {
        const remaining = [...setup.levels.keys()].filter((ruleId) => !failed.has(ruleId));
        const named = getThrowingRule(error);
        const ruleId =
          named && remaining.includes(named)
            ? named
            : remaining.find((candidate) => {
                try {
                  run(withRules(setup.config, (ruleId) => ruleId === candidate));
                  return false;
                } catch {
                  return true;
                }
              });
        if (!ruleId) throw error;
        failed.add(ruleId);
        this.#reportRuleFailure(ruleId, target, error);
      }
    }
  }

  #reportRuleFailure(ruleId: string, target: LintTarget, error: unknown): void {
    const key = `${ruleId}\0${target.filename}`;
    if (this.#reportedFailures.has(key)) return;
    if (this.#reportedFailures.size > 1000) this.#reportedFailures.clear();
    this.#reportedFailures.add(key);
    this.log.error(`Rule ${ruleId} threw on ${target.filename}; its findings are left out: ${describeError(error)}`);
  }
}
