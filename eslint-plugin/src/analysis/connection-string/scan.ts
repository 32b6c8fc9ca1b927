/**
 * Finds `mongodb://` and `mongodb+srv://` URIs in any text (source code, .env,
 * YAML, JSON, TOML, Terraform…) and splits each into its parts with exact
 * offsets. Plain text in, no AST: the rule runs it on string literals and on
 * whole text files alike.
 *
 * The split follows the URI's structure: user info runs to the last `@` of the authority
 * (the driver refuses a URI with more than one, but a password holding a raw `@` must still
 * be read as a password), hosts to the first `/` or `?`, options are `&`-separated
 * `key=value` pairs. Template parts (`${…}`, `{{ … }}`) are kept as opaque pieces.
 *
 * Only `\n` and `\r` end a line. U+2028 and U+2029 are white space: a .env, YAML or JSON
 * value may hold them, and so may a JavaScript string since ES2019 (the masking in mask.ts
 * reads them the same way).
 */

export interface UriOption {
  /** Option name as written. */
  key: string;
  /** Option value as written (may contain a template). */
  value: string;
  /** Option name as the driver reads it: percent-decoded (`retry%57rites` is `retryWrites`). */
  name: string;
  /** Option value as the driver reads it: percent-decoded, `+` read as a space. */
  decodedValue: string;
  /** Offsets of `key=value` in the scanned text. */
  start: number;
  end: number;
  /** Offset where the value starts. */
  valueStart: number;
  isTemplated: boolean;
}

export interface ConnectionStringToken {
  /** Offsets of the URI in the scanned text. */
  start: number;
  end: number;
  /** The URI text as written. */
  raw: string;
  scheme: 'mongodb' | 'mongodb+srv';
  /** Host entries as written (`host`, `host:port`, `[::1]:port`, templates). */
  hosts: string[];
  /** Offset of `?`, when the URI has an options part. */
  queryStart: number | undefined;
  /** True when a `/` follows the hosts (a path, possibly empty). */
  hasPath: boolean;
  /** Options (each `&`-separated segment, empty segments left out). */
  options: UriOption[];
  /** Some options part is a template: the full list of options is unknown. */
  hasTemplatedOptions: boolean;
  /** Some part is a template (`${…}`, `{{ … }}`). */
  isTemplated: boolean;
  /** The URI stopped at a character that cannot end it (`\`, an unclosed template): its real end is unknown. */
  isTruncated: boolean;
  /** The URI ended at the quote that opened it: nothing after it belongs to it, its password included. */
  endsAtQuote: boolean;
  /**
   * Punctuation right after the URI (`.`, `,`, `)`…) was taken as prose, but it may belong to
   * the URI (`appName=shop.`): an edit must not depend on which.
   */
  hasUncertainEnd: boolean;
  /** The hosts are all known: the URI was not cut before its hosts ended. */
  hasKnownHosts: boolean;
  /** Offsets of the password inside the scanned text, when present. */
  password: { start: number; end: number } | undefined;
  /** Offsets of the template pieces. */
  templates: Array<{ start: number; end: number }>;
}

export interface ScanTextOptions {
  /** Skip URIs on lines that start with `#`, `//`, `;` or `!` (comments in .env, YAML, INI, properties…). */
  skipCommentLines?: boolean;
  /**
   * The text is one template literal of code, whose `${…}` expressions may span lines (the
   * literal bounds them). Elsewhere a template piece ends on its line: an opener not closed
   * there is not closed, whatever closes later in the file.
   */
  multiLineTemplates?: boolean;
  /**
   * Adds the number of characters the scan looked at (each time it looked) to `steps`:
   * the scan's cost, which grows linearly with the text whatever the text holds.
   */
  work?: { steps: number };
}

const SCHEME_PATTERN = /mongodb(?:\+srv)?:\/\//g;
/** Longest URI considered; beyond this a "URI" is some other blob. */
const MAX_URI_LENGTH = 8192;
/** Longest template piece (`${…}`, `{{ … }}`); an opener not closed within it is not closed. */
const MAX_TEMPLATE_LENGTH = 256;
const QUOTES = new Set(['"', "'", '`']);
const STOP_CHARACTERS = new Set(['<', '>', '^', '|', '{', '}']);
/** Any Unicode white space or line terminator (U+2028 included) ends a URI, except in its user info. */
const WHITE_SPACE = /\s/u;
const TRAILING_PUNCTUATION = new Set(['.', ',', ';', ':', '!']);
const COMMENT_OPENERS = ['#', '//', ';', '!'];

/** Characters looked at by the scan in progress (see `ScanTextOptions.work`). */
let steps = 0;

/** Every MongoDB connection string in `text`, in order. Never throws; time linear in the text's length. */
export function findConnectionStringTokens(text: string, options: ScanTextOptions = {}): ConnectionStringToken[] {
  const tokens: ConnectionStringToken[] = [];
  if (!text.includes('mongodb')) return tokens;
  steps = 0;
  const isInComment = options.skipCommentLines ? createCommentLineCheck(text) : () => false;
  const pattern = new RegExp(SCHEME_PATTERN);
  let match: RegExpExecArray | null;
  while ((match = pattern.exec(text)) !== null) {
    const start = match.index;
    if (isSchemeGlued(text, start) || isInComment(start)) continue;
    const token = readToken(text, start, match[0].length, options.multiLineTemplates ?? false);
    tokens.push(token);
    pattern.lastIndex = Math.max(token.end, start + match[0].length);
  }
  if (options.work) options.work.steps += steps;
  return tokens;
}

/** `xmongodb://` or `my-mongodb://` is some other scheme. */
function isSchemeGlued(text: string, start: number): boolean {
  const before = text[start - 1];
  return before !== undefined && /[\w+.-]/.test(before);
}

/**
 * Whether an offset is on a comment line (one whose first non-blank text is `#`, `//`, `;`
 * or `!`, before the offset). Offsets must come in increasing order: the text is read once.
 */
function createCommentLineCheck(text: string): (offset: number) => boolean {
  let read = 0;
  let lineStart = 0;
  let contentStart = -1;
  return (offset) => {
    for (; read < offset; read++) {
      steps++;
      if (text[read] === '\n') {
        lineStart = read + 1;
        contentStart = -1;
      }
    }
    if (contentStart === -1) {
      contentStart = lineStart;
      while (contentStart < text.length && text[contentStart] !== '\n' && WHITE_SPACE.test(text[contentStart]!)) {
        steps++;
        contentStart++;
      }
    }
    return contentStart < offset && COMMENT_OPENERS.some((opener) => text.startsWith(opener, contentStart));
  };
}

/** Only `\n` and `\r` end a line (see the top of this file). */
function isLineTerminator(char: string): boolean {
  return char === '\n' || char === '\r';
}

/** Offsets of a template piece (`${…}`, `{{ … }}`) in the text. */
interface Piece {
  start: number;
  end: number;
}

/** Why the reading of a URI stopped. */
type Stop =
  /** End of text, a line break or white space: the URI ended (punctuation before it may be prose). */
  | 'blank'
  /** The quote that opened the URI: it ended exactly there. */
  | 'quote'
  /** A character that cannot be in a URI (`<`, `|`, `{`…), or a quote that did not open it. */
  | 'stop'
  /** An escape, an unclosed template, the length limit: the rest of the URI is unknown. */
  | 'cut';

/**
 * Reads the URI starting at `start`: its pieces (literal characters and templates).
 *
 * White space, a quote or a character such as `<`, `|` or `{` ends a URI, except inside its
 * user info: a password may hold any of them (`admin:1234 5678@host`, `Pa{{ss@host`), and
 * the driver takes everything up to the `@`. So when one of them comes before the user
 * info's last `@` (before the first `@`, or after one but before the path) and an `@`
 * follows on the same line, the URI goes on (see `createUserInfoCheck`).
 */
function readToken(text: string, start: number, schemeLength: number, multiLineTemplates: boolean): ConnectionStringToken {
  const before = text[start - 1];
  const opener = before !== undefined && QUOTES.has(before) ? before : undefined;
  const templates: Piece[] = [];
  const limit = Math.min(text.length, start + MAX_URI_LENGTH);
  const userInfoGoesOn = createUserInfoCheck(text, limit, opener);
  let index = start + schemeLength;
  /** An `@` may still end the user info: none yet, or no `/` or `?` since the first. */
  let inUserInfo = true;
  let hasAt = false;
  /** A character that user info cannot hold unescaped (`/?#[]`, a second `:`) came before its first `@`. */
  let hasForbidden = false;
  let colons = 0;
  let parens = 0;
  let brackets = 0;
  let stop: Stop = 'blank';
  while (true) {
    if (index >= limit) {
      if (limit < text.length) stop = 'cut';
      break;
    }
    steps++;
    const char = text[index]!;
    if (char === '$' && text[index + 1] === '{') {
      const close = findTemplateEnd(text, index + 2, Math.min(limit, index + 2 + MAX_TEMPLATE_LENGTH), multiLineTemplates);
      if (close === -1) {
        stop = 'cut';
        break;
      }
      templates.push({ start: index, end: close + 1 });
      index = close + 1;
      continue;
    }
    if (char === '{' && text[index + 1] === '{') {
      const close = findDoubleBraceEnd(text, index + 2, Math.min(limit, index + 2 + MAX_TEMPLATE_LENGTH), multiLineTemplates);
      if (close !== -1) {
        templates.push({ start: index, end: close + 2 });
        index = close + 2;
        continue;
      }
      // Not a template (`Pa{{ss`): a `{` like any other.
    }
    if (char === '\\') {
      stop = 'cut';
      break;
    }
    if (isLineTerminator(char)) break;
    const isQuote = QUOTES.has(char);
    if (WHITE_SPACE.test(char) || STOP_CHARACTERS.has(char) || (isQuote && (opener === undefined || char === opener))) {
      // Once an `@` came, a closing quote or a comment on the way ends the URI (`"mongodb://u:p@h" x@y`).
      if (inUserInfo && userInfoGoesOn(index, hasForbidden || hasAt, colons)) {
        index++;
        continue;
      }
      stop = WHITE_SPACE.test(char) ? 'blank' : char === opener ? 'quote' : 'stop';
      break;
    }
    if (inUserInfo && !hasAt && (USER_INFO_FORBIDDEN.has(char) || (char === ':' && ++colons > 1))) hasForbidden = true;
    if (char === '@') hasAt = true;
    else if (hasAt && (char === '/' || char === '?')) inUserInfo = false;
    else if (char === '(') parens++;
    else if (char === ')') parens--;
    else if (char === '[') brackets++;
    else if (char === ']') brackets--;
    index++;
  }

  let end = index;
  let isTruncated = stop === 'cut';
  let hasUncertainEnd = false;
  if (stop === 'stop') {
    // A quote that did not open the URI may be part of it (`appName=it's`); after a
    // character such as `|`, only a blank or punctuation says that the URI ended there.
    const next = text[index + 1];
    isTruncated = QUOTES.has(text[index]!) || (next !== undefined && !isBoundary(next));
  }
  if (stop === 'blank' || (stop === 'stop' && !isTruncated)) {
    // Punctuation at the end is prose (`see mongodb://h/db.`), or maybe part of the URI.
    const lastTemplateEnd = templates.at(-1)?.end ?? 0;
    while (end > start + schemeLength && end > lastTemplateEnd) {
      const char = text[end - 1]!;
      if (TRAILING_PUNCTUATION.has(char)) {
        // Nothing to undo.
      } else if (char === ')' && parens < 0) parens++;
      else if (char === ']' && brackets < 0) brackets++;
      else break;
      steps++;
      end--;
      hasUncertainEnd = true;
    }
  }
  // Cut before the user info's `@`: what looked like hosts may be a user name and password.
  const isAuthorityCut = isTruncated && inUserInfo && userInfoGoesOn.hasAtAhead(index);
  // A balanced `)` or `]` kept at the end may still close a bracket of the prose around it.
  const endsWithCloser = stop !== 'quote' && !isTruncated && (text[end - 1] === ')' || text[end - 1] === ']');
  return splitToken(text, start, end, schemeLength, templates, { isTruncated, hasUncertainEnd, isAuthorityCut, endsWithCloser, endsAtQuote: stop === 'quote' });
}

/** What may follow a URI that stopped at `<`, `|`, `}`…, for it to have ended there: a blank, a quote, punctuation, a closing bracket. */
const BOUNDARY = new Set([...QUOTES, ...TRAILING_PUNCTUATION, ')', ']', '}', '>']);

function isBoundary(char: string): boolean {
  return WHITE_SPACE.test(char) || BOUNDARY.has(char);
}

/** What user info cannot hold unescaped: the driver rejects a user name or password with one of them. */
const USER_INFO_FORBIDDEN = new Set(['/', '?', '#', '[', ']']);

interface UserInfoCheck {
  /**
   * Whether the URI goes on past the blank, quote or `<`-like character at `from`, met before
   * its user info's `@`: an `@` follows on the same line (before the next URI), and what lies
   * between can be user info: no closing quote or comment (` #`, ` ;`, ` //`) on the way, or
   * else nothing that user info cannot hold (`hasForbidden`, `colons`: what came before), so
   * that the quote or `#` is the password's own.
   */
  (from: number, hasForbidden: boolean, colons: number): boolean;
  /** Whether an `@` follows `from` on the same line, before the next URI (one `findConnectionStringTokens` would start). */
  hasAtAhead(from: number): boolean;
}

/**
 * The look-ahead of `readToken` for the user info. It reads the line once, up to the first
 * `@` (calls come with increasing offsets), so the cost stays linear.
 */
function createUserInfoCheck(text: string, limit: number, opener: string | undefined): UserInfoCheck {
  /** The stretch read: from `readFrom` up to `readTo` (the `@` when `at` is set). */
  let readFrom = -1;
  let readTo = -1;
  let at = -1;
  /** Offsets of the last barrier (closing quote, comment), the last of `/?#[]`, and the first two `:`. */
  let lastBarrier = -1;
  let lastForbidden = -1;
  const colonOffsets: number[] = [];
  const read = (from: number) => {
    if (readFrom !== -1 && from >= readFrom && from <= readTo) return;
    readFrom = from;
    at = -1;
    lastBarrier = -1;
    lastForbidden = -1;
    colonOffsets.length = 0;
    let index = from;
    for (; index < limit; index++) {
      steps++;
      const char = text[index]!;
      if (char === '@') {
        at = index;
        break;
      }
      if (isLineTerminator(char) || (char === 'm' && (text.startsWith('mongodb://', index) || text.startsWith('mongodb+srv://', index)) && !isSchemeGlued(text, index))) break;
      if (char === opener || ((char === '#' || char === ';' || text.startsWith('//', index)) && index > 0 && WHITE_SPACE.test(text[index - 1]!))) {
        lastBarrier = index;
      }
      if (USER_INFO_FORBIDDEN.has(char)) lastForbidden = index;
      else if (char === ':' && colonOffsets.length < 2) colonOffsets.push(index);
    }
    readTo = index;
  };
  const check = ((from: number, hasForbidden: boolean, colons: number) => {
    read(from);
    if (at === -1) return false;
    if (lastBarrier < from) return true;
    const colonsAhead = colonOffsets.filter((offset) => offset >= from).length;
    return !hasForbidden && lastForbidden < from && colons + colonsAhead <= 1;
  }) as UserInfoCheck;
  check.hasAtAhead = (from) => {
    read(from);
    return at !== -1;
  };
  return check;
}

/**
 * Index of the `}` that ends a `${` opened before `from`, skipping nested braces and quoted
 * strings; -1 if none before `limit`, or before the end of the line unless `multiLine`.
 */
function findTemplateEnd(text: string, from: number, limit: number, multiLine: boolean): number {
  let depth = 0;
  let quote: string | undefined;
  for (let index = from; index < limit; index++) {
    steps++;
    const char = text[index]!;
    if (!multiLine && isLineTerminator(char)) return -1;
    if (quote) {
      if (char === '\\') index++;
      else if (char === quote) quote = undefined;
      continue;
    }
    if (char === '"' || char === "'" || char === '`') quote = char;
    else if (char === '{') depth++;
    else if (char === '}') {
      if (depth === 0) return index;
      depth--;
    }
  }
  return -1;
}

/** Index of the `}}` that ends a `{{` opened before `from`; -1 if none before `limit` (or the end of the line unless `multiLine`), or if another `{{` comes first. */
function findDoubleBraceEnd(text: string, from: number, limit: number, multiLine: boolean): number {
  for (let index = from; index + 1 < limit; index++) {
    steps++;
    const char = text[index]!;
    if (!multiLine && isLineTerminator(char)) return -1;
    if (char === '}' && text[index + 1] === '}') return index;
    if (char === '{' && text[index + 1] === '{') return -1;
  }
  return -1;
}

interface TokenFlags {
  isTruncated: boolean;
  hasUncertainEnd: boolean;
  isAuthorityCut: boolean;
  /** Ends in `)` or `]` (balanced within it) outside quotes. */
  endsWithCloser: boolean;
  endsAtQuote: boolean;
}

function splitToken(text: string, start: number, end: number, schemeLength: number, templates: Piece[], flags: TokenFlags): ConnectionStringToken {
  // How many template characters come before each offset: `isInTemplate` and `hasTemplate`
  // in constant time, so that the split stays linear in the URI's length.
  let isInTemplate: (offset: number) => boolean = () => false;
  let hasTemplate: (from: number, to: number) => boolean = () => false;
  if (templates.length > 0) {
    const templateCount = new Int32Array(end - start + 1);
    for (const piece of templates) {
      for (let offset = piece.start; offset < Math.min(piece.end, end); offset++) templateCount[offset - start + 1] = 1;
    }
    for (let offset = 1; offset < templateCount.length; offset++) templateCount[offset]! += templateCount[offset - 1]!;
    steps += 2 * (end - start);
    isInTemplate = (offset) => templateCount[offset - start + 1]! > templateCount[offset - start]!;
    hasTemplate = (from, to) => templateCount[to - start]! > templateCount[from - start]!;
  }
  /** First offset in [from, to) holding one of `chars` outside templates, or -1. */
  const findChar = (chars: string, from: number, to: number): number => {
    for (let offset = from; offset < to; offset++) {
      steps++;
      if (chars.includes(text[offset]!) && !isInTemplate(offset)) return offset;
    }
    return -1;
  };
  const raw = text.slice(start, end);
  const afterScheme = start + schemeLength;

  // User info runs to the last `@` before the `/` or `?` that follows the first; the password
  // is what follows the first `:` in it.
  let hostsStart = afterScheme;
  let password: ConnectionStringToken['password'];
  let at = findChar('@', afterScheme, end);
  if (at !== -1) {
    const authorityEnd = findChar('/?', at, end);
    const to = authorityEnd === -1 ? end : authorityEnd;
    for (let next = findChar('@', at + 1, to); next !== -1; next = findChar('@', at + 1, to)) at = next;
    hostsStart = at + 1;
    const colon = findChar(':', afterScheme, at);
    if (colon !== -1) password = { start: colon + 1, end: at };
  }
  let hostsEnd = findChar('/?', hostsStart, end);
  const hasHostsEnd = hostsEnd !== -1;
  if (hostsEnd === -1) hostsEnd = end;
  const hosts = splitOutsideTemplates(text, hostsStart, hostsEnd, ',', isInTemplate).map(([from, to]) => text.slice(from, to));
  const hasPath = text[hostsEnd] === '/';
  const question = findChar('?', hostsEnd, end);
  const queryStart = question === -1 ? undefined : question;

  const options: UriOption[] = [];
  // A template after the hosts may hold a path, options or both: the option list is unknown.
  let hasTemplatedOptions = templates.some((piece) => piece.start >= hostsEnd && (queryStart === undefined || piece.start < queryStart));
  if (queryStart !== undefined) {
    for (const [from, to] of splitOutsideTemplates(text, queryStart + 1, end, '&', isInTemplate)) {
      if (from === to) continue;
      const segmentTemplated = hasTemplate(from, to);
      const equals = findChar('=', from, to);
      if (segmentTemplated && (equals === -1 || hasTemplate(from, equals))) hasTemplatedOptions = true;
      const key = equals === -1 ? text.slice(from, to) : text.slice(from, equals);
      const valueStart = equals === -1 ? to : equals + 1;
      const value = text.slice(valueStart, to);
      options.push({ key, value, name: decodeQueryComponent(key), decodedValue: decodeQueryComponent(value), start: from, end: to, valueStart, isTemplated: segmentTemplated });
    }
  }
  return {
    start,
    end,
    raw,
    scheme: schemeLength === 'mongodb+srv://'.length ? 'mongodb+srv' : 'mongodb',
    hosts,
    queryStart,
    hasPath,
    options,
    hasTemplatedOptions,
    isTemplated: templates.length > 0,
    isTruncated: flags.isTruncated,
    endsAtQuote: flags.endsAtQuote,
    // Not for the `]` of an IPv6 host that ends the URI (`mongodb://[::1]`).
    hasUncertainEnd: flags.hasUncertainEnd || (flags.endsWithCloser && (hasHostsEnd || text[end - 1] === ')')),
    hasKnownHosts: !flags.isTruncated || (hasHostsEnd && !flags.isAuthorityCut),
    password,
    templates,
  };
}

/** An option name or value as the driver reads it (`+` is a space, `%57` is `W`); as written if it cannot be decoded. */
function decodeQueryComponent(text: string): string {
  if (!text.includes('%') && !text.includes('+')) return text;
  return new URLSearchParams(`k=${text}`).get('k') ?? text;
}

/** [from, to) ranges between `separator`s that are not inside templates. */
function splitOutsideTemplates(
  text: string,
  from: number,
  to: number,
  separator: string,
  isInTemplate: (offset: number) => boolean,
): Array<[number, number]> {
  const ranges: Array<[number, number]> = [];
  let segmentStart = from;
  for (let offset = from; offset < to; offset++) {
    steps++;
    if (text[offset] === separator && !isInTemplate(offset)) {
      ranges.push([segmentStart, offset]);
      segmentStart = offset + 1;
    }
  }
  ranges.push([segmentStart, to]);
  return ranges;
}

/**
 * The URI with every template replaced by a plain word, for the parser; `edits`
 * (offsets in `text`, inside the URI, not overlapping templates) are applied first.
 * Time linear in the URI's length.
 */
export function getParseableUri(text: string, token: ConnectionStringToken, edits: readonly TextEdit[] = []): string {
  const pieces = [
    ...token.templates.map((piece) => ({ range: [piece.start, piece.end] as [number, number], text: 'tmpl' })),
    ...edits,
  ].sort((a, b) => a.range[0] - b.range[0] || a.range[1] - b.range[1]);
  let uri = '';
  let copied = token.start;
  for (const piece of pieces) {
    if (piece.range[0] < copied) continue;
    uri += text.slice(copied, piece.range[0]) + piece.text;
    copied = piece.range[1];
  }
  return uri + text.slice(copied, token.end);
}

/** A replacement of `range` (offsets in the scanned text) by `text`, as ESLint fixes are. */
export interface TextEdit {
  range: [number, number];
  text: string;
}
