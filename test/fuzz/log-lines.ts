// Lines the language server logs (server/src/server.ts, server/src/lint.ts), with a
// hostile connection string where a document name, a file name or an error message goes,
// and `console.*` output formatted as the server formats it (`util.format`, which quotes
// and escapes strings inside objects).
import { format } from 'node:util';
import fc from 'fast-check';
import { uriArb } from './connection-strings';
import type { FuzzInput } from './input';

const SCHEMES = ['mongodb://', 'mongodb+srv://', 'postgres://', 'redis://', 'amqp://', 'https://'];

/** An error as the server describes it: its stack, here a fixed one (no paths of this machine). */
function errorWith(message: string): string {
  return `MongoParseError: ${message}\n    at parseOptions (file:///srv/app/node_modules/mongodb/lib/connection_string.js:1:1)\n    at connect (file:///srv/app/db.js:2:3)`;
}

const LINES: Array<(uri: string) => string> = [
  (uri) => `Linting untitled:${uri} failed: ${errorWith('Invalid connection string')}`,
  (uri) => `Linting file:///srv/app/config/.env failed: ${errorWith(`Invalid connection string ${uri}`)}`,
  (uri) => `Skipped ${uri}: binary content.`,
  (uri) => `${uri} v3: not linted, a parse error`,
  (uri) => `untitled:${uri} v1: 2 finding(s) in 1.4 ms`,
  (uri) => `Could not read settings for ${uri}: ${errorWith('timeout')}`,
  (uri) => `Rule retry-safety/mongo-retry-writes-connection-string threw on ${uri}; its findings are left out: ${errorWith(`cannot read ${uri}`)}`,
  (uri) => format('connecting to %s', uri),
  (uri) => format({ uri, poolSize: 5 }),
  (uri) => format('%o', { url: uri }),
  (uri) => format('config %j', { mongo: { url: uri } }),
  (uri) => `Uncaught: Error: connect ECONNREFUSED ${uri} (retry 3)`,
];

export const logLineArb: fc.Arbitrary<FuzzInput> = fc
  .record({
    uris: fc.array(fc.tuple(uriArb, fc.constantFrom(...SCHEMES)), { minLength: 1, maxLength: 3 }),
    lines: fc.array(fc.nat(), { minLength: 1, maxLength: 4 }),
  })
  .map(({ uris, lines }) => {
    const written = uris.map(([uri, scheme]) => scheme + uri.uri.slice(uri.uri.indexOf('://') + 3));
    const logLines = lines.map((index, position) => LINES[index % LINES.length]!(written[position % written.length]!));
    return {
      family: 'log-line',
      filename: '',
      text: '',
      engine: 'eslint10',
      secrets: uris.flatMap(([uri]) => uri.passwordSecrets),
      passwords: uris.flatMap(([uri]) => (uri.password === undefined ? [] : [uri.password])),
      templates: [],
      uris: [],
      logLines,
      origin: 'log lines',
    } satisfies FuzzInput;
  });
