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
