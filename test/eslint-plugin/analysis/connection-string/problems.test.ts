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
  getMaskedUri,
  getRetryWritesValue,
  isConnectionStringParseable,
  isDocumentDbCaFile,
} from '../../../../eslint-plugin/src/analysis/connection-string/problems';
import { findConnectionStringTokens, type TextEdit } from '../../../../eslint-plugin/src/analysis/connection-string/scan';

const DOCDB = 'prod.cluster-abc.us-east-1.docdb.amazonaws.com:27017';
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

  it('masks what looks like a password when the URI is cut inside it', () => {
    expect(mask('"mongodb://admin:se cret@h/"')).toBe('mongodb://admin:****');
    expect(mask('"mongodb://admin:se\tcret@h/"')).toBe('mongodb://admin:****');
    expect(mask('mongodb://h1:27017,h2:27017/')).toBe('mongodb://h1:27017,h2:27017/');
    expect(mask('mongodb://app:pw@[::1]:27017/')).toBe('mongodb://app:****@[::1]:27017/');
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
    expect(problem).toMatchObject({ kind: 'setRetryWritesFalse', hostKind: 'documentdb', engineVersion: '5.0.0', uri: `mongodb://u:****@${DOCDB}/?tls=true&retryWrites=true` });
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
          expect(problem.uri).not.toContain(password);
        }
      }),
      { numRuns: 2000 },
    );
  });
});
