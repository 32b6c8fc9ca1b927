import fc from 'fast-check';
import { ConnectionString } from 'mongodb-connection-string-url';
import { describe, expect, it } from 'vitest';
import { getEngineVersion } from '../../../../eslint-plugin/src/analysis/connection-string/engine-version';
import {
  type ConnectionStringProblem,
  type ConnectionStringScanOptions,
  describeHostKind,
  getConnectionStringProblem,
  getHostKind,
  getMaskedHost,
  getMaskedUri,
  getRetryWritesValue,
  isConnectionStringParseable,
  isDocumentDbCaFile,
} from '../../../../eslint-plugin/src/analysis/connection-string/problems';
import { findConnectionStringTokens, type TextEdit } from '../../../../eslint-plugin/src/analysis/connection-string/scan';
import { expectSameButRetryWrites, readWithDriver } from './driver';

const DOCDB = 'prod.cluster-abc.us-east-1.docdb.amazonaws.com:27017';
/** How messages name it: without the default port. */
const DOCDB_NAME = 'prod.cluster-abc.us-east-1.docdb.amazonaws.com';
const v802: ConnectionStringScanOptions = { engineVersion: getEngineVersion('8.0.2') };
const v500: ConnectionStringScanOptions = { engineVersion: getEngineVersion('5.0.0') };

/** Every connection-string problem in `text`: each URI found, judged by `getConnectionStringProblem`. */
function findConnectionStringProblems(text: string, options: ConnectionStringScanOptions = {}): ConnectionStringProblem[] {
  return findConnectionStringTokens(text, options).flatMap((token) => getConnectionStringProblem(text, token, options) ?? []);
}

/** One edit covering all of `edits` (the text between them kept), as ESLint merges a fix's parts. */
function mergeTextEdits(text: string, edits: readonly TextEdit[]): TextEdit | undefined {
  const sorted = [...edits].sort((a, b) => a.range[0] - b.range[0] || a.range[1] - b.range[1]);
  const first = sorted[0];
  if (!first) return undefined;
  let merged = '';
  let last = first.range[0];
  for (const edit of sorted) {
    if (edit.range[0] < last) return undefined;
    merged += text.slice(last, edit.range[0]) + edit.text;
    last = edit.range[1];
  }
  return { range: [first.range[0], last], text: merged };
}

/** Applies fixes the way ESLint does in one pass: each fix's edits merged into one, sorted by position, a fix overlapping an earlier one skipped. */
function applyFixes(text: string, fixes: readonly (readonly TextEdit[])[]): string {
  const merged = fixes.map((fix) => mergeTextEdits(text, fix)).filter((edit) => edit !== undefined);
  const sorted = [...merged].sort((a, b) => a.range[0] - b.range[0] || a.range[1] - b.range[1]);
  let output = '';
  let last = 0;
  for (const edit of sorted) {
    if (edit.range[0] < last) continue;
    output += text.slice(last, edit.range[0]) + edit.text;
    last = edit.range[1];
  }
  return output + text.slice(last);
}

/** Applies every fix of the text, as one `eslint --fix` pass does. */
function fixText(text: string, options: ConnectionStringScanOptions): string {
  const fixes = findConnectionStringProblems(text, options).flatMap((problem) => (problem.fix ? [problem.fix] : []));
  return applyFixes(text, fixes);
}

function onlyToken(text: string) {
  const tokens = findConnectionStringTokens(text);
  expect(tokens).toHaveLength(1);
  return tokens[0]!;
}

describe('getHostKind', () => {
  const kind = (uri: string, hosts: string[] = []) => getHostKind(onlyToken(uri), hosts);

  it('classifies by host name', () => {
    expect(kind(`mongodb://${DOCDB}/`)).toBe('documentdb');
    expect(kind('mongodb://PROD.CLUSTER-ABC.US-EAST-1.DOCDB.AMAZONAWS.COM:27017/')).toBe('documentdb');
    expect(kind('mongodb://shop-1.us-east-1.docdb-elastic.amazonaws.com:27017/')).toBe('documentdb');
    expect(kind('mongodb://${cluster}.docdb.amazonaws.com:27017/')).toBe('documentdb');
    expect(kind('mongodb+srv://c0.ab.mongodb.net/')).toBe('atlas');
    expect(kind('mongodb://localhost:27017/')).toBe('other');
    expect(kind('mongodb://docdb.amazonaws.com.evil.example/')).toBe('other');
    expect(kind('mongodb://${host}:27017/')).toBe('unknown');
    expect(kind('mongodb://[::1]:27017/')).toBe('other');
    expect(kind('mongodb://app:pw@$')).toBe('unknown');
    expect(kind('mongodb://a.example.com,${other}:27017/')).toBe('unknown');
  });

  it("recognises DocumentDB's CA bundles, with any path and percent-encoding", () => {
    expect(kind('mongodb://10.0.0.5:27017/?tlsCAFile=global-bundle.pem')).toBe('documentdb');
    expect(kind('mongodb://10.0.0.5:27017/?tlscafile=%2Fopt%2Fcerts%2Frds-combined-ca-bundle.pem')).toBe('documentdb');
    expect(kind('mongodb://10.0.0.5:27017/?tlsCAFile=./certs/GLOBAL-BUNDLE.pem')).toBe('documentdb');
    expect(kind('mongodb://10.0.0.5:27017/?tlsCAFile=my-global-bundle.pem')).toBe('other');
  });

  it('matches the documentdb.hosts patterns', () => {
    expect(kind('mongodb://localhost:27018/', ['localhost:27018'])).toBe('documentdb');
    expect(kind('mongodb://localhost:27017/', ['localhost:27018'])).toBe('other');
    expect(kind('mongodb://orders.db.internal.example.com/', ['*.db.internal.example.com'])).toBe('documentdb');
    expect(kind('mongodb://ORDERS.DB.INTERNAL.EXAMPLE.COM:27017/', ['*.db.internal.example.com'])).toBe('documentdb');
    expect(kind('mongodb://db.internal.example.com.evil/', ['*.db.internal.example.com'])).toBe('other');
  });
});

describe('getMaskedUri', () => {
  const mask = (text: string) => getMaskedUri(text, onlyToken(text));

  it('masks the password and secret option values', () => {
    expect(mask(`mongodb://app:hunter2@${DOCDB}/?tls=true`)).toBe(`mongodb://app:****@${DOCDB}/?tls=true`);
    expect(mask('mongodb://app:${secret}@h/')).toBe('mongodb://app:****@h/');
    expect(mask('mongodb://h/?authMechanism=MONGODB-AWS&authMechanismProperties=AWS_SESSION_TOKEN:abc')).toBe(
      'mongodb://h/?authMechanism=MONGODB-AWS&authMechanismProperties=****',
    );
    expect(mask('mongodb://h/?tlsCertificateKeyFilePassword=abc')).toBe('mongodb://h/?tlsCertificateKeyFilePassword=****');
  });

  it('masks a password that holds white space, whole: the URI goes on to its @', () => {
    expect(mask('"mongodb://admin:se cret@h/"')).toBe('mongodb://admin:****@h/');
    expect(mask('"mongodb://admin:se\tcret@h/"')).toBe('mongodb://admin:****@h/');
    expect(mask('mongodb://h1:27017,h2:27017/')).toBe('mongodb://h1:27017,h2:27017/');
    expect(mask('mongodb://app:pw@[::1]:27017/')).toBe('mongodb://app:****@[::1]:27017/');
  });
});

describe('getMaskedHost', () => {
  const host = (text: string) => getMaskedHost(text, onlyToken(text));

  it('names the connection by its host, without the user info, path, options or default port', () => {
    expect(host(`mongodb://app:hunter2@${DOCDB}/orders?tls=true&retryWrites=false`)).toBe(DOCDB_NAME);
    expect(host('mongodb://localhost:27018/app')).toBe('localhost:27018');
    expect(host('mongodb+srv://app:pw@cluster0.ab1cd.mongodb.net/shop')).toBe('cluster0.ab1cd.mongodb.net');
    expect(host('mongodb://app:pw@[::1]:27017/')).toBe('[::1]');
  });

  it('counts the other hosts of a replica set', () => {
    expect(host('mongodb://h1:27017,h2:27017/')).toBe('h1 and 1 other host');
    expect(host('mongodb://h1,h2,h3/?replicaSet=rs0')).toBe('h1 and 2 other hosts');
  });

  it('keeps templates whole, a `/` inside them included', () => {
    expect(host('`mongodb://${user}:${password}@${cluster /* id */}.docdb.amazonaws.com:27017/?tls=true`')).toBe('${cluster /* id */}.docdb.amazonaws.com');
  });

  it('shows no part of a password, even one the scanner does not see whole', () => {
    for (const text of ['mongodb://admin:1234 5678@h/', 'DOCDB_URI=mongodb://admin:12/34@h:27017/x', 'mongodb://h:secret/x', '"mongodb://admin:se cret@h/"']) {
      expect(host(text), text).not.toMatch(/1234|5678|12\/34|secret|se cret/);
    }
    // A password with no `@` after it, behind a `#` (which ends the authority for a URL reading, not for the scanner's).
    expect(host("'mongodb://u:#Ugk1Bloj-#A-southeast-2.docdb-elastic.amazonaws.com/orders?retryWrites=false'")).toBe('u:****');
  });

  it('cuts a very long host', () => {
    const long = `${'a'.repeat(100)}.docdb.amazonaws.com`;
    expect(host(`mongodb://${long}/`)).toHaveLength(80);
    expect(host(`mongodb://${long}/`).endsWith('…')).toBe(true);
  });
});

describe('getRetryWritesValue', () => {
  it('reads the option case-insensitively', () => {
    expect(getRetryWritesValue(onlyToken('mongodb://h/?RETRYWRITES=False'))).toBe(false);
    expect(getRetryWritesValue(onlyToken('mongodb://h/?retrywrites=true'))).toBe(true);
    expect(getRetryWritesValue(onlyToken('mongodb://h/?tls=true'))).toBeUndefined();
    expect(getRetryWritesValue(onlyToken('mongodb://h/?retryWrites=false&retryWrites=true'))).toBeUndefined();
  });
});

describe('findConnectionStringProblems', () => {
  it('DocumentDB 8.0.2+: reports retryWrites=false and removes it', () => {
    const text = `DOCDB_URI=mongodb://u:pw@${DOCDB}/?tls=true&retryWrites=false&readPreference=secondaryPreferred\n`;
    const [problem] = findConnectionStringProblems(text, v802);
    expect(problem).toMatchObject({ kind: 'removeRetryWritesFalse', hostKind: 'documentdb', engineVersion: '8.0.2', suggestion: undefined });
    expect(text.slice(...problem!.range)).toBe('retryWrites=false');
    expect(fixText(text, v802)).toBe(`DOCDB_URI=mongodb://u:pw@${DOCDB}/?tls=true&readPreference=secondaryPreferred\n`);
  });

  it('DocumentDB before 8.0.2: adds retryWrites=false in the form the URI needs', () => {
    expect(fixText(`"mongodb://${DOCDB}"`, v500)).toBe(`"mongodb://${DOCDB}/?retryWrites=false"`);
    expect(fixText(`"mongodb://${DOCDB}/"`, v500)).toBe(`"mongodb://${DOCDB}/?retryWrites=false"`);
    expect(fixText(`"mongodb://${DOCDB}/app"`, v500)).toBe(`"mongodb://${DOCDB}/app?retryWrites=false"`);
    expect(fixText(`"mongodb://${DOCDB}/?"`, v500)).toBe(`"mongodb://${DOCDB}/?retryWrites=false"`);
    expect(fixText(`"mongodb://${DOCDB}/?tls=true&"`, v500)).toBe(`"mongodb://${DOCDB}/?tls=true&retryWrites=false"`);
    expect(fixText(`"mongodb://${DOCDB}/?tls=true"`, v500)).toBe(`"mongodb://${DOCDB}/?tls=true&retryWrites=false"`);
    expect(fixText(`"mongodb://${DOCDB}/?retryWrites=TRUE"`, v500)).toBe(`"mongodb://${DOCDB}/?retryWrites=false"`);
  });

  it('DocumentDB, version unknown: a suggestion only; missing is fine', () => {
    const [problem] = findConnectionStringProblems(`"mongodb://${DOCDB}/?retryWrites=false"`);
    expect(problem).toMatchObject({ kind: 'retryWritesFalseUnknownVersion', fix: undefined });
    expect(problem!.suggestion).toHaveLength(1);
    expect(findConnectionStringProblems(`"mongodb://${DOCDB}/"`)).toEqual([]);
  });

  it('not DocumentDB: a suggestion only, whatever the version', () => {
    for (const options of [v802, v500, {}]) {
      const [problem] = findConnectionStringProblems('mongodb+srv://c0.ab.mongodb.net/?retryWrites=false', options);
      expect(problem).toMatchObject({ kind: 'retryWritesFalseNotDocumentDb', hostKind: 'atlas', fix: undefined });
    }
  });

  it('keeps silent where it cannot be sure', () => {
    const silent = [
      'mongodb://${host}:27017/?retryWrites=false',
      `mongodb://${DOCDB}/?tls=true&\${extra}`,
      `mongodb://${DOCDB}/\${databaseAndOptions}`,
      String.raw`"mongodb://${DOCDB}/?tls=true\u0026retryWrites=false"`,
      `mongodb://${DOCDB}:abc:def/?x`,
      'postgres://u:p@h:5432/db?retryWrites=false',
    ];
    for (const text of silent) expect(findConnectionStringProblems(text, v500), text).toEqual([]);
  });
});

describe('getConnectionStringProblem', () => {
  it('judges one URI of a file, with offsets in the whole text', () => {
    const text = `MONGO_URL=mongodb://localhost:27017/app\nDOCDB_URI=mongodb://u:pw@${DOCDB}/?tls=true&retryWrites=true\n`;
    const [local, docdb] = findConnectionStringTokens(text);
    expect(getConnectionStringProblem(text, local!, v500)).toBeUndefined();
    const problem = getConnectionStringProblem(text, docdb!, v500);
    expect(problem).toMatchObject({ kind: 'setRetryWritesFalse', hostKind: 'documentdb', engineVersion: '5.0.0', host: DOCDB_NAME });
    expect(text.slice(...problem!.range)).toBe('retryWrites=true');
    expect(applyFixes(text, [problem!.fix!])).toBe(`MONGO_URL=mongodb://localhost:27017/app\nDOCDB_URI=mongodb://u:pw@${DOCDB}/?tls=true&retryWrites=false\n`);
  });

  it('reads the DocumentDB host patterns from the options', () => {
    const text = 'mongodb://localhost:27018/?retryWrites=false';
    const token = onlyToken(text);
    expect(getConnectionStringProblem(text, token, v802)?.kind).toBe('retryWritesFalseNotDocumentDb');
    expect(getConnectionStringProblem(text, token, { ...v802, documentDbHosts: ['localhost:27018'] })?.kind).toBe('removeRetryWritesFalse');
  });

  it('says nothing about a URI that does not parse', () => {
    const parses = `mongodb://app:pw@${DOCDB}/?retryWrites=true`;
    expect(getConnectionStringProblem(parses, onlyToken(parses), v500)?.kind).toBe('setRetryWritesFalse');
    // A password with a raw `@` in it: the driver would refuse the URI.
    const broken = `mongodb://app:p@ss@${DOCDB}/?retryWrites=true`;
    expect(getConnectionStringProblem(broken, onlyToken(broken), v500)).toBeUndefined();
  });
});

describe('isConnectionStringParseable', () => {
  it('accepts URIs the driver parses, templates standing for plain words', () => {
    const parseable = (text: string) => isConnectionStringParseable(text, onlyToken(text));
    expect(parseable(`mongodb://u:pw@${DOCDB}/?tls=true`)).toBe(true);
    expect(parseable('mongodb+srv://c0.ab.mongodb.net/app?w=majority')).toBe(true);
    expect(parseable('mongodb://${host}:27017/?retryWrites=false')).toBe(true);
    expect(parseable(`mongodb://app:p@ss@${DOCDB}/`)).toBe(false);
    expect(parseable('mongodb+srv://c0.ab.mongodb.net:27017/')).toBe(false);
    expect(parseable('mongodb+srv://c0.ab.mongodb.net,c1.ab.mongodb.net/')).toBe(false);
  });
});

describe('isDocumentDbCaFile', () => {
  it('knows the CA bundles Amazon hands DocumentDB users, whatever the folder', () => {
    expect(isDocumentDbCaFile('global-bundle.pem')).toBe(true);
    expect(isDocumentDbCaFile('/etc/ssl/certs/rds-combined-ca-bundle.pem')).toBe(true);
    expect(isDocumentDbCaFile('C:\\certs\\Global-Bundle.PEM ')).toBe(true);
    expect(isDocumentDbCaFile('/etc/ssl/certs/ca-certificates.crt')).toBe(false);
    expect(isDocumentDbCaFile('my-global-bundle.pem')).toBe(false);
    expect(isDocumentDbCaFile('global-bundle.pem.bak')).toBe(false);
  });
});

describe('describeHostKind', () => {
  it('names the service for messages', () => {
    expect(describeHostKind('documentdb')).toBe('Amazon DocumentDB');
    expect(describeHostKind('atlas')).toBe('MongoDB Atlas');
    expect(describeHostKind('other')).toBe('MongoDB');
    expect(describeHostKind('unknown')).toBe('MongoDB');
  });

  it('follows getHostKind for real URIs', () => {
    expect(describeHostKind(getHostKind(onlyToken(`mongodb://${DOCDB}/`)))).toBe('Amazon DocumentDB');
    expect(describeHostKind(getHostKind(onlyToken('mongodb+srv://c0.ab.mongodb.net/')))).toBe('MongoDB Atlas');
  });
});

// Arbitraries for the property tests: URIs from realistic parts, placed in realistic files.
const hostArb = fc.constantFrom(DOCDB, 'shop-1.us-east-1.docdb-elastic.amazonaws.com:27017', 'c0.ab1cd.mongodb.net', 'localhost:27017', 'h1:27017,h2:27018', '10.0.0.5:27017', '${host}:27017');
const optionArb = fc.constantFrom('tls=true', 'tlsCAFile=global-bundle.pem', 'replicaSet=rs0', 'readPreference=secondaryPreferred', 'retryWrites=false', 'RetryWrites=false', 'retrywrites=true', 'retryWrites=true', 'w=majority', 'appName=api', '');
const passwordArb = fc.stringMatching(/^[A-Za-z0-9!*()_~-]{6,16}$/).map((password) => `Pw${password}`);
const uriArb = fc.record({
  scheme: fc.constantFrom('mongodb://', 'mongodb+srv://'),
  password: fc.option(passwordArb, { nil: undefined }),
  host: hostArb,
  path: fc.constantFrom('', '/', '/app'),
  options: fc.option(fc.array(optionArb, { maxLength: 4 }), { nil: undefined }),
}).map(({ scheme, password, host, path, options }) => ({
  password,
  uri:
    scheme +
    (password ? `app:${password}@` : '') +
    (scheme === 'mongodb+srv://' ? host.split(/[:,]/)[0] : host) +
    (options ? `${path || '/'}?${options.join('&')}` : path),
}));
const placeArb = fc.constantFrom(
  (uri: string) => `DOCDB_URI=${uri}\nPORT=3000\n`,
  (uri: string) => `{ "db": { "uri": "${uri}" } }`,
  (uri: string) => `db:\n  uri: '${uri}'\n`,
  (uri: string) => `const uri = \`${uri}\`;`,
  (uri: string) => `resource "x" "y" {\n  value = "${uri}"\n}\n`,
);
const optionsArb = fc.constantFrom<ConnectionStringScanOptions>(v802, v500, {}, { ...v500, documentDbHosts: ['localhost:27017'] });

describe('properties', () => {
  it('never throws on arbitrary text', () => {
    const textArb = fc.oneof(
      fc.string({ unit: 'binary', maxLength: 300 }),
      fc.array(fc.constantFrom('mongodb://', 'mongodb+srv://', '${', '{{', '}}', '}', '@', ':', '/', '?', '&', '=', 'retryWrites=false', '.docdb.amazonaws.com', '[', ']', '"', '\\', ' ', '\n', 'a'), { maxLength: 40 }).map((parts) => parts.join('')),
    );
    fc.assert(
      fc.property(textArb, optionsArb, (text, options) => {
        const problems = findConnectionStringProblems(text, { ...options, skipCommentLines: true });
        fixText(text, options);
        for (const problem of problems) expect(problem.range[0]).toBeLessThanOrEqual(problem.range[1]);
      }),
      { numRuns: 2000 },
    );
  });

  it('applying the fixes twice equals applying them once', () => {
    fc.assert(
      fc.property(fc.array(uriArb, { minLength: 1, maxLength: 3 }), placeArb, optionsArb, (uris, place, options) => {
        const text = uris.map(({ uri }) => place(uri)).join('\n');
        const once = fixText(text, options);
        expect(fixText(once, options)).toBe(once);
      }),
      { numRuns: 1000 },
    );
  });

  it('a fixed URI parses and has the retryWrites the engine needs', () => {
    fc.assert(
      fc.property(uriArb, placeArb, fc.constantFrom(v802, v500), ({ uri }, place, options) => {
        const text = place(uri);
        const [token] = findConnectionStringTokens(text);
        const problem = findConnectionStringProblems(text, options)[0];
        fc.pre(problem?.fix !== undefined && token !== undefined && !token.isTemplated);
        const fixed = fixText(text, options);
        const [fixedToken] = findConnectionStringTokens(fixed);
        const parsed = new ConnectionString(fixedToken!.raw);
        const values = [...parsed.searchParams.entries()].filter(([key]) => key.toLowerCase() === 'retrywrites').map(([, value]) => value.toLowerCase());
        if (options === v802) expect(values.includes('false')).toBe(false);
        else expect(values.length > 0 && values.every((value) => value === 'false')).toBe(true);
      }),
      { numRuns: 1000 },
    );
  });

  it('never puts the password in a message', () => {
    const anyPasswordArb = fc.string({ minLength: 6, maxLength: 20 }).filter((password) => !password.includes('@') && password.trim().length >= 6);
    fc.assert(
      fc.property(uriArb, fc.oneof(passwordArb, anyPasswordArb), placeArb, optionsArb, ({ uri }, password, place, options) => {
        const withPassword = uri.replace(/^(mongodb(?:\+srv)?:\/\/)(?:[^@/]*@)?/, `$1app:${password}@`);
        const text = place(withPassword);
        for (const problem of findConnectionStringProblems(text, options)) {
          expect([problem.host, getMaskedUri(text, problem.token)].join(' ')).not.toContain(password);
        }
      }),
      { numRuns: 2000 },
    );
  });
});

/** `text` with `edits` applied (one fix or suggestion). */
function applyEdits(text: string, edits: readonly TextEdit[]): string {
  return applyFixes(text, [edits]);
}

/** The one problem of `text`; its edits checked with the driver: they change `retryWrites` and nothing else. */
function checkedProblem(text: string, options: ConnectionStringScanOptions, readings: (uri: string) => string[] = (uri) => [uri]) {
  const problems = findConnectionStringProblems(text, options);
  expect(problems, text).toHaveLength(1);
  const problem = problems[0]!;
  for (const [edits, retryWrites] of [
    [problem.fix, problem.kind === 'removeRetryWritesFalse' ? true : false],
    [problem.suggestion, true],
  ] as const) {
    if (!edits) continue;
    const edited = applyEdits(text, edits);
    const [after] = findConnectionStringTokens(edited, { skipCommentLines: true });
    const before = readings(problem.token.raw);
    const afterReadings = readings(after!.raw);
    // Each reading of the URI the driver accepts is changed in retryWrites only.
    before.forEach((uri, index) => {
      if (readWithDriver(uri)) expectSameButRetryWrites(uri, afterReadings[index]!, retryWrites);
    });
  }
  return problem;
}

describe('regressions: where a URI ends', () => {
  const marks = ['.', ',', ';', ':', '!', ')', ']'];

  it.each(marks)('a URI before a trailing %s in a text file: retryWrites=false goes first, right for both readings', (mark) => {
    const text = `description: connect to mongodb://app:pw@${DOCDB}/?tls=true&appName=shop${mark}\n`;
    // The mark is prose, or the last character of appName: the fix must suit both.
    const problem = checkedProblem(text, v500, (uri) => [uri, `${uri}${mark}`]);
    expect(problem.kind).toBe('addRetryWritesFalse');
    expect(applyEdits(text, problem.fix!)).toBe(`description: connect to mongodb://app:pw@${DOCDB}/?retryWrites=false&tls=true&appName=shop${mark}\n`);
  });

  it.each(marks)('a URI without options before a trailing %s: reported, not fixed (no edit suits both readings)', (mark) => {
    const problem = checkedProblem(`URI=mongodb://${DOCDB}/shop${mark}\n`, v500);
    expect(problem).toMatchObject({ kind: 'addRetryWritesFalse', fix: undefined });
  });

  it.each(marks)('retryWrites=false before a trailing %s is removed when it is not last; last, it is reported only', (mark) => {
    const text = `See mongodb://${DOCDB}/?retryWrites=false&tls=true${mark}`;
    const problem = checkedProblem(text, v802, (uri) => [uri, `${uri}${mark}`]);
    expect(applyEdits(text, problem.fix!)).toBe(`See mongodb://${DOCDB}/?tls=true${mark}`);
    // Removing the last option would leave the mark to the option before it, or to the path.
    expect(checkedProblem(`See mongodb://${DOCDB}/?tls=true&retryWrites=false${mark}`, v802)).toMatchObject({ kind: 'removeRetryWritesFalse', fix: undefined });
    expect(checkedProblem(`See mongodb://${DOCDB}/?retryWrites=true${mark}`, v500)).toMatchObject({ kind: 'setRetryWritesFalse', fix: undefined });
  });

  it.each(marks)('a URI ending in %s between quotes ends there: the fix goes after it', (mark) => {
    const text = `const uri = "mongodb://${DOCDB}/?tls=true&appName=shop${mark}";`;
    const problem = checkedProblem(text, v500);
    expect(applyEdits(text, problem.fix!)).toBe(`const uri = "mongodb://${DOCDB}/?tls=true&appName=shop${mark}&retryWrites=false";`);
  });

  it('says nothing of a URI whose options go on after `|` or `)` they were once cut at', () => {
    expect(findConnectionStringProblems(`URI=mongodb://${DOCDB}/?appName=a|b&retryWrites=false`, v500)).toEqual([]);
    // `)` no longer ends it: retryWrites=false is seen, nothing is added twice.
    expect(findConnectionStringProblems(`URI=mongodb://${DOCDB}/?appName=a)b&retryWrites=false`, v500)).toEqual([]);
  });
});

describe('regressions: option names and values as the driver reads them', () => {
  it('retry%57rites=false is retryWrites=false', () => {
    const text = `DOCDB_URI=mongodb://${DOCDB}/?tls=true&retry%57rites=false\n`;
    expect(readWithDriver(`mongodb://${DOCDB}/?tls=true&retry%57rites=false`)?.retryWrites).toBe(false);
    const problem = checkedProblem(text, v802);
    expect(text.slice(...problem.range)).toBe('retry%57rites=false');
    expect(applyEdits(text, problem.fix!)).toBe(`DOCDB_URI=mongodb://${DOCDB}/?tls=true\n`);
    // Before 8.0.2 it is what the engine needs: nothing to add.
    expect(findConnectionStringProblems(text, v500)).toEqual([]);
  });

  it('retry%57rites=true and retryWrites=f%61lse are read decoded too', () => {
    const text = `mongodb://${DOCDB}/?retry%57rites=true`;
    const problem = checkedProblem(text, v500);
    expect(problem.kind).toBe('setRetryWritesFalse');
    expect(applyEdits(text, problem.fix!)).toBe(`mongodb://${DOCDB}/?retry%57rites=false`);
    expect(checkedProblem(`mongodb://${DOCDB}/?retryWrites=f%61lse`, v802).kind).toBe('removeRetryWritesFalse');
    expect(checkedProblem('mongodb://localhost:27017/?retry%57rites=false', {}).kind).toBe('retryWritesFalseNotDocumentDb');
  });
});

describe('regressions: passwords with characters that end a URI elsewhere', () => {
  const specials = [' ', '\t', '<', '>', '^', '|', '{', '}', '"', "'", '`'];
  const tunnel = (hosts: string[]): ConnectionStringScanOptions => ({ ...v500, documentDbHosts: hosts });

  it.each(specials)('%j in the password of a DocumentDB URI in .env: the fix goes at its real end, the message masks it', (special) => {
    const password = `12${special}34`;
    const text = `DOCDB_URI=mongodb://admin:${password}@${DOCDB}/?tls=true\nPORT=3000\n`;
    const problem = checkedProblem(text, v500);
    expect(applyEdits(text, problem.fix!)).toBe(`DOCDB_URI=mongodb://admin:${password}@${DOCDB}/?tls=true&retryWrites=false\nPORT=3000\n`);
    expect(getMaskedUri(text, problem.token)).toBe(`mongodb://admin:****@${DOCDB}/?tls=true`);
    expect(problem.host).toBe(DOCDB_NAME);
  });

  it.each(specials)('%j in the password, with a documentdb.hosts setting: the host is the one after the @', (special) => {
    const password = `12${special}34`;
    const text = `MONGO_URL=mongodb://admin:${password}@localhost:27018/app\n`;
    for (const hosts of [['localhost:27018'], ['*'], ['*:27018']]) {
      const problem = checkedProblem(text, tunnel(hosts));
      expect(applyEdits(text, problem.fix!)).toBe(`MONGO_URL=mongodb://admin:${password}@localhost:27018/app?retryWrites=false\n`);
      expect([problem.host, getMaskedUri(text, problem.token)].join(' ')).not.toContain(password);
    }
    // `admin` (once read as the host) is not a DocumentDB host.
    expect(findConnectionStringProblems(text, tunnel(['admin', 'admin:12']))).toEqual([]);
  });

  it.each(specials)('%j in the password, without a hosts setting: a suggestion that the driver reads as the same URI', (special) => {
    const password = `12${special}34`;
    const text = `MONGO_URL=mongodb://admin:${password}@localhost:27017/app?retryWrites=false\n`;
    const problem = checkedProblem(text, {});
    expect(problem.kind).toBe('retryWritesFalseNotDocumentDb');
    expect(getMaskedUri(text, problem.token)).toBe('mongodb://admin:****@localhost:27017/app?retryWrites=false');
    expect(problem.host).toBe('localhost');
  });

  it('`admin:1234 5678@…`: not a host `admin` on port 1234, and no fix inside the password', () => {
    const text = `MONGODB_URI=mongodb://admin:1234 5678@${DOCDB}/?tls=true\n`;
    for (const options of [v500, tunnel(['*'])]) {
      const problem = checkedProblem(text, options);
      expect(getMaskedUri(text, problem.token)).toBe(`mongodb://admin:****@${DOCDB}/?tls=true`);
      expect(problem.host).toBe(DOCDB_NAME);
      expect(applyEdits(text, problem.fix!)).toBe(`MONGODB_URI=mongodb://admin:1234 5678@${DOCDB}/?tls=true&retryWrites=false\n`);
    }
  });

  it('`Pa{{ss@{{ cluster }}.docdb.amazonaws.com`: `{{ss@{{ cluster }}` is no template, the password is masked', () => {
    const literal = (text: string) => text.replace('{{ cluster }}', 'prod');
    for (const place of [(uri: string) => `DOCDB_URI=${uri}\n`, (uri: string) => `const uri = \`${uri}\`;`]) {
      const text = place('mongodb://app:Pa{{ss@{{ cluster }}.docdb.amazonaws.com:27017/?tls=true&retryWrites=false');
      const problem = checkedProblem(text, v802, (uri) => [literal(uri)]);
      expect(getMaskedUri(text, problem.token)).toBe('mongodb://app:****@{{ cluster }}.docdb.amazonaws.com:27017/?tls=true&retryWrites=false');
      expect(problem.host).toBe('{{ cluster }}.docdb.amazonaws.com');
      expect(applyEdits(text, problem.fix!)).toBe(place('mongodb://app:Pa{{ss@{{ cluster }}.docdb.amazonaws.com:27017/?tls=true'));
      const missing = place('mongodb://app:Pa{{ss@{{ cluster }}.docdb.amazonaws.com:27017/?tls=true');
      expect(applyEdits(missing, checkedProblem(missing, v500, (uri) => [literal(uri)]).fix!)).toBe(
        place('mongodb://app:Pa{{ss@{{ cluster }}.docdb.amazonaws.com:27017/?tls=true&retryWrites=false'),
      );
    }
  });

  it('a URI cut by an escape before its @ is unknown: no host, no report', () => {
    const text = String.raw`"mongodb://admin:12\u002034@localhost:27018/app"`;
    expect(findConnectionStringProblems(text, tunnel(['*']))).toEqual([]);
    expect(getHostKind(onlyToken(text), ['*'])).toBe('unknown');
  });
});

describe('regressions: fuzz inputs', () => {
  const tunnel = (version: string, hosts: string[]): ConnectionStringScanOptions => ({ engineVersion: getEngineVersion(version), documentDbHosts: hosts });
  const problemsOf = (text: string, options: ConnectionStringScanOptions) => findConnectionStringProblems(text, { ...options, skipCommentLines: true });

  it('a password ending in U+2028 or U+2029: the host is the one after the @, the fix goes at the end of the URI', () => {
    for (const separator of ['\u2028', '\u2029']) {
      const text = `MONGO_URL="mongodb://app:28011${separator}@localhost"\nPORT=3000\n`;
      const problem = checkedProblem(text, tunnel('4.0.0', ['*', 'localhost:27018']));
      expect(getMaskedUri(text, problem.token)).toBe('mongodb://app:****@localhost');
      expect(problem.host).toBe('localhost');
      expect(applyEdits(text, problem.fix!)).toBe(`MONGO_URL="mongodb://app:28011${separator}@localhost/?retryWrites=false"\nPORT=3000\n`);
      // With another connection string after it, as the fuzz input had.
      const problems = problemsOf(`${text}MONGO_URL=mongodb://localhost\n`, tunnel('4.0.0', ['*']));
      expect(problems.map((each) => each.host)).toEqual(['localhost', 'localhost']);
    }
  });

  it('a password holding an @ and then a space (`app:@pw *@host`): one URI the driver refuses, nothing shown or fixed', () => {
    expect(problemsOf('MONGO_URL=mongodb://app:@SktkE6cc *@x.docdb.amazonaws.com/orders\n', tunnel('4.0.0', ['*']))).toEqual([]);
  });

  it('a password holding an unclosed ${ in a Terraform heredoc: no fix after the end of its line', () => {
    const text = 'locals {\n  uri = <<EOT\nmongodb://app:${12651@cluster0.c1a2b3c4d5e6.mongodb.net\nEOT\n}\nvariable "mongo_url" {\n  default = "x"\n}\n';
    expect(problemsOf(text, tunnel('3.6', ['*']))).toEqual([]);
  });

  it('a password holding a scheme (`12587 Xmongodb://`, `12587 mongodb://X`): no part of it in a message', () => {
    const host = 'orders.cluster-c1a2b3c4d5e6.us-east-1.docdb.amazonaws.com';
    const passwords: Array<[string, string[]]> = [
      ['12587 Q0yaJl8rmongodb://', ['12587', 'Q0yaJl8r']],
      ['12587 mongodb://Q0yaJl8r', ['12587', 'Q0yaJl8r']],
      ['A1bcD2e@F3ghJ4/K5mnP6 mongodb://Q0yaJl8r', ['A1bcD2e', 'F3ghJ4', 'K5mnP6', 'Q0yaJl8r']],
    ];
    let reported = 0;
    for (const [password, secrets] of passwords) {
      const text = `MONGO_URL=mongodb://app:${password}@${host}/db?retryWrites=false\n`;
      for (const options of [tunnel('5.0.0', ['*']), v500, v802]) {
        for (const problem of problemsOf(text, options)) {
          reported++;
          for (const secret of secrets) expect([problem.host, getMaskedUri(text, problem.token)].join(' ')).not.toContain(secret);
        }
      }
    }
    // The URIs cut at the space (`mongodb://app:12587`, `…@F3ghJ4/K5mnP6`) parse and are reported.
    expect(reported).toBeGreaterThan(0);
  });
});

describe('properties against the driver', () => {
  const specialPasswordArb = fc
    .string({ minLength: 4, maxLength: 16, unit: fc.constantFrom(...'aZ9_-. \t"\'`<>^|{}()!*,;~'.split('')) })
    .filter((password) => /[a-zA-Z0-9]{2}/.test(password))
    .map((password) => `Pw${password}`);
  const hostedUriArb = fc.record({
    password: fc.oneof(passwordArb, specialPasswordArb),
    host: fc.constantFrom(DOCDB, 'localhost:27018', 'c0.ab1cd.mongodb.net', '10.0.0.5:27017'),
    path: fc.constantFrom('/', '/app'),
    options: fc.array(optionArb, { maxLength: 4 }),
    tail: fc.constantFrom('', '', '.', ')', ','),
  });
  const hostileOptionsArb = fc.constantFrom<ConnectionStringScanOptions>(v802, v500, {}, { ...v500, documentDbHosts: ['*'] }, { ...v802, documentDbHosts: ['localhost:*'] });
  /** Where the URI is written; between quotes, the string is the URI, trailing mark and all. */
  const textPlaceArb = fc.constantFrom(
    { quoted: false, place: (uri: string) => `DOCDB_URI=${uri}\nPORT=3000\n` },
    { quoted: false, place: (uri: string) => `db:\n  uri: ${uri}\n` },
    { quoted: false, place: (uri: string) => `Connect with ${uri}\n` },
    { quoted: true, place: (uri: string) => `{ "db": { "uri": "${uri}" } }` },
    { quoted: true, place: (uri: string) => `const uri = \`${uri}\`;` },
  );

  it('every fix and suggestion changes retryWrites and nothing else the driver reads; no message shows the password', () => {
    let edited = 0;
    fc.assert(
      fc.property(hostedUriArb, textPlaceArb, hostileOptionsArb, ({ password, host, path, options, tail }, { quoted, place }, scanOptions) => {
        const uri = `mongodb://app:${password}@${host}${options.length > 0 ? `${path}?${options.join('&')}` : path}`;
        const text = place(`${uri}${tail}`);
        const [prefix, suffix] = place('\u0000').split('\u0000') as [string, string];
        // The URI as written, and with the trailing mark (outside quotes: prose, or part of the URI).
        const readings = (content: string) => {
          if (quoted) return [content.slice(prefix.length, content.length - suffix.length)];
          const written = content.slice(prefix.length, content.length - suffix.length - tail.length);
          return tail === '' ? [written] : [written, `${written}${tail}`];
        };
        const secrets = [password, ...password.split(/[^A-Za-z0-9]/).filter((piece) => piece.length >= 4)];
        for (const problem of findConnectionStringProblems(text, { ...scanOptions, skipCommentLines: true })) {
          for (const secret of secrets) expect([problem.host, getMaskedUri(text, problem.token)].join(' ')).not.toContain(secret);
          for (const [edits, retryWrites] of [
            [problem.fix, problem.kind === 'removeRetryWritesFalse'],
            [problem.suggestion, true],
          ] as const) {
            if (!edits) continue;
            const before = readings(text);
            const after = readings(applyEdits(text, edits));
            before.forEach((reading, index) => {
              if (readWithDriver(reading)) expectSameButRetryWrites(reading, after[index]!, retryWrites);
            });
            edited++;
          }
        }
      }),
      { numRuns: 1500 },
    );
    expect(edited).toBeGreaterThan(100);
  });
});
