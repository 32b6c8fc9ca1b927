// The project's own ESLint config, for trusted workspaces: a file is linted as the
// project's `eslint .` would lint it (its `settings["retry-safety"]`, rule levels and
// options, ignores, parser and parserOptions, type information included), with the
// project's installed ESLint when there is one. Only `retry-safety/*` rules run: ESLint's
// `ruleFilter` keeps every other plugin's rules from running at all. Loading a config runs
// the project's code, so the server only gets here when the client says the workspace is
// trusted (see server.ts).
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { ESLint as BundledESLint, type Linter } from 'eslint';
import { noteModuleFileChanged, RULE_PREFIX, setOpenModuleText } from 'eslint-plugin-retry-safety';
import { version as bundledEslintVersion } from 'eslint/package.json';
import { getModifiedTime } from './config-files';
import type { LintOutcome, LintTarget } from './lint';
import { JS_LINE_BREAK, TEXT_LINE_BREAK } from './positions';
import type { RuleLevel } from './settings';

/** ESLint's flat-config `ESLint` class; an older project ESLint is not used. */
const MIN_PROJECT_ESLINT_MAJOR = 9;

type ESLintClass = typeof BundledESLint;
type ESLintInstance = InstanceType<ESLintClass>;

interface LoadedConfig {
  status: 'loaded';
  configFile: string;
  /** "ESLint 10.15.0 from the project" or the bundled one, for the log. */
  origin: string;
  /** The config's `retry-safety/*` rules only. */
  eslint: ESLintInstance;
  /** The same with `fix: true`, made on the first fix-all. */
  createFixer: () => ESLintInstance;
  fixer?: ESLintInstance;
  /** The project's copy of the plugin, told the unsaved text of open documents and changes on disk like ours. */
  projectPlugin?: ProjectPlugin;
}

/** What the server tells a project's own copy of the plugin (an older copy may lack some of it). */
interface ProjectPlugin {
  setOpenModuleText?: typeof setOpenModuleText;
  noteModuleFileChanged?: typeof noteModuleFileChanged;
}

export type ProjectConfig = LoadedConfig | { status: 'broken'; configFile: string; reason: string };

interface CacheEntry {
  modifiedTime: number | undefined;
  config: Promise<ProjectConfig>;
}

const isOwnRule = ({ ruleId }: { ruleId: string }) => ruleId.startsWith(RULE_PREFIX);

function readMajor(version: unknown): number {
  const match = typeof version === 'string' ? /^(\d+)\./.exec(version) : null;
  return match ? Number(match[1]) : 0;
}

const BUNDLED = { ESLint: BundledESLint, origin: `the bundled ESLint ${bundledEslintVersion}` };

/**
 * The project's installed ESLint (resolved from the config's folder, as `npx eslint`
 * would), loaded at run time from its own path; ours when the project has none, or one
 * older than flat config.
 */
async function loadESLintClass(configFile: string): Promise<{ ESLint: ESLintClass; origin: string }> {
  const bundled = BUNDLED;
  const projectRequire = createRequire(configFile);
  let entry: string;
  let version: unknown;
  try {
    entry = projectRequire.resolve('eslint');
    version = (projectRequire('eslint/package.json') as { version?: unknown }).version;
  } catch {
    return { ...bundled, origin: `${bundled.origin} (the project has no ESLint installed)` };
  }
  if (readMajor(version) < MIN_PROJECT_ESLINT_MAJOR) {
    return { ...bundled, origin: `${bundled.origin} (the project's ESLint ${String(version)} predates flat config)` };
  }
  const api = (await import(pathToFileURL(entry).href)) as { ESLint?: ESLintClass; default?: { ESLint?: ESLintClass } };
  const ESLint = api.ESLint ?? api.default?.ESLint;
  if (typeof ESLint !== 'function') throw new Error(`${entry} does not export the ESLint class`);
  return { ESLint, origin: `ESLint ${String(version)} from the project (${path.dirname(path.dirname(entry))})` };
}

/** The project's `eslint-plugin-retry-safety`, when it is another copy than the server's own. */
function findProjectPlugin(configFile: string): ProjectPlugin | undefined {
  try {
    const projectPlugin = createRequire(configFile)('eslint-plugin-retry-safety') as Record<string, unknown>;
    if (projectPlugin.setOpenModuleText === setOpenModuleText) return undefined;
    const found: ProjectPlugin = {};
    if (typeof projectPlugin.setOpenModuleText === 'function') found.setOpenModuleText = projectPlugin.setOpenModuleText as typeof setOpenModuleText;
    if (typeof projectPlugin.noteModuleFileChanged === 'function') found.noteModuleFileChanged = projectPlugin.noteModuleFileChanged as typeof noteModuleFileChanged;
    return found;
  } catch {
    return undefined;
  }
}

async function loadConfig(configFile: string): Promise<ProjectConfig> {
  try {
    let { ESLint, origin } = await loadESLintClass(configFile);
    const cwd = path.dirname(configFile);
    // cwd is the config's folder: ESLint 9 looks for the config there, ESLint 10 from the
    // linted file upwards; both find `configFile` first.
    const options = { cwd, ruleFilter: isOwnRule, warnIgnored: false, errorOnUnmatchedPattern: false };
    let eslint: ESLintInstance;
    try {
      eslint = new ESLint(options);
    } catch (error) {
      // An early ESLint 9 without `ruleFilter`: ours runs the project's config instead.
      if (ESLint === BUNDLED.ESLint || !/ruleFilter/.test(String(error))) throw error;
      ({ ESLint, origin } = { ESLint: BUNDLED.ESLint, origin: `${BUNDLED.origin} (the project's ESLint has no ruleFilter option)` });
      eslint = new ESLint(options);
    }
    // Load the config now, so that one that throws or names a missing plugin is found once, here.
    await eslint.calculateConfigForFile(path.join(cwd, '__retry-safety__.js'));
    const loaded: LoadedConfig = {
      status: 'loaded',
      configFile,
      origin,
      eslint,
      createFixer: () => new ESLint({ ...options, fix: true }),
    };
    const projectPlugin = findProjectPlugin(configFile);
    if (projectPlugin) loaded.projectPlugin = projectPlugin;
    return loaded;
  } catch (error) {
    return { status: 'broken', configFile, reason: describeLoadError(error) };
  }
}

/** One line saying why a config did not load (the first line of the error, without the stack). */
function describeLoadError(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return (message.split('\n').find((line) => line.trim() !== '') ?? 'unknown error').trim();
}

function toLevel(severity: Linter.Severity): RuleLevel {
  return severity === 2 ? 'error' : 'warn';
}

/** Loaded configs by file, reloaded when the file's modification time changes. */
export class ProjectConfigs {
  readonly #entries = new Map<string, CacheEntry>();

  get(configFile: string): Promise<ProjectConfig> {
    const modifiedTime = getModifiedTime(configFile);
    const cached = this.#entries.get(configFile);
    if (cached && cached.modifiedTime === modifiedTime) return cached.config;
    const config = loadConfig(configFile);
    this.#entries.set(configFile, { modifiedTime, config });
    return config;
  }

  /** Forgets every loaded config (a config file was created, changed or deleted). */
  clear(): void {
    this.#entries.clear();
  }

  /** Tells the projects' own copies of the plugin an open document's unsaved text (undefined: closed). */
  setOpenModuleText(filePath: string, text: string | undefined): Promise<void> {
    return this.#tellProjectPlugins((plugin) => plugin.setOpenModuleText?.(filePath, text));
  }

  /** Tells the projects' own copies of the plugin that a file changed on disk. */
  noteModuleFileChanged(filePath: string, change: 'created' | 'changed' | 'deleted'): Promise<void> {
    return this.#tellProjectPlugins((plugin) => plugin.noteModuleFileChanged?.(filePath, change));
  }

  async #tellProjectPlugins(tell: (plugin: ProjectPlugin) => void): Promise<void> {
    for (const entry of this.#entries.values()) {
      const config = await entry.config;
      if (config.status === 'loaded' && config.projectPlugin) tell(config.projectPlugin);
    }
  }
}

/** Strips a BOM: ESLint's locations leave it out, and the diagnostics add it back. */
function splitBom(text: string): { bomLength: number; source: string } {
  const bomLength = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  return { bomLength, source: bomLength ? text.slice(bomLength) : text };
}

/** Lints one document's (unsaved) text at its real path with a project's config. Throws what ESLint throws. */
export async function lintWithProjectConfig(config: LoadedConfig, text: string, filePath: string, target: LintTarget): Promise<LintOutcome> {
  if (await config.eslint.isPathIgnored(filePath)) {
    return { status: 'skipped', reason: `not linted by ${config.configFile} (ignored there, or no entry of it matches the file)` };
  }
  const { bomLength, source } = splitBom(text);
  const [result] = await config.eslint.lintText(source, { filePath, warnIgnored: false });
  const messages = result?.messages ?? [];
  const fatal = messages.find((message) => message.fatal);
  if (fatal) return { status: 'parse-error', message: `${fatal.message} (${fatal.line}:${fatal.column})` };
  const own = messages.filter((message) => message.ruleId?.startsWith(RULE_PREFIX));
  return {
    status: 'linted',
    messages: own,
    levels: new Map(own.map((message) => [message.ruleId ?? '', toLevel(message.severity)])),
    lineBreak: target.kind === 'code' ? JS_LINE_BREAK : TEXT_LINE_BREAK,
    bomLength,
  };
}

/** The text after every `retry-safety/*` autofix the project's config allows; undefined when nothing changes. */
export async function fixWithProjectConfig(config: LoadedConfig, text: string, filePath: string): Promise<string | undefined> {
  if (await config.eslint.isPathIgnored(filePath)) return undefined;
  config.fixer ??= config.createFixer();
  const { bomLength, source } = splitBom(text);
  const [result] = await config.fixer.lintText(source, { filePath, warnIgnored: false });
  return result?.output === undefined ? undefined : text.slice(0, bomLength) + result.output;
}
