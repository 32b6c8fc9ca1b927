import rule from '../../../eslint-plugin/src/rules/dynamodb-no-disabled-retries';
import { createRuleTester } from '../rule-tester';

const ruleTester = createRuleTester();


ruleTester.run('dynamodb-no-disabled-retries', rule, {
  valid: [
    // SDK clients left at their defaults.
    `import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
const client = new DynamoDBClient({ region: 'eu-west-1' });`,
    `import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
const client = new DynamoDBClient();`,
    // More attempts, not fewer.
    `import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
const client = new DynamoDBClient({ maxAttempts: 5 });`,
    `import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
const client = new DynamoDBClient({ maxAttempts: 2, retryMode: 'adaptive' });`,
    // v2 with fewer retries than the default, but not none.
    `const AWS = require('aws-sdk');
const db = new AWS.DynamoDB({ maxRetries: 3 });`,
    // maxAttempts not statically known.
    `import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
const client = new DynamoDBClient({ maxAttempts: Number(process.env.DDB_ATTEMPTS) });`,
    // A spread after the option may override it.
    `import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
const client = new DynamoDBClient({ maxAttempts: 1, ...overrides });`,
    // Other AWS clients: S3 and SQS may be tuned as their owners like.
    `import { S3Client } from '@aws-sdk/client-s3';
import { SQSClient } from '@aws-sdk/client-sqs';
const s3 = new S3Client({ maxAttempts: 1 });
const sqs = new SQSClient({ maxRetries: 0 });`,
    `const AWS = require('aws-sdk');
const s3 = new AWS.S3({ maxRetries: 0 });`,
    // A local class with the same name.
    `class DynamoDBClient { constructor(readonly options: object) {} }
const client = new DynamoDBClient({ maxAttempts: 1 });`,
    // A retry strategy that allows retries, or one not from the SDK.
    `import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { ConfiguredRetryStrategy } from '@smithy/util-retry';
const client = new DynamoDBClient({ retryStrategy: new ConfiguredRetryStrategy(4, (attempt) => 100 + attempt * 1000) });`,
    `import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
class ConfiguredRetryStrategy { constructor(readonly attempts: number) {} }
const client = new DynamoDBClient({ retryStrategy: new ConfiguredRetryStrategy(1) });`,
    // The v2 global configuration in a file without DynamoDB clients (S3 only).
    `const AWS = require('aws-sdk');
AWS.config.update({ region: 'eu-west-1', maxRetries: 0 });
const s3 = new AWS.S3();`,
    // lib-dynamodb translate options are not retry settings.
    `import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
const doc = DynamoDBDocumentClient.from(new DynamoDBClient({}), { marshallOptions: { removeUndefinedValues: true } });`,
  ],
  invalid: [
    {
      code: `import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
const client = new DynamoDBClient({ region: 'eu-west-1', maxAttempts: 1 });`,
      errors: [
        {
          messageId: 'retriesDisabled',
          data: { option: 'maxAttempts', value: '1', sdk: 'v3' },
          line: 2,
          column: 58,
          endLine: 2,
          endColumn: 72,
          suggestions: [
            {
              messageId: 'removeOption',
              data: { option: 'maxAttempts' },
              output: `import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
const client = new DynamoDBClient({ region: 'eu-west-1' });`,
            },
          ],
        },
      ],
    },
    {
      // CommonJS, a document client wrapping the client, the option first, a comment inside the removed range.
      code: `const { DynamoDBClient } = require('@aws-sdk/client-dynamodb');
const { DynamoDBDocumentClient } = require('@aws-sdk/lib-dynamodb');
const doc = DynamoDBDocumentClient.from(new DynamoDBClient({ maxAttempts: /* fail fast */ 0, region }));`,
      errors: [
        {
          messageId: 'retriesDisabled',
          data: { option: 'maxAttempts', value: '0', sdk: 'v3' },
          line: 3,
          column: 62,
          endLine: 3,
          endColumn: 92,
          suggestions: [
            {
              messageId: 'removeOption',
              data: { option: 'maxAttempts' },
              output: `const { DynamoDBClient } = require('@aws-sdk/client-dynamodb');
const { DynamoDBDocumentClient } = require('@aws-sdk/lib-dynamodb');
const doc = DynamoDBDocumentClient.from(new DynamoDBClient({ region }));`,
            },
          ],
        },
      ],
    },
    {
      // A configuration object in a const, on its own lines; an aliased import.
      code: `import { DynamoDBClient as Ddb } from '@aws-sdk/client-dynamodb';
const MAX_ATTEMPTS = 1;
const config = {
  region: 'eu-west-1',
  maxAttempts: MAX_ATTEMPTS,
  logger: console,
};
export const client = new Ddb(config);`,
      errors: [
        {
          messageId: 'retriesDisabled',
          data: { option: 'maxAttempts', value: '1', sdk: 'v3' },
          line: 5,
          column: 3,
          endLine: 5,
          endColumn: 28,
          suggestions: [
            {
              messageId: 'removeOption',
              output: `import { DynamoDBClient as Ddb } from '@aws-sdk/client-dynamodb';
const MAX_ATTEMPTS = 1;
const config = {
  region: 'eu-west-1',
  logger: console,
};
export const client = new Ddb(config);`,
            },
          ],
        },
      ],
    },
    {
      // The aggregated DynamoDB class, the only property.
      code: `import { DynamoDB } from '@aws-sdk/client-dynamodb';
const ddb = new DynamoDB({ maxAttempts: 1 });`,
      errors: [
        {
          messageId: 'retriesDisabled',
          line: 2,
          column: 28,
          endLine: 2,
          endColumn: 42,
          suggestions: [
            {
              messageId: 'removeOption',
              output: `import { DynamoDB } from '@aws-sdk/client-dynamodb';
const ddb = new DynamoDB({});`,
            },
          ],
        },
      ],
    },
    {
      // SDK v2 service client.
      code: `const AWS = require('aws-sdk');
const db = new AWS.DynamoDB({ apiVersion: '2012-08-10', maxRetries: 0 });`,
      errors: [
        {
          messageId: 'retriesDisabled',
          data: { option: 'maxRetries', value: '0', sdk: 'v2' },
          line: 2,
          column: 57,
          endLine: 2,
          endColumn: 70,
          suggestions: [
            {
              messageId: 'removeOption',
              data: { option: 'maxRetries' },
              output: `const AWS = require('aws-sdk');
const db = new AWS.DynamoDB({ apiVersion: '2012-08-10' });`,
            },
          ],
        },
      ],
    },
    {
      // SDK v2 DocumentClient (its options reach the DynamoDB service it makes), ESM default import.
      code: `import AWS from 'aws-sdk';
const docs = new AWS.DynamoDB.DocumentClient({ maxRetries: 0, convertEmptyValues: true });`,
      errors: [
        {
          messageId: 'retriesDisabled',
          line: 2,
          column: 48,
          endLine: 2,
          endColumn: 61,
          suggestions: [
            {
              messageId: 'removeOption',
              output: `import AWS from 'aws-sdk';
const docs = new AWS.DynamoDB.DocumentClient({ convertEmptyValues: true });`,
            },
          ],
        },
      ],
    },
    {
      // aws-sdk/clients/dynamodb.
      code: `import DynamoDB from 'aws-sdk/clients/dynamodb';
const db = new DynamoDB({ maxRetries: -1 });`,
      errors: [
        {
          messageId: 'retriesDisabled',
          data: { option: 'maxRetries', value: '-1', sdk: 'v2' },
          line: 2,
          column: 27,
          endLine: 2,
          endColumn: 41,
          suggestions: [{ messageId: 'removeOption', output: `import DynamoDB from 'aws-sdk/clients/dynamodb';
const db = new DynamoDB({});` }],
        },
      ],
    },
    {
      // The v2 option on a v3 client: ignored there.
      code: `import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
const client = new DynamoDBClient({ region: 'eu-west-1', maxRetries: 5 });`,
      errors: [
        {
          messageId: 'optionIgnored',
          data: {
            option: 'maxRetries',
            sdk: 'v3',
            otherSdk: 'v2',
            hint: 'Use `maxAttempts` instead (all attempts, the first included).',
          },
          line: 2,
          column: 58,
          endLine: 2,
          endColumn: 71,
          suggestions: [
            {
              messageId: 'removeOption',
              output: `import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
const client = new DynamoDBClient({ region: 'eu-west-1' });`,
            },
            {
              messageId: 'useMaxAttempts',
              data: { attempts: '6' },
              output: `import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
const client = new DynamoDBClient({ region: 'eu-west-1', maxAttempts: 6 });`,
            },
          ],
        },
      ],
    },
    {
      // maxRetries: 0 on v3 is ignored; replacing it with maxAttempts: 1 would disable retries, so only removal is offered.
      code: `import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
const client = new DynamoDBClient({ maxRetries: 0, region: 'eu-west-1' });`,
      errors: [
        {
          messageId: 'optionIgnored',
          line: 2,
          column: 37,
          endLine: 2,
          endColumn: 50,
          suggestions: [
            {
              messageId: 'removeOption',
              output: `import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
const client = new DynamoDBClient({ region: 'eu-west-1' });`,
            },
          ],
        },
      ],
    },
    {
      // The v3 option on a v2 client.
      code: `const DynamoDB = require('aws-sdk/clients/dynamodb');
const docs = new DynamoDB.DocumentClient({ maxAttempts: 5 });`,
      errors: [
        {
          messageId: 'optionIgnored',
          data: {
            option: 'maxAttempts',
            sdk: 'v2',
            otherSdk: 'v3',
            hint: 'Use `maxRetries` instead (the retries after the first attempt).',
          },
          line: 2,
          column: 44,
          endLine: 2,
          endColumn: 58,
          suggestions: [{ messageId: 'removeOption', output: `const DynamoDB = require('aws-sdk/clients/dynamodb');
const docs = new DynamoDB.DocumentClient({});` }],
        },
      ],
    },
    {
      // A v3 retry strategy allowing a single attempt.
      code: `import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { ConfiguredRetryStrategy } from '@smithy/util-retry';
const client = new DynamoDBClient({ region: 'eu-west-1', retryStrategy: new ConfiguredRetryStrategy(1, () => 0) });`,
      errors: [
        {
          messageId: 'retriesDisabled',
          data: { option: 'retryStrategy', value: 'new ConfiguredRetryStrategy(1, …)', sdk: 'v3' },
          line: 3,
          column: 58,
          endLine: 3,
          endColumn: 112,
          suggestions: [
            {
              messageId: 'removeOption',
              data: { option: 'retryStrategy' },
              output: `import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { ConfiguredRetryStrategy } from '@smithy/util-retry';
const client = new DynamoDBClient({ region: 'eu-west-1' });`,
            },
          ],
        },
      ],
    },
    {
      // StandardRetryStrategy with a provider, CommonJS.
      code: `const { DynamoDB } = require('@aws-sdk/client-dynamodb');
const { StandardRetryStrategy } = require('@aws-sdk/util-retry');
const ddb = new DynamoDB({ retryStrategy: new StandardRetryStrategy(async () => 1) });`,
      errors: [
        {
          messageId: 'retriesDisabled',
          data: { option: 'retryStrategy', value: 'new StandardRetryStrategy(async () => 1)', sdk: 'v3' },
          line: 3,
          column: 28,
          endLine: 3,
          endColumn: 83,
          suggestions: [
            {
              messageId: 'removeOption',
              output: `const { DynamoDB } = require('@aws-sdk/client-dynamodb');
const { StandardRetryStrategy } = require('@aws-sdk/util-retry');
const ddb = new DynamoDB({});`,
            },
          ],
        },
      ],
    },
    {
      // The v2 global configuration in a file that makes a DynamoDB client.
      code: `import AWS from 'aws-sdk';
AWS.config.update({ region: 'eu-west-1', maxRetries: 0 });
export const documents = new AWS.DynamoDB.DocumentClient();`,
      errors: [
        {
          messageId: 'globalRetriesDisabled',
          data: { value: '0' },
          line: 2,
          column: 42,
          endLine: 2,
          endColumn: 55,
          suggestions: [
            {
              messageId: 'removeOption',
              data: { option: 'maxRetries' },
              output: `import AWS from 'aws-sdk';
AWS.config.update({ region: 'eu-west-1' });
export const documents = new AWS.DynamoDB.DocumentClient();`,
            },
          ],
        },
      ],
    },
    {
      // Last property on its own line, without a trailing comma.
      code: `import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
const client = new DynamoDBClient({
  region: 'eu-west-1',
  maxAttempts: 1
});`,
      errors: [
        {
          messageId: 'retriesDisabled',
          line: 4,
          column: 3,
          endLine: 4,
          endColumn: 17,
          suggestions: [
            {
              messageId: 'removeOption',
              output: `import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
const client = new DynamoDBClient({
  region: 'eu-west-1'
});`,
            },
          ],
        },
      ],
    },
  ],
});
