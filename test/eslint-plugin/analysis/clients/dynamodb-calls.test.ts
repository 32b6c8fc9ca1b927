import { describe, expect, it } from 'vitest';
import { findAwsGlobalConfigs, findDynamoDbCalls, findDynamoDbClients } from '../../../../eslint-plugin/src/analysis/clients/dynamodb-calls';
import { isDynamoDbWriteOperation } from '../../../../eslint-plugin/src/analysis/clients/dynamodb-operations';
import { analyse, textOf } from '../../harness';

function calls(code: string, sourceType: 'module' | 'commonjs' = 'module') {
  return analyse(code, findDynamoDbCalls, { sourceType }).map((call) => ({
    text: textOf(code, call.node),
    operation: call.operation,
    isWrite: call.isWrite,
    sdkVersion: call.sdkVersion,
    style: call.style,
  }));
}

function clients(code: string, sourceType: 'module' | 'commonjs' = 'module') {
  return analyse(code, findDynamoDbClients, { sourceType }).map((site) => ({
    text: textOf(code, site.node),
    kind: site.kind,
    sdkVersion: site.sdkVersion,
    config: site.config && textOf(code, site.config),
  }));
}

describe('findDynamoDbCalls: SDK v3 client-dynamodb', () => {
  it('finds client.send(new XCommand()) with named imports', () => {
    const code = `
      import { DynamoDBClient, PutItemCommand, BatchWriteItemCommand, QueryCommand } from '@aws-sdk/client-dynamodb';
      const client = new DynamoDBClient({});
      export async function save(item) {
        await client.send(new PutItemCommand({ TableName: 't', Item: item }));
        await client.send(new BatchWriteItemCommand({ RequestItems: {} }));
        return client.send(new QueryCommand({ TableName: 't' }));
      }`;
    expect(calls(code)).toEqual([
      { text: "client.send(new PutItemCommand({ TableName: 't', Item: item }))", operation: 'PutItem', isWrite: true, sdkVersion: 3, style: 'command' },
      { text: 'client.send(new BatchWriteItemCommand({ RequestItems: {} }))', operation: 'BatchWriteItem', isWrite: true, sdkVersion: 3, style: 'command' },
      { text: "client.send(new QueryCommand({ TableName: 't' }))", operation: 'Query', isWrite: false, sdkVersion: 3, style: 'command' },
    ]);
  });

  it('follows aliased imports, namespace imports and a command held in a variable', () => {
    const code = `
      import { TransactWriteItemsCommand as Tx } from '@aws-sdk/client-dynamodb';
      import * as ddb from '@aws-sdk/client-dynamodb';
      export async function run(client) {
        const command = new Tx({ TransactItems: [] });
        await client.send(command);
        await client.send(new ddb.GetItemCommand({ TableName: 't', Key: {} }));
      }`;
    expect(calls(code).map((call) => [call.text, call.operation, call.isWrite])).toEqual([
      ['client.send(command)', 'TransactWriteItems', true],
      ["client.send(new ddb.GetItemCommand({ TableName: 't', Key: {} }))", 'GetItem', false],
    ]);
  });

  it('finds the aggregated DynamoDB class methods, also through this.<field>', () => {
    const code = `
      import { DynamoDB } from '@aws-sdk/client-dynamodb';
      class Repo {
        private readonly ddb = new DynamoDB({ region: 'eu-west-1' });
        async save(items) {
          await this.ddb.batchWriteItem({ RequestItems: items });
          await this.ddb.describeTable({ TableName: 't' });
          await this.ddb.somethingElse();
        }
      }`;
    expect(calls(code).map((call) => [call.text, call.operation, call.isWrite, call.style])).toEqual([
      ['this.ddb.batchWriteItem({ RequestItems: items })', 'BatchWriteItem', true, 'method'],
      ["this.ddb.describeTable({ TableName: 't' })", 'DescribeTable', false, 'method'],
    ]);
  });

  it('finds paginators', () => {
    const code = `
      import { DynamoDBClient, paginateQuery } from '@aws-sdk/client-dynamodb';
      const client = new DynamoDBClient({});
      for await (const page of paginateQuery({ client }, { TableName: 't' })) console.log(page);`;
    expect(calls(code).map((call) => [call.operation, call.style])).toEqual([['Query', 'paginator']]);
  });
});

describe('findDynamoDbCalls: SDK v3 lib-dynamodb', () => {
  it('normalises document commands to API operation names', () => {
    const code = `
      import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
      import { DynamoDBDocumentClient, PutCommand, BatchWriteCommand, BatchGetCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
      const doc = DynamoDBDocumentClient.from(new DynamoDBClient({}));
      export async function f() {
        await doc.send(new PutCommand({ TableName: 't', Item: {} }));
        await doc.send(new BatchWriteCommand({ RequestItems: {} }));
        await doc.send(new BatchGetCommand({ RequestItems: {} }));
        await doc.send(new TransactWriteCommand({ TransactItems: [] }));
        await doc.send(new UpdateCommand({ TableName: 't', Key: {} }));
      }`;
    expect(calls(code).map((call) => [call.operation, call.isWrite])).toEqual([
      ['PutItem', true],
      ['BatchWriteItem', true],
      ['BatchGetItem', false],
      ['TransactWriteItems', true],
      ['UpdateItem', true],
    ]);
  });

  it('finds DynamoDBDocument methods, also on a constructor parameter property typed with it', () => {
    const code = `
      import { DynamoDBDocument } from '@aws-sdk/lib-dynamodb';
      import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
      export const doc = DynamoDBDocument.from(new DynamoDBClient({}));
      await doc.put({ TableName: 't', Item: {} });
      export class Repo {
        constructor(private readonly documents: DynamoDBDocument) {}
        list() { return this.documents.query({ TableName: 't' }); }
        other(documents: DynamoDBDocument) { return documents.batchWrite({ RequestItems: {} }); }
      }`;
    expect(calls(code).map((call) => [call.text, call.operation])).toEqual([
      ["doc.put({ TableName: 't', Item: {} })", 'PutItem'],
      ["this.documents.query({ TableName: 't' })", 'Query'],
      ['documents.batchWrite({ RequestItems: {} })', 'BatchWriteItem'],
    ]);
  });

  it('judges PartiQL ExecuteStatement by its statement text', () => {
    const code = `
      import { ExecuteStatementCommand } from '@aws-sdk/lib-dynamodb';
      export async function f(doc, statement) {
        await doc.send(new ExecuteStatementCommand({ Statement: 'INSERT INTO t VALUE {}' }));
        await doc.send(new ExecuteStatementCommand({ Statement: 'SELECT * FROM t' }));
        await doc.send(new ExecuteStatementCommand({ Statement: statement }));
      }`;
    expect(calls(code).map((call) => call.isWrite)).toEqual([true, false, false]);
  });
});

describe('findDynamoDbCalls: SDK v2', () => {
  it('finds AWS.DynamoDB and DocumentClient methods with require', () => {
    const code = `
      const AWS = require('aws-sdk');
      const db = new AWS.DynamoDB({ region: 'us-east-1' });
      const docs = new AWS.DynamoDB.DocumentClient();
      async function f() {
        await db.batchWriteItem({ RequestItems: {} }).promise();
        docs.put({ TableName: 't', Item: {} }, (err, data) => {});
        await docs.batchWrite({ RequestItems: {} }).promise();
      }`;
    expect(calls(code, 'commonjs')).toEqual([
      { text: 'db.batchWriteItem({ RequestItems: {} })', operation: 'BatchWriteItem', isWrite: true, sdkVersion: 2, style: 'method' },
      { text: "docs.put({ TableName: 't', Item: {} }, (err, data) => {})", operation: 'PutItem', isWrite: true, sdkVersion: 2, style: 'method' },
      { text: 'docs.batchWrite({ RequestItems: {} })', operation: 'BatchWriteItem', isWrite: true, sdkVersion: 2, style: 'method' },
    ]);
  });

  it('finds aws-sdk/clients/dynamodb (default and destructured) and typed DocumentClient fields', () => {
    const code = `
      import DynamoDB from 'aws-sdk/clients/dynamodb';
      import { DocumentClient } from 'aws-sdk/clients/dynamodb';
      import AWS from 'aws-sdk';
      const raw = new DynamoDB();
      raw.getItem({ TableName: 't', Key: {} });
      class Store {
        private client: DocumentClient;
        private legacy!: AWS.DynamoDB.DocumentClient;
        constructor() { this.client = new DocumentClient(); }
        a() { return this.client.update({ TableName: 't', Key: {} }).promise(); }
        b() { return this.legacy.delete({ TableName: 't', Key: {} }).promise(); }
      }`;
    expect(calls(code).map((call) => [call.text, call.operation])).toEqual([
      ["raw.getItem({ TableName: 't', Key: {} })", 'GetItem'],
      ["this.client.update({ TableName: 't', Key: {} })", 'UpdateItem'],
      ["this.legacy.delete({ TableName: 't', Key: {} })", 'DeleteItem'],
    ]);
  });
});

describe('findDynamoDbCalls: an SDK v2 copy handed over by another package', () => {
  it('a DocumentClient made from DynamoDB.DocumentClient of a provided SDK, in a lazy getter', () => {
    const code = `
      class Seeder {
        constructor(serverless) { this.provider = serverless.getProvider('aws'); }
        get documentClient() {
          if (!this._documentClient) this._documentClient = new this.provider.sdk.DynamoDB.DocumentClient({ region: 'eu-west-1' });
          return this._documentClient;
        }
        seed(table, items) {
          return this.documentClient.batchWrite({ RequestItems: { [table]: items } }).promise();
        }
      }
      const wrapped = AWSXRay.captureAWS(sdk);
      new wrapped.DynamoDB.DocumentClient().put({ TableName: 't', Item: {} }, done);
      module.exports = Seeder;`;
    expect(calls(code, 'commonjs').map((call) => [call.text, call.operation])).toEqual([
      ['this.documentClient.batchWrite({ RequestItems: { [table]: items } })', 'BatchWriteItem'],
      ["new wrapped.DynamoDB.DocumentClient().put({ TableName: 't', Item: {} }, done)", 'PutItem'],
    ]);
  });

  it('a DocumentClient of another namespace or a bare one stays unknown', () => {
    const code = `
      const a = new sdk.Firestore.DocumentClient();
      const b = new DocumentClient();
      const c = new sdk.DynamoDB['DocumentClient']();
      a.batchWrite({ RequestItems: {} });
      b.batchWrite({ RequestItems: {} });
      c.batchWrite({ RequestItems: {} });`;
    expect(calls(code, 'commonjs')).toEqual([]);
  });
});

describe('findDynamoDbCalls: look-alikes stay out', () => {
  it('ignores S3, SQS, a local send() and method names on unknown objects', () => {
    const code = `
      import { S3Client, PutObjectCommand } from '@aws-sdk/client-s3';
      import { SQSClient, SendMessageCommand } from '@aws-sdk/client-sqs';
      import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
      class PutItemCommand { constructor(public input: unknown) {} }
      const s3 = new S3Client({});
      const sqs = new SQSClient({});
      const ddb = new DynamoDBClient({});
      function send(x) { return x; }
      await s3.send(new PutObjectCommand({ Bucket: 'b', Key: 'k' }));
      await sqs.send(new SendMessageCommand({ QueueUrl: 'q', MessageBody: 'm' }));
      await ddb.send(new PutItemCommand({}));
      send(new PutItemCommand({}));
      const repo = { batchWriteItem() {}, put() {} };
      repo.batchWriteItem();
      repo.put();
      [1].map((x) => x);`;
    expect(calls(code)).toEqual([]);
  });

  it('does nothing in files without an AWS SDK import', () => {
    expect(calls(`const client = { send() {} }; client.send(new PutItemCommand({}));`)).toEqual([]);
  });
});

describe('findDynamoDbClients', () => {
  it('reports each construction site with its configuration object', () => {
    const code = `
      import { DynamoDBClient, DynamoDB } from '@aws-sdk/client-dynamodb';
      import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
      const config = { region: 'eu-west-1', maxAttempts: 1 };
      const a = new DynamoDBClient(config);
      const b = DynamoDBDocumentClient.from(new DynamoDBClient({ maxAttempts: 2 }));
      const c = new DynamoDB({ maxRetries: 3 } as const);
      const d = new DynamoDBClient();`;
    expect(clients(code)).toEqual([
      { text: 'new DynamoDBClient(config)', kind: 'client', sdkVersion: 3, config: "{ region: 'eu-west-1', maxAttempts: 1 }" },
      { text: 'DynamoDBDocumentClient.from(new DynamoDBClient({ maxAttempts: 2 }))', kind: 'document-client', sdkVersion: 3, config: undefined },
      { text: 'new DynamoDBClient({ maxAttempts: 2 })', kind: 'client', sdkVersion: 3, config: '{ maxAttempts: 2 }' },
      { text: 'new DynamoDB({ maxRetries: 3 } as const)', kind: 'aggregated-client', sdkVersion: 3, config: '{ maxRetries: 3 }' },
      { text: 'new DynamoDBClient()', kind: 'client', sdkVersion: 3, config: undefined },
    ]);
  });

  it('finds v2 clients made through require and destructuring', () => {
    const code = `
      const { DynamoDB } = require('aws-sdk');
      const DynamoDBv2 = require('aws-sdk/clients/dynamodb');
      const a = new DynamoDB({ maxRetries: 0 });
      const b = new DynamoDB.DocumentClient({ maxRetries: 2 });
      const c = new DynamoDBv2.DocumentClient();
      const d = new DynamoDBv2();`;
    expect(clients(code, 'commonjs').map((site) => [site.text, site.kind, site.sdkVersion, site.config])).toEqual([
      ['new DynamoDB({ maxRetries: 0 })', 'v2-client', 2, '{ maxRetries: 0 }'],
      ['new DynamoDB.DocumentClient({ maxRetries: 2 })', 'v2-document-client', 2, '{ maxRetries: 2 }'],
      ['new DynamoDBv2.DocumentClient()', 'v2-document-client', 2, undefined],
      ['new DynamoDBv2()', 'v2-client', 2, undefined],
    ]);
  });

  it('finds a DocumentClient of an SDK copy another package hands over, once beside the imported SDK', () => {
    const code = `
      const AWS = require('aws-sdk');
      const own = new AWS.DynamoDB.DocumentClient({ maxRetries: 1 });
      const provided = new this.provider.sdk.DynamoDB.DocumentClient({ maxRetries: 0 });`;
    expect(clients(code, 'commonjs').map((site) => [site.text, site.kind, site.sdkVersion, site.config])).toEqual([
      ['new AWS.DynamoDB.DocumentClient({ maxRetries: 1 })', 'v2-document-client', 2, '{ maxRetries: 1 }'],
      ['new this.provider.sdk.DynamoDB.DocumentClient({ maxRetries: 0 })', 'v2-document-client', 2, '{ maxRetries: 0 }'],
    ]);
  });
});

describe('isDynamoDbWriteOperation', () => {
  it('tells reads from writes', () => {
    expect(['PutItem', 'BatchWriteItem', 'TransactWriteItems', 'CreateTable', 'UpdateTimeToLive'].map(isDynamoDbWriteOperation)).toEqual([true, true, true, true, true]);
    expect(['GetItem', 'BatchGetItem', 'TransactGetItems', 'Query', 'Scan', 'DescribeTable', 'ListTables'].map(isDynamoDbWriteOperation)).toEqual([false, false, false, false, false, false, false]);
  });
});

describe('findDynamoDbCalls with types', () => {
  it('recognises clients imported from another module and commands built elsewhere', () => {
    const code = `
      import { documents, documentClient, buildPut } from './db.js';
      export async function run() {
        await documents.batchWrite({ RequestItems: {} });
        await documents.put({ TableName: 't', Item: {} });
        await documentClient.send(buildPut({ id: 1 }));
        const map = new Map<string, number>();
        map.get('put');
      }`;
    const found = analyse(code, findDynamoDbCalls, { typed: 'db' });
    expect(found.map((call) => [textOf(code, call.node), call.operation, call.style])).toEqual([
      ['documents.batchWrite({ RequestItems: {} })', 'BatchWriteItem', 'method'],
      ["documents.put({ TableName: 't', Item: {} })", 'PutItem', 'method'],
      ['documentClient.send(buildPut({ id: 1 }))', 'PutItem', 'command'],
    ]);
  });
});

describe('findAwsGlobalConfigs', () => {
  function globalConfigs(code: string, sourceType: 'module' | 'commonjs' = 'module') {
    return analyse(code, findAwsGlobalConfigs, { sourceType }).map((site) => [textOf(code, site.node), site.config && textOf(code, site.config)]);
  }

  it('finds AWS.config.update(…) and new AWS.Config(…) with their options', () => {
    const code = `
      const AWS = require('aws-sdk');
      const options = { maxRetries: 0 };
      AWS.config.update({ region: 'us-east-1', maxRetries: 2 });
      const config = new AWS.Config(options);
      AWS.config.update(loadOptions());
      const db = new AWS.DynamoDB.DocumentClient(config);`;
    expect(globalConfigs(code, 'commonjs')).toEqual([
      ["AWS.config.update({ region: 'us-east-1', maxRetries: 2 })", "{ region: 'us-east-1', maxRetries: 2 }"],
      ['new AWS.Config(options)', '{ maxRetries: 0 }'],
      ['AWS.config.update(loadOptions())', undefined],
    ]);
    expect(globalConfigs(`import { config } from 'aws-sdk'; config.update({ maxRetries: 1 });`)).toEqual([['config.update({ maxRetries: 1 })', '{ maxRetries: 1 }']]);
  });

  it('ignores config objects of other libraries and SDK v3 clients', () => {
    const code = `
      import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
      import config from 'config';
      const settings = { update(value) { return value; } };
      config.update({ maxRetries: 0 });
      settings.update({ maxRetries: 0 });
      export const ddb = new DynamoDBClient({ maxAttempts: 1 });`;
    expect(globalConfigs(code)).toEqual([]);
  });
});

describe('findDynamoDbCalls: batch requests sent on a client the code is handed', () => {
  const code = `module.exports = function seed(dynamodb, table, seeds, done) {
  var params;
  params = { RequestItems: {} };
  params.RequestItems[table] = seeds.map((seed) => ({ PutRequest: { Item: seed } }));
  dynamodb.doc.batchWrite(params, function (err) { done(err); });
  return dynamodb.raw.batchGetItem({ RequestItems: { [table]: { Keys: [] } } }).promise();
};
module.exports.load = (db, keys) => db.batchGet({ RequestItems: keys });
module.exports.others = (queue, list, items) => {
  queue.batchWrite({ items });
  list.batchWrite(items);
  new Map().batchWrite({ RequestItems: {} });
};`;
  const found = (manifest: object) =>
    analyse(code, (context) => findDynamoDbCalls(context).map((call) => `${call.operation} v${call.sdkVersion} ${textOf(code, call.node).slice(0, 24)}`), {
      modules: { 'package.json': JSON.stringify(manifest) },
      sourceType: 'commonjs',
      language: 'javascript',
    });

  it('knows BatchWriteItem and BatchGetItem by their RequestItems, in a package that names no AWS SDK', () => {
    expect(found({ dependencies: { bluebird: '^3' } })).toEqual([
      'BatchWriteItem v2 dynamodb.doc.batchWrite(',
      'BatchGetItem v2 dynamodb.raw.batchGetIte',
      'BatchGetItem v3 db.batchGet({ RequestIte',
    ]);
  });

  it('leaves it to what the callers pass where the project can make clients', () => {
    expect(found({ dependencies: { 'aws-sdk': '^2' } })).toEqual([]);
  });
});
