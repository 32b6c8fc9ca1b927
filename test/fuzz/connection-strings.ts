// Generated MongoDB connection strings with hostile parts: passwords made of secret
// markers and characters that end scans, open templates or look like URI syntax; DocumentDB,
// Atlas, tunnel, templated and odd hosts; `retryWrites` spelled every way the driver reads
// it; options whose values end in sentence punctuation. Plus the plugin's settings,
// including invalid ones and a connection string pasted where a version belongs.
import fc from 'fast-check';

export interface GeneratedUri {
  /** The URI as written. */
  uri: string;
  /** Markers inside the password and secret option values: none may ever be shown. */
  secrets: string[];
  /** The markers of the password alone (what a log line's masking must hide). */
  passwordSecrets: string[];
  /** Template pieces written into the URI (`${HOST}`, `{{ cluster }}`). */
  templates: string[];
  /** The password as written, when there is one. */
  password: string | undefined;
}

/** Error codes the rules name in messages (SQLSTATE 23505, duplicate key 11000…). */
const NUMBERS_IN_MESSAGES = new Set([10107, 11000, 11001, 11600, 11602, 13435, 13436, 23505, 40001, 42601, 53300]);

/**
 * A number that can stand for a secret: not round (messages print delays such as 60000),
 * no MongoDB port, no error code a message names.
 */
function isMarkerNumber(value: number): boolean {
  return value % 10 !== 0 && (value < 27000 || value > 27999) && !NUMBERS_IN_MESSAGES.has(value);
}

/** A word that stands for a secret: long enough and random enough to be found nowhere else. */
export const markerArb: fc.Arbitrary<string> = fc.oneof(
  { weight: 5, arbitrary: fc.stringMatching(/^[A-Z][a-z0-9]{3}[A-Z][a-z0-9]{2,4}$/) },
  // Digits only: a password such as `12345 xyz` may pass for a port.
  { weight: 1, arbitrary: fc.integer({ min: 10000, max: 65534 }).filter(isMarkerNumber).map(String) },
);

/** Characters and pieces that end a scan, start a template, or mean something in a URI. */
export const HOSTILE_PIECES = [
  ' ', '\t', '{', '}', '{{', '}}', '${', '"', "'", '`', '<', '>', '^', '|', '/', ':', '@', '#', '?', '&', '=',
  '%', '%2F', '%40', '%3A', '%20', '%7B', ',', '.', ';', '!', '(', ')', '[', ']', '\\', '$', '*', '+', '~', '-', '_',
  'é', '🔑', '\u00a0', '\u2028', 'mongodb://', '{{ x }}', '${x}', '..', '@@',
] as const;

const hostilePieceArb = fc.constantFrom(...HOSTILE_PIECES);

/** A password: markers with hostile pieces around and between them; sometimes percent-encoded whole (a valid URI). */
export const passwordArb: fc.Arbitrary<{ written: string; secrets: string[] }> = fc
  .record({
    lead: fc.option(hostilePieceArb, { freq: 3 }),
    first: markerArb,
    rest: fc.array(fc.tuple(hostilePieceArb, fc.option(markerArb, { freq: 2 })), { maxLength: 3 }),
    encoded: fc.constantFrom(false, false, true),
  })
  .map(({ lead, first, rest, encoded }) => {
    const secrets = [first, ...rest.flatMap(([, marker]) => (marker === null ? [] : [marker]))];
    const raw = (lead ?? '') + first + rest.map(([piece, marker]) => piece + (marker ?? '')).join('');
    return { written: encoded ? encodeURIComponent(raw) : raw, secrets };
  });

const userArb = fc.constantFrom('app', 'orders_app', 'admin', 'u', 'svc.account', 'a%40b', 'ü', 'x-1');

const nameArb = fc.constantFrom('orders', 'prod', 'shop-1', 'docdb-2024', 'a');
const idArb = fc.constantFrom('c1a2b3c4d5e6', 'abc', 'x1y2z', '0');
const regionArb = fc.constantFrom('eu-west-1', 'us-east-1', 'ap-southeast-2');

const documentDbHostArb = fc.oneof(
  fc.tuple(nameArb, idArb, regionArb).map(([name, id, region]) => `${name}.cluster-${id}.${region}.docdb.amazonaws.com`),
  fc.tuple(nameArb, idArb, regionArb).map(([name, id, region]) => `${name}.cluster-ro-${id}.${region}.docdb.amazonaws.com`),
  fc.tuple(nameArb, regionArb).map(([name, region]) => `${name}.${region}.docdb-elastic.amazonaws.com`),
  fc.constantFrom('PROD.CLUSTER-ABC.US-EAST-1.DOCDB.AMAZONAWS.COM', 'x.docdb.amazonaws.com.', 'docdb.amazonaws.com'),
);
const atlasHostArb = idArb.map((id) => `cluster0.${id}.mongodb.net`);
/** Hosts the generated `documentdb.hosts` settings may name. */
export const TUNNEL_HOSTS = ['localhost', '127.0.0.1', 'db-1.db.internal.example.com', 'docdb.tunnel.local'] as const;
const otherHostArb = fc.constantFrom(
  ...TUNNEL_HOSTS,
  '[::1]',
  'mongo-0.mongo.svc.cluster.local',
  'host_with_underscore',
  'EXAMPLE.COM',
  'bücher.example',
  'xn--bcher-kva.example',
  `${'a'.repeat(63)}.example.com`,
  '%2Ftmp%2Fmongodb-27017.sock',
  'db.example.com.',
  '',
);
const TEMPLATED_HOSTS = ['{{ cluster }}.docdb.amazonaws.com', '${HOST}', '${DB_HOST}.docdb.amazonaws.com', '{{host}}', '${var.host}', 'db-${ENV}.example.com'];
const templatedHostArb = fc.constantFrom(...TEMPLATED_HOSTS);
const portArb = fc.constantFrom('', '', '', ':27017', ':27017', ':27018', ':0', ':65535', ':65536', ':', ':abc', ':${PORT}');

const hostArb = fc
  .tuple(fc.oneof({ weight: 4, arbitrary: documentDbHostArb }, { weight: 2, arbitrary: atlasHostArb }, { weight: 3, arbitrary: otherHostArb }, { weight: 1, arbitrary: templatedHostArb }), portArb)
  .map(([host, port]) => host + port);

const retryKeyArb = fc.constantFrom('retryWrites', 'retryWrites', 'retryWrites', 'retryWrites', 'retrywrites', 'RETRYWRITES', 'RetryWrites', 'retry%57rites', 'retryWrite%73', '%72etryWrites');
const retryValueArb = fc.constantFrom('false', 'false', 'false', 'true', 'true', 'FALSE', 'True', '1', '0', '', 'false.', 'fals%65', '${RW}', '{{ rw }}');
const appNameArb = fc.constantFrom('orders', 'orders.v2.', 'api!', 'svc)', 'x]', 'a,b', 'end;', 'colon:', 'x%20y', "it's", '(x)', 'a.b', 'dot.');
const PLAIN_OPTIONS = [
  'tls=true', 'ssl=false', 'tlsCAFile=global-bundle.pem', 'tlsCAFile=%2Fopt%2Fcerts%2Frds-combined-ca-bundle.pem', 'tlsCAFile=other.pem',
  'replicaSet=rs0', 'readPreference=secondaryPreferred', 'w=majority', 'w=1', 'journal=true', 'authSource=admin',
  'authMechanism=SCRAM-SHA-256', 'directConnection=true', 'maxPoolSize=20', 'connectTimeoutMS=1000', 'compressors=zlib,snappy',
  'readPreferenceTags=dc:ny,rack:1', 'foo=bar', 'x', '=', '${EXTRA}', '{{ opts }}', 'appName=${APP}',
];

interface OptionPart {
  text: string;
  secrets: string[];
}

const optionArb: fc.Arbitrary<OptionPart> = fc.oneof(
  { weight: 4, arbitrary: fc.tuple(retryKeyArb, retryValueArb).map(([key, value]) => ({ text: `${key}=${value}`, secrets: [] })) },
  { weight: 5, arbitrary: fc.constantFrom(...PLAIN_OPTIONS).map((text) => ({ text, secrets: [] })) },
  { weight: 2, arbitrary: appNameArb.map((name) => ({ text: `appName=${name}`, secrets: [] })) },
  {
    weight: 1,
    arbitrary: fc.tuple(fc.constantFrom('authMechanismProperties=AWS_SESSION_TOKEN:', 'proxyPassword='), markerArb).map(([prefix, marker]) => ({ text: prefix + marker, secrets: [marker] })),
  },
);

const pathArb = fc.constantFrom('', '/', '/', '/orders', '/my-db', '/${DB}', '/{{ db }}', '/ord%20ers', '/a.b');

interface UriParts {
  scheme: string;
  user: string;
  auth: string;
  password: { written: string; secrets: string[] };
  hosts: string[];
  path: string;
  options: OptionPart[];
  separator: string;
  edges: string;
}

function assembleUri({ scheme, user, auth, password, hosts, path, options, separator, edges }: UriParts): GeneratedUri {
  const secrets: string[] = [];
  const passwordSecrets: string[] = [];
  let userInfo = '';
  let writtenPassword: string | undefined;
  switch (auth) {
    case 'user':
      userInfo = `${user}@`;
      break;
    case 'password':
      userInfo = `${user}:${password.written}@`;
      writtenPassword = password.written;
      passwordSecrets.push(...password.secrets);
      break;
    case 'empty-user':
      userInfo = `:${password.written}@`;
      writtenPassword = password.written;
      passwordSecrets.push(...password.secrets);
      break;
    case 'empty-password':
      userInfo = `${user}:@`;
      break;
    case 'templated':
      userInfo = '${USER}:${PASSWORD}@';
      break;
    default:
      break;
  }
  let query = options.map((option) => option.text).join(separator);
  secrets.push(...passwordSecrets);
  for (const option of options) secrets.push(...option.secrets);
  if (edges === 'leading') query = `&${query}`;
  if (edges === 'trailing') query = `${query}&`;
  const hasQuery = query !== '' || edges === 'question-only';
  const uri = `${scheme}${userInfo}${hosts.join(',')}${hasQuery ? `${path}?${query}` : path}`;
  const templates = [...uri.matchAll(/\$\{[A-Za-z_.]+\}|\{\{ ?[a-z]+ ?\}\}/g)].map((match) => match[0]);
  return { uri, secrets, passwordSecrets, templates: [...new Set(templates)], password: writtenPassword };
}

/** Anything goes: most of these are not valid URIs, which the rule must survive and must not leak from. */
const chaoticUriArb: fc.Arbitrary<GeneratedUri> = fc
  .record({
    scheme: fc.constantFrom('mongodb://', 'mongodb://', 'mongodb://', 'mongodb+srv://'),
    user: userArb,
    auth: fc.constantFrom('none', 'none', 'user', 'password', 'password', 'password', 'password', 'password', 'empty-user', 'empty-password', 'templated'),
    password: passwordArb,
    hosts: fc.array(hostArb, { minLength: 1, maxLength: 3 }),
    path: pathArb,
    options: fc.array(optionArb, { maxLength: 6 }),
    separator: fc.constantFrom('&', '&', '&', '&&'),
    edges: fc.constantFrom('', '', '', 'leading', 'trailing', 'question-only'),
  })
  .map(assembleUri);

/** Pieces of a password the driver accepts unencoded (no `: / ? # [ ] @`, no stray `%`). */
const VALID_PASSWORD_PIECES = HOSTILE_PIECES.filter((piece) => !/[:/?#[\]@]|%(?![0-9A-F]{2})/.test(piece));

const numericMarkerArb = fc.integer({ min: 10000, max: 65534 }).filter(isMarkerNumber).map(String);

/** Passwords seen to trip scanners: digits then a space (`12345 abc`: a port?), a template opener inside (`ab{{cd`). */
const trickyPasswordArb: fc.Arbitrary<{ written: string; secrets: string[] }> = fc.oneof(
  fc.tuple(numericMarkerArb, fc.constantFrom(' ', '\t', '<', '|', '"'), markerArb).map(([digits, piece, marker]) => ({ written: digits + piece + marker, secrets: [digits, marker] })),
  fc.tuple(markerArb, fc.constantFrom('{{', '${', '{'), markerArb).map(([first, piece, second]) => ({ written: first + piece + second, secrets: [first, second] })),
);

const validPasswordArb: fc.Arbitrary<{ written: string; secrets: string[] }> = fc.oneof({ weight: 4, arbitrary: fc
  .record({
    lead: fc.option(fc.constantFrom(...VALID_PASSWORD_PIECES), { freq: 3 }),
    first: markerArb,
    rest: fc.array(fc.tuple(fc.constantFrom(...VALID_PASSWORD_PIECES), fc.option(markerArb, { freq: 2 })), { maxLength: 2 }),
    encoded: fc.constantFrom(false, false, true),
  })
  .map(({ lead, first, rest, encoded }) => {
    const raw = (lead ?? '') + first + rest.map(([piece, marker]) => piece + (marker ?? '')).join('');
    return { written: encoded ? encodeURIComponent(raw) : raw, secrets: [first, ...rest.flatMap(([, marker]) => (marker === null ? [] : [marker]))] };
  }) }, { weight: 1, arbitrary: trickyPasswordArb });

/** Options the driver accepts; the last may end in sentence punctuation (`appName=orders.v2.`). */
const validOptionArb: fc.Arbitrary<OptionPart> = fc.oneof(
  { weight: 3, arbitrary: fc.tuple(retryKeyArb, fc.constantFrom('false', 'false', 'true', 'FALSE', 'True')).map(([key, value]) => ({ text: `${key}=${value}`, secrets: [] })) },
  { weight: 4, arbitrary: fc.constantFrom('tls=true', 'tlsCAFile=global-bundle.pem', 'replicaSet=rs0', 'readPreference=secondaryPreferred', 'w=majority', 'authSource=admin', 'maxPoolSize=20', 'appName=${APP}').map((text) => ({ text, secrets: [] })) },
  { weight: 3, arbitrary: appNameArb.filter((name) => !name.includes("'") && !name.includes(',')).map((name) => ({ text: `appName=${name}`, secrets: [] })) },
);

/** Close to what users write, with one hostile twist or two: most of these are valid URIs, so their fixes can be checked with the driver. */
const realisticUriArb: fc.Arbitrary<GeneratedUri> = fc
  .record({
    srv: fc.constantFrom(false, false, false, true),
    user: fc.constantFrom('app', 'orders_app', 'admin', 'localhost', 'docdb.tunnel.local', 'db-1.db.internal.example.com'),
    auth: fc.constantFrom('none', 'user', 'password', 'password', 'password', 'templated'),
    password: validPasswordArb,
    host: fc.oneof({ weight: 6, arbitrary: documentDbHostArb }, { weight: 2, arbitrary: atlasHostArb }, { weight: 3, arbitrary: fc.constantFrom(...TUNNEL_HOSTS) }, { weight: 2, arbitrary: fc.constantFrom('{{ cluster }}.docdb.amazonaws.com', '${DB_HOST}.docdb.amazonaws.com') }),
    port: fc.constantFrom('', ':27017', ':27017', ':27018'),
    more: fc.constantFrom(0, 0, 0, 1, 2),
    path: fc.constantFrom('', '/', '/', '/orders', '/my-db', '/a.b', '/orders.'),
    options: fc.array(validOptionArb, { maxLength: 4 }),
  })
  .map(({ srv, user, auth, password, host, port, more, path, options }) => {
    const hosts = srv ? [host] : [host + port, ...['replica-2.docdb.tunnel.local:27017', 'localhost:27018'].slice(0, more)];
    return assembleUri({ scheme: srv ? 'mongodb+srv://' : 'mongodb://', user, auth, password, hosts, path, options, separator: '&', edges: '' });
  });

export const uriArb: fc.Arbitrary<GeneratedUri> = fc.oneof({ weight: 3, arbitrary: realisticUriArb }, { weight: 2, arbitrary: chaoticUriArb });

/** `settings["retry-safety"]`: valid, invalid, and secrets pasted in the wrong place. */
export interface GeneratedSettings {
  settings: unknown;
  secrets: string[];
}

const VERSIONS = ['8.0.2', '8.0.2', '8.0.2', '5.0.0', '5.0.0', '5.0.0', '4.0.0', '8.0.1', '8.0.3', '9.0', '3.6'];
const HOST_PATTERNS = ['localhost:27018', 'localhost', '127.0.0.1:27017', '*.db.internal.example.com', 'docdb.tunnel.local', '*', '?ocdb.tunnel.local', '[::1]:27017', '*a*a*c', 'db-?.db.internal.*'];

export const settingsArb: fc.Arbitrary<GeneratedSettings> = fc.oneof(
  { weight: 1, arbitrary: fc.constant<GeneratedSettings>({ settings: undefined, secrets: [] }) },
  {
    weight: 8,
    arbitrary: fc
      .record({
        engineVersion: fc.option(fc.constantFrom(...VERSIONS), { freq: 8 }),
        hosts: fc.option(fc.array(fc.constantFrom(...HOST_PATTERNS), { minLength: 1, maxLength: 3 }), { freq: 2 }),
      })
      .map(({ engineVersion, hosts }) => ({
        settings: { documentdb: { ...(engineVersion === null ? {} : { engineVersion }), ...(hosts === null ? {} : { hosts }) } },
        secrets: [] as string[],
      })),
  },
  {
    weight: 1,
    arbitrary: fc
      .tuple(fc.constantFrom('engineVersion', 'hosts', 'documentdb', 'root'), fc.constantFrom('latest', '', ' 8.0.2 ', 8, null, {}, [], 'v8'), uriArb, fc.boolean())
      .map(([where, invalid, pasted, paste]) => {
        // Invalid values, sometimes a whole connection string pasted in (its password must not be echoed).
        const value = paste ? pasted.uri : invalid;
        const secrets = paste ? pasted.secrets : [];
        switch (where) {
          case 'engineVersion':
            return { settings: { documentdb: { engineVersion: value } }, secrets };
          case 'hosts':
            return { settings: { documentdb: { hosts: [value] } }, secrets };
          case 'documentdb':
            return { settings: { documentdb: value }, secrets };
          default:
            return { settings: value, secrets };
        }
      }),
  },
);
