/**
 * Shared settings under `settings["retry-safety"]`, read and validated once.
 * Invalid values never throw: they are returned as `problems` (one sentence each,
 * for the rule to report) and the value is treated as not set.
 */

/** A DocumentDB engine version such as 8.0.2; a missing patch ("8.0") is read as 0. */
export interface EngineVersion {
  major: number;
  minor: number;
  patch: number;
  /** As the user wrote it (trimmed), for messages. */
  text: string;
}

export interface SettingsProblem {
  /** Dotted path of the setting, e.g. `documentdb.engineVersion`. */
  setting: string;
  /** The rejected value, printed (strings in quotes). */
  value: string;
  /** What a valid value looks like. */
  expected: string;
}

export interface RetrySafetySettings {
  documentdb: {
    /** Undefined when not set or invalid. */
    engineVersion: EngineVersion | undefined;
    /** Host glob patterns of DocumentDB clusters reached under other names (tunnels, custom DNS). */
    hosts: readonly string[];
  };
  problems: readonly SettingsProblem[];
}

/** First engine version of Amazon DocumentDB that supports retryable writes. */
export const RETRYABLE_WRITES_MIN_VERSION: EngineVersion = { major: 8, minor: 0, patch: 2, text: '8.0.2' };

const VERSION_PATTERN = /^(\d{1,4})\.(\d{1,4})(?:\.(\d{1,4}))?$/;

/** Parses "8.0.2", "5.0.0" or "8.0"; undefined for anything else. */
export function getEngineVersion(value: unknown): EngineVersion | undefined {
  if (typeof value !== 'string') return undefined;
  const text = value.trim();
  const match = VERSION_PATTERN.exec(text);
  if (!match) return undefined;
  return { major: Number(match[1]), minor: Number(match[2]), patch: Number(match[3] ?? 0), text };
}

/** Negative, zero or positive like a sort comparator. */
export function compareEngineVersions(a: EngineVersion, b: EngineVersion): number {
  return a.major - b.major || a.minor - b.minor || a.patch - b.patch;
}

/** True when the engine supports retryable writes (8.0.2 or later). */
export function isRetryableWritesEngine(version: EngineVersion): boolean {
  return compareEngineVersions(version, RETRYABLE_WRITES_MIN_VERSION) >= 0;
}

const cache = new WeakMap<object, RetrySafetySettings>();
const EMPTY: RetrySafetySettings = { documentdb: { engineVersion: undefined, hosts: [] }, problems: [] };

/** Reads `settings["retry-safety"]` from ESLint's shared settings (any shape). */
export function getRetrySafetySettings(settings: unknown): RetrySafetySettings {
  if (!isObject(settings)) return EMPTY;
  const own = settings['retry-safety'];
  if (own === undefined) return EMPTY;
  if (!isObject(own)) {
    return { ...EMPTY, problems: [{ setting: 'settings["retry-safety"]', value: describeValue(own), expected: 'an object such as { "documentdb": { "engineVersion": "8.0.2" } }' }] };
  }
  const cached = cache.get(own);
  if (cached) return cached;
  const result = readOwnSettings(own);
  cache.set(own, result);
  return result;
}

function readOwnSettings(own: Record<string, unknown>): RetrySafetySettings {
  const problems: SettingsProblem[] = [];
  const documentdb = own.documentdb;
  if (documentdb === undefined) return EMPTY;
  if (!isObject(documentdb)) {
    problems.push({ setting: 'documentdb', value: describeValue(documentdb), expected: 'an object such as { "engineVersion": "8.0.2" }' });
    return { ...EMPTY, problems };
  }

  let engineVersion: EngineVersion | undefined;
  if (documentdb.engineVersion !== undefined) {
    engineVersion = getEngineVersion(documentdb.engineVersion);
    if (!engineVersion) {
      problems.push({
        setting: 'documentdb.engineVersion',
        value: describeValue(documentdb.engineVersion),
        expected: 'a version string such as "8.0.2", "5.0.0" or "8.0"',
      });
    }
  }

  let hosts: string[] = [];
  if (documentdb.hosts !== undefined) {
    if (Array.isArray(documentdb.hosts) && documentdb.hosts.every((host) => typeof host === 'string' && host.trim() !== '')) {
      hosts = documentdb.hosts.map((host: string) => host.trim());
    } else {
      problems.push({
        setting: 'documentdb.hosts',
        value: describeValue(documentdb.hosts),
        expected: 'an array of host patterns such as ["localhost:27018", "*.db.internal.example.com"]',
      });
    }
  }
  return { documentdb: { engineVersion, hosts }, problems };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A short, printable rendering of a rejected setting value. */
function describeValue(value: unknown): string {
  let text: string;
  try {
    text = typeof value === 'string' ? JSON.stringify(value) : (JSON.stringify(value) ?? String(value));
  } catch {
    text = String(value);
  }
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}
