/**
 * Shared settings under `settings["retry-safety"]`, read and validated once.
 * Invalid values never throw: they are returned as `problems` (one sentence each,
 * for the rule to report) and the value is treated as not set.
 */
import { ENGINE_VERSION_EXPECTED, type EngineVersion, getEngineVersion } from './engine-version';

export interface SettingsProblem {
  /**
   * Dotted path of the setting inside the plugin's settings, e.g. `documentdb.engineVersion`;
   * empty for the settings object itself. Messages put it after the name the user wrote the
   * settings under (`settings["retry-safety"]`, `retrySafety`).
   */
  setting: string;
  /** What the rejected value is (its kind and size), never the value itself: it may be a pasted connection string. */
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
    /**
     * Read the engine version from the repository's infrastructure code: true unless
     * `documentdb.findEngineVersion` is false or `documentdb.engineVersion` is written
     * (a written version wins, and an invalid one is reported rather than replaced).
     */
    findEngineVersion: boolean;
  };
  problems: readonly SettingsProblem[];
}

const cache = new WeakMap<object, RetrySafetySettings>();
const EMPTY: RetrySafetySettings = { documentdb: { engineVersion: undefined, hosts: [], findEngineVersion: true }, problems: [] };

/** Reads `settings["retry-safety"]` from ESLint's shared settings (any shape). */
export function getRetrySafetySettings(settings: unknown): RetrySafetySettings {
  if (!isObject(settings)) return EMPTY;
  const own = settings['retry-safety'];
  if (own === undefined) return EMPTY;
  if (!isObject(own)) {
    return { ...EMPTY, problems: [{ setting: '', value: describeValue(own), expected: 'an object such as { "documentdb": { "engineVersion": "8.0.2" } }' }] };
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
        expected: ENGINE_VERSION_EXPECTED,
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
        expected: 'host patterns such as ["localhost:27018"]',
      });
    }
  }
  let findEngineVersion = documentdb.engineVersion === undefined;
  if (documentdb.findEngineVersion !== undefined) {
    if (typeof documentdb.findEngineVersion === 'boolean') {
      findEngineVersion &&= documentdb.findEngineVersion;
    } else {
      problems.push({ setting: 'documentdb.findEngineVersion', value: describeValue(documentdb.findEngineVersion), expected: 'true or false' });
    }
  }
  return { documentdb: { engineVersion, hosts, findEngineVersion }, problems };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * What a rejected setting value is, never the value itself: a setting can hold a
 * connection string pasted in the wrong place, and a password must not reach a message.
 * The kind and the size say enough to find the mistake ("a number", "a string of 1
 * character" where "8.0.2" was meant).
 */
function describeValue(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return `an array of ${count(value.length, 'item')}`;
  switch (typeof value) {
    case 'string':
      return value.trim() === '' ? 'an empty string' : `a string of ${count(value.length, 'character')}`;
    case 'number':
    case 'bigint':
      return 'a number';
    case 'boolean':
      return 'a boolean';
    case 'object':
      return `an object with ${count(Object.keys(value).length, 'key')}`;
    default:
      return `a ${typeof value}`;
  }
}

function count(size: number, noun: string): string {
  return `${size.toLocaleString('en-US')} ${noun}${size === 1 ? '' : 's'}`;
}
