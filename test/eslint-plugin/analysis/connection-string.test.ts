import fc from 'fast-check';
import { ConnectionString } from 'mongodb-connection-string-url';
import { describe, expect, it } from 'vitest';
import { applyFixes } from '../../../eslint-plugin/src/analysis/connection-string/edit';
import { type ConnectionStringScanOptions, findConnectionStringProblems, getHostKind, getMaskedUri, getRetryWritesValue } from '../../../eslint-plugin/src/analysis/connection-string/problems';
import { findConnectionStringTokens } from '../../../eslint-plugin/src/analysis/connection-string/scan';
import { compareEngineVersions, getEngineVersion, getRetrySafetySettings, isRetryableWritesEngine } from '../../../eslint-plugin/src/analysis/connection-string/settings';

const DOCDB = 'prod.cluster-abc.us-east-1.docdb.amazonaws.com:27017';
const v802: ConnectionStringScanOptions = { engineVersion: getEngineVersion('8.0.2') };
const v500: ConnectionStringScanOptions = { engineVersion: getEngineVersion('5.0.0') };

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

describe('findConnectionStringTokens', () => {
  it.each([
    ['.env', `DOCDB_URI=mongodb://u:p@${DOCDB}/?tls=true\nOTHER=1`, `mongodb://u:p@${DOCDB}/?tls=true`],
    ['.env quoted', `DOCDB_URI="mongodb://u:p@${DOCDB}/?tls=true" # prod`, `mongodb://u:p@${DOCDB}/?tls=true`],
    ['YAML', `db:\n  uri: 'mongodb+srv://c0.ab.mongodb.net/app?w=majority'\n`, 'mongodb+srv://c0.ab.mongodb.net/app?w=majority'],
    ['JSON', `{"uri":"mongodb://localhost:27017/app"}`, 'mongodb://localhost:27017/app'],
    ['TOML', `uri = "mongodb://h1:27017,h2:27017/?replicaSet=rs0"`, 'mongodb://h1:27017,h2:27017/?replicaSet=rs0'],
    ['Terraform', 'value = "mongodb://${var.user}:${var.password}@${aws_docdb_cluster.main.endpoint}:27017/?tls=true"', 'mongodb://${var.user}:${var.password}@${aws_docdb_cluster.main.endpoint}:27017/?tls=true'],
    ['Helm', 'uri: mongodb://{{ .Values.host }}:27017/', 'mongodb://{{ .Values.host }}:27017/'],
    ['prose', 'Connect to mongodb://localhost:27017.', 'mongodb://localhost:27017'],
    ['markdown link', '[db](mongodb://localhost:27017/app)', 'mongodb://localhost:27017/app'],
    ['IPv6', 'mongodb://[::1]:27017/?directConnection=true', 'mongodb://[::1]:27017/?directConnection=true'],
    ['a line separator', 'URI=mongodb://localhost:27017/app\u2028NEXT=1', 'mongodb://localhost:27017/app'],
    ['a no-break space', 'uri:\u00a0mongodb://localhost:27017/app\u00a0# local', 'mongodb://localhost:27017/app'],
  ])('finds the URI in %s with exact offsets', (_kind, text, uri) => {
    const token = onlyToken(text);
    expect(token.raw).toBe(uri);
    expect(text.slice(token.start, token.end)).toBe(uri);
  });

  it('splits hosts, path and options with offsets', () => {
    const text = `x = 'mongodb://u:pw@a.example.com:1,b.example.com:2/db?tls=true&retryWrites=false'`;
    const token = onlyToken(text);
    expect(token.hosts).toEqual(['a.example.com:1', 'b.example.com:2']);
    expect(token.hasPath).toBe(true);
    expect(token.options.map((option) => [option.key, option.value, text.slice(option.start, option.end)])).toEqual([
      ['tls', 'true', 'tls=true'],
      ['retryWrites', 'false', 'retryWrites=false'],
    ]);
    expect(text.slice(token.password!.start, token.password!.end)).toBe('pw');
  });

  it('finds several URIs and skips comment lines on request', () => {
    const text = 'A=mongodb://a:1\n# B=mongodb://b:2\n  // C=mongodb://c:3\nD=mongodb://d:4';
    expect(findConnectionStringTokens(text).map((token) => token.raw)).toHaveLength(4);
    expect(findConnectionStringTokens(text, { skipCommentLines: true }).map((token) => token.raw)).toEqual([
      'mongodb://a:1',
      'mongodb://d:4',
    ]);
  });

  it('marks a URI cut by an escape, an unclosed template or a quote that did not open it as truncated', () => {
    expect(onlyToken(String.raw`'mongodb://h/?a=1\u0026retryWrites=false'`).isTruncated).toBe(true);
    expect(onlyToken('`mongodb://${host').isTruncated).toBe(true);
    expect(onlyToken('mongodb://h/?a=1').isTruncated).toBe(false);
    expect(onlyToken(`"mongodb://h/?a=1"`).isTruncated).toBe(false);
    expect(onlyToken(`URI=mongodb://h/?appName=it's&retryWrites=false`).isTruncated).toBe(true);
    expect(onlyToken(`"Connect with mongodb://h/?a=1"`).isTruncated).toBe(true);
  });

  it('ignores other schemes that end in mongodb://', () => {
    expect(findConnectionStringTokens('xmongodb://h my-mongodb://h')).toEqual([]);
  });
});

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

describe('settings', () => {
  it('parses engine versions', () => {
    expect(getEngineVersion('8.0.2')).toMatchObject({ major: 8, minor: 0, patch: 2 });
    expect(getEngineVersion(' 5.0.0 ')).toMatchObject({ major: 5, minor: 0, patch: 0, text: '5.0.0' });
    expect(getEngineVersion('8.0')).toMatchObject({ major: 8, minor: 0, patch: 0 });
    for (const invalid of ['latest', '8', 'v8.0.2', '8.0.2-beta', '', 8.02, null, {}]) {
      expect(getEngineVersion(invalid)).toBeUndefined();
    }
  });

  it('compares against 8.0.2', () => {
    expect(isRetryableWritesEngine(getEngineVersion('8.0.2')!)).toBe(true);
    expect(isRetryableWritesEngine(getEngineVersion('8.1')!)).toBe(true);
    expect(isRetryableWritesEngine(getEngineVersion('10.0.0')!)).toBe(true);
    expect(isRetryableWritesEngine(getEngineVersion('8.0.1')!)).toBe(false);
    expect(isRetryableWritesEngine(getEngineVersion('8.0')!)).toBe(false);
    expect(isRetryableWritesEngine(getEngineVersion('5.0.0')!)).toBe(false);
    expect(compareEngineVersions(getEngineVersion('4.0.0')!, getEngineVersion('3.6.0')!)).toBeGreaterThan(0);
  });

  it('reads settings["retry-safety"] and reports invalid values instead of throwing', () => {
    expect(getRetrySafetySettings(undefined)).toMatchObject({ documentdb: { engineVersion: undefined, hosts: [] }, problems: [] });
    const ok = getRetrySafetySettings({ 'retry-safety': { documentdb: { engineVersion: '8.0.2', hosts: ['localhost:27018'] } } });
    expect(ok.documentdb.engineVersion?.text).toBe('8.0.2');
    expect(ok.documentdb.hosts).toEqual(['localhost:27018']);
    const invalid = getRetrySafetySettings({ 'retry-safety': { documentdb: { engineVersion: 8, hosts: 'localhost' } } });
    expect(invalid.documentdb.engineVersion).toBeUndefined();
    expect(invalid.problems.map((problem) => [problem.setting, problem.value])).toEqual([
      ['documentdb.engineVersion', '8'],
      ['documentdb.hosts', '"localhost"'],
    ]);
    expect(getRetrySafetySettings({ 'retry-safety': 'yes' }).problems).toHaveLength(1);
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
