/**
 * The one masking of secrets in URIs, for rule messages, setting values and the language
 * server's log: `scheme://user:password@host` keeps its user and hosts, the password and
 * secret option values become `****`. Works on any text, in time linear in its length,
 * and imports nothing, so the language server loads it (as `eslint-plugin-retry-safety/mask`)
 * without ESLint.
 *
 * Where the password ends is not always clear in free text (a password may hold spaces,
 * quotes or `/`): it is taken to run to the last `@` before the end of the line or the next
 * URI, so that an unusual password is masked whole, at the cost of masking more than the
 * password when something after the URI holds an `@`.
 */

export const MASK = '****';

/** Option names whose values are secrets (besides the user-info password); matched on the decoded name. */
const SECRET_OPTION = /pass|secret|token|authmechanismproperties/i;

/** True when a URI option of this name (as written, possibly percent-encoded) holds a secret. */
export function isSecretOptionName(name: string): boolean {
  return SECRET_OPTION.test(safeDecode(name));
}

/**
 * `text` with the secrets of every URI in it masked: the password of the user info, the
 * values of secret-looking options (`password`, `…Password`, `secret`, `token`,
 * `authMechanismProperties`), and anything after a host's `:` that is not a port (the rest
 * of a password whose URI was cut short).
 */
export function maskSecrets(text: string): string {
  let output = '';
  let copied = 0;
  const mask = (from: number, to: number) => {
    output += text.slice(copied, from) + MASK;
    copied = to;
  };
  let schemeEnd = findSchemeEnd(text, 0);
  while (schemeEnd !== -1) {
    const next = findSchemeEnd(text, schemeEnd);
    const segmentEnd = findLineEnd(text, schemeEnd, next === -1 ? text.length : findSchemeStart(text, next));
    maskUri(text, schemeEnd, segmentEnd, mask);
    schemeEnd = next;
  }
  return copied === 0 ? text : output + text.slice(copied);
}

/** Masks the secrets of the URI whose `scheme://` ends at `from`; it cannot reach past `to`. */
function maskUri(text: string, from: number, to: number, mask: (from: number, to: number) => void): void {
  let lastAt = -1;
  for (let index = from; index < to; index++) if (text[index] === '@') lastAt = index;
  // The user name runs to `:` (a password follows) or the start of a path; it may hold spaces.
  let userEnd = from;
  while (userEnd < to && !USER_END.has(text[userEnd]!)) userEnd++;
  let hostsStart = from;
  let optionsStart = -1;
  if (text[userEnd] === ':' && lastAt > userEnd) {
    mask(userEnd + 1, lastAt);
    hostsStart = lastAt + 1;
    // The `@` was in the options (`host:port/?a=b@c&password=…`): their rest follows it.
    if (text.slice(userEnd + 1, lastAt).includes('?')) optionsStart = hostsStart;
  } else if (lastAt !== -1) {
    // User info without a password: the hosts follow its `@`.
    for (let index = from; index < to && !HOSTS_END.has(text[index]!); index++) {
      if (text[index] === '@') {
        hostsStart = index + 1;
        break;
      }
    }
  }
  if (optionsStart === -1) {
    let hostsEnd = hostsStart;
    while (hostsEnd < to && !HOSTS_END.has(text[hostsEnd]!) && !OPTIONS_END.has(text[hostsEnd]!) && !isWhiteSpace(text[hostsEnd]!)) hostsEnd++;
    maskNonPorts(text, hostsStart, hostsEnd, mask);
    let index = hostsEnd;
    if (text[index] === '/') {
      while (index < to && text[index] !== '?' && !OPTIONS_END.has(text[index]!) && !isWhiteSpace(text[index]!)) index++;
    }
    if (text[index] === '?') optionsStart = index + 1;
  }
  if (optionsStart !== -1) maskSecretOptions(text, optionsStart, to, mask);
}

/** `host:xxx` where xxx is not a port (nor a template): what is left of a password cut short. */
function maskNonPorts(text: string, from: number, to: number, mask: (from: number, to: number) => void): void {
  let entryStart = from;
  for (let index = from; index <= to; index++) {
    if (index < to && text[index] !== ',') continue;
    // The port follows the last `:` of the entry, outside an IPv6 address's brackets.
    let colon = -1;
    for (let scan = index - 1; scan >= entryStart && text[scan] !== ']'; scan--) {
      if (text[scan] === ':') {
        colon = scan;
        break;
      }
    }
    if (colon !== -1 && !isPortOrTemplate(text, colon + 1, index)) mask(colon + 1, index);
    entryStart = index + 1;
  }
}

function isPortOrTemplate(text: string, from: number, to: number): boolean {
  let digits = true;
  for (let index = from; index < to; index++) {
    const char = text[index]!;
    if ((char === '$' || char === '{') && text[index + 1] === '{') return true;
    if (char < '0' || char > '9') digits = false;
  }
  return digits;
}

/** Masks the values of secret options in `key=value&…` from `from`, up to the end of the options. */
function maskSecretOptions(text: string, from: number, to: number, mask: (from: number, to: number) => void): void {
  let keyStart = from;
  let equals = -1;
  for (let index = from; index <= to; index++) {
    const char = text[index];
    const ends = index === to || OPTIONS_END.has(char!) || isWhiteSpace(char!);
    if (!ends && char !== '&') {
      if (char === '=' && equals === -1) equals = index;
      continue;
    }
    if (equals !== -1 && equals + 1 < index && isSecretOptionName(text.slice(keyStart, equals))) mask(equals + 1, index);
    if (ends) return;
    keyStart = index + 1;
    equals = -1;
  }
}

const USER_END = new Set([':', '/', '?', '#']);
const HOSTS_END = new Set(['/', '?', '#']);
/** What ends the options of a URI in free text (besides white space). */
const OPTIONS_END = new Set(['#', '"', "'", '`', '<', '>']);
const SCHEME_CHAR = /[A-Za-z0-9+.-]/;
const LETTER = /[A-Za-z]/;
const WHITE_SPACE = /\s/u;

function isWhiteSpace(char: string): boolean {
  return WHITE_SPACE.test(char);
}

function isLineTerminator(char: string): boolean {
  return char === '\n' || char === '\r' || char === '\u2028' || char === '\u2029';
}

/** Offset just after the next `scheme://` at or after `from` (scheme: a letter, then letters, digits, `+`, `.`, `-`); -1 if none. */
export function findSchemeEnd(text: string, from = 0): number {
  let slashes = text.indexOf('://', from);
  while (slashes !== -1) {
    if (findSchemeStart(text, slashes + 3, from) !== -1) return slashes + 3;
    slashes = text.indexOf('://', slashes + 1);
  }
  return -1;
}

/**
 * Start of the scheme of the `scheme://` that ends at `schemeEnd`, looking no further back
 * than `floor`; -1 when the characters before `://` are no scheme.
 */
function findSchemeStart(text: string, schemeEnd: number, floor = 0): number {
  const slashes = schemeEnd - 3;
  let start = slashes;
  while (start > floor && SCHEME_CHAR.test(text[start - 1]!)) start--;
  while (start < slashes && !LETTER.test(text[start]!)) start++;
  return start < slashes ? start : -1;
}

/** The first line terminator in [from, to), or `to`. */
function findLineEnd(text: string, from: number, to: number): number {
  for (let index = from; index < to; index++) if (isLineTerminator(text[index]!)) return index;
  return to;
}

function safeDecode(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}
