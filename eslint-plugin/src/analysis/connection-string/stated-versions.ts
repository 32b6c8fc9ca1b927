/**
 * What the engine versions stated in a repository's infrastructure code (found by
 * `analysis/infra`, passed in as plain data) say together: one version, several that
 * lead to the same verdict on retryable writes, or several that do not. Versions that are
 * not valid engine versions (`"latest"`, a template) are left out.
 */
import { compareEngineVersions, type EngineVersion, getEngineVersion, isRetryableWritesEngine } from './engine-version';

export interface StatedEngineVersion {
  version: string;
  /** Relative to the searched folder. */
  file: string;
  line: number;
}

export type StatedVersions =
  | { kind: 'none' }
  /** One version (stated in one place or more). */
  | { kind: 'one'; version: EngineVersion; places: string[] }
  /**
   * Different versions; `agree`: all before 8.0.2 or all from 8.0.2 on, so the verdict
   * is the same whichever cluster a connection reaches (but an edit is not certain).
   */
  | { kind: 'several'; versions: Array<{ version: EngineVersion; places: string[] }>; agree: boolean };

export function summarizeStatedVersions(stated: readonly StatedEngineVersion[]): StatedVersions {
  const versions: Array<{ version: EngineVersion; places: string[] }> = [];
  for (const { version: text, file, line } of stated) {
    const version = getEngineVersion(text);
    if (!version) continue;
    const place = `${file}:${line}`;
    const same = versions.find((known) => compareEngineVersions(known.version, version) === 0);
    if (same) same.places.push(place);
    else versions.push({ version, places: [place] });
  }
  const [first, ...others] = versions;
  if (!first) return { kind: 'none' };
  if (others.length === 0) return { kind: 'one', version: first.version, places: first.places };
  versions.sort((a, b) => compareEngineVersions(a.version, b.version));
  const agree = versions.every((entry) => isRetryableWritesEngine(entry.version) === isRetryableWritesEngine(first.version));
  return { kind: 'several', versions, agree };
}

const MAX_PLACES = 3;

/** "infra/docdb.tf:12", "a.tf:3 and stack.yaml:9", "a.tf:3, b.tf:4, c.tf:5 and 2 other places": messages stay short. */
export function describePlaces(places: readonly string[]): string {
  const shown = places.slice(0, MAX_PLACES);
  const hidden = places.length - shown.length;
  if (hidden > 0) return `${shown.join(', ')} and ${hidden} other place${hidden === 1 ? '' : 's'}`;
  return shown.length <= 1 ? (shown[0] ?? '') : `${shown.slice(0, -1).join(', ')} and ${shown.at(-1)}`;
}

/** "5.0.0 in infra/a.tf:3, 8.0.2 in stack.yaml:9": every version with where it is stated. */
export function describeStatedVersions(versions: ReadonlyArray<{ version: EngineVersion; places: string[] }>): string {
  return versions.map(({ version, places }) => `${version.text} in ${describePlaces(places)}`).join(', ');
}

/** The engine version a file is judged by, and what messages say about where it comes from. */
export interface EngineVersionChoice {
  /**
   * Undefined when unknown. For several stated versions that agree, the lowest, with
   * `text` naming them all ("4.0.0 or 5.0.0").
   */
  version: EngineVersion | undefined;
  /** " (from infra/docdb.tf:12)" for a version found in infrastructure code; empty for the setting. */
  versionSource: string;
  /** False when several versions were found: problems are reported without an autofix. */
  autofix: boolean;
  /** Several versions on both sides of 8.0.2, described ("5.0.0 in a.tf:3, 8.0.2 in b.yaml:7"); the version stays unknown. */
  conflicting: string | undefined;
}

/**
 * The setting wins; without it, and unless turned off, what the infrastructure code
 * states (`findStated` is called only then: it may walk the repository).
 */
export function chooseEngineVersion(
  setting: EngineVersion | undefined,
  findEngineVersion: boolean,
  findStated: () => readonly StatedEngineVersion[],
): EngineVersionChoice {
  const unknown: EngineVersionChoice = { version: undefined, versionSource: '', autofix: true, conflicting: undefined };
  if (setting) return { ...unknown, version: setting };
  if (!findEngineVersion) return unknown;
  const stated = summarizeStatedVersions(findStated());
  switch (stated.kind) {
    case 'none':
      return unknown;
    case 'one':
      return { ...unknown, version: stated.version, versionSource: ` (from ${describePlaces(stated.places)})` };
    case 'several': {
      if (!stated.agree) return { ...unknown, conflicting: describeStatedVersions(stated.versions) };
      const lowest = stated.versions[0]!.version;
      const text = stated.versions.map((entry) => entry.version.text).join(' or ');
      const places = [...new Set(stated.versions.flatMap((entry) => entry.places))];
      return { version: { ...lowest, text }, versionSource: ` (from ${describePlaces(places)})`, autofix: false, conflicting: undefined };
    }
  }
}
