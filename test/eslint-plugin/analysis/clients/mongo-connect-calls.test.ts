import { describe, expect, it } from 'vitest';
import { findMongoConnectCalls } from '../../../../eslint-plugin/src/analysis/clients/mongo-connect-calls';
import { type AnalyseOptions, analyse, textOf } from '../../harness';

/** Each connect call with the parts it found, as source text. */
function connects(code: string, options?: AnalyseOptions) {
  return analyse(
    code,
    (context) =>
      findMongoConnectCalls(context).map((call) => ({
        callee: call.callee,
        uri: call.uriLiteral && textOf(code, call.uriLiteral),
        fallbackUri: call.fallbackUriLiteral && textOf(code, call.fallbackUriLiteral),
        options: call.options && textOf(code, call.options),
        retryWrites: call.retryWritesProperty && textOf(code, call.retryWritesProperty),
        caFile: call.caFile,
      })),
    options,
  );
}

describe('findMongoConnectCalls', () => {
  it('finds new MongoClient and MongoClient.connect with their URI and options, also through consts', () => {
    const code = `
      import { MongoClient } from 'mongodb';
      const URI = 'mongodb://app:secret@prod.cluster-abc.us-east-1.docdb.amazonaws.com:27017/?tls=true';
      const OPTIONS = { retryWrites: false, tlsCAFile: 'global-bundle.pem' };
      export const client = new MongoClient(URI, OPTIONS);
      export const other = await MongoClient.connect(\`mongodb://\${host}:27017\`, { retryWrites: true, retryWrites: false });`;
    expect(connects(code)).toEqual([
      {
        callee: 'new MongoClient()',
        uri: "'mongodb://app:secret@prod.cluster-abc.us-east-1.docdb.amazonaws.com:27017/?tls=true'",
        fallbackUri: undefined,
        options: "{ retryWrites: false, tlsCAFile: 'global-bundle.pem' }",
        retryWrites: 'retryWrites: false',
        caFile: 'global-bundle.pem',
      },
      {
        callee: 'MongoClient.connect()',
        uri: '`mongodb://${host}:27017`',
        fallbackUri: undefined,
        options: '{ retryWrites: true, retryWrites: false }',
        retryWrites: 'retryWrites: false',
        caFile: undefined,
      },
    ]);
  });

  it('finds mongoose.connect and createConnection, and a literal fallback of an environment variable', () => {
    const code = `
      const mongoose = require('mongoose');
      mongoose.connect(process.env.MONGO_URL ?? 'mongodb+srv://c0.ab.mongodb.net/app', { sslCA: '/etc/ssl/rds-combined-ca-bundle.pem' });
      const conn = mongoose.createConnection(process.env.MONGO_URL, { ...defaults, retryWrites: true });`;
    expect(connects(code, { sourceType: 'commonjs' })).toEqual([
      {
        callee: 'mongoose.connect()',
        uri: undefined,
        fallbackUri: "'mongodb+srv://c0.ab.mongodb.net/app'",
        options: "{ sslCA: '/etc/ssl/rds-combined-ca-bundle.pem' }",
        retryWrites: undefined,
        caFile: '/etc/ssl/rds-combined-ca-bundle.pem',
      },
      {
        callee: 'mongoose.createConnection()',
        uri: undefined,
        fallbackUri: undefined,
        options: '{ ...defaults, retryWrites: true }',
        retryWrites: 'retryWrites: true',
        caFile: undefined,
      },
    ]);
  });

  it('reads the CA bundle inside how the path or the file is built', () => {
    const code = `
      import fs from 'node:fs';
      import path from 'node:path';
      import { MongoClient } from 'mongodb';
      const CA = path.resolve(__dirname, 'certs', 'global-bundle.pem');
      new MongoClient(process.env.URI, { tlsCAFile: CA });
      new MongoClient(process.env.URI, { tlsCAFile: \`\${__dirname}/rds-combined-ca-bundle.pem\` });
      new MongoClient(process.env.URI, { ca: [fs.readFileSync('global-bundle.pem')] });
      new MongoClient(process.env.URI, { tlsCAFile: certPath, tls: true });`;
    expect(connects(code).map((call) => call.caFile)).toEqual(['global-bundle.pem', 'rds-combined-ca-bundle.pem', 'global-bundle.pem', undefined]);
  });

  it('does not take a retryWrites that a later spread may override, or one that is not a boolean', () => {
    const code = `
      import { MongoClient } from 'mongodb';
      new MongoClient('mongodb://localhost', { retryWrites: false, ...overrides });
      new MongoClient('mongodb://localhost', { retryWrites: flag });`;
    expect(connects(code).map((call) => [call.options, call.retryWrites])).toEqual([
      ['{ retryWrites: false, ...overrides }', undefined],
      ['{ retryWrites: flag }', undefined],
    ]);
  });

  it('ignores other libraries’ connect calls and local look-alikes', () => {
    const code = `
      import mysql from 'mysql2/promise';
      import { connect } from 'amqplib';
      class MongoClient { constructor(public uri: string) {} }
      await mysql.createConnection('mysql://localhost/app');
      await connect('amqp://localhost');
      new MongoClient('mongodb://localhost');
      const db = { connect(uri: string) { return uri; } };
      db.connect('mongodb://localhost');`;
    expect(connects(code)).toEqual([]);
  });
});
