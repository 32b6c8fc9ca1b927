import tsParser from '@typescript-eslint/parser';
import { Linter } from 'eslint';
import { describe, expect, it } from 'vitest';
import plugin from '../../../eslint-plugin/src/index';

// Odd but valid code around DynamoDB and PostgreSQL clients: the tracking and the
// DynamoDB / PostgreSQL rules must not throw, and report only the pools that really
// have no 'error' listener.
const ODD_SNIPPETS: [code: string, expected: string[]][] = [
  [
  `import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
const args = [{ maxAttempts: 1 }] as const;
const a = new DynamoDBClient(...args);
const b = new DynamoDBClient({ ...{ maxAttempts: 1 } });
const c = new DynamoDBClient({ ['max' + 'Attempts']: 1 });
const d = new DynamoDBClient(undefined);`,
    [],
  ],
  [
  `import { DynamoDBClient, BatchWriteItemCommand } from '@aws-sdk/client-dynamodb';
const client = new DynamoDBClient({});
const method = 'send';
await client[method](new BatchWriteItemCommand({ RequestItems: {} }));
await client?.send?.(new BatchWriteItemCommand({ RequestItems: {} }))?.then?.((r) => r.UnprocessedItems);
const results = [await client.send(new BatchWriteItemCommand({ RequestItems: {} }))];
export const all = { ...(await client.send(new BatchWriteItemCommand({ RequestItems: {} }))) };`,
    [],
  ],
  [
  `const AWS = require('aws-sdk');
const name = 'DynamoDB';
const db = new AWS[name]({ maxRetries: 0 });
require();
require(name);
const docs = new AWS.DynamoDB.DocumentClient();
docs.batchWrite({ RequestItems: {} }, ...callbacks);
docs.batchWrite({ RequestItems: {} }, function (err, ...rest) { console.log(rest); });`,
    [],
  ],
  [
  `import { Pool } from 'pg';
const pools = [new Pool()];
const { query } = new Pool();
const pool = new Pool();
pool.on();
pool.on(...events);
pool.on(\`\${'er'}ror\`, () => {});
new Pool().query('SELECT 1');`,
    ['3: retry-safety/pg-require-pool-error-listener', '8: retry-safety/pg-require-pool-error-listener'],
  ],
  [
  `import postgres from 'postgres';
const sql = postgres();
sql\`\`;
sql.unsafe();
sql.begin();
sql.begin(async ([tx]) => tx);
const fragment = sql\`a \${sql\`b \${sql\`c\`}\`}\`;`,
    [],
  ],
  [
  `import pg from 'pg';
let client;
client = new pg.Client();
client.query();
client.query(123);
client.query({ ['text']: 'BEGIN' });
(await new pg.Pool().connect()).query('COMMIT');
pg.Pool.prototype.query.call(null, 'x');`,
    ['7: retry-safety/pg-require-pool-error-listener'],
  ],
];

describe('odd shapes', () => {
  it.each(ODD_SNIPPETS.map(([code, expected], index) => [index, code, expected] as const))('snippet %i', (_index, code, expected) => {
    const linter = new Linter({ configType: 'flat' });
    const messages = linter.verify(
      code,
      [
        {
          files: ['**/*.ts'],
          languageOptions: { parser: tsParser, sourceType: 'module', ecmaVersion: 'latest' },
          plugins: { 'retry-safety': plugin as never },
          rules: {
            'retry-safety/dynamodb-no-disabled-retries': 'error',
            'retry-safety/dynamodb-require-unprocessed-items-handling': 'error',
            'retry-safety/pg-require-pool-error-listener': 'error',
          },
        },
      ],
      { filename: 'odd.ts' },
    );
    expect(messages.filter((message) => message.fatal || !message.ruleId)).toEqual([]);
    expect(messages.map((message) => `${message.line}: ${message.ruleId}`)).toEqual(expected);
  });
});
