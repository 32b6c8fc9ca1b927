// The `retrySafety.*` settings: what a client may send, and what the server makes of it.
// Everything arriving from a client is untrusted shape-wise, so `readSettings` accepts
// anything and keeps only well-formed values. The DocumentDB engine version is the
// plugin's to validate: it is passed on as the client sent it, and an invalid one is
// reported by the plugin under its editor name, `retrySafety.documentdb.engineVersion`.
// Loaded before the engine: the plugin's names come from its import-free `/constants`.
import { fileURLToPath } from 'node:url';
import { RULE_PREFIX, SETTINGS_KEY, SETTINGS_NAME_KEY } from 'eslint-plugin-retry-safety/constants';

export type RuleLevel = 'off' | 'info' | 'warn' | 'error';
export type TraceLevel = 'off' | 'messages' | 'verbose';

export interface Settings {
  /** Lint at all. `false` clears the diagnostics of every open document. */
  enable: boolean;
  documentdb: {
    /**
     * Amazon DocumentDB engine version, e.g. "8.0.2"; decides what the connection-string
     * rule wants. As sent (strings trimmed); the plugin validates it.
     */
    engineVersion?: unknown;
    /** Host patterns that are DocumentDB although they do not look like it (SSH tunnels, custom DNS). */
    hosts: string[];
    /** Without an engine version, read it from the workspace folder's infrastructure code. */
    findEngineVersion: boolean;
  };
  /** Per-rule level, by rule id without the `retry-safety/` prefix; unset rules keep the preset's level. */
  rules: Record<string, RuleLevel>;
  /**
   * In a trusted workspace, lint with the project's own `eslint.config.*` (its settings,
   * rule levels, ignores and parser) when there is one; false: the settings above only.
   */
  useProjectConfig: boolean;
  trace: { server: TraceLevel };
}

export const SETTINGS_SECTION = 'retrySafety';

/** The notification a client sends when the user trusts the workspace (initialization said it was not). */
export const WORKSPACE_TRUST_GRANTED = 'retrySafety/workspaceTrustGranted';

/** Every setting the server reads, as dotted keys under `retrySafety` (checked against the extension manifest). */
export const SETTING_KEYS = ['enable', 'documentdb.engineVersion', 'documentdb.findEngineVersion', 'documentdb.hosts', 'rules', 'useProjectConfig', 'trace.server'] as const;

export const defaultSettings: Settings = {
  enable: true,
  documentdb: { hosts: [], findEngineVersion: true },
  rules: {},
  useProjectConfig: true,
  trace: { server: 'off' },
};

const RULE_LEVELS: readonly string[] = ['off', 'info', 'warn', 'error'];
const TRACE_LEVELS: readonly string[] = ['off', 'messages', 'verbose'];

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Whether a client sent a value at all: editors send `""` or `null` for a setting left empty. */
function isSet(value: unknown): boolean {
  return value !== undefined && value !== null && !(typeof value === 'string' && value.trim() === '');
}

/**
 * Reads one settings object. Accepts both nested (`{ documentdb: { engineVersion } }`) and
 * dotted keys (`{ "documentdb.engineVersion": … }`), as editors other than VS Code often
 * send the latter.
 */
export function readSettings(raw: unknown): Settings {
  const input = isRecord(raw) ? raw : {};
  const documentdb = isRecord(input.documentdb) ? input.documentdb : {};
  const trace = isRecord(input.trace) ? input.trace : {};

  const engineVersion = documentdb.engineVersion ?? input['documentdb.engineVersion'];
  const hosts = documentdb.hosts ?? input['documentdb.hosts'];
  const findEngineVersion = documentdb.findEngineVersion ?? input['documentdb.findEngineVersion'];
  const traceServer = trace.server ?? input['trace.server'];

  const rules: Record<string, RuleLevel> = {};
  if (isRecord(input.rules)) {
    for (const [id, level] of Object.entries(input.rules)) {
      if (typeof level === 'string' && RULE_LEVELS.includes(level)) {
        rules[id.startsWith(RULE_PREFIX) ? id.slice(RULE_PREFIX.length) : id] = level as RuleLevel;
      }
    }
  }

  return {
    enable: typeof input.enable === 'boolean' ? input.enable : defaultSettings.enable,
    documentdb: {
      ...(isSet(engineVersion) ? { engineVersion: typeof engineVersion === 'string' ? engineVersion.trim() : engineVersion } : {}),
      hosts: Array.isArray(hosts) ? hosts.filter((host): host is string => typeof host === 'string' && host !== '') : [],
      findEngineVersion: typeof findEngineVersion === 'boolean' ? findEngineVersion : defaultSettings.documentdb.findEngineVersion,
    },
    rules,
    useProjectConfig: typeof input.useProjectConfig === 'boolean' ? input.useProjectConfig : defaultSettings.useProjectConfig,
    trace: {
      server: typeof traceServer === 'string' && TRACE_LEVELS.includes(traceServer) ? (traceServer as TraceLevel) : 'off',
    },
  };
}

/**
 * `initializationOptions` may hold the settings directly or under `retrySafety`
 * (the shape of a VS Code `settings.json`); either is accepted.
 */
export function readInitializationSettings(options: unknown): Settings {
  if (isRecord(options) && isRecord(options[SETTINGS_SECTION])) return readSettings(options[SETTINGS_SECTION]);
  return readSettings(options);
}

/**
 * Whether the client says the workspace is trusted (`initializationOptions.workspaceTrusted`,
 * sent by the VS Code extension). Only then may the server load the project's ESLint config,
 * which runs the project's code; a client that says nothing gets the settings only.
 */
export function readWorkspaceTrusted(options: unknown): boolean {
  return isRecord(options) && options.workspaceTrusted === true;
}

/** Whether the client watches `eslint.config.*` itself (the extension does), so the server need not ask it to. */
export function readConfigFilesWatched(options: unknown): boolean {
  return isRecord(options) && options.configFilesWatched === true;
}

/** Server tuning that is not a user setting: the lint debounce (the benchmark sets 0). */
export function readDebounceMs(options: unknown, fallback: number): number {
  const value = isRecord(options) ? options.debounceMs : undefined;
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : fallback;
}

/**
 * The ESLint shared settings the plugin's rules read (`settings["retry-safety"]`), and the
 * name the user wrote them under, for the plugin's messages (`retrySafety.documentdb…`).
 */
export function toEslintSettings(settings: Settings): Record<string, unknown> {
  return {
    [SETTINGS_KEY]: {
      documentdb: {
        ...(settings.documentdb.engineVersion !== undefined ? { engineVersion: settings.documentdb.engineVersion } : {}),
        hosts: settings.documentdb.hosts,
        findEngineVersion: settings.documentdb.findEngineVersion,
      },
    },
    [SETTINGS_NAME_KEY]: SETTINGS_SECTION,
  };
}

/**
 * The paths of the workspace folders an `initialize` request names (`workspaceFolders`, else
 * the older `rootUri` / `rootPath`); `file:` URIs only, anything malformed left out.
 */
export function readWorkspaceFolders(params: unknown): string[] {
  const input = isRecord(params) ? params : {};
  const uris = Array.isArray(input.workspaceFolders)
    ? input.workspaceFolders.map((folder: unknown) => (isRecord(folder) ? folder.uri : undefined))
    : [input.rootUri];
  const paths = uris.flatMap((uri) => {
    if (typeof uri !== 'string' || !uri.startsWith('file:')) return [];
    try {
      return [fileURLToPath(uri)];
    } catch {
      return [];
    }
  });
  if (paths.length === 0 && typeof input.rootPath === 'string' && input.rootPath !== '') paths.push(input.rootPath);
  return paths;
}
