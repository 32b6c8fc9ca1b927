/**
 * Finds `mongodb://` and `mongodb+srv://` URIs in any text (source code, .env,
 * YAML, JSON, TOML, Terraform…) and splits each into its parts with exact
 * offsets. Plain text in, no AST: the rule runs it on string literals and on
 * whole text files alike.
 *
 * The split follows `mongodb-connection-string-url`: user info runs to the first
 * `@`, hosts to the first `/` or `?`, options are `&`-separated `key=value` pairs.
 * Template parts (`${…}`, `{{ … }}`) are kept as opaque pieces.
 */

export interface UriOption {
  /** Option name as written. */
  key: string;
  /** Option value as written (may contain a template). */
  value: string;
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
  /** Offsets of the password inside the scanned text, when present. */
  password: { start: number; end: number } | undefined;
  /** Offsets of the template pieces. */
  templates: Array<{ start: number; end: number }>;
}

export interface ScanTextOptions {
  /** Skip URIs on lines that start with `#`, `//`, `;` or `!` (comments in .env, YAML, INI, properties…). */
  skipCommentLines?: boolean;
}

const SCHEME_PATTERN = /mongodb(?:\+srv)?:\/\//g;
/** Longest URI considered; beyond this a "URI" is some other blob. */
const MAX_URI_LENGTH = 8192;
const QUOTES = new Set(['"', "'", '`']);
const STOP_CHARACTERS = new Set(['<', '>', '^', '|', '{', '}']);
/** Any Unicode white space or line terminator (U+2028 included) ends a URI. */
const WHITE_SPACE = /\s/u;
const TRAILING_PUNCTUATION = new Set(['.', ',', ';', ':', '!']);

/** Every MongoDB connection string in `text`, in order. Never throws. */
export function findConnectionStringTokens(text: string, options: ScanTextOptions = {}): ConnectionStringToken[] {
  const tokens: ConnectionStringToken[] = [];
  if (!text.includes('mongodb')) return tokens;
  SCHEME_PATTERN.lastIndex = 0;
  let match: RegExpExecArray | null;
  while ((match = SCHEME_PATTERN.exec(text)) !== null) {
    const start = match.index;
    if (isSchemeGlued(text, start) || (options.skipCommentLines && isOnCommentLine(text, start))) continue;
    const token = readToken(text, start, match[0].length);
    tokens.push(token);
    SCHEME_PATTERN.lastIndex = Math.max(token.end, start + match[0].length);
  }
  return tokens;
}

/** `xmongodb://` or `my-mongodb://` is some other scheme. */
function isSchemeGlued(text: string, start: number): boolean {
  const before = text[start - 1];
  return before !== undefined && /[\w+.-]/.test(before);
}

function isOnCommentLine(text: string, start: number): boolean {
  const lineStart = text.lastIndexOf('\n', start - 1) + 1;
  const prefix = text.slice(lineStart, start).trimStart();
  return prefix.startsWith('#') || prefix.startsWith('//') || prefix.startsWith(';') || prefix.startsWith('!');
}

/** Offsets of a template piece (`${…}`, `{{ … }}`) in the text. */
interface Piece {
  start: number;
  end: number;
}

/** Reads the URI starting at `start`: its pieces (literal characters and templates). */
function readToken(text: string, start: number, schemeLength: number): ConnectionStringToken {
  const templates: Piece[] = [];
  const limit = Math.min(text.length, start + MAX_URI_LENGTH);
  let index = start + schemeLength;
  let bracketDepth = 0;
  let parenDepth = 0;
  let isTruncated = false;
  while (index < limit) {
    const char = text[index]!;
    if (char === '$' && text[index + 1] === '{') {
      const close = findTemplateEnd(text, index + 2, limit);
      if (close === -1) {
        isTruncated = true;
        break;
      }
      templates.push({ start: index, end: close + 1 });
      index = close + 1;
      continue;
    }
    if (char === '{' && text[index + 1] === '{') {
      const close = text.indexOf('}}', index + 2);
      if (close === -1 || close >= limit) {
        isTruncated = true;
        break;
      }
      templates.push({ start: index, end: close + 2 });
      index = close + 2;
      continue;
    }
    if (char === '\\') {
      isTruncated = true;
      break;
    }
    if (QUOTES.has(char)) {
      // A quote ends the URI only when the same quote opened it (`"mongodb://…"`); else it
      // may be part of it (`appName=it's`) and the rest of the URI is unknown.
      if (text[start - 1] !== char) isTruncated = true;
      break;
    }
    if (STOP_CHARACTERS.has(char) || WHITE_SPACE.test(char)) break;
    if (char === '[') bracketDepth++;
    else if (char === ']') {
      if (bracketDepth === 0) break;
      bracketDepth--;
    } else if (char === '(') parenDepth++;
    else if (char === ')') {
      if (parenDepth === 0) break;
      parenDepth--;
    }
    index++;
  }
  if (index >= limit && limit < text.length) isTruncated = true;
  let end = index;
  const lastTemplateEnd = templates.at(-1)?.end ?? 0;
  while (end > start + schemeLength && end > lastTemplateEnd && TRAILING_PUNCTUATION.has(text[end - 1]!)) end--;
  return splitToken(text, start, end, schemeLength, templates, isTruncated);
}

/** Index of the `}` that ends a `${` opened before `from`, skipping nested braces and quoted strings; -1 if none. */
function findTemplateEnd(text: string, from: number, limit: number): number {
  let depth = 0;
  let quote: string | undefined;
  for (let index = from; index < limit; index++) {
    const char = text[index]!;
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
    } else if (char === '\n' && depth === 0 && index - from > 200) return -1;
  }
  return -1;
}

function splitToken(
  text: string,
  start: number,
  end: number,
  schemeLength: number,
  templates: Piece[],
  isTruncated: boolean,
): ConnectionStringToken {
  const isInTemplate = (offset: number) => templates.some((piece) => offset >= piece.start && offset < piece.end);
  /** First offset in [from, to) holding one of `chars` outside templates, or -1. */
  const findChar = (chars: string, from: number, to: number): number => {
    for (let offset = from; offset < to; offset++) {
      if (chars.includes(text[offset]!) && !isInTemplate(offset)) return offset;
    }
    return -1;
  };
  const raw = text.slice(start, end);
  const afterScheme = start + schemeLength;

  // User info runs to the first `@`; the password is what follows the first `:` in it.
  let hostsStart = afterScheme;
  let password: ConnectionStringToken['password'];
  const at = findChar('@', afterScheme, end);
  if (at !== -1) {
    hostsStart = at + 1;
    const colon = findChar(':', afterScheme, at);
    if (colon !== -1) password = { start: colon + 1, end: at };
  }
  let hostsEnd = findChar('/?', hostsStart, end);
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
      const segmentTemplated = templates.some((piece) => piece.start < to && piece.end > from);
      const equals = findChar('=', from, to);
      if (segmentTemplated && (equals === -1 || templates.some((piece) => piece.start < equals && piece.end > from))) {
        hasTemplatedOptions = true;
      }
      const key = equals === -1 ? text.slice(from, to) : text.slice(from, equals);
      const valueStart = equals === -1 ? to : equals + 1;
      options.push({ key, value: text.slice(valueStart, to), start: from, end: to, valueStart, isTemplated: segmentTemplated });
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
    isTruncated,
    password,
    templates,
  };
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
 */
export function getParseableUri(text: string, token: ConnectionStringToken, edits: readonly TextEdit[] = []): string {
  const pieces = [
    ...token.templates.map((piece) => ({ range: [piece.start, piece.end] as [number, number], text: 'tmpl' })),
    ...edits,
  ].sort((a, b) => b.range[0] - a.range[0] || b.range[1] - a.range[1]);
  let raw = text.slice(token.start, token.end);
  // From the end backwards, so earlier offsets stay valid.
  for (const piece of pieces) {
    raw = raw.slice(0, piece.range[0] - token.start) + piece.text + raw.slice(piece.range[1] - token.start);
  }
  return raw;
}

/** A replacement of `range` (offsets in the scanned text) by `text`, as ESLint fixes are. */
export interface TextEdit {
  range: [number, number];
  text: string;
}
