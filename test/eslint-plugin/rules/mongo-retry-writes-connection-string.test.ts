import tsParser from '@typescript-eslint/parser';
import { Linter } from 'eslint';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import plugin from '../../../eslint-plugin/src/index';
import rule from '../../../eslint-plugin/src/rules/mongo-retry-writes-connection-string';
import { expectSameButRetryWrites, readWithDriver } from '../analysis/connection-string/driver';
import { createRuleTester, createTypedRuleTester, typedFilename } from '../rule-tester';

// Connection strings in comments are deliberately not checked in JS/TS: examples in
// comments are documentation, and a fix there changes nothing at runtime.
const v802 = { 'retry-safety': { documentdb: { engineVersion: '8.0.2' } } };
const v500 = { 'retry-safety': { documentdb: { engineVersion: '5.0.0' } } };
const none = {};
const bad = { 'retry-safety': { documentdb: { engineVersion: 'latest' } } };
const tunnel = {
  'retry-safety': { documentdb: { engineVersion: '5.0.0', hosts: ['localhost:27018', '*.db.internal.example.com'] } },
};

const DOCDB_HOST = 'prod.cluster-abc.us-east-1.docdb.amazonaws.com:27017';
/** How messages name it: the default port left out. */
const DOCDB_HOST_NAME = 'prod.cluster-abc.us-east-1.docdb.amazonaws.com';

const ruleTester = createRuleTester();

ruleTester.run('mongo-retry-writes-connection-string', rule, {
  valid: [
    {
      name: 'a URI tail with no DocumentDB evidence, or without retryWrites, or not passed to a driver, stays silent',
      code: `import { MongoClient } from 'mongodb';
new MongoClient(\`\${base}?tls=true&retryWrites=false\`);
new MongoClient(\`\${base}?tls=true&tlsCAFile=global-bundle.pem\`);
const link = \`\${base}?tlsCAFile=global-bundle.pem&retryWrites=false\`;`,
      settings: v500,
    },
    // A host that is only an environment variable, or whose values disagree, stays unknown.
    { code: 'export const uri = `mongodb://${process.env.DB_HOST}:27017/?retryWrites=false`;', settings: v802 },
    { code: "const host = prod ? 'orders.cluster-abc.us-east-1.docdb.amazonaws.com' : 'localhost';\nexport const uri = `mongodb://${host}:27017/?retryWrites=false`;", settings: v802 },
    {
      name: 'DocumentDB 8.0.2 without retryWrites',
      code: "const uri = 'mongodb://app:s3cret-pw@prod.cluster-abc.us-east-1.docdb.amazonaws.com:27017/?tls=true&tlsCAFile=global-bundle.pem';",
      settings: v802,
    },
    {
      name: 'DocumentDB 8.0.2 with retryWrites=true',
      code: "const uri = 'mongodb://prod.cluster-abc.us-east-1.docdb.amazonaws.com:27017/?tls=true&retryWrites=true';",
      settings: v802,
    },
    {
      name: 'DocumentDB 5.0.0 with retryWrites=false',
      code: "const uri = 'mongodb://app:s3cret-pw@prod.cluster-abc.us-east-1.docdb.amazonaws.com:27017/?tls=true&retryWrites=false';",
      settings: v500,
    },
    {
      name: 'DocumentDB, version unknown, without retryWrites',
      code: "const uri = 'mongodb://prod.cluster-abc.us-east-1.docdb.amazonaws.com:27017/?tls=true';",
      settings: none,
    },
    {
      name: 'Atlas without retryWrites',
      code: "const uri = 'mongodb+srv://cluster0.ab1cd.mongodb.net/shop?w=majority';",
      settings: v802,
    },
    {
      name: 'Atlas with retryWrites=true',
      code: "const uri = 'mongodb+srv://cluster0.ab1cd.mongodb.net/shop?retryWrites=true';",
      settings: none,
    },
    {
      name: 'a postgres:// URL with a retryWrites look-alike',
      code: "const url = 'postgres://app:pw@db.example.com:5432/shop?retryWrites=false';",
      settings: v802,
    },
    {
      name: 'a string that merely mentions retryWrites=false',
      code: "const help = 'Set retryWrites=false when the engine is older than 8.0.2';",
      settings: none,
    },
    {
      name: 'a URI in a comment is not checked',
      code: `// mongodb://localhost:27017/?retryWrites=false
const x = 1;`,
      settings: none,
    },
    {
      name: 'a templated host without DocumentDB signs is unknown',
      code: 'const uri = `mongodb://${host}:27017/?retryWrites=false`;',
      settings: none,
    },
    {
      name: 'templated options: the option list is unknown, missing is not reported',
      code: 'const uri = `mongodb://${user}:${password}@prod.cluster-abc.us-east-1.docdb.amazonaws.com:27017/?tls=true&${extraOptions}`;',
      settings: v500,
    },
    {
      name: 'a URI built by concatenation is not complete',
      code: "const uri = 'mongodb://prod.cluster-abc.us-east-1.docdb.amazonaws.com:27017/' + db + '?tls=true&retryWrites=false';",
      settings: v500,
    },
    {
      name: 'DocumentDB 5.0.0: the options object supplies retryWrites: false',
      code: `import { MongoClient } from 'mongodb';
new MongoClient('mongodb://prod.cluster-abc.us-east-1.docdb.amazonaws.com:27017/?tls=true', { retryWrites: false });`,
      settings: v500,
    },
    {
      name: 'a MongoClient from another library',
      code: `import { MongoClient } from 'not-mongodb';
new MongoClient('mongodb://localhost:27017', { retryWrites: false });`,
      settings: none,
    },
    {
      name: 'retryWrites in an unrelated object',
      code: 'const config = { retryWrites: false };',
      settings: none,
    },
    {
      name: 'env URI, no DocumentDB sign: host unknown',
      code: `import { MongoClient } from 'mongodb';
new MongoClient(process.env.MONGO_URI!, { retryWrites: false });`,
      settings: v802,
    },
    {
      name: 'an escape inside the URI: its end is unknown',
      code: "const uri = 'mongodb://localhost/?tls=true\\u0026retryWrites=false';",
      settings: none,
    },
    {
      name: 'another scheme ending in mongodb://',
      code: "const uri = 'xmongodb://localhost/?retryWrites=false';",
      settings: none,
    },
    {
      name: 'mongoose on Atlas with retryWrites: true',
      code: `import mongoose from 'mongoose';
await mongoose.connect('mongodb+srv://cluster0.ab1cd.mongodb.net/shop', { retryWrites: true });`,
      settings: none,
    },
    {
      name: 'documentdb.hosts: tunnel with retryWrites=false on 5.0.0',
      code: "const uri = 'mongodb://localhost:27018/app?retryWrites=false';",
      settings: tunnel,
    },
    {
      name: 'documentdb.hosts: another port is not the tunnel',
      code: "const uri = 'mongodb://localhost:27017/app';",
      settings: tunnel,
    },
    {
      name: 'invalid engineVersion in a file without connection strings',
      code: 'const x = 1;',
      settings: bad,
    },
    {
      name: 'Prisma updateMany data with a retryWrites field',
      code: 'await prisma.user.updateMany({ where: { id }, data: { retryWrites: false } });',
      settings: v500,
    },
    {
      name: 'a malformed URI is not reported',
      code: "const uri = 'mongodb://prod.cluster-abc.us-east-1.docdb.amazonaws.com:27017:notaport:27017/?x';",
      settings: v500,
    },
    {
      name: 'a string literal type',
      code: "type Uri = 'mongodb://localhost/?retryWrites=false';",
      settings: none,
    },
  ],
  invalid: [
    {
      name: 'the options of a URI whose scheme and hosts come from a value, passed to MongoClient (DocumentDB by its CA bundle)',
      code: `import { MongoClient } from 'mongodb';
const base = process.env.DOCDB_BASE;
export const client = new MongoClient(\`\${base}?tls=true&tlsCAFile=global-bundle.pem&retryWrites=false\`);`,
      settings: v802,
      output: `import { MongoClient } from 'mongodb';
const base = process.env.DOCDB_BASE;
export const client = new MongoClient(\`\${base}?tls=true&tlsCAFile=global-bundle.pem\`);`,
      errors: [{ messageId: 'removeRetryWritesFalse', line: 3, column: 85, endColumn: 102, suggestions: [] }],
    },
    {
      name: 'a URI tail held in a const, engine before 8.0.2: retryWrites=true is set to false',
      code: `const mongoose = require('mongoose');
const uri = \`\${process.env.DOCDB}/shop?tls=true&tlsCAFile=rds-combined-ca-bundle.pem&retryWrites=true\`;
mongoose.connect(uri);`,
      settings: v500,
      output: `const mongoose = require('mongoose');
const uri = \`\${process.env.DOCDB}/shop?tls=true&tlsCAFile=rds-combined-ca-bundle.pem&retryWrites=false\`;
mongoose.connect(uri);`,
      errors: [{ messageId: 'setRetryWritesFalse', line: 2 }],
    },
    {
      name: 'a URI tail with an unknown engine version: reported with a suggestion, no fix',
      code: `import { MongoClient } from 'mongodb';
new MongoClient(\`\${base}?tlsCAFile=global-bundle.pem&retryWrites=false\`);`,
      settings: none,
      errors: [
        {
          messageId: 'retryWritesFalseUnknownVersion',
          line: 2,
          suggestions: [{ messageId: 'suggestRemoveRetryWrites', output: `import { MongoClient } from 'mongodb';
new MongoClient(\`\${base}?tlsCAFile=global-bundle.pem\`);` }],
        },
      ],
    },
    {
      name: 'a template whose host is a const with a DocumentDB fallback is judged by that host',
      code: `const host = process.env.DB_HOST ?? 'orders.cluster-abc.us-east-1.docdb.amazonaws.com';
export const uri = \`mongodb://app:\${password}@\${host}:27017/?tls=true&retryWrites=false\`;`,
      settings: v802,
      output: `const host = process.env.DB_HOST ?? 'orders.cluster-abc.us-east-1.docdb.amazonaws.com';
export const uri = \`mongodb://app:\${password}@\${host}:27017/?tls=true\`;`,
      errors: [{ messageId: 'removeRetryWritesFalse', line: 2, suggestions: [] }],
    },
    {
      name: "a template whose host is a parameter's default: judged by the default",
      code: `export function connect(host = 'orders.cluster-abc.us-east-1.docdb.amazonaws.com') {
  return \`mongodb://\${host}:27017/?tls=true&retryWrites=false\`;
}`,
      settings: v802,
      output: `export function connect(host = 'orders.cluster-abc.us-east-1.docdb.amazonaws.com') {
  return \`mongodb://\${host}:27017/?tls=true\`;
}`,
      errors: [{ messageId: 'removeRetryWritesFalse', line: 2, suggestions: [] }],
    },
    {
      name: 'DocumentDB known from the CA bundle in how the options build its path (the host is an environment variable)',
      code: `import path from 'node:path';
import { MongoClient } from 'mongodb';
new MongoClient(process.env.DOCDB_URI, { tlsCAFile: path.resolve(__dirname, 'global-bundle.pem'), retryWrites: false });`,
      settings: v802,
      output: `import path from 'node:path';
import { MongoClient } from 'mongodb';
new MongoClient(process.env.DOCDB_URI, { tlsCAFile: path.resolve(__dirname, 'global-bundle.pem') });`,
      errors: [
        {
          messageId: 'removeRetryWritesFalse',
          line: 3,
          column: 99,
          endLine: 3,
          endColumn: 117,
          data: { setting: 'retryWrites: false', subject: 'the options passed to new MongoClient()', version: '8.0.2', versionSource: '' },
          suggestions: [],
        },
      ],
    },
    {
      name: 'a property on its own line is removed with its comma; the comment above it stays',
      code: `import { MongoClient } from 'mongodb';
new MongoClient('mongodb://prod.cluster-abc.us-east-1.docdb.amazonaws.com:27017/', {
  tls: true,
  // turned off for engine 5.0
  retryWrites: false,
  maxPoolSize: 20,
});`,
      settings: v802,
      output: `import { MongoClient } from 'mongodb';
new MongoClient('mongodb://prod.cluster-abc.us-east-1.docdb.amazonaws.com:27017/', {
  tls: true,
  // turned off for engine 5.0
  maxPoolSize: 20,
});`,
      errors: [
        {
          messageId: 'removeRetryWritesFalse',
          line: 5,
          column: 3,
          endLine: 5,
          endColumn: 21,
          data: { setting: 'retryWrites: false', subject: 'the options passed to new MongoClient()', version: '8.0.2', versionSource: '' },
          suggestions: [],
        },
      ],
    },
    {
      name: 'CommonJS with a declared require global',
      code: `const mongodb = require('mongodb');
const client = new mongodb.MongoClient('mongodb://localhost:27017/', { retryWrites: false });`,
      languageOptions: { parserOptions: { sourceType: 'script' }, globals: { require: 'readonly' } },
      settings: none,
      output: null,
      errors: [
        {
          messageId: 'retryWritesFalseNotDocumentDb',
          line: 2,
          column: 72,
          endLine: 2,
          endColumn: 90,
          data: { setting: 'retryWrites: false', subject: 'the options passed to new MongoClient()', hostKind: 'MongoDB', settingsName: 'settings["retry-safety"]', action: 'Remove it, or for a tunnel to DocumentDB before 8.0.2, list localhost in settings["retry-safety"].documentdb.hosts.' },
          suggestions: [
            {
              messageId: 'suggestRemoveRetryWrites',
              data: { setting: 'retryWrites: false' },
              output: `const mongodb = require('mongodb');
const client = new mongodb.MongoClient('mongodb://localhost:27017/', {});`,
            },
          ],
        },
      ],
    },
    {
      name: 'DocumentDB 8.0.2: retryWrites=false as the last option is removed with the & before it',
      code: "const uri = 'mongodb://app:s3cret-pw@prod.cluster-abc.us-east-1.docdb.amazonaws.com:27017/?tls=true&tlsCAFile=global-bundle.pem&retryWrites=false';",
      settings: v802,
      output: "const uri = 'mongodb://app:s3cret-pw@prod.cluster-abc.us-east-1.docdb.amazonaws.com:27017/?tls=true&tlsCAFile=global-bundle.pem';",
      errors: [
        {
          messageId: 'removeRetryWritesFalse',
          line: 1,
          column: 129,
          endLine: 1,
          endColumn: 146,
          data: { setting: 'retryWrites=false', subject: 'the URI for prod.cluster-abc.us-east-1.docdb.amazonaws.com', version: '8.0.2', versionSource: '' },
          suggestions: [],
        },
      ],
    },
    {
      name: 'DocumentDB 8.0.2: retryWrites=false as the first option is removed with the & after it',
      code: 'const uri = "mongodb://app:s3cret-pw@prod.cluster-abc.us-east-1.docdb.amazonaws.com:27017/?retryWrites=false&tls=true";',
      settings: v802,
      output: 'const uri = "mongodb://app:s3cret-pw@prod.cluster-abc.us-east-1.docdb.amazonaws.com:27017/?tls=true";',
      errors: [
        {
          messageId: 'removeRetryWritesFalse',
          line: 1,
          column: 92,
          endLine: 1,
          endColumn: 109,
          data: { setting: 'retryWrites=false', subject: 'the URI for prod.cluster-abc.us-east-1.docdb.amazonaws.com', version: '8.0.2', versionSource: '' },
          suggestions: [],
        },
      ],
    },
    {
      name: 'DocumentDB 8.0.2: retryWrites=false as the only option is removed with the ?',
      code: "const uri = 'mongodb://prod.cluster-abc.us-east-1.docdb.amazonaws.com:27017/?retryWrites=false';",
      settings: v802,
      output: "const uri = 'mongodb://prod.cluster-abc.us-east-1.docdb.amazonaws.com:27017/';",
      errors: [
        {
          messageId: 'removeRetryWritesFalse',
          line: 1,
          column: 78,
          endLine: 1,
          endColumn: 95,
          data: { setting: 'retryWrites=false', subject: 'the URI for prod.cluster-abc.us-east-1.docdb.amazonaws.com', version: '8.0.2', versionSource: '' },
          suggestions: [],
        },
      ],
    },
    {
      name: 'DocumentDB 8.0.2: the option name is matched case-insensitively',
      code: "const uri = 'mongodb://prod.cluster-abc.us-east-1.docdb.amazonaws.com:27017/?tls=true&RetryWrites=false';",
      settings: v802,
      output: "const uri = 'mongodb://prod.cluster-abc.us-east-1.docdb.amazonaws.com:27017/?tls=true';",
      errors: [
        {
          messageId: 'removeRetryWritesFalse',
          line: 1,
          column: 87,
          endLine: 1,
          endColumn: 104,
          data: { setting: 'RetryWrites=false', subject: 'the URI for prod.cluster-abc.us-east-1.docdb.amazonaws.com', version: '8.0.2', versionSource: '' },
          suggestions: [],
        },
      ],
    },
    {
      name: 'DocumentDB 5.0.0: missing retryWrites is appended with &',
      code: "const uri = 'mongodb://app:s3cret-pw@prod.cluster-abc.us-east-1.docdb.amazonaws.com:27017/?tls=true&tlsCAFile=global-bundle.pem';",
      settings: v500,
      output: "const uri = 'mongodb://app:s3cret-pw@prod.cluster-abc.us-east-1.docdb.amazonaws.com:27017/?tls=true&tlsCAFile=global-bundle.pem&retryWrites=false';",
      errors: [
        {
          messageId: 'addRetryWritesFalse',
          line: 1,
          column: 14,
          endLine: 1,
          endColumn: 128,
          data: { version: '5.0.0', versionSource: '', subject: 'the URI for prod.cluster-abc.us-east-1.docdb.amazonaws.com' },
          suggestions: [],
        },
      ],
    },
    {
      name: 'DocumentDB 5.0.0: missing retryWrites on a URI without path is appended with /?',
      code: "const uri = 'mongodb://app:s3cret-pw@prod.cluster-abc.us-east-1.docdb.amazonaws.com:27017';",
      settings: v500,
      output: "const uri = 'mongodb://app:s3cret-pw@prod.cluster-abc.us-east-1.docdb.amazonaws.com:27017/?retryWrites=false';",
      errors: [
        {
          messageId: 'addRetryWritesFalse',
          line: 1,
          column: 14,
          endLine: 1,
          endColumn: 90,
          data: { version: '5.0.0', versionSource: '', subject: 'the URI for prod.cluster-abc.us-east-1.docdb.amazonaws.com' },
          suggestions: [],
        },
      ],
    },
    {
      name: 'DocumentDB 5.0.0: missing retryWrites after a database path is appended with ?',
      code: "const uri = 'mongodb://prod.cluster-abc.us-east-1.docdb.amazonaws.com:27017/app';",
      settings: v500,
      output: "const uri = 'mongodb://prod.cluster-abc.us-east-1.docdb.amazonaws.com:27017/app?retryWrites=false';",
      errors: [
        {
          messageId: 'addRetryWritesFalse',
          line: 1,
          column: 14,
          endLine: 1,
          endColumn: 80,
          data: { version: '5.0.0', versionSource: '', subject: 'the URI for prod.cluster-abc.us-east-1.docdb.amazonaws.com' },
          suggestions: [],
        },
      ],
    },
    {
      name: 'DocumentDB 5.0.0: retryWrites=true is set to false',
      code: "const uri = 'mongodb://prod.cluster-abc.us-east-1.docdb.amazonaws.com:27017/?tls=true&retryWrites=true';",
      settings: v500,
      output: "const uri = 'mongodb://prod.cluster-abc.us-east-1.docdb.amazonaws.com:27017/?tls=true&retryWrites=false';",
      errors: [
        {
          messageId: 'setRetryWritesFalse',
          line: 1,
          column: 87,
          endLine: 1,
          endColumn: 103,
          data: { setting: 'retryWrites=true', subject: 'the URI for prod.cluster-abc.us-east-1.docdb.amazonaws.com', version: '5.0.0', versionSource: '' },
          suggestions: [],
        },
      ],
    },
    {
      name: 'DocumentDB, version unknown: retryWrites=false gets a suggestion, no fix',
      code: "const uri = 'mongodb://app:s3cret-pw@prod.cluster-abc.us-east-1.docdb.amazonaws.com:27017/?tls=true&retryWrites=false';",
      settings: none,
      output: null,
      errors: [
        {
          messageId: 'retryWritesFalseUnknownVersion',
          line: 1,
          column: 101,
          endLine: 1,
          endColumn: 118,
          data: { setting: 'retryWrites=false', subject: 'the URI for prod.cluster-abc.us-east-1.docdb.amazonaws.com', settingsName: 'settings["retry-safety"]' },
          suggestions: [
            { messageId: 'suggestRemoveRetryWrites', data: { setting: 'retryWrites=false' }, output: "const uri = 'mongodb://app:s3cret-pw@prod.cluster-abc.us-east-1.docdb.amazonaws.com:27017/?tls=true';" },
          ],
        },
      ],
    },
    {
      name: 'Atlas: retryWrites=false gets a suggestion, never a fix',
      code: "const uri = 'mongodb+srv://app:s3cret-pw@cluster0.ab1cd.mongodb.net/shop?retryWrites=false&w=majority';",
      settings: v802,
      output: null,
      errors: [
        {
          messageId: 'retryWritesFalseNotDocumentDb',
          line: 1,
          column: 74,
          endLine: 1,
          endColumn: 91,
          data: { setting: 'retryWrites=false', subject: 'the URI for cluster0.ab1cd.mongodb.net', hostKind: 'MongoDB Atlas', settingsName: 'settings["retry-safety"]', action: 'Remove it from the URI for cluster0.ab1cd.mongodb.net.' },
          suggestions: [
            { messageId: 'suggestRemoveRetryWrites', data: { setting: 'retryWrites=false' }, output: "const uri = 'mongodb+srv://app:s3cret-pw@cluster0.ab1cd.mongodb.net/shop?w=majority';" },
          ],
        },
      ],
    },
    {
      name: 'self-hosted MongoDB: retryWrites=false gets a suggestion',
      code: "const uri = 'mongodb://localhost:27017/test?retryWrites=false';",
      settings: none,
      output: null,
      errors: [
        {
          messageId: 'retryWritesFalseNotDocumentDb',
          line: 1,
          column: 45,
          endLine: 1,
          endColumn: 62,
          data: { setting: 'retryWrites=false', subject: 'the URI for localhost', hostKind: 'MongoDB', settingsName: 'settings["retry-safety"]', action: 'Remove it, or for a tunnel to DocumentDB before 8.0.2, list localhost in settings["retry-safety"].documentdb.hosts.' },
          suggestions: [
            { messageId: 'suggestRemoveRetryWrites', data: { setting: 'retryWrites=false' }, output: "const uri = 'mongodb://localhost:27017/test';" },
          ],
        },
      ],
    },
    {
      name: 'DocumentDB by its CA bundle (rds-combined-ca-bundle.pem) on an IP host',
      code: "const uri = 'mongodb://10.0.0.5:27017/?tls=true&tlsCAFile=/opt/certs/rds-combined-ca-bundle.pem&retryWrites=false';",
      settings: v802,
      output: "const uri = 'mongodb://10.0.0.5:27017/?tls=true&tlsCAFile=/opt/certs/rds-combined-ca-bundle.pem';",
      errors: [
        {
          messageId: 'removeRetryWritesFalse',
          line: 1,
          column: 97,
          endLine: 1,
          endColumn: 114,
          data: { setting: 'retryWrites=false', subject: 'the URI for 10.0.0.5', version: '8.0.2', versionSource: '' },
          suggestions: [],
        },
      ],
    },
    {
      name: 'DocumentDB by documentdb.hosts (host:port pattern, an SSH tunnel)',
      code: "const uri = 'mongodb://localhost:27018/app';",
      settings: tunnel,
      output: "const uri = 'mongodb://localhost:27018/app?retryWrites=false';",
      errors: [
        {
          messageId: 'addRetryWritesFalse',
          line: 1,
          column: 14,
          endLine: 1,
          endColumn: 43,
          data: { version: '5.0.0', versionSource: '', subject: 'the URI for localhost:27018' },
          suggestions: [],
        },
      ],
    },
    {
      name: 'DocumentDB by documentdb.hosts (glob pattern)',
      code: "const uri = 'mongodb://orders.db.internal.example.com:27017/?retryWrites=true';",
      settings: tunnel,
      output: "const uri = 'mongodb://orders.db.internal.example.com:27017/?retryWrites=false';",
      errors: [
        {
          messageId: 'setRetryWritesFalse',
          line: 1,
          column: 62,
          endLine: 1,
          endColumn: 78,
          data: { setting: 'retryWrites=true', subject: 'the URI for orders.db.internal.example.com', version: '5.0.0', versionSource: '' },
          suggestions: [],
        },
      ],
    },
    {
      name: 'template literal: templated user, password and cluster; a comment in an expression is kept',
      code: 'const uri = `mongodb://${user}:${password}@${cluster /* id */}.docdb.amazonaws.com:27017/?tls=true&retryWrites=false&readPreference=secondaryPreferred`;',
      settings: v802,
      output: 'const uri = `mongodb://${user}:${password}@${cluster /* id */}.docdb.amazonaws.com:27017/?tls=true&readPreference=secondaryPreferred`;',
      errors: [
        {
          messageId: 'removeRetryWritesFalse',
          line: 1,
          column: 100,
          endLine: 1,
          endColumn: 117,
          data: { setting: 'retryWrites=false', subject: 'the URI for ${cluster /* id */}.docdb.amazonaws.com', version: '8.0.2', versionSource: '' },
          suggestions: [],
        },
      ],
    },
    {
      name: 'template literal: missing retryWrites is appended',
      code: 'const uri = `mongodb://${user}:${password}@${cluster}.docdb.amazonaws.com:27017/?tls=true`;',
      settings: v500,
      output: 'const uri = `mongodb://${user}:${password}@${cluster}.docdb.amazonaws.com:27017/?tls=true&retryWrites=false`;',
      errors: [
        {
          messageId: 'addRetryWritesFalse',
          line: 1,
          column: 14,
          endLine: 1,
          endColumn: 90,
          data: { version: '5.0.0', versionSource: '', subject: 'the URI for ${cluster}.docdb.amazonaws.com' },
          suggestions: [],
        },
      ],
    },
    {
      name: 'ESM new MongoClient: URI and options both fixed',
      code: `import { MongoClient } from 'mongodb';
const client = new MongoClient('mongodb://prod.cluster-abc.us-east-1.docdb.amazonaws.com:27017/?tls=true&retryWrites=false', { retryWrites: false, maxPoolSize: 10 });`,
      settings: v802,
      output: `import { MongoClient } from 'mongodb';
const client = new MongoClient('mongodb://prod.cluster-abc.us-east-1.docdb.amazonaws.com:27017/?tls=true', { maxPoolSize: 10 });`,
      errors: [
        {
          messageId: 'removeRetryWritesFalse',
          line: 2,
          column: 106,
          endLine: 2,
          endColumn: 123,
          data: { setting: 'retryWrites=false', subject: 'the URI for prod.cluster-abc.us-east-1.docdb.amazonaws.com', version: '8.0.2', versionSource: '' },
          suggestions: [],
        },
        {
          messageId: 'removeRetryWritesFalse',
          line: 2,
          column: 128,
          endLine: 2,
          endColumn: 146,
          data: { setting: 'retryWrites: false', subject: 'the options passed to new MongoClient()', version: '8.0.2', versionSource: '' },
          suggestions: [],
        },
      ],
    },
    {
      name: 'CJS MongoClient.connect options on Atlas',
      code: `const { MongoClient } = require('mongodb');
MongoClient.connect('mongodb+srv://cluster0.ab1cd.mongodb.net/shop', { retryWrites: false });`,
      settings: none,
      output: null,
      errors: [
        {
          messageId: 'retryWritesFalseNotDocumentDb',
          line: 2,
          column: 72,
          endLine: 2,
          endColumn: 90,
          data: { setting: 'retryWrites: false', subject: 'the options passed to MongoClient.connect()', hostKind: 'MongoDB Atlas', settingsName: 'settings["retry-safety"]', action: 'Remove it from the options passed to MongoClient.connect().' },
          suggestions: [
            { messageId: 'suggestRemoveRetryWrites', data: { setting: 'retryWrites: false' }, output: `const { MongoClient } = require('mongodb');
MongoClient.connect('mongodb+srv://cluster0.ab1cd.mongodb.net/shop', {});` },
          ],
        },
      ],
    },
    {
      name: 'aliased import; multi-line options object',
      code: `import { MongoClient as Client } from 'mongodb';
new Client('mongodb://localhost:27017', {
  appName: 'api',
  retryWrites: false,
});`,
      settings: none,
      output: null,
      errors: [
        {
          messageId: 'retryWritesFalseNotDocumentDb',
          line: 4,
          column: 3,
          endLine: 4,
          endColumn: 21,
          data: { setting: 'retryWrites: false', subject: 'the options passed to new MongoClient()', hostKind: 'MongoDB', settingsName: 'settings["retry-safety"]', action: 'Remove it, or for a tunnel to DocumentDB before 8.0.2, list localhost in settings["retry-safety"].documentdb.hosts.' },
          suggestions: [
            { messageId: 'suggestRemoveRetryWrites', data: { setting: 'retryWrites: false' }, output: `import { MongoClient as Client } from 'mongodb';
new Client('mongodb://localhost:27017', {
  appName: 'api',
});` },
          ],
        },
      ],
    },
    {
      name: 'namespace import; first property removed with its comma',
      code: `import * as mongodb from 'mongodb';
new mongodb.MongoClient('mongodb://localhost:27017', { retryWrites: false, appName: 'api' });`,
      settings: none,
      output: null,
      errors: [
        {
          messageId: 'retryWritesFalseNotDocumentDb',
          line: 2,
          column: 56,
          endLine: 2,
          endColumn: 74,
          data: { setting: 'retryWrites: false', subject: 'the options passed to new MongoClient()', hostKind: 'MongoDB', settingsName: 'settings["retry-safety"]', action: 'Remove it, or for a tunnel to DocumentDB before 8.0.2, list localhost in settings["retry-safety"].documentdb.hosts.' },
          suggestions: [
            { messageId: 'suggestRemoveRetryWrites', data: { setting: 'retryWrites: false' }, output: `import * as mongodb from 'mongodb';
new mongodb.MongoClient('mongodb://localhost:27017', { appName: 'api' });` },
          ],
        },
      ],
    },
    {
      name: 'mongoose default import: connect options on Atlas',
      code: `import mongoose from 'mongoose';
await mongoose.connect('mongodb+srv://cluster0.ab1cd.mongodb.net/shop', { retryWrites: false });`,
      settings: none,
      output: null,
      errors: [
        {
          messageId: 'retryWritesFalseNotDocumentDb',
          line: 2,
          column: 75,
          endLine: 2,
          endColumn: 93,
          data: { setting: 'retryWrites: false', subject: 'the options passed to mongoose.connect()', hostKind: 'MongoDB Atlas', settingsName: 'settings["retry-safety"]', action: 'Remove it from the options passed to mongoose.connect().' },
          suggestions: [
            { messageId: 'suggestRemoveRetryWrites', data: { setting: 'retryWrites: false' }, output: `import mongoose from 'mongoose';
await mongoose.connect('mongodb+srv://cluster0.ab1cd.mongodb.net/shop', {});` },
          ],
        },
      ],
    },
    {
      name: 'mongoose named import: createConnection retryWrites: true on DocumentDB 5.0.0',
      code: `import { createConnection } from 'mongoose';
const conn = createConnection('mongodb://prod.cluster-abc.us-east-1.docdb.amazonaws.com:27017/shop', { retryWrites: true });`,
      settings: v500,
      output: `import { createConnection } from 'mongoose';
const conn = createConnection('mongodb://prod.cluster-abc.us-east-1.docdb.amazonaws.com:27017/shop', { retryWrites: false });`,
      errors: [
        {
          messageId: 'setRetryWritesFalse',
          line: 2,
          column: 104,
          endLine: 2,
          endColumn: 121,
          data: { setting: 'retryWrites: true', subject: 'the options passed to mongoose.createConnection()', version: '5.0.0', versionSource: '' },
          suggestions: [],
        },
      ],
    },
    {
      name: 'mongoose require: DocumentDB by CA bundle, version unknown',
      code: `const mongoose = require('mongoose');
mongoose.createConnection('mongodb://prod.cluster-abc.us-east-1.docdb.amazonaws.com:27017/shop?tls=true&tlsCAFile=global-bundle.pem', { retryWrites: false });`,
      settings: none,
      output: null,
      errors: [
        {
          messageId: 'retryWritesFalseUnknownVersion',
          line: 2,
          column: 137,
          endLine: 2,
          endColumn: 155,
          data: { setting: 'retryWrites: false', subject: 'the options passed to mongoose.createConnection()', settingsName: 'settings["retry-safety"]' },
          suggestions: [
            { messageId: 'suggestRemoveRetryWrites', data: { setting: 'retryWrites: false' }, output: `const mongoose = require('mongoose');
mongoose.createConnection('mongodb://prod.cluster-abc.us-east-1.docdb.amazonaws.com:27017/shop?tls=true&tlsCAFile=global-bundle.pem', {});` },
          ],
        },
      ],
    },
    {
      name: 'URI and options disagree (DocumentDB 5.0.0): conflict, and the options value is fixed',
      code: `import { MongoClient } from 'mongodb';
new MongoClient('mongodb://prod.cluster-abc.us-east-1.docdb.amazonaws.com:27017/?retryWrites=false', { retryWrites: true });`,
      settings: v500,
      output: `import { MongoClient } from 'mongodb';
new MongoClient('mongodb://prod.cluster-abc.us-east-1.docdb.amazonaws.com:27017/?retryWrites=false', { retryWrites: false });`,
      errors: [
        {
          messageId: 'conflictingRetryWrites',
          line: 2,
          column: 104,
          endLine: 2,
          endColumn: 121,
          data: { host: 'prod.cluster-abc.us-east-1.docdb.amazonaws.com', uriValue: 'false', callee: 'new MongoClient()', optionValue: 'true' },
          suggestions: [],
        },
        {
          messageId: 'setRetryWritesFalse',
          line: 2,
          column: 104,
          endLine: 2,
          endColumn: 121,
          data: { setting: 'retryWrites: true', subject: 'the options passed to new MongoClient()', version: '5.0.0', versionSource: '' },
          suggestions: [],
        },
      ],
    },
    {
      name: 'URI and options disagree (DocumentDB 8.0.2): conflict only',
      code: `import { MongoClient } from 'mongodb';
new MongoClient('mongodb://prod.cluster-abc.us-east-1.docdb.amazonaws.com:27017/?retryWrites=false', { retryWrites: true });`,
      settings: v802,
      output: null,
      errors: [
        {
          messageId: 'conflictingRetryWrites',
          line: 2,
          column: 104,
          endLine: 2,
          endColumn: 121,
          data: { host: 'prod.cluster-abc.us-east-1.docdb.amazonaws.com', uriValue: 'false', callee: 'new MongoClient()', optionValue: 'true' },
          suggestions: [],
        },
      ],
    },
    {
      name: 'options object through a const',
      code: `import { MongoClient } from 'mongodb';
const options = { retryWrites: false };
new MongoClient('mongodb://prod.cluster-abc.us-east-1.docdb.amazonaws.com:27017/', options);`,
      settings: none,
      output: null,
      errors: [
        {
          messageId: 'retryWritesFalseUnknownVersion',
          line: 2,
          column: 19,
          endLine: 2,
          endColumn: 37,
          data: { setting: 'retryWrites: false', subject: 'the options passed to new MongoClient()', settingsName: 'settings["retry-safety"]' },
          suggestions: [
            { messageId: 'suggestRemoveRetryWrites', data: { setting: 'retryWrites: false' }, output: `import { MongoClient } from 'mongodb';
const options = {};
new MongoClient('mongodb://prod.cluster-abc.us-east-1.docdb.amazonaws.com:27017/', options);` },
          ],
        },
      ],
    },
    {
      name: 'env URI with a DocumentDB fallback literal: the only property is removed',
      code: `import { MongoClient } from 'mongodb';
new MongoClient(process.env.DOCDB_URI ?? 'mongodb://prod.cluster-abc.us-east-1.docdb.amazonaws.com:27017/?tls=true', { retryWrites: false });`,
      settings: v802,
      output: `import { MongoClient } from 'mongodb';
new MongoClient(process.env.DOCDB_URI ?? 'mongodb://prod.cluster-abc.us-east-1.docdb.amazonaws.com:27017/?tls=true', {});`,
      errors: [
        {
          messageId: 'removeRetryWritesFalse',
          line: 2,
          column: 120,
          endLine: 2,
          endColumn: 138,
          data: { setting: 'retryWrites: false', subject: 'the options passed to new MongoClient()', version: '8.0.2', versionSource: '' },
          suggestions: [],
        },
      ],
    },
    {
      name: 'invalid engineVersion: configuration error, version treated as unknown',
      code: "const uri = 'mongodb://prod.cluster-abc.us-east-1.docdb.amazonaws.com:27017/?tls=true&retryWrites=false';",
      settings: bad,
      output: null,
      errors: [
        {
          messageId: 'invalidSetting',
          line: 1,
          column: 14,
          endLine: 1,
          endColumn: 104,
          data: { setting: 'settings["retry-safety"].documentdb.engineVersion', value: 'a string of 6 characters', expected: 'a version such as "8.0.2" or "5.0"' },
          suggestions: [],
        },
        {
          messageId: 'retryWritesFalseUnknownVersion',
          line: 1,
          column: 87,
          endLine: 1,
          endColumn: 104,
          data: { setting: 'retryWrites=false', subject: 'the URI for prod.cluster-abc.us-east-1.docdb.amazonaws.com', settingsName: 'settings["retry-safety"]' },
          suggestions: [
            { messageId: 'suggestRemoveRetryWrites', data: { setting: 'retryWrites=false' }, output: "const uri = 'mongodb://prod.cluster-abc.us-east-1.docdb.amazonaws.com:27017/?tls=true';" },
          ],
        },
      ],
    },
    {
      name: 'U cafile env v500',
      code: `import { MongoClient } from 'mongodb';
new MongoClient(process.env.DOCDB_URI!, { tls: true, tlsCAFile: 'global-bundle.pem', retryWrites: true });`,
      settings: v500,
      output: `import { MongoClient } from 'mongodb';
new MongoClient(process.env.DOCDB_URI!, { tls: true, tlsCAFile: 'global-bundle.pem', retryWrites: false });`,
      errors: [
        {
          messageId: 'setRetryWritesFalse',
          line: 2,
          column: 86,
          endLine: 2,
          endColumn: 103,
          data: { setting: 'retryWrites: true', subject: 'the options passed to new MongoClient()', version: '5.0.0', versionSource: '' },
          suggestions: [],
        },
      ],
    },
    {
      name: 'a comment inside the range to remove: no fix',
      code: `import { MongoClient } from 'mongodb';
new MongoClient('mongodb://prod.cluster-abc.us-east-1.docdb.amazonaws.com:27017/', { tls: true, /* required before 8.0.2 */ retryWrites: false });`,
      settings: v802,
      output: null,
      errors: [
        {
          messageId: 'removeRetryWritesFalse',
          line: 2,
          column: 125,
          endLine: 2,
          endColumn: 143,
          data: { setting: 'retryWrites: false', subject: 'the options passed to new MongoClient()', version: '8.0.2', versionSource: '' },
          suggestions: [],
        },
      ],
    },
    {
      name: 'every retryWrites=false of the URI is removed by one fix',
      code: "const uri = 'mongodb://prod.cluster-abc.us-east-1.docdb.amazonaws.com:27017/?retryWrites=false&retryWrites=false';",
      settings: v802,
      output: "const uri = 'mongodb://prod.cluster-abc.us-east-1.docdb.amazonaws.com:27017/';",
      errors: [
        {
          messageId: 'removeRetryWritesFalse',
          line: 1,
          column: 78,
          endLine: 1,
          endColumn: 95,
          data: { setting: 'retryWrites=false', subject: 'the URI for prod.cluster-abc.us-east-1.docdb.amazonaws.com', version: '8.0.2', versionSource: '' },
          suggestions: [],
        },
      ],
    },
    {
      name: 'invalid engineVersion is reported once per file, at its first connection string',
      code: `const primary = 'mongodb+srv://cluster0.ab1cd.mongodb.net/shop';
const secondary = 'mongodb+srv://cluster1.ab1cd.mongodb.net/shop';`,
      settings: bad,
      output: null,
      errors: [
        {
          messageId: 'invalidSetting',
          line: 1,
          column: 18,
          endLine: 1,
          endColumn: 63,
          data: { setting: 'settings["retry-safety"].documentdb.engineVersion', value: 'a string of 6 characters', expected: 'a version such as "8.0.2" or "5.0"' },
          suggestions: [],
        },
      ],
    },
    {
      name: 'DocumentDB elastic cluster host',
      code: "const uri = 'mongodb://app:pw-elastic@shop-123456789012.us-east-1.docdb-elastic.amazonaws.com:27017/?tls=true&retryWrites=false';",
      settings: v802,
      output: "const uri = 'mongodb://app:pw-elastic@shop-123456789012.us-east-1.docdb-elastic.amazonaws.com:27017/?tls=true';",
      errors: [
        {
          messageId: 'removeRetryWritesFalse',
          line: 1,
          column: 111,
          endLine: 1,
          endColumn: 128,
          data: { setting: 'retryWrites=false', subject: 'the URI for shop-123456789012.us-east-1.docdb-elastic.amazonaws.com', version: '8.0.2', versionSource: '' },
          suggestions: [],
        },
      ],
    },
  ],
});

// Types do not change this rule's answers; with typed linting it behaves the same.
createTypedRuleTester().run('mongo-retry-writes-connection-string (typed)', rule, {
  valid: [
    {
      code: `import { MongoClient } from 'mongodb';
export const client = new MongoClient('mongodb://prod.cluster-abc.us-east-1.docdb.amazonaws.com:27017/?tls=true', { retryWrites: false });`,
      filename: typedFilename,
      settings: v500,
    },
  ],
  invalid: [
    {
      code: `import { MongoClient, type MongoClientOptions } from 'mongodb';
const options: MongoClientOptions = { retryWrites: false };
export const client = new MongoClient('mongodb://prod.cluster-abc.us-east-1.docdb.amazonaws.com:27017/?tls=true', options);`,
      filename: typedFilename,
      settings: v802,
      output: `import { MongoClient, type MongoClientOptions } from 'mongodb';
const options: MongoClientOptions = {};
export const client = new MongoClient('mongodb://prod.cluster-abc.us-east-1.docdb.amazonaws.com:27017/?tls=true', options);`,
      errors: [
        {
          messageId: 'removeRetryWritesFalse',
          line: 2,
          column: 39,
          endLine: 2,
          endColumn: 57,
          data: { setting: 'retryWrites: false', subject: 'the options passed to new MongoClient()', version: '8.0.2', versionSource: '' },
          suggestions: [],
        },
      ],
    },
  ],
});

describe('mongo-retry-writes-connection-string on generated code', () => {
  const uriArb = fc
    .record({
      scheme: fc.constantFrom('mongodb://', 'mongodb+srv://'),
      user: fc.constantFrom('', 'app:pw@', '${user}:${password}@'),
      host: fc.constantFrom(DOCDB_HOST, DOCDB_HOST, DOCDB_HOST, 'c0.ab1cd.mongodb.net', 'localhost:27017', 'localhost:27018', '${host}:27017', '${cluster}.docdb.amazonaws.com'),
      path: fc.constantFrom('', '/', '/app', '/${db}'),
      options: fc.option(fc.array(fc.constantFrom('retryWrites=false', 'retryWrites=false', 'retryWrites=true', 'tls=true', 'tlsCAFile=global-bundle.pem', '${extra}', ''), { minLength: 1, maxLength: 4 }), { freq: 4 }),
      tail: fc.constantFrom('', '', '', '.', ' and more', '\\u0026x=1'),
    })
    .map(({ scheme, user, host, path, options, tail }) => `${scheme}${user}${host}${options ? `${path || '/'}?${options.join('&')}` : path}${tail}`);
  const codeArb = fc
    .record({
      uri: uriArb,
      quote: fc.constantFrom("'", '"', '`'),
      options: fc.constantFrom('', ', { retryWrites: false }', ', { retryWrites: true, tls: true }', ', { tls: true, /* c */ retryWrites: false }', ', {\n  tls: true,\n  retryWrites: false,\n}', ', opts'),
      call: fc.constantFrom('new MongoClient', 'MongoClient.connect', 'mongoose.connect', 'other'),
      concat: fc.boolean(),
    })
    .map(({ uri, quote, options, call, concat }) => {
      const body = quote === '`' ? uri : uri.replace(/\$\{(\w+)\}/g, '$1');
      const literal = `${quote}${body}${quote}${concat ? " + '&w=majority'" : ''}`;
      return `import { MongoClient } from 'mongodb';\nimport mongoose from 'mongoose';\nconst user = 'u', password = 'p', host = 'h', cluster = 'c', db = 'd', extra = '', opts = {};\n${call}(${literal}${options});\n`;
    });
  const settingsArb = fc.constantFrom(v802, v802, v500, v500, none, bad, tunnel);

  it('never crashes, and every fix leaves code that parses', () => {
    const linter = new Linter();
    let fixedRuns = 0;
    fc.assert(
      fc.property(codeArb, settingsArb, (code, settings) => {
        const config: Linter.Config[] = [
          {
            files: ['**/*.ts'],
            languageOptions: { parser: tsParser },
            plugins: { 'retry-safety': { rules: { r: rule } } as never },
            rules: { 'retry-safety/r': 'error' },
            settings,
          },
        ];
        expect(linter.verify(code, config, 'file.ts').filter((message) => message.fatal)).toEqual([]);
        const fixed = linter.verifyAndFix(code, config, { filename: 'file.ts' });
        expect(fixed.messages.filter((message) => message.fatal)).toEqual([]);
        if (fixed.fixed) fixedRuns++;
      }),
      { numRuns: 500 },
    );
    // The generator must exercise the fixers, not only the silent paths.
    expect(fixedRuns).toBeGreaterThan(20);
  });
});

// Connection strings that used to be cut short, misread or shown with their password.
ruleTester.run('mongo-retry-writes-connection-string: passwords, encodings and ends', rule, {
  valid: [
    {
      name: 'retry%57rites=false is retryWrites=false: nothing to add before 8.0.2',
      code: `const uri = 'mongodb://${DOCDB_HOST}/?tls=true&retry%57rites=false';`,
      settings: v500,
    },
    {
      name: '`admin:1234 5678@…`: `admin` is the user, not a host matching documentdb.hosts',
      code: "const uri = 'mongodb://admin:1234 5678@localhost:27017/app';",
      settings: { 'retry-safety': { documentdb: { engineVersion: '5.0.0', hosts: ['admin', 'admin:1234'] } } },
    },
    {
      name: 'options that go on after a `|`: the option list is not all known',
      code: `const uri = 'mongodb://${DOCDB_HOST}/?appName=a|b&retryWrites=false';`,
      settings: v500,
    },
  ],
  invalid: [
    {
      name: 'retry%57rites=false on DocumentDB 8.0.2 is removed',
      code: `const uri = 'mongodb://${DOCDB_HOST}/?tls=true&retry%57rites=false';`,
      settings: v802,
      output: `const uri = 'mongodb://${DOCDB_HOST}/?tls=true';`,
      errors: [{ messageId: 'removeRetryWritesFalse', data: { setting: 'retry%57rites=false', version: '8.0.2', versionSource: '', subject: `the URI for ${DOCDB_HOST_NAME}` } }],
    },
    {
      name: 'a password with a space, before 8.0.2: retryWrites=false goes at the real end, the message masks the whole password',
      code: `const uri = 'mongodb://admin:1234 5678@${DOCDB_HOST}/?tls=true';`,
      settings: v500,
      output: `const uri = 'mongodb://admin:1234 5678@${DOCDB_HOST}/?tls=true&retryWrites=false';`,
      errors: [{ messageId: 'addRetryWritesFalse', data: { version: '5.0.0', versionSource: '', subject: `the URI for ${DOCDB_HOST_NAME}` } }],
    },
    {
      name: 'the same with a catch-all documentdb.hosts: no edit inside the password',
      code: "const uri = 'mongodb://admin:1234 5678@localhost:27018/app';",
      settings: { 'retry-safety': { documentdb: { engineVersion: '5.0.0', hosts: ['*'] } } },
      output: "const uri = 'mongodb://admin:1234 5678@localhost:27018/app?retryWrites=false';",
      errors: [{ messageId: 'addRetryWritesFalse', data: { version: '5.0.0', versionSource: '', subject: 'the URI for localhost:27018' } }],
    },
    {
      name: '`Pa{{ss@{{ cluster }}` in a template literal: the password is masked, the fix removes retryWrites=false',
      code: 'const uri = `mongodb://app:Pa{{ss@{{ cluster }}.docdb.amazonaws.com:27017/?tls=true&retryWrites=false`;',
      settings: v802,
      output: 'const uri = `mongodb://app:Pa{{ss@{{ cluster }}.docdb.amazonaws.com:27017/?tls=true`;',
      errors: [{ messageId: 'removeRetryWritesFalse', data: { setting: 'retryWrites=false', version: '8.0.2', versionSource: '', subject: 'the URI for {{ cluster }}.docdb.amazonaws.com' } }],
    },
    {
      name: 'a URI ending in `.` inside its quotes: the string is the URI, retryWrites=false goes after the dot',
      code: `const uri = 'mongodb://${DOCDB_HOST}/?tls=true&appName=shop.';`,
      settings: v500,
      output: `const uri = 'mongodb://${DOCDB_HOST}/?tls=true&appName=shop.&retryWrites=false';`,
      errors: [{ messageId: 'addRetryWritesFalse' }],
    },
    {
      name: 'a password with `)`: the URI goes on to its hosts',
      code: `const uri = "mongodb://app:pw)@${DOCDB_HOST}/?retryWrites=false";`,
      settings: v802,
      output: `const uri = "mongodb://app:pw)@${DOCDB_HOST}/";`,
      errors: [{ messageId: 'removeRetryWritesFalse', data: { setting: 'retryWrites=false', version: '8.0.2', versionSource: '', subject: `the URI for ${DOCDB_HOST_NAME}` } }],
    },
  ],
});

describe('mongo-retry-writes-connection-string on the inputs that were misread', () => {
  const SPECIALS = [' ', '\t', '<', '>', '^', '|', '{', '}', '"', "'", '`', ')', ']'];
  const linter = new Linter();
  const codeConfig = (settings: Record<string, unknown>): Linter.Config[] => [
    { files: ['**/*.ts'], languageOptions: { parser: tsParser }, plugins: { 'retry-safety': { rules: { r: rule } } as never }, rules: { 'retry-safety/r': 'error' }, settings },
  ];
  const textConfig = (settings: Record<string, unknown>): Linter.Config[] => [plugin.configs['connection-strings'] as Linter.Config, { settings }];

  /** `text` with the edits of one fix applied. */
  const apply = (text: string, fix: { range: [number, number]; text: string }) => text.slice(0, fix.range[0]) + fix.text + text.slice(fix.range[1]);

  /**
   * Lints `text` and checks every finding: no password in its message or its suggestions'
   * descriptions, and each fix or suggestion, applied, leaves a file that still parses and a
   * URI the driver reads as before but for retryWrites.
   */
  function check(text: string, filename: string, config: Linter.Config[], password: string, uriOf: (text: string) => string) {
    const messages = linter.verify(text, config, filename);
    expect(messages.filter((message) => message.fatal)).toEqual([]);
    // Nor a piece of it (`mongodb://admin:Pw12` once showed the part before a space).
    const secrets = [password, ...password.split(/[^A-Za-z0-9]/).filter((piece) => piece.length >= 4)];
    for (const message of messages) {
      for (const secret of secrets) expect(message.message).not.toContain(secret);
      const edits = [
        ...(message.fix ? [{ fix: message.fix, retryWrites: message.messageId === 'removeRetryWritesFalse' }] : []),
        ...(message.suggestions ?? []).map((suggestion) => ({ fix: suggestion.fix, retryWrites: true })),
      ];
      for (const suggestion of message.suggestions ?? []) for (const secret of secrets) expect(suggestion.desc).not.toContain(secret);
      for (const { fix, retryWrites } of edits) {
        const edited = apply(text, fix);
        expect(linter.verify(edited, config, filename).filter((other) => other.fatal)).toEqual([]);
        if (readWithDriver(uriOf(text))) expectSameButRetryWrites(uriOf(text), uriOf(edited), retryWrites);
      }
    }
    return messages;
  }

  const settingsCases: Array<[string, Record<string, unknown>]> = [
    ['8.0.2', v802],
    ['5.0.0', v500],
    ['no version', none],
    ['5.0.0, hosts ["*"]', { 'retry-safety': { documentdb: { engineVersion: '5.0.0', hosts: ['*'] } } }],
    ['8.0.2, hosts ["localhost:27018"]', { 'retry-safety': { documentdb: { engineVersion: '8.0.2', hosts: ['localhost:27018'] } } }],
  ];
  const uris = (password: string) => [
    `mongodb://admin:${password}@${DOCDB_HOST}/?tls=true`,
    `mongodb://admin:${password}@${DOCDB_HOST}/?tls=true&retryWrites=false`,
    `mongodb://admin:${password}@localhost:27018/app?retryWrites=true`,
    `mongodb://admin:${password}@localhost:27017/app?retryWrites=false`,
  ];

  it.each(settingsCases)('passwords with blanks, quotes, < > ^ | { } ) ] in .env (%s)', (_name, settings) => {
    let reported = 0;
    for (const special of SPECIALS) {
      const password = `Pw12${special}34`;
      for (const uri of uris(password)) {
        const text = `# connection\nDOCDB_URI=${uri}\nPORT=3000\n`;
        const uriOf = (content: string) => content.split('\n')[1]!.slice('DOCDB_URI='.length);
        reported += check(text, '.env', textConfig(settings), password, uriOf).length;
      }
    }
    expect(reported).toBeGreaterThan(0);
  });

  it.each(settingsCases)('passwords with blanks, quotes, < > ^ | { } ) ] in code (%s)', (_name, settings) => {
    for (const special of SPECIALS.filter((special) => special !== '`')) {
      const password = `Pw12${special}34`;
      for (const uri of uris(password)) {
        const text = `export const uri = \`${uri}\`;\n`;
        const uriOf = (content: string) => content.slice(content.indexOf('`') + 1, content.lastIndexOf('`'));
        check(text, 'file.ts', codeConfig(settings), password, uriOf);
      }
    }
  });

  it.each(settingsCases)('`Pa{{ss@{{ cluster }}.docdb.amazonaws.com` in .env and in code (%s)', (_name, settings) => {
    const uri = 'mongodb://app:Pa{{ss@{{ cluster }}.docdb.amazonaws.com:27017/?tls=true&retryWrites=false';
    // The driver sees the template filled in.
    const filled = (text: string) => text.replace('{{ cluster }}', 'prod');
    const env = `DOCDB_URI=${uri}\n`;
    const envMessages = check(env, '.env', textConfig(settings), 'Pa{{ss', (content) => filled(content.trim().slice('DOCDB_URI='.length)));
    const code = `export const uri = \`${uri}\`;\n`;
    const codeMessages = check(code, 'file.ts', codeConfig(settings), 'Pa{{ss', (content) => filled(content.slice(content.indexOf('`') + 1, content.lastIndexOf('`'))));
    // Read alike in both: found (a DocumentDB host) and judged the same.
    expect(envMessages.map((message) => message.messageId)).toEqual(codeMessages.map((message) => message.messageId));
    const engineVersion = (settings['retry-safety'] as { documentdb?: { engineVersion?: string } } | undefined)?.documentdb?.engineVersion;
    expect(envMessages.length).toBe(engineVersion === '5.0.0' ? 0 : 1);
  });

  it('an engine version that is a connection string: its password shows in no message', () => {
    const uri = 'mongodb://admin:hunter2@db.example.com:27017/?tls=true';
    const settings = { 'retry-safety': { documentdb: { engineVersion: uri } } };
    const text = `export const uri = '${`mongodb://${DOCDB_HOST}/?retryWrites=false`}';\n`;
    const messages = linter.verify(text, codeConfig(settings), 'file.ts');
    expect(messages.map((message) => message.messageId)).toEqual(['invalidSetting', 'retryWritesFalseUnknownVersion']);
    for (const message of messages) expect(message.message).not.toContain('hunter2');
    expect(messages[0]!.message).toContain(`engineVersion is a string of ${uri.length} characters;`);
  });

  it('reads a 512 KB line of `mongodb://h ` tokens, in .env, JSON and code', () => {
    const line = 'mongodb://h '.repeat(Math.floor((512 * 1024) / 12));
    expect(linter.verify(`URIS=${line}\n`, textConfig(v500), '.env')).toEqual([]);
    expect(linter.verify(`[${'"mongodb://h",'.repeat(Math.floor((512 * 1024) / 14))}""]\n`, textConfig(v500), 'uris.json')).toEqual([]);
    expect(linter.verify(`export const uris = '${line}';\n`, codeConfig(v500), 'file.ts')).toEqual([]);
  });
});
