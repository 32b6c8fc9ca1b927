/**
 * The one masking of secrets in URIs, for rule messages, setting values and the language
 * server's log: `scheme://user:password@host` keeps its user and hosts, the password and
 * secret option values become `****`. Works on any text, in time linear in its length,
 * and imports nothing, so the language server loads it (as `eslint-plugin-retry-safety/mask`)
 * without ESLint.
 *
 * Where the password ends is not always clear in free text (a password may hold spaces,
 * quotes, `/` or even `://`): it is taken to run to the last `@` before the end of the line,
 * across any later `scheme://`, so that an unusual password is masked whole, at the cost of
 * masking more than the password when something after the URI (another URI included)
 * holds an `@`. A line ends at `\n` or `\r` only: U+2028 and U+2029 are white space, as in a
 * .env, YAML or JSON value and a JavaScript string, so a password may hold them.
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
  for (const [from, to] of findSecrets(text)) {
    output += text.slice(copied, from) + MASK;
    copied = to;
  }
  return copied === 0 ? text : output + text.slice(copied);
}

/** The ranges `maskSecrets` replaces by `****`, in order and apart (a range may be empty: an empty password). */
export function findSecrets(text: string): Array<[number, number]> {
  const secrets: Array<[number, number]> = [];
  const mask = (from: number, to: number) => {
    secrets.push([from, to]);
  };
  // The end of the line of the current URI and its last `@` (after that URI's `scheme://`),
  // read once per line: URIs on the same line share them, so the time stays linear.
  let lineEnd = -1;
  let lastAt = -1;
  let schemeEnd = findSchemeEnd(text, 0);
  while (schemeEnd !== -1) {
    if (schemeEnd > lineEnd) {
      lastAt = -1;
      for (lineEnd = schemeEnd; lineEnd < text.length && !isLineTerminator(text[lineEnd]!); lineEnd++) {
        if (text[lineEnd] === '@') lastAt = lineEnd;
      }
    }
    schemeEnd = maskUri(text, schemeEnd, lineEnd, lastAt >= schemeEnd ? lastAt : -1, mask);
  }
  return secrets;
}

/**
 * Masks the secrets of the URI whose `scheme://` ends at `from`, on a line ending at
 * `lineEnd` whose last `@` is `lastAt` (-1: none after `from`). Returns the end of the next
 * `scheme://` to mask, -1 if none: a scheme inside the masked user info is the password's.
 */
function maskUri(text: string, from: number, lineEnd: number, lastAt: number, mask: (from: number, to: number) => void): number {
  // The user name runs to `:` (a password follows) or the start of a path; it may hold spaces.
  let userEnd = from;
  while (userEnd < lineEnd && !USER_END.has(text[userEnd]!)) userEnd++;
  // Unless the `:` is that of a later URI (`mongodb://h … redis://`): this one has no password.
  const isNextScheme = text.startsWith('//', userEnd + 1) && findSchemeStart(text, userEnd + 3, from) > from;
  let hostsStart = from;
  let optionsStart = -1;
  if (text[userEnd] === ':' && !isNextScheme && lastAt > userEnd) {
    mask(userEnd + 1, lastAt);
    hostsStart = lastAt + 1;
    // The `@` was in the options (`host:port/?a=b@c&password=…`): their rest follows it.
    if (text.slice(userEnd + 1, lastAt).includes('?')) optionsStart = hostsStart;
  } else if (lastAt !== -1) {
    // User info without a password: the hosts follow its `@`.
    for (let index = from; index < lineEnd && !HOSTS_END.has(text[index]!); index++) {
      if (text[index] === '@') {
        hostsStart = index + 1;
        break;
      }
    }
  }
  // The rest of this URI (hosts, options) cannot reach past the next URI.
  const next = findSchemeEnd(text, hostsStart);
  const to = next === -1 || next > lineEnd ? lineEnd : findSchemeStart(text, next, hostsStart);
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
  return next;
}

/**
 * A host list as a reading of the URI took it (`h1:27017,h2:x`), with anything after a
 * host's `:` that is not a port masked: a reading that runs on past a `#` may take the rest
 * of a password with no `@` after it (`u:#secret-…`) for a host.
 */
export function maskNonPortsOfHosts(hosts: string): string {
  let output = '';
  let copied = 0;
  maskNonPorts(hosts, 0, hosts.length, (from, to) => {
    output += hosts.slice(copied, from) + MASK;
    copied = to;
  });
  return output + hosts.slice(copied);
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

/** Only `\n` and `\r` end a line (see the top of this file). */
function isLineTerminator(char: string): boolean {
  return char === '\n' || char === '\r';
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

function safeDecode(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}
