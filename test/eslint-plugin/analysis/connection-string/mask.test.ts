import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isSecretOptionName, maskSecrets } from '../../../../eslint-plugin/src/analysis/connection-string/mask';

const DOCDB = 'prod.cluster-abc.us-east-1.docdb.amazonaws.com:27017';

describe('maskSecrets', () => {
  it.each([
    ['a slash', 'pa/ss'],
    ['a space', 'pa ss'],
    ['a tab', 'pa\tss'],
    ['a double quote', 'pa"ss'],
    ['a single quote', "pa'ss"],
    ['a backtick', 'pa`ss'],
    ['an @', 'p@ss'],
    ['a colon', 'pa:ss'],
    ['? and #', 'p?a#ss'],
    ['< > ^ | { }', 'p<a>s^s|w{o}rd'],
    ['digits and a space', '1234 5678'],
  ])('masks a password with %s in a log line', (_what, password) => {
    const line = `lint failed: MongoServerSelectionError for mongodb://app:${password}@${DOCDB}/shop?tls=true (3 attempts)`;
    const masked = maskSecrets(line);
    expect(masked).toBe(`lint failed: MongoServerSelectionError for mongodb://app:****@${DOCDB}/shop?tls=true (3 attempts)`);
    expect(masked).not.toContain(password);
  });

  it('masks every URI of a line, of any scheme, and leaves text without URIs alone', () => {
    expect(maskSecrets('redis://:token@cache and postgres://db/x?password=pw')).toBe('redis://:****@cache and postgres://db/x?password=****');
    expect(maskSecrets('a: mongodb://u:p@h1\nb: mongodb+srv://v:q@c0.mongodb.net/')).toBe('a: mongodb://u:****@h1\nb: mongodb+srv://v:****@c0.mongodb.net/');
    expect(maskSecrets('no URI here: user@example.com, 10:30')).toBe('no URI here: user@example.com, 10:30');
  });

  it('keeps user names, hosts, ports, IPv6 addresses and templates', () => {
    expect(maskSecrets('mongodb://h1:27017,h2:27018/db')).toBe('mongodb://h1:27017,h2:27018/db');
    expect(maskSecrets('mongodb://[::1]:27017,[::2]/db')).toBe('mongodb://[::1]:27017,[::2]/db');
    expect(maskSecrets('mongodb://${host}:${port}/db')).toBe('mongodb://${host}:${port}/db');
    expect(maskSecrets('mongodb://{{ host }}:{{ port }}/db')).toBe('mongodb://{{ host }}:{{ port }}/db');
    expect(maskSecrets('mongodb://ad min@h/db')).toBe('mongodb://ad min@h/db');
  });

  it('masks what follows a host’s colon when it is no port: a password whose URI was cut', () => {
    expect(maskSecrets('mongodb://admin:se')).toBe('mongodb://admin:****');
    expect(maskSecrets('"mongodb://h1:27017,admin:cret"')).toBe('"mongodb://h1:27017,admin:****"');
  });

  it('masks secret options, also with a percent-encoded name', () => {
    expect(maskSecrets('mongodb://h/?authMechanism=MONGODB-AWS&authMechanismProperties=AWS_SESSION_TOKEN:abc&w=1')).toBe(
      'mongodb://h/?authMechanism=MONGODB-AWS&authMechanismProperties=****&w=1',
    );
    expect(maskSecrets('mongodb://h/?tlsCertificateKeyFilePass%77ord=abc "next"')).toBe('mongodb://h/?tlsCertificateKeyFilePass%77ord=**** "next"');
    expect(maskSecrets('mongodb://h/?appName=api')).toBe('mongodb://h/?appName=api');
    expect(isSecretOptionName('authMechanism%50roperties')).toBe(true);
    expect(isSecretOptionName('appName')).toBe(false);
  });

  it('masks more rather than less when an @ follows the URI on its line', () => {
    const masked = maskSecrets('mongodb://h:27017/?appName=a@b&password=c');
    expect(masked).not.toContain('password=c');
  });

  it('masks a settings object written as JSON', () => {
    const json = JSON.stringify({ documentdb: { engineVersion: 'mongodb://admin:p/w "x"@h:27017/?tls=true' } });
    expect(maskSecrets(json)).toBe('{"documentdb":{"engineVersion":"mongodb://admin:****@h:27017/?tls=true"}}');
  });

  it('takes U+2028 and U+2029 for white space, not line ends: a password holding one is masked whole', () => {
    for (const separator of ['\u2028', '\u2029']) {
      const line = `threw on mongodb://orders_app:${separator}K861Ocu4@cluster0.c1a2b3c4d5e6.mongodb.net/orders?replicaSet=rs0; its findings are left out`;
      expect(maskSecrets(line)).toBe('threw on mongodb://orders_app:****@cluster0.c1a2b3c4d5e6.mongodb.net/orders?replicaSet=rs0; its findings are left out');
      expect(maskSecrets(`mongodb://app:pw${separator}x@h`)).toBe('mongodb://app:****@h');
    }
    // A line feed or a carriage return does end a line.
    expect(maskSecrets('mongodb://h:27017\nother@h')).toBe('mongodb://h:27017\nother@h');
    expect(maskSecrets('mongodb://h:27017\u2028other@h')).toBe('mongodb://h:****@h');
  });

  it('masks a password holding another scheme whole: a scheme before the last @ of the line is the password’s', () => {
    expect(maskSecrets('connecting to redis://app:Mongo7xmongodb://Nest3dPw@h.example.com:6379')).toBe('connecting to redis://app:****@h.example.com:6379');
    expect(maskSecrets('MONGO_URL=mongodb://app:12587 mongodb://Q0yaJl8r@h.docdb.amazonaws.com/db')).toBe('MONGO_URL=mongodb://app:****@h.docdb.amazonaws.com/db');
    expect(maskSecrets('mongodb://app:A1bcD@F3ghJ/K5mnP mongodb://Q0yaJ@h/db')).toBe('mongodb://app:****@h/db');
    // Two URIs on one line read the same way: more is masked, nothing shown.
    expect(maskSecrets('postgres://me:pw@db/x and redis://:token@cache')).toBe('postgres://me:****@cache');
  });

  it('masks a 100 KB URI in a log line, whole', () => {
    const host = 'a'.repeat(100 * 1024);
    expect(maskSecrets(`failed: mongodb://app:s3cret@${host}/db more`)).toBe(`failed: mongodb://app:****@${host}/db more`);
    const noAt = `failed: mongodb://${host}:27017/db more`;
    expect(maskSecrets(noAt)).toBe(noAt);
  });

  it('reads a 256 KB URI of letters once, not once per letter', () => {
    // A regular expression that tried each letter as the start of a scheme (`[a-z][a-z0-9+.-]*://`)
    // would read the rest of the run from each: some 30 billion characters here.
    const line = `failed: mongodb://${'a'.repeat(256 * 1024)} after 3 attempts`;
    expect(maskSecrets(line)).toBe(line);
    expect(maskSecrets(`${line} mongodb://u:p@h`)).toBe(`${line} mongodb://u:****@h`);
  });

  it('never shows a password, whatever it holds', () => {
    const passwordArb = fc
      .string({ minLength: 6, maxLength: 24, unit: fc.constantFrom(...'aZ9 \t"\'`<>^|{}()[]/?#:%!$&=+,;'.split('')) })
      .filter((password) => /[a-zA-Z0-9]{3}/.test(password))
      .map((password) => `Pw${password}`);
    const lineArb = fc.constantFrom(
      (uri: string) => `error: ${uri}`,
      (uri: string) => `"${uri}"`,
      (uri: string) => `{"uri":"${uri}","n":1}`,
      (uri: string) => `connect ${uri} failed after 3 attempts`,
    );
    fc.assert(
      fc.property(passwordArb, lineArb, fc.constantFrom('app', 'ad min', ''), (password, line, user) => {
        const masked = maskSecrets(line(`mongodb://${user}:${password}@${DOCDB}/?tls=true`));
        expect(masked).not.toContain(password);
      }),
      { numRuns: 1000, seed: 20261201 },
    );
  });
});
