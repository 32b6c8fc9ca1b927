/**
 * Amazon DocumentDB engine versions: what a valid `documentdb.engineVersion` setting is,
 * how versions compare, and from which version retryable writes are supported. The one
 * validator of the setting: the language server passes the editor's value through, and
 * the extension manifest's pattern is tested against `getEngineVersion`.
 */

/** A DocumentDB engine version such as 8.0.2; a missing patch ("8.0") is read as 0. */
export interface EngineVersion {
  major: number;
  minor: number;
  patch: number;
  /** As the user wrote it (trimmed), for messages. */
  text: string;
}

/** First engine version of Amazon DocumentDB that supports retryable writes. */
export const RETRYABLE_WRITES_MIN_VERSION: EngineVersion = { major: 8, minor: 0, patch: 2, text: '8.0.2' };

/** What a valid engine version looks like, for messages about an invalid one. */
export const ENGINE_VERSION_EXPECTED = 'a version such as "8.0.2" or "5.0"';

const VERSION_PATTERN = /^(\d{1,4})\.(\d{1,4})(?:\.(\d{1,4}))?$/;

/** Parses "8.0.2", "5.0.0" or "8.0" (white space around is ignored); undefined for anything else. */
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
