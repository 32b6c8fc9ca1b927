/**
 * MongoDB / Amazon DocumentDB connection strings: which host kind they reach,
 * what they say about `retryWrites`, and what is wrong with that for the
 * configured DocumentDB engine version. Problems are plain data with exact
 * offsets and ESLint-style edits, for the rule to report in code and in text files.
 *
 * Facts (DOMAIN.md §1): DocumentDB supports retryable writes from engine 8.0.2;
 * before that a write carrying retryable-write fields fails with error 301, so the
 * URI must say `retryWrites=false`. MongoDB (Atlas, self-hosted 3.6+) supports them.
 */
import { ConnectionString } from 'mongodb-connection-string-url';
import { getAppendOptionEdit, getRemoveOptionsEdits, getSetValueEdits } from './edit';
import { type ConnectionStringToken, getParseableUri, type ScanTextOptions, type TextEdit, type UriOption } from './scan';
import { type EngineVersion, isRetryableWritesEngine } from './engine-version';

/** `unknown`: the host is a template and no other sign tells. */
export type HostKind = 'documentdb' | 'atlas' | 'other' | 'unknown';

export interface ConnectionStringScanOptions extends ScanTextOptions {
  /** `settings["retry-safety"].documentdb.engineVersion`; undefined when unknown. */
  engineVersion?: EngineVersion | undefined;
  /** `settings["retry-safety"].documentdb.hosts` glob patterns. */
  documentDbHosts?: readonly string[];
}

export type ConnectionStringProblemKind =
  /** DocumentDB 8.0.2+: `retryWrites=false` turns off a supported safety net. */
  | 'removeRetryWritesFalse'
  /** DocumentDB before 8.0.2: no `retryWrites` option, writes fail with error 301. */
  | 'addRetryWritesFalse'
  /** DocumentDB before 8.0.2: `retryWrites=true`, writes fail with error 301. */
  | 'setRetryWritesFalse'
  /** DocumentDB, engine version unknown: `retryWrites=false` is right only before 8.0.2. */
  | 'retryWritesFalseUnknownVersion'
  /** Atlas or another MongoDB server: `retryWrites=false` turns off a supported safety net. */
  | 'retryWritesFalseNotDocumentDb';

export interface ConnectionStringProblem {
  kind: ConnectionStringProblemKind;
  /** Offsets to report: the `retryWrites=…` option, or the whole URI when it is missing. */
  range: [number, number];
  /** The URI with its password (and other secrets) replaced by `****`, for messages. */
  uri: string;
  hostKind: HostKind;
  /** The configured engine version as written, when known. */
  engineVersion: string | undefined;
  /** Autofix edits, when the outcome is certain; undefined otherwise. */
  fix: TextEdit[] | undefined;
  /** Suggestion edits (remove `retryWrites=false`), when offered; undefined otherwise. */
  suggestion: TextEdit[] | undefined;
  token: ConnectionStringToken;
}

/** The problem of one URI found by `findConnectionStringTokens(text)`, if any. */
export function getConnectionStringProblem(
  text: string,
  token: ConnectionStringToken,
  options: ConnectionStringScanOptions = {},
): ConnectionStringProblem | undefined {
  // A URI cut short (a `\` escape, an unclosed template) may go on: its options are not all known.
  if (token.isTruncated || !isConnectionStringParseable(text, token)) return undefined;
  const hostKind = getHostKind(token, options.documentDbHosts ?? []);
  if (hostKind === 'unknown') return undefined;
  const settings = findRetryWritesOptions(token);
  const falses = settings.filter((option) => option.value.toLowerCase() === 'false');
  const trues = settings.filter((option) => option.value.toLowerCase() === 'true');
  const version = options.engineVersion;
  const problem = (
    kind: ConnectionStringProblemKind,
    [start, end]: [number, number],
    fix: TextEdit[] | undefined,
    suggestion: TextEdit[] | undefined,
  ): ConnectionStringProblem => ({ kind, range: [start, end], uri: getMaskedUri(text, token), hostKind, engineVersion: version?.text, fix, suggestion, token });
  const firstFalse = falses[0];
  const removal = () => getCheckedEdits(text, token, getRemoveOptionsEdits(token, falses), undefined);

  if (hostKind !== 'documentdb') {
    return firstFalse && problem('retryWritesFalseNotDocumentDb', [firstFalse.start, firstFalse.end], undefined, removal());
  }
  if (!version) {
    return firstFalse && problem('retryWritesFalseUnknownVersion', [firstFalse.start, firstFalse.end], undefined, removal());
  }
  if (isRetryableWritesEngine(version)) {
    return firstFalse && problem('removeRetryWritesFalse', [firstFalse.start, firstFalse.end], removal(), undefined);
  }
  const firstTrue = trues[0];
  if (firstTrue) {
    const fix = getCheckedEdits(text, token, getSetValueEdits(trues, 'false'), 'false');
    return problem('setRetryWritesFalse', [firstTrue.start, firstTrue.end], fix, undefined);
  }
  // Missing only when the whole option list is known and no option names retryWrites.
  if (settings.length > 0 || token.hasTemplatedOptions) return undefined;
  const fix = getCheckedEdits(text, token, [getAppendOptionEdit(token, 'retryWrites', 'false')], 'false');
  return problem('addRetryWritesFalse', [token.start, token.end], fix, undefined);
}

/** `retryWrites` options of the URI (name matched case-insensitively). */
function findRetryWritesOptions(token: ConnectionStringToken): UriOption[] {
  return token.options.filter((option) => option.key.toLowerCase() === 'retrywrites');
}

/** `true`/`false` when the URI sets `retryWrites` to one value; undefined when absent, templated or contradictory. */
export function getRetryWritesValue(token: ConnectionStringToken): boolean | undefined {
  const values = new Set(findRetryWritesOptions(token).map((option) => option.value.toLowerCase()));
  if (values.size !== 1) return undefined;
  if (values.has('true')) return true;
  if (values.has('false')) return false;
  return undefined;
}

const DOCUMENTDB_HOST = /\.docdb(?:-elastic)?\.amazonaws\.com$/;
const ATLAS_HOST = /\.mongodb\.net$/;
/** A plain host name, IPv4 or bracketed IPv6 address (no template, no stray characters). */
const HOST_NAME = /^(?:[a-z0-9_~%-]+(?:\.[a-z0-9_~%-]+)*\.?|\[[0-9a-f:.]+\])$/;
/** CA bundles that Amazon tells DocumentDB users to download; nobody else names a file so. */
const DOCUMENTDB_CA_FILES = ['global-bundle.pem', 'rds-combined-ca-bundle.pem'];

/** Which service the URI reaches. */
export function getHostKind(token: ConnectionStringToken, documentDbHosts: readonly string[] = []): HostKind {
  const hosts = token.hosts.map(splitHost);
  if (hosts.some(({ name }) => DOCUMENTDB_HOST.test(name))) return 'documentdb';
  if (hasDocumentDbCaFile(token)) return 'documentdb';
  if (documentDbHosts.length > 0 && hosts.some((host) => isHostInPatterns(host, documentDbHosts))) return 'documentdb';
  if (hosts.some(({ name }) => ATLAS_HOST.test(name))) return 'atlas';
  if (hosts.length === 0 || hosts.some(({ name }) => !HOST_NAME.test(name))) return 'unknown';
  return 'other';
}

function hasDocumentDbCaFile(token: ConnectionStringToken): boolean {
  return token.options.some((option) => {
    const key = option.key.toLowerCase();
    return (key === 'tlscafile' || key === 'sslca') && isDocumentDbCaFile(safeDecode(option.value));
  });
}

/** True for a path to one of the CA bundles Amazon DocumentDB users download (`global-bundle.pem`, `rds-combined-ca-bundle.pem`). */
export function isDocumentDbCaFile(path: string): boolean {
  const fileName = path.trim().split(/[/\\]/).at(-1)?.toLowerCase() ?? '';
  return DOCUMENTDB_CA_FILES.includes(fileName);
}

interface HostParts {
  /** Lower-case host name without port. */
  name: string;
  /** Lower-case `name:port` as written. */
  full: string;
}

function splitHost(entry: string): HostParts {
  const full = entry.trim().toLowerCase();
  if (full.startsWith('[')) {
    const close = full.indexOf(']');
    return { name: close === -1 ? full : full.slice(0, close + 1), full };
  }
  const colon = full.lastIndexOf(':');
  const name = colon === -1 || full.lastIndexOf('}') > colon ? full : full.slice(0, colon);
  return { name, full };
}

/**
 * Glob match of a host against the user's patterns: `*` matches any run of
 * characters, `?` one character, case-insensitive. A pattern with a `:` is matched
 * against `host:port`, one without against the host name.
 */
function isHostInPatterns(host: HostParts, patterns: readonly string[]): boolean {
  return patterns.some((pattern) => {
    const subject = pattern.includes(':') && !pattern.startsWith('[') ? host.full : host.name;
    return globToRegExp(pattern).test(subject);
  });
}

const globCache = new Map<string, RegExp>();
function globToRegExp(pattern: string): RegExp {
  let regExp = globCache.get(pattern);
  if (!regExp) {
    const source = pattern
      .toLowerCase()
      .split('')
      .map((char) => (char === '*' ? '.*' : char === '?' ? '.' : char.replace(/[\\^$.|+()[\]{}]/g, '\\$&')))
      .join('');
    regExp = new RegExp(`^${source}$`);
    globCache.set(pattern, regExp);
  }
  return regExp;
}

/** Option names whose values are secrets (besides the user-info password). */
const SECRET_OPTION = /pass|secret|token|authmechanismproperties/i;
const MAX_MESSAGE_URI_LENGTH = 200;

/**
 * The URI for messages: the password, secret-looking option values and anything
 * after a host's `:` that is not a port are replaced by `****`.
 */
export function getMaskedUri(text: string, token: ConnectionStringToken): string {
  const masks: TextEdit[] = [];
  if (token.password) masks.push({ range: [token.password.start, token.password.end], text: '****' });
  for (const option of token.options) {
    if (SECRET_OPTION.test(option.key) && option.valueStart < option.end) {
      masks.push({ range: [option.valueStart, option.end], text: '****' });
    }
  }
  let raw = text.slice(token.start, token.end);
  for (const mask of masks.sort((a, b) => b.range[0] - a.range[0])) {
    raw = raw.slice(0, mask.range[0] - token.start) + mask.text + raw.slice(mask.range[1] - token.start);
  }
  // A URI cut short inside its password (a space, a quote) leaves `user:secret` where hosts are.
  const schemeEnd = raw.indexOf('://') + 3;
  const pathStart = raw.slice(schemeEnd).search(/[/?]/u);
  const hostsEnd = pathStart === -1 ? raw.length : schemeEnd + pathStart;
  const hosts = raw.slice(schemeEnd, hostsEnd).replace(/:([^,@:]*)(?=,|$)/g, (whole, port: string) =>
    /^\d*$/.test(port) || port.includes('${') ? whole : ':****',
  );
  raw = raw.slice(0, schemeEnd) + hosts + raw.slice(hostsEnd);
  return raw.length > MAX_MESSAGE_URI_LENGTH ? `${raw.slice(0, MAX_MESSAGE_URI_LENGTH - 1)}…` : raw;
}

/** Human name of a host kind, for messages. */
export function describeHostKind(kind: HostKind): string {
  switch (kind) {
    case 'documentdb':
      return 'Amazon DocumentDB';
    case 'atlas':
      return 'MongoDB Atlas';
    default:
      return 'MongoDB';
  }
}

/** The edits, when the edited URI still parses and has the expected `retryWrites` (undefined: absent). */
function getCheckedEdits(
  text: string,
  token: ConnectionStringToken,
  edits: TextEdit[],
  expected: 'true' | 'false' | undefined,
): TextEdit[] | undefined {
  if (edits.length === 0) return undefined;
  const parsed = parse(getParseableUri(text, token, edits));
  if (!parsed) return undefined;
  const values = [...parsed.searchParams.entries()]
    .filter(([key]) => key.toLowerCase() === 'retrywrites')
    .map(([, value]) => value.toLowerCase());
  const ok = expected === undefined ? values.length === 0 : values.length > 0 && values.every((value) => value === expected);
  return ok ? edits : undefined;
}

/** True when `mongodb-connection-string-url` accepts the URI (templates replaced by a plain word). */
export function isConnectionStringParseable(text: string, token: ConnectionStringToken): boolean {
  return parse(getParseableUri(text, token)) !== undefined;
}

function parse(uri: string): ConnectionString | undefined {
  try {
    return new ConnectionString(uri);
  } catch {
    return undefined;
  }
}

function safeDecode(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}
