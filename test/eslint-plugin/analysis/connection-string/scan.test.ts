import { describe, expect, it } from 'vitest';
import { findConnectionStringTokens } from '../../../../eslint-plugin/src/analysis/connection-string/scan';

const DOCDB = 'prod.cluster-abc.us-east-1.docdb.amazonaws.com:27017';

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

describe('where a URI ends', () => {
  it.each(['.', ',', ';', ':', '!', ')', ']'])('takes a trailing %s in prose as punctuation, and says the end is uncertain', (mark) => {
    const token = onlyToken(`Connect to mongodb://${DOCDB}/?tls=true&appName=shop${mark} then deploy`);
    expect(token.raw).toBe(`mongodb://${DOCDB}/?tls=true&appName=shop`);
    expect(token.hasUncertainEnd).toBe(true);
    expect(token.isTruncated).toBe(false);
  });

  it.each(['.', ',', ';', ':', '!', ')', ']'])('keeps a trailing %s inside the quotes that hold the URI: the string is the URI', (mark) => {
    const token = onlyToken(`const uri = 'mongodb://${DOCDB}/?tls=true&appName=shop${mark}';`);
    expect(token.raw).toBe(`mongodb://${DOCDB}/?tls=true&appName=shop${mark}`);
    expect(token.hasUncertainEnd).toBe(false);
  });

  it('reads `)` and `]` inside a URI as part of it, and drops only unbalanced ones at its end', () => {
    expect(onlyToken(`URI=mongodb://app:pw)@${DOCDB}/?retryWrites=false`).raw).toBe(`mongodb://app:pw)@${DOCDB}/?retryWrites=false`);
    expect(onlyToken(`URI=mongodb://${DOCDB}/?appName=x)&retryWrites=false`).raw).toBe(`mongodb://${DOCDB}/?appName=x)&retryWrites=false`);
    expect(onlyToken('(see mongodb://h/?appName=a(b)).').raw).toBe('mongodb://h/?appName=a(b)');
    expect(onlyToken('[mongodb://[::1]:27017/]').raw).toBe('mongodb://[::1]:27017/');
    expect(onlyToken('mongodb://[::1]:27017').hasUncertainEnd).toBe(false);
  });

  it('marks a URI that stops at `|`, `{`… with more URI after it as truncated', () => {
    expect(onlyToken(`URI=mongodb://${DOCDB}/?appName=a|b&retryWrites=false`).isTruncated).toBe(true);
    expect(onlyToken('uri = "mongodb://h/{db}"').isTruncated).toBe(true);
    expect(onlyToken('<mongodb://h/db>').isTruncated).toBe(false);
    expect(onlyToken('| mongodb://h/db | next |').isTruncated).toBe(false);
  });
});

describe('passwords with characters that end a URI elsewhere', () => {
  const specials = [' ', '\t', '<', '>', '^', '|', '{', '}', '"', "'", '`'];

  it.each(specials)('reads the whole URI when the password holds %j, unquoted (.env)', (special) => {
    const uri = `mongodb://admin:12${special}34@${DOCDB}/?tls=true`;
    const token = onlyToken(`DOCDB_URI=${uri}\nPORT=3000\n`);
    expect(token.raw).toBe(uri);
    expect(token.hosts).toEqual([DOCDB]);
    expect(token.isTruncated).toBe(false);
    expect(token.hasKnownHosts).toBe(true);
  });

  it.each(specials.filter((special) => special !== '"'))('reads the whole URI when the password holds %j, between double quotes', (special) => {
    const uri = `mongodb://admin:12${special}34@${DOCDB}/?tls=true`;
    const token = onlyToken(`{ "uri": "${uri}" }`);
    expect(token.raw).toBe(uri);
    expect(token.hosts).toEqual([DOCDB]);
  });

  it('reads `admin:1234 5678@…` as user info, not as a host and port', () => {
    const text = `MONGO_URL=mongodb://admin:1234 5678@${DOCDB}/?tls=true`;
    const token = onlyToken(text);
    expect(token.hosts).toEqual([DOCDB]);
    expect(text.slice(token.password!.start, token.password!.end)).toBe('1234 5678');
  });

  it('does not run on into a comment, another URI or past the closing quote', () => {
    expect(onlyToken('DB=mongodb://docdb:27017 # owner: ops@example.com').raw).toBe('mongodb://docdb:27017');
    expect(findConnectionStringTokens('mongodb://a:1 mongodb://u:p@b').map((token) => token.raw)).toEqual(['mongodb://a:1', 'mongodb://u:p@b']);
    expect(onlyToken('{"uri":"mongodb://docdb:27017","owner":"ops@example.com"}').raw).toBe('mongodb://docdb:27017');
  });

  it('reads `Pa{{ss` as password characters and `{{ cluster }}` as a template', () => {
    const uri = 'mongodb://app:Pa{{ss@{{ cluster }}.docdb.amazonaws.com:27017/?tls=true';
    for (const text of [`DOCDB_URI=${uri}\n`, `const uri = \`${uri}\`;`]) {
      const token = onlyToken(text);
      expect(token.raw).toBe(uri);
      expect(token.hosts).toEqual(['{{ cluster }}.docdb.amazonaws.com:27017']);
      expect(token.templates.map((piece) => text.slice(piece.start, piece.end))).toEqual(['{{ cluster }}']);
      expect(text.slice(token.password!.start, token.password!.end)).toBe('Pa{{ss');
    }
  });

  it('does not know the hosts of a URI cut before its user info ends', () => {
    const token = onlyToken(String.raw`'mongodb://admin:pa\u0020ss@${DOCDB}/'`.replace('${DOCDB}', DOCDB));
    expect(token.isTruncated).toBe(true);
    expect(token.hasKnownHosts).toBe(false);
    expect(onlyToken(String.raw`'mongodb://h/?a=1\u0026retryWrites=false'`).hasKnownHosts).toBe(true);
  });
});

describe('regressions: fuzz inputs', () => {
  it('U+2028 and U+2029 are white space, not line ends: a password ending in one goes on to its @', () => {
    // A .env, YAML or JSON value and a JavaScript string (ES2019) may hold them; only \n and \r end a line.
    for (const separator of ['\u2028', '\u2029']) {
      const text = `MONGO_URL="mongodb://app:28011${separator}@localhost"\nPORT=3000\nMONGO_URL=mongodb://localhost\n`;
      const [first, second] = findConnectionStringTokens(text, { skipCommentLines: true });
      expect(first!.raw).toBe(`mongodb://app:28011${separator}@localhost`);
      expect(first!.hosts).toEqual(['localhost']);
      expect(text.slice(first!.password!.start, first!.password!.end)).toBe(`28011${separator}`);
      expect(second!.raw).toBe('mongodb://localhost');
    }
  });

  it('the user info runs to the last @ of the authority: `app:@pw *@host` is no host `pw`', () => {
    const text = 'MONGO_URL=mongodb://app:@SktkE6cc *@x.docdb.amazonaws.com/orders\n';
    const token = onlyToken(text);
    expect(token.raw).toBe('mongodb://app:@SktkE6cc *@x.docdb.amazonaws.com/orders');
    expect(token.hosts).toEqual(['x.docdb.amazonaws.com']);
    expect(text.slice(token.password!.start, token.password!.end)).toBe('@SktkE6cc *');
    // After the path starts, an @ is the path's or the options': the hosts stay.
    expect(onlyToken('mongodb://u:p@h/db?appName=a@b').hosts).toEqual(['h']);
    // A closing quote or a comment ends a URI that has its @ already.
    expect(onlyToken('{"uri":"mongodb://u:p@docdb:27017","owner":"ops@example.com"}').raw).toBe('mongodb://u:p@docdb:27017');
    expect(onlyToken('DB=mongodb://u:p@docdb:27017 # owner: ops@example.com').raw).toBe('mongodb://u:p@docdb:27017');
  });

  it('a password holding a scheme glued to other text (`12587 Xmongodb://`) goes on to its @', () => {
    const text = 'MONGO_URL=mongodb://app:12587 Q0yaJl8rmongodb://@orders.cluster-c1a2b3c4d5e6.us-east-1.docdb.amazonaws.com/db\n';
    const token = onlyToken(text);
    expect(token.hosts).toEqual(['orders.cluster-c1a2b3c4d5e6.us-east-1.docdb.amazonaws.com']);
    expect(text.slice(token.password!.start, token.password!.end)).toBe('12587 Q0yaJl8rmongodb://');
  });

  it('a template in a text file ends on its line: an unclosed `${` cuts the URI, an unclosed `{{` is password characters', () => {
    const terraform = 'locals {\n  uri = <<EOT\nmongodb://app:${12651@cluster0.c1a2b3c4d5e6.mongodb.net\nEOT\n}\n';
    const token = onlyToken(terraform);
    expect(token.isTruncated).toBe(true);
    expect(token.end).toBeLessThan(terraform.indexOf('\nEOT'));
    const braces = onlyToken('URI=mongodb://app:{{pw@h.docdb.amazonaws.com\n}}\n');
    expect(braces.raw).toBe('mongodb://app:{{pw@h.docdb.amazonaws.com');
    expect(braces.templates).toEqual([]);
    // In a template literal of code, an expression may span lines: the literal bounds it.
    const literal = '`mongodb://${user}:${encode(\n  password,\n)}@h.docdb.amazonaws.com/?tls=true`';
    const [inCode] = findConnectionStringTokens(literal, { multiLineTemplates: true });
    expect(inCode!.isTruncated).toBe(false);
    expect(inCode!.hosts).toEqual(['h.docdb.amazonaws.com']);
  });
});

describe('option names and values as the driver reads them', () => {
  it('decodes percent-encoding (and + in values)', () => {
    const token = onlyToken('mongodb://h/?retry%57rites=f%61lse&appName=my+app&tls=true');
    expect(token.options.map((option) => [option.key, option.name, option.value, option.decodedValue])).toEqual([
      ['retry%57rites', 'retryWrites', 'f%61lse', 'false'],
      ['appName', 'appName', 'my+app', 'my app'],
      ['tls', 'tls', 'true', 'true'],
    ]);
  });
});

describe('the cost of a scan', () => {
  /** Characters looked at for `text`. */
  function workFor(text: string, skipCommentLines = true): number {
    const work = { steps: 0 };
    findConnectionStringTokens(text, { skipCommentLines, work });
    return work.steps;
  }

  /** `unit` repeated to about `size` characters. */
  const repeat = (unit: string, size: number) => unit.repeat(Math.floor(size / unit.length));
  const hostile: Array<[string, (size: number) => string]> = [
    ['one long line of `mongodb://h ` tokens', (size) => repeat('mongodb://h ', size)],
    ['one long JSON line of "mongodb://h" items', (size) => `[${repeat('"mongodb://h",', size)}""]`],
    ['a run of `mongodb://{{`', (size) => repeat('mongodb://{{', size)],
    ['a run of `mongodb://${`', (size) => repeat('mongodb://${', size)],
    ['URIs of a thousand templates each', (size) => repeat(`mongodb://h/?${'a=${x}&'.repeat(1000)} `, size)],
    ['URIs whose user info holds a thousand spaces', (size) => repeat(`mongodb://a:${'b '.repeat(1000)}@h `, size)],
    ['`mongodb://h:` before a long line with an `@` at its end', (size) => `${repeat('mongodb://h: x ', size)}@`],
  ];

  it.each(hostile)('grows linearly with the text: %s', (_name, make) => {
    const small = workFor(make(96 * 1024));
    const large = workFor(make(192 * 1024));
    // Twice the text, about twice the work (a quadratic scan would do four times as much).
    expect(large / small).toBeLessThan(2.3);
    expect(large).toBeLessThan(40 * 192 * 1024);
  });

  it('finds every token of a 512 KB line of them', () => {
    const count = Math.floor((512 * 1024) / 12);
    const text = `URIS=${'mongodb://h '.repeat(count)}`;
    expect(findConnectionStringTokens(text, { skipCommentLines: true })).toHaveLength(count);
  });

  it('scans a megabyte of `mongodb://{{` and of `mongodb://${`, each URI cut at its unclosed template', () => {
    const count = Math.floor((1024 * 1024) / 12);
    for (const unit of ['mongodb://{{', 'mongodb://${']) {
      const tokens = findConnectionStringTokens(unit.repeat(count));
      expect(tokens).toHaveLength(count);
      expect(tokens.every((token) => token.isTruncated && !token.hasKnownHosts)).toBe(true);
    }
  });
});
