// Generated connection strings written into a file of every kind of `file-kinds.ts`:
// string and template literals of code (with the client calls and options objects around
// them), and the value syntaxes of .env, JSON, YAML, properties, TOML, INI, Terraform,
// shell, configuration and plain-text files.
import fc from 'fast-check';
import { FILE_KINDS } from '../../eslint-plugin/src/index';
import { type GeneratedUri, settingsArb, uriArb } from './connection-strings';
import type { FuzzInput, PlacedUri } from './input';
import type { Engine, ParserName, SourceType } from './lint';

export const engineArb = fc.constantFrom<Engine>('eslint10', 'eslint9');

/** A JavaScript string literal of `value` in `quote`; template pieces stay live in a template literal. */
export function toCodeLiteral(value: string, quote: "'" | '"' | '`', templates: readonly string[]): string {
  const escapeCommon = (text: string) =>
    text.replace(/\\/g, '\\\\').replace(/\r/g, '\\r').replace(/\n/g, '\\n').replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029');
  if (quote !== '`') return quote + escapeCommon(value).split(quote).join(`\\${quote}`) + quote;
  // In a template literal the generated `${NAME}` pieces are expressions; anything else is text.
  const live = templates.filter((piece) => piece.startsWith('${') && /^\$\{[A-Za-z_][\w.]*\}$/.test(piece));
  const pattern = live.length > 0 ? new RegExp(`(${live.map((piece) => piece.replace(/[\\^$.*+?()[\]{}|]/g, '\\$&')).join('|')})`) : undefined;
  const parts = pattern ? value.split(pattern) : [value];
  return `\`${parts.map((part) => (live.includes(part) ? part : escapeCommon(part).replace(/`/g, '\\`').replace(/\$\{/g, '\\${'))).join('')}\``;
}

/** How a connection string sits in code. */
const CODE_PLACES = ['const', 'client', 'client-options', 'mongoose', 'env-fallback', 'object', 'connect-options', 'concat', 'prose', 'comment', 'jsx'] as const;
type CodePlace = (typeof CODE_PLACES)[number];

export function placeInCode(literal: string, uri: string, place: CodePlace, jsx: boolean): string {
  switch (place) {
    case 'const':
      return `export const uri = ${literal};\n`;
    case 'client':
      return `import { MongoClient } from 'mongodb';\nexport const client = new MongoClient(${literal});\n`;
    case 'client-options':
      return `import { MongoClient } from 'mongodb';\nexport const client = new MongoClient(${literal}, { tls: true, retryWrites: false });\n`;
    case 'connect-options':
      return `import { MongoClient } from 'mongodb';\nexport const connection = MongoClient.connect(${literal}, { retryWrites: true });\n`;
    case 'mongoose':
      return `import mongoose from 'mongoose';\nawait mongoose.connect(${literal});\n`;
    case 'env-fallback':
      return `const url = process.env.MONGO_URL ?? ${literal};\nexport default url;\n`;
    case 'object':
      return `export const config = {\n  db: { url: ${literal}, poolSize: 5 },\n};\n`;
    case 'concat':
      return `export const uri = ${literal} + '&w=majority';\n`;
    case 'prose':
      return `export const help = ${JSON.stringify(`Connect with ${uri} and retry.`)};\n`;
    case 'comment':
      return `// ${uri.replace(/[\r\n\u2028\u2029]/g, ' ')}\nexport const x = 1;\n`;
    case 'jsx':
      return jsx ? `export const view = <Database uri={${literal}} />;\n` : `export const uri = ${literal};\n`;
  }
}

/** The code kinds with the parsers and source types that read them. */
const codeFileArb: fc.Arbitrary<{ filename: string; parser: ParserName; sourceType: SourceType }> = fc.oneof(
  fc.constantFrom('file.js', 'file.mjs', 'file.jsx').chain((filename) => fc.record({ filename: fc.constant(filename), parser: fc.constantFrom<ParserName>('espree', 'typescript'), sourceType: fc.constant<SourceType>('module') })),
  fc.constantFrom('file.ts', 'file.mts', 'file.tsx').map((filename) => ({ filename, parser: 'typescript' as const, sourceType: 'module' as const })),
  // CommonJS files have no `import`: the same text is still read (parse errors are counted, not failures).
  fc.constantFrom('file.cjs', 'file.cts').chain((filename) =>
    fc.record({ filename: fc.constant(filename), parser: fc.constant<ParserName>(filename.endsWith('.cts') ? 'typescript' : 'espree'), sourceType: fc.constant<SourceType>('module') }),
  ),
);

const codeDocumentArb: fc.Arbitrary<FuzzInput> = fc
  .record({
    file: codeFileArb,
    uri: uriArb,
    quote: fc.constantFrom<"'" | '"' | '`'>("'", "'", '"', '`'),
    place: fc.constantFrom(...CODE_PLACES),
    settings: settingsArb,
    engine: engineArb,
  })
  .map(({ file, uri, quote, place, settings, engine }) => {
    const literal = toCodeLiteral(uri.uri, quote, uri.templates);
    const text = placeInCode(literal, uri.uri, place, /x$/.test(file.filename));
    return {
      family: 'connection-string',
      ...file,
      text,
      settings: settings.settings,
      engine,
      secrets: [...uri.secrets, ...settings.secrets],
      passwords: uri.password === undefined ? [] : [uri.password],
      templates: uri.templates,
      uris: [],
      origin: `code: ${place}, ${quote === '`' ? 'template' : 'string'} literal`,
    } satisfies FuzzInput;
  });

/** A text-file value syntax: the text around the URI and how the value is decoded. */
interface TextPlace {
  name: string;
  /** Whether the URI can be written this way (a quote it cannot hold, a line break…). */
  accepts?: (uri: string) => boolean;
  before: string;
  after: string;
  /** How the written value is turned into what the application reads. */
  decode: PlacedUri['decode'];
  /** Written as a JSON-style string (escapes). */
  json?: boolean;
}

const noLineBreak = (uri: string) => !/[\r\n\u2028\u2029]/.test(uri);
/** Unquoted values: `#` after white space starts a comment in .env, YAML, shell, INI. */
const unquoted = (uri: string) => noLineBreak(uri) && !/[ \t][#;]/.test(uri);
const without = (quote: string) => (uri: string) => noLineBreak(uri) && !uri.includes(quote);

const TEXT_PLACES: Record<string, TextPlace[]> = {
  dotenv: [
    { name: 'KEY=value', before: 'PORT=3000\nMONGO_URL=', after: '\nLOG_LEVEL=info\n', decode: 'raw', accepts: unquoted },
    { name: 'KEY="value"', before: 'MONGO_URL=', after: '\n', decode: 'json', json: true },
    { name: "KEY='value'", before: "MONGO_URL='", after: "'\n", decode: 'raw', accepts: without("'") },
    { name: 'export KEY=value', before: '# local\nexport MONGO_URL=', after: '\n', decode: 'raw', accepts: unquoted },
    { name: 'value # comment', before: 'MONGO_URL=', after: ' # the cluster\n', decode: 'none', accepts: noLineBreak },
  ],
  JSON: [
    { name: 'object', before: '{\n  "port": 3000,\n  "mongo": {\n    "url": ', after: ',\n    "poolSize": 5\n  }\n}\n', decode: 'json', json: true },
    { name: 'array', before: '["', after: '", "other"]', decode: 'json', json: true },
  ],
  YAML: [
    { name: 'plain', before: 'mongo:\n  url: ', after: '\n  poolSize: 5\n', decode: 'raw', accepts: (uri) => unquoted(uri) && !uri.includes(': ') },
    { name: 'double-quoted', before: 'url: ', after: '\n', decode: 'json', json: true },
    { name: 'single-quoted', before: "url: '", after: "'\n", decode: 'raw', accepts: without("'") },
    { name: 'list item', before: 'uris:\n  - ', after: '\n  - postgres://localhost\n', decode: 'raw', accepts: (uri) => unquoted(uri) && !uri.includes(': ') },
    { name: 'env value', before: 'env:\n  - name: MONGO_URL\n    value: "', after: '"\n', decode: 'json', json: true },
  ],
  'Java properties': [
    { name: 'key=value', before: 'spring.data.mongodb.uri=', after: '\nserver.port=8080\n', decode: 'raw', accepts: noLineBreak },
    { name: 'key: value', before: 'mongo.url: ', after: '\n', decode: 'raw', accepts: noLineBreak },
  ],
  TOML: [
    { name: 'basic string', before: '[database]\nurl = ', after: '\npool = 5\n', decode: 'json', json: true },
    { name: 'literal string', before: "url = '", after: "'\n", decode: 'raw', accepts: without("'") },
  ],
  INI: [
    { name: 'key = value', before: '[mongo]\nuri = ', after: '\n', decode: 'raw', accepts: unquoted },
    { name: 'quoted', before: '[mongo]\nuri=', after: '\n', decode: 'json', json: true },
  ],
  Terraform: [
    { name: 'default', before: 'variable "mongo_url" {\n  default = ', after: '\n}\n', decode: 'json', json: true },
    { name: 'heredoc', before: 'locals {\n  uri = <<EOT\n', after: '\nEOT\n}\n', decode: 'raw', accepts: noLineBreak },
  ],
  'Terraform variables': [{ name: 'assignment', before: 'mongo_url = ', after: '\n', decode: 'json', json: true }],
  'shell script': [
    { name: 'export', before: '#!/bin/sh\nexport MONGO_URL=', after: '\nnode app.js\n', decode: 'json', json: true },
    { name: 'single-quoted argument', before: "mongosh '", after: "' --quiet\n", decode: 'raw', accepts: without("'") },
  ],
  'configuration file': [
    { name: 'key = value', before: 'uri = ', after: '\n', decode: 'raw', accepts: unquoted },
    { name: 'block', before: 'mongo {\n  url = ', after: '\n}\n', decode: 'json', json: true },
  ],
  'plain text': [{ name: 'prose', before: 'Connect with ', after: ' and retry.\n', decode: 'none', accepts: noLineBreak }],
};

/** File names of each text kind (several for the kinds matched by name). */
const TEXT_FILE_NAMES: Record<string, string[]> = {
  dotenv: ['.env', '.env.production', 'app.env', '.env.json'],
  JSON: ['config.json'],
  YAML: ['compose.yaml', 'values.yml'],
  'Java properties': ['application.properties'],
  TOML: ['config.toml'],
  INI: ['settings.ini'],
  Terraform: ['main.tf'],
  'Terraform variables': ['prod.tfvars'],
  'shell script': ['start.sh'],
  'configuration file': ['mongod.conf', 'app.cfg'],
  'plain text': ['notes.txt'],
};

const TEXT_KIND_NAMES = FILE_KINDS.filter((kind) => kind.syntax === 'text').map((kind) => kind.name);

/** Writes `uris` into one text file of `kind`, one value after another, lines ending in `lineEnding`. */
function placeInText(kind: string, uris: GeneratedUri[], placeIndexes: number[], lineEnding: string): { text: string; placed: PlacedUri[] } {
  const places = TEXT_PLACES[kind] ?? TEXT_PLACES['plain text']!;
  let text = '';
  const placed: PlacedUri[] = [];
  uris.forEach((uri, index) => {
    const candidates = places.filter((place) => !place.accepts || place.accepts(uri.uri));
    // A value no syntax of the kind can hold is written as a JSON-style string where there is one.
    const place = candidates[placeIndexes[index]! % Math.max(1, candidates.length)] ?? places.find((candidate) => candidate.json) ?? places[0]!;
    const written = place.json ? JSON.stringify(uri.uri) : uri.uri;
    const before = place.before.replace(/\n/g, lineEnding);
    const start = text.length + before.length + (place.json ? 1 : 0);
    const end = start + written.length - (place.json ? 2 : 0);
    text += before + written + place.after.replace(/\n/g, lineEnding);
    placed.push({ start, end, decode: place.accepts && !place.accepts(uri.uri) ? 'none' : place.decode });
  });
  return { text, placed };
}

const textDocumentArb: fc.Arbitrary<FuzzInput> = fc
  .record({
    kind: fc.constantFrom(...TEXT_KIND_NAMES),
    fileIndex: fc.nat(),
    uris: fc.array(uriArb, { minLength: 1, maxLength: 3 }),
    placeIndexes: fc.array(fc.nat(), { minLength: 3, maxLength: 3 }),
    lineEnding: fc.constantFrom('\n', '\n', '\n', '\r\n', '\r'),
    settings: settingsArb,
    engine: engineArb,
  })
  .map(({ kind, fileIndex, uris, placeIndexes, lineEnding, settings, engine }) => {
    const names = TEXT_FILE_NAMES[kind] ?? ['notes.txt'];
    const filename = `config/${names[fileIndex % names.length]!}`;
    const { text, placed } = placeInText(kind, uris, placeIndexes, lineEnding);
    return {
      family: 'connection-string',
      filename,
      text,
      settings: settings.settings,
      engine,
      secrets: [...uris.flatMap((uri) => uri.secrets), ...settings.secrets],
      passwords: uris.flatMap((uri) => (uri.password === undefined ? [] : [uri.password])),
      templates: [...new Set(uris.flatMap((uri) => uri.templates))],
      uris: placed,
      origin: `text: ${kind}${lineEnding === '\n' ? '' : `, ${JSON.stringify(lineEnding)} line ends`}`,
    } satisfies FuzzInput;
  });

/** A connection string in a file of any kind: code half the time, text the other half. */
export const connectionStringDocumentArb: fc.Arbitrary<FuzzInput> = fc.oneof(codeDocumentArb, textDocumentArb);
