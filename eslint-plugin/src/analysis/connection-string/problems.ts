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
import { getAppendOptionEdit, getPrependOptionEdit, getRemoveOptionsEdits, getSetValueEdits } from './edit';
import { matchHostPattern } from './host-pattern';
import { findSecrets, isSecretOptionName, MASK, maskNonPortsOfHosts, maskSecrets } from './mask';
import { type ConnectionStringToken, getParseableUri, type ScanTextOptions, type TextEdit, type UriOption } from './scan';
import { type EngineVersion, isRetryableWritesEngine } from './engine-version';

/** `unknown`: the host is a template and no other sign tells. */
export type HostKind = 'documentdb' | 'atlas' | 'other' | 'unknown';

export interface ConnectionStringScanOptions extends ScanTextOptions {
  /** `settings["retry-safety"].documentdb.engineVersion`; undefined when unknown. */
  engineVersion?: EngineVersion | undefined;
  /** `settings["retry-safety"].documentdb.hosts` glob patterns. */
  documentDbHosts?: readonly string[];
  /**
   * What the code says the hosts are when the URI writes them only as templates
   * (`mongodb://${host}/…` with `const host = env.HOST ?? 'orders.cluster-….docdb.amazonaws.com'`).
   */
  templateHostKind?: HostKind;
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
  /** The URI's host (its first, and how many others), secrets masked, for messages: `getMaskedHost`. */
  host: string;
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
  if (token.isTruncated) return undefined;
  let hostKind = getHostKind(token, options.documentDbHosts ?? []);
  if (hostKind === 'unknown' && options.templateHostKind && hasOnlyTemplateHosts(token)) hostKind = options.templateHostKind;
  if (hostKind === 'unknown') return undefined;
  const settings = findRetryWritesOptions(token);
  const falses = settings.filter((option) => option.decodedValue.toLowerCase() === 'false');
  const trues = settings.filter((option) => option.decodedValue.toLowerCase() === 'true');
  const version = options.engineVersion;
  /** The problem, if the URI parses (checked last: parsing costs more than the rest). */
  const problem = (
    kind: ConnectionStringProblemKind,
    [start, end]: [number, number],
    getFix: (() => TextEdit[] | undefined) | undefined,
    getSuggestion: (() => TextEdit[] | undefined) | undefined,
  ): ConnectionStringProblem | undefined =>
    isConnectionStringParseable(text, token)
      ? { kind, range: [start, end], host: getMaskedHost(text, token), hostKind, engineVersion: version?.text, fix: getFix?.(), suggestion: getSuggestion?.(), token }
      : undefined;
  const firstFalse = falses[0];
  const removal = () => getCheckedEdits(text, token, getRemoveOptionsEdits(token, falses), undefined);

  if (hostKind !== 'documentdb') {
    return firstFalse && problem('retryWritesFalseNotDocumentDb', [firstFalse.start, firstFalse.end], undefined, removal);
  }
  if (!version) {
    return firstFalse && problem('retryWritesFalseUnknownVersion', [firstFalse.start, firstFalse.end], undefined, removal);
  }
  if (isRetryableWritesEngine(version)) {
    return firstFalse && problem('removeRetryWritesFalse', [firstFalse.start, firstFalse.end], removal, undefined);
  }
  const firstTrue = trues[0];
  if (firstTrue) {
    const fix = () => getCheckedEdits(text, token, getSetValueEdits(trues, 'false'), 'false');
    return problem('setRetryWritesFalse', [firstTrue.start, firstTrue.end], fix, undefined);
  }
  // Missing only when the whole option list is known and no option names retryWrites.
  if (settings.length > 0 || token.hasTemplatedOptions) return undefined;
  const fix = () => getCheckedEdits(text, token, getAddRetryWritesFalseEdits(token), 'false');
  return problem('addRetryWritesFalse', [token.start, token.end], fix, undefined);
}

/**
 * `retryWrites=false` appended; or, when the punctuation after the URI may belong to it
 * (`…&appName=shop.`), put first in the options, where both readings agree. Without
 * options, no edit is right for both.
 */
function getAddRetryWritesFalseEdits(token: ConnectionStringToken): TextEdit[] {
  if (!token.hasUncertainEnd) return [getAppendOptionEdit(token, 'retryWrites', 'false')];
  return token.queryStart === undefined ? [] : [getPrependOptionEdit(token, 'retryWrites', 'false')];
}

/** `retryWrites` options of the URI (name matched case-insensitively, percent-decoded as the driver does). */
function findRetryWritesOptions(token: ConnectionStringToken): UriOption[] {
  return token.options.filter((option) => option.name.toLowerCase() === 'retrywrites');
}

/** `true`/`false` when the URI sets `retryWrites` to one value; undefined when absent, templated or contradictory. */
export function getRetryWritesValue(token: ConnectionStringToken): boolean | undefined {
  const values = new Set(findRetryWritesOptions(token).map((option) => option.decodedValue.toLowerCase()));
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
  // Cut before its hosts ended (`admin:pw\u0040host`): what looks like a host may be a user name.
  if (!token.hasKnownHosts) return 'unknown';
  const hosts = token.hosts.map(splitHost);
  if (hosts.some(({ name }) => DOCUMENTDB_HOST.test(name))) return 'documentdb';
  if (hasDocumentDbCaFile(token)) return 'documentdb';
  if (documentDbHosts.length > 0 && hosts.some((host) => isHostInPatterns(host, documentDbHosts))) return 'documentdb';
  if (hosts.some(({ name }) => ATLAS_HOST.test(name))) return 'atlas';
  if (hosts.length === 0 || hosts.some(({ name }) => !HOST_NAME.test(name))) return 'unknown';
  return 'other';
}

/** `mongodb://${host}/…`, `mongodb://${host}:27017,${other}/…`: every host is a template. */
function hasOnlyTemplateHosts(token: ConnectionStringToken): boolean {
  return token.hasKnownHosts && token.hosts.length > 0 && token.hosts.every((host) => /^\$\{[^}]*\}(?::\d+)?$/.test(host.trim()));
}

/** Which service a host name (`orders.cluster-….docdb.amazonaws.com`, with or without a port) belongs to. */
export function getHostNameKind(host: string, documentDbHosts: readonly string[] = []): HostKind {
  const parts = splitHost(host);
  if (DOCUMENTDB_HOST.test(parts.name)) return 'documentdb';
  if (documentDbHosts.length > 0 && isHostInPatterns(parts, documentDbHosts)) return 'documentdb';
  if (ATLAS_HOST.test(parts.name)) return 'atlas';
  return HOST_NAME.test(parts.name) ? 'other' : 'unknown';
}

function hasDocumentDbCaFile(token: ConnectionStringToken): boolean {
  return token.options.some((option) => {
    const key = option.name.toLowerCase();
    return (key === 'tlscafile' || key === 'sslca') && isDocumentDbCaFile(option.decodedValue);
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
 * Glob match of a host against the user's patterns (`matchHostPattern`: `*`, `?`,
 * case-insensitive). A pattern with a `:` is matched against `host:port`, one without
 * against the host name.
 */
function isHostInPatterns(host: HostParts, patterns: readonly string[]): boolean {
  return patterns.some((pattern) => matchHostPattern(pattern, pattern.includes(':') && !pattern.startsWith('[') ? host.full : host.name));
}

/** Longest host shown in a message; a longer one is cut with `…`. */
const MAX_MESSAGE_HOST_LENGTH = 80;
const DEFAULT_PORT_SUFFIX = ':27017';

/**
 * The host a message names the connection by (`orders.cluster-….docdb.amazonaws.com`,
 * `localhost:27018`, `${host}`; `db1.example.com and 2 other hosts`), never the whole URI:
 * the terminal line stays short, and the user info and options (where secrets live) are left
 * out. The hosts are read from the masked URI (`getMaskedUri`), so that whatever any reading
 * takes for a password shows as `****` there too. The default port is left out.
 */
export function getMaskedHost(text: string, token: ConnectionStringToken): string {
  const uri = getMaskedUri(text, token);
  const afterScheme = uri.indexOf('://') + 3;
  // The scanner's hosts (it knows templates, which may hold a `/`), when the masked URI shows them whole.
  const written = token.hosts.join(',');
  const isShownWhole = written !== '' && (uri.startsWith(written, afterScheme) || uri.includes(`@${written}`));
  const hosts = (isShownWhole ? token.hosts : readHosts(uri, afterScheme)).filter((host) => host !== '').map(maskNonPortsOfHosts);
  const [first = '', ...others] = hosts.map((host) => (host.endsWith(DEFAULT_PORT_SUFFIX) ? host.slice(0, -DEFAULT_PORT_SUFFIX.length) : host));
  const shown = first.length > MAX_MESSAGE_HOST_LENGTH ? `${first.slice(0, MAX_MESSAGE_HOST_LENGTH - 1)}…` : first;
  if (others.length === 0) return shown;
  return `${shown} and ${others.length} other host${others.length === 1 ? '' : 's'}`;
}

/** The hosts of a masked URI, split as the scanner splits a URI (without its knowledge of templates). */
function readHosts(uri: string, afterScheme: number): string[] {
  // The user info runs to the last `@` before the `/` or `?` that follows the first.
  const firstAt = uri.indexOf('@', afterScheme);
  const authority = uri.slice(afterScheme, findFirst(uri, '/?', firstAt === -1 ? afterScheme : firstAt));
  return authority.slice(authority.lastIndexOf('@') + 1).split(',');
}

/** Offset of the first of `chars` in `text` from `from`, or the text's length. */
function findFirst(text: string, chars: string, from: number): number {
  for (let index = from; index < text.length; index++) {
    if (chars.includes(text[index] as string)) return index;
  }
  return text.length;
}

/**
 * The URI with its password, secret option values and anything after a host's `:` that is
 * not a port replaced by `****`. Unless the URI ended at the quote that opened it, it is
 * masked as part of the text it was found in first, as the language server's log is
 * (`findSecrets`: a password runs to the last `@` of its line, whatever the scanner took for
 * the URI's end). The scanner's reading of the URI (which knows its templates) is masked
 * too, and `maskSecrets` then goes over the result, so that nothing any of them takes for
 * a secret shows.
 */
export function getMaskedUri(text: string, token: ConnectionStringToken): string {
  const masks = token.endsAtQuote ? [] : findTextSecretsAround(text, token.start, token.end);
  if (token.password) masks.push([token.password.start, token.password.end]);
  for (const option of token.options) {
    if (option.valueStart < option.end && isSecretOptionName(option.key)) masks.push([option.valueStart, option.end]);
  }
  let uri = '';
  let copied = token.start;
  let maskedTo = -1;
  for (const [from, to] of masks.sort((a, b) => a[0] - b[0])) {
    const start = Math.max(from, token.start);
    const end = Math.min(to, token.end);
    // Overlapping masks show as one.
    if (start <= maskedTo) {
      copied = Math.max(copied, end);
    } else {
      uri += text.slice(copied, start) + MASK;
      copied = end;
    }
    maskedTo = copied;
  }
  return maskSecrets(uri + text.slice(copied, token.end));
}

/** The secrets of the last text asked for: a file's URIs are masked one after another, the text read once. */
let textSecrets: { text: string; secrets: Array<[number, number]> } | undefined;

/** The ranges `findSecrets` masks in `text` that reach into [start, end]. */
function findTextSecretsAround(text: string, start: number, end: number): Array<[number, number]> {
  if (textSecrets?.text !== text) textSecrets = { text, secrets: findSecrets(text) };
  const { secrets } = textSecrets;
  // In order and apart: the first that ends at or after `start` by bisection.
  let low = 0;
  let high = secrets.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (secrets[middle]![1] < start) low = middle + 1;
    else high = middle;
  }
  const around: Array<[number, number]> = [];
  for (let index = low; index < secrets.length && secrets[index]![0] <= end; index++) around.push(secrets[index]!);
  return around;
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

/**
 * The edits, when the edited URI still parses, has the expected `retryWrites` (undefined:
 * absent) and is the same as before in everything else: user, password, hosts, database
 * and every other option, in order. None at the end of a URI whose end is uncertain: the
 * punctuation after it would then belong to another part of it.
 */
function getCheckedEdits(
  text: string,
  token: ConnectionStringToken,
  edits: TextEdit[],
  expected: 'true' | 'false' | undefined,
): TextEdit[] | undefined {
  if (edits.length === 0) return undefined;
  if (token.hasUncertainEnd && edits.some((edit) => edit.range[1] >= token.end)) return undefined;
  const before = getParsed(text, token);
  const after = parse(getParseableUri(text, token, edits));
  if (!before || !after) return undefined;
  const isRetryWrites = ([key]: [string, string]) => key.toLowerCase() === 'retrywrites';
  const values = [...after.searchParams.entries()].filter(isRetryWrites).map(([, value]) => value.toLowerCase());
  const ok = expected === undefined ? values.length === 0 : values.length > 0 && values.every((value) => value === expected);
  const rest = (uri: ConnectionString) =>
    JSON.stringify([uri.username, uri.password, uri.hosts, uri.pathname, [...uri.searchParams.entries()].filter((entry) => !isRetryWrites(entry))]);
  return ok && rest(before) === rest(after) ? edits : undefined;
}

/** Each token parsed once (a token is only ever read in the text it was found in); null: it does not parse. */
const parsedTokens = new WeakMap<ConnectionStringToken, ConnectionString | null>();

function getParsed(text: string, token: ConnectionStringToken): ConnectionString | undefined {
  let parsed = parsedTokens.get(token);
  if (parsed === undefined) {
    parsed = parse(getParseableUri(text, token)) ?? null;
    parsedTokens.set(token, parsed);
  }
  return parsed ?? undefined;
}

/** True when `mongodb-connection-string-url` accepts the URI (templates replaced by a plain word). */
export function isConnectionStringParseable(text: string, token: ConnectionStringToken): boolean {
  return getParsed(text, token) !== undefined;
}

function parse(uri: string): ConnectionString | undefined {
  try {
    return new ConnectionString(uri);
  } catch {
    return undefined;
  }
}
