import path from 'node:path';
import rule from '../../../eslint-plugin/src/rules/dynamodb-require-unprocessed-items-handling';
import { RuleTester } from '@typescript-eslint/rule-tester';
import { commonJsWithEspree, createRuleTester } from '../rule-tester';
import { typedDbFilename, typedDbFixtureDir } from '../harness';


const ruleTester = createRuleTester();

/** A result handler that puts the leftovers back into the request it sends again (`takeParams`, `docs` around it). */
const LEFTOVER_HANDLER = `handler = (data) => {
  const left = data.UnprocessedItems ? data.UnprocessedItems.orders || [] : [];
  if (left.length) {
    takeParams.RequestItems.orders = left;
    return docs.batchWrite(takeParams).promise().then(handler);
  }
};`;

const indent = (code: string): string => code.replace(/^/gm, '  ');

const V3 = `import { DynamoDBClient, BatchWriteItemCommand, BatchGetItemCommand } from '@aws-sdk/client-dynamodb';
const client = new DynamoDBClient({});
`;
const DOC = `import { DynamoDBDocumentClient, BatchWriteCommand, BatchGetCommand } from '@aws-sdk/lib-dynamodb';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
const doc = DynamoDBDocumentClient.from(new DynamoDBClient({}));
`;

const WRITE = { operation: 'BatchWriteItem', property: 'UnprocessedItems', items: 'writes' };
/** The helper the suggestion adds to a JavaScript file. */
/** A Serverless plugin's seeder: its DocumentClient comes from the SDK copy of the framework's provider, behind a lazy getter. */
const PROVIDED_SDK_SEEDER = `class Seeder {
  constructor(serverless) {
    this.provider = serverless.getProvider('aws');
  }
  get documentClient() {
    if (!this._documentClient) this._documentClient = new this.provider.sdk.DynamoDB.DocumentClient();
    return this._documentClient;
  }
  async seed(items) {
    await this.documentClient.batchWrite({ RequestItems: { orders: items } }).promise();
  }
}
module.exports = Seeder;`;

const JS_WRITE_HELPER = `/** Sends a DynamoDB batch write again with what it left unprocessed, with backoff, until nothing is left. */
async function writeAllItems(send, input) {
  let request = input;
  for (let attempt = 1; ; attempt++) {
    const output = await send(request);
    const unprocessed = output.UnprocessedItems;
    if (!unprocessed || Object.keys(unprocessed).length === 0) return output;
    if (attempt >= 5) throw new Error(\`DynamoDB left writes unprocessed after \${attempt} attempts\`);
    request = { ...request, RequestItems: unprocessed };
    await new Promise((resolve) => setTimeout(resolve, Math.random() * Math.min(20000, 100 * 2 ** attempt)));
  }
}`;
const SEND_WRITE = { helper: 'writeAllItems', added: ', a function added to this file', property: 'UnprocessedItems', maxAttempts: '5' };
const RESENT = 'unprocessedResentAtOnce' as const;
const READ = { operation: 'BatchGetItem', property: 'UnprocessedKeys', items: 'reads' };
const RESEND_DATA_WRITE = { property: 'UnprocessedItems', maxAttempts: '5', maxDelayMs: '20000', baseDelayMs: '100' };
const RESEND_DATA_READ = { ...RESEND_DATA_WRITE, property: 'UnprocessedKeys' };

ruleTester.run('dynamodb-require-unprocessed-items-handling', rule, {
  valid: [
    // The result is checked and the leftovers retried after a wait.
    `${V3}const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
export async function save(requests) {
  let pending = { orders: requests };
  for (let attempt = 0; Object.keys(pending).length > 0 && attempt < 8; attempt++) {
    if (attempt > 0) await sleep(Math.random() * 100 * 2 ** attempt);
    const result = await client.send(new BatchWriteItemCommand({ RequestItems: pending }));
    pending = result.UnprocessedItems ?? {};
  }
}`,
    // Recursion through a timer (callback style).
    `const AWS = require('aws-sdk');
const docs = new AWS.DynamoDB.DocumentClient();
function write(items, attempt, done) {
  docs.batchWrite({ RequestItems: items }, (err, data) => {
    if (err) return done(err);
    const left = data.UnprocessedItems;
    if (!left || Object.keys(left).length === 0) return done();
    if (attempt >= 5) return done(new Error('unprocessed'));
    setTimeout(() => write(left, attempt + 1, done), 100 * 2 ** attempt);
  });
}
module.exports = { write };`,
    // Pagination with LastEvaluatedKey: another key, not leftovers.
    `${DOC}import { QueryCommand } from '@aws-sdk/lib-dynamodb';
export async function all(pk) {
  const items = [];
  let key;
  do {
    const page = await doc.send(new QueryCommand({ TableName: 'orders', KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': pk }, ExclusiveStartKey: key }));
    items.push(...(page.Items ?? []));
    key = page.LastEvaluatedKey;
  } while (key);
  return items;
}`,
    // Each chunk sent once; leftovers make the call fail instead.
    `${DOC}export async function saveAll(chunks) {
  for (const chunk of chunks) {
    const result = await doc.send(new BatchWriteCommand({ RequestItems: chunk }));
    if (Object.keys(result.UnprocessedItems ?? {}).length > 0) throw new Error('DynamoDB left writes unprocessed');
  }
}`,
    // Handled after a detour: a factory's handler that reads the leftovers.
    `const AWS = require('aws-sdk');
const docs = new AWS.DynamoDB.DocumentClient();
function onDone(params, callback) {
  return function (err, data) {
    if (err) return callback(err);
    callback(null, data.UnprocessedItems);
  };
}
function save(params, callback) {
  docs.batchWrite(params, onDone(params, callback));
}
module.exports = { save };`,
    // Handled after a detour: returned to a caller in the file that reads it.
    `${DOC}async function writeChunk(chunk) {
  return doc.send(new BatchWriteCommand({ RequestItems: chunk }));
}
export async function saveAll(chunks) {
  for (const chunk of chunks) {
    const { UnprocessedItems } = await writeChunk(chunk);
    if (UnprocessedItems && Object.keys(UnprocessedItems).length > 0) throw new Error('unprocessed');
  }
}`,
    // The Promise.all array is read.
    `const AWS = require('aws-sdk');
const docs = new AWS.DynamoDB.DocumentClient();
async function saveAll(chunks) {
  const results = await Promise.all(chunks.map(async (chunk) => (await docs.batchWrite({ RequestItems: chunk }).promise())));
  return results.flatMap((result) => Object.values(result.UnprocessedItems ?? {}));
}
module.exports = { saveAll };`,
    // Destructured and read.
    `${DOC}export async function save(requests) {
  const { UnprocessedItems } = await doc.send(new BatchWriteCommand({ RequestItems: { orders: requests } }));
  if (UnprocessedItems && Object.keys(UnprocessedItems).length > 0) throw new Error('unprocessed');
}`,
    // The result is returned to the caller.
    `${DOC}export function save(requests) {
  return doc.send(new BatchWriteCommand({ RequestItems: { orders: requests } }));
}`,
    `${DOC}export async function load(keys) {
  const result = await doc.send(new BatchGetCommand({ RequestItems: { orders: { Keys: keys } } }));
  return result;
}`,
    // .then reading the property; optional chaining.
    `${V3}client.send(new BatchGetItemCommand({ RequestItems: {} })).then((res) => retry(res?.UnprocessedKeys));`,
    // The result is handed to a helper: not known here.
    `${V3}const result = await client.send(new BatchWriteItemCommand({ RequestItems: {} }));
await retryUnprocessed(result);`,
    // SDK v2 callback reading the property.
    `const AWS = require('aws-sdk');
const docs = new AWS.DynamoDB.DocumentClient();
docs.batchWrite({ RequestItems: {} }, (err, data) => {
  if (err) throw err;
  queue(data.UnprocessedItems);
});`,
    // SDK v2 request stored, sent elsewhere: not known.
    `const AWS = require('aws-sdk');
const db = new AWS.DynamoDB();
const request = db.batchWriteItem({ RequestItems: {} });
request.on('success', handle).send();`,
    // Not a batch operation.
    `${DOC}import { PutCommand } from '@aws-sdk/lib-dynamodb';
await doc.send(new PutCommand({ TableName: 't', Item: {} }));`,
    // Look-alikes: S3 DeleteObjects, a repository method named batchWrite, an SQS batch.
    `import { S3Client, DeleteObjectsCommand } from '@aws-sdk/client-s3';
const s3 = new S3Client({});
await s3.send(new DeleteObjectsCommand({ Bucket: 'b', Delete: { Objects: [] } }));`,
    `const repo = { batchWrite: async (items) => items };
await repo.batchWrite([]);`,
    // Batch methods of unknown receivers without a DynamoDB request, or on values known to be something else.
    `export function flush(queue, items) { return queue.batchWrite({ items }, (err) => err); }`,
    `export function flush(items) { const queue = new Map(); queue.batchWrite({ RequestItems: items }, (err) => err); }`,
    `import { SQSClient, SendMessageBatchCommand } from '@aws-sdk/client-sqs';
const sqs = new SQSClient({});
await sqs.send(new SendMessageBatchCommand({ QueueUrl: 'q', Entries: [] }));`,
    // Promise.all whose results are read.
    `${DOC}const results = await Promise.all(chunks.map((chunk) => doc.send(new BatchWriteCommand({ RequestItems: chunk }))));
const left = results.flatMap((r) => Object.values(r.UnprocessedItems ?? {}));`,
  ],
  invalid: [
    {
      // The leftovers sent again at once, in a loop (bounded, but with no wait).
      code: `${V3}export async function save(requests) {
  let pending = { orders: requests };
  for (let attempt = 0; Object.keys(pending).length > 0 && attempt < 8; attempt++) {
    const result = await client.send(new BatchWriteItemCommand({ RequestItems: pending }));
    pending = result.UnprocessedItems ?? {};
  }
}`,
      errors: [
        {
          messageId: RESENT,
          data: WRITE,
          line: 6,
          // The loop has its limit and sends the first batch itself: a wait before each later round (a fresh counter name).
          suggestions: [
            {
              messageId: 'waitBeforeLimitedResend',
              data: RESEND_DATA_WRITE,
              output: `${V3}export async function save(requests) {
  let pending = { orders: requests };
  let attempt2 = 0;
  for (let attempt = 0; Object.keys(pending).length > 0 && attempt < 8; attempt++) {
    if (attempt2 > 0) {
      await new Promise((resolve) => setTimeout(resolve, Math.random() * Math.min(20000, 100 * 2 ** attempt2)));
    }
    attempt2 += 1;
    const result = await client.send(new BatchWriteItemCommand({ RequestItems: pending }));
    pending = result.UnprocessedItems ?? {};
  }
}`,
            },
          ],
        },
      ],
    },
    {
      // ... in a while loop on the leftovers, destructured.
      code: `${DOC}export async function load(keys) {
  let request = { orders: { Keys: keys } };
  const found = [];
  while (Object.keys(request).length > 0) {
    const { Responses, UnprocessedKeys } = await doc.send(new BatchGetCommand({ RequestItems: request }));
    found.push(...(Responses?.orders ?? []));
    request = UnprocessedKeys ?? {};
  }
  return found;
}`,
      // The leftovers reach the condition through the destructured name: a counter, the limit and the wait.
      errors: [
        {
          messageId: RESENT,
          data: READ,
          line: 8,
          suggestions: [
            {
              messageId: 'waitBeforeResend',
              data: RESEND_DATA_READ,
              output: `${DOC}export async function load(keys) {
  let request = { orders: { Keys: keys } };
  const found = [];
  let attempt = 0;
  while (Object.keys(request).length > 0) {
    if (attempt > 0) {
      if (attempt >= 5) throw new Error(\`DynamoDB left reads unprocessed after \${attempt} attempts\`);
      await new Promise((resolve) => setTimeout(resolve, Math.random() * Math.min(20000, 100 * 2 ** attempt)));
    }
    attempt += 1;
    const { Responses, UnprocessedKeys } = await doc.send(new BatchGetCommand({ RequestItems: request }));
    found.push(...(Responses?.orders ?? []));
    request = UnprocessedKeys ?? {};
  }
  return found;
}`,
            },
          ],
        },
      ],
    },
    {
      // ... by a function that calls itself with them (awaited).
      code: `const AWS = require('aws-sdk');
const docs = new AWS.DynamoDB.DocumentClient();
async function write(items) {
  const result = await docs.batchWrite({ RequestItems: items }).promise();
  if (result.UnprocessedItems && Object.keys(result.UnprocessedItems).length > 0) {
    return write(result.UnprocessedItems);
  }
}
module.exports = { write };`,
      errors: [
        {
          messageId: RESENT,
          data: WRITE,
          line: 4,
          suggestions: [
            {
              messageId: 'waitBeforeResend',
              data: RESEND_DATA_WRITE,
              output: `const AWS = require('aws-sdk');
const docs = new AWS.DynamoDB.DocumentClient();
async function write(items, attempt = 1) {
  const result = await docs.batchWrite({ RequestItems: items }).promise();
  if (result.UnprocessedItems && Object.keys(result.UnprocessedItems).length > 0) {
    if (attempt >= 5) throw new Error(\`DynamoDB left writes unprocessed after \${attempt} attempts\`);
    await new Promise((resolve) => setTimeout(resolve, Math.random() * Math.min(20000, 100 * 2 ** attempt)));
    return write(result.UnprocessedItems, attempt + 1);
  }
}
module.exports = { write };`,
            },
          ],
        },
      ],
    },
    {
      // ... in callback style, without a timer.
      code: `const AWS = require('aws-sdk');
const docs = new AWS.DynamoDB.DocumentClient();
function write(items, done) {
  docs.batchWrite({ RequestItems: items }, (err, data) => {
    if (err) return done(err);
    if (Object.keys(data.UnprocessedItems).length) return write(data.UnprocessedItems, done);
    done();
  });
}
module.exports = { write };`,
      errors: [{ messageId: RESENT, data: WRITE, line: 4 }],
    },
    {
      // The same handler at the top of a CommonJS file (a function scope with ESLint's own parser): a count there
      // would be shared by every caller, so no edit is offered.
      filename: 'store.js',
      languageOptions: commonJsWithEspree,
      code: `const AWS = require('aws-sdk');
const docs = new AWS.DynamoDB.DocumentClient();
const takeParams = { RequestItems: {} };
let handler = null;
${LEFTOVER_HANDLER}
function batchWrite(params) {
  takeParams.RequestItems = params.RequestItems;
  return docs.batchWrite(takeParams).promise().then(handler);
}
module.exports = { batchWrite };`,
      errors: [{ messageId: RESENT, data: WRITE, line: 14, suggestions: [] }],
    },
    {
      // ... by a named result handler that puts them back into the request it sends again (reported once, at the first batch).
      code: `const AWS = require('aws-sdk');
const docs = new AWS.DynamoDB.DocumentClient();
function batchWrite(params) {
  const takeParams = { RequestItems: {} };
  let handler = null;
${indent(LEFTOVER_HANDLER)}
  takeParams.RequestItems = params.RequestItems;
  return docs.batchWrite(takeParams).promise().then(handler);
}
module.exports = { batchWrite };`,
      errors: [
        {
          messageId: RESENT,
          data: WRITE,
          line: 14,
          suggestions: [
            {
              // A count next to the handler (one per call of batchWrite), a limit, and a wait before the re-send.
              messageId: 'waitBeforeResend',
              data: RESEND_DATA_WRITE,
              output: `const AWS = require('aws-sdk');
const docs = new AWS.DynamoDB.DocumentClient();
function batchWrite(params) {
  const takeParams = { RequestItems: {} };
  let unprocessedAttempts = 0;
  let handler = null;
  handler = async (data) => {
    if (data.UnprocessedItems && Object.keys(data.UnprocessedItems).length > 0) {
      if (++unprocessedAttempts >= 5) throw new Error(\`DynamoDB left writes unprocessed after \${unprocessedAttempts} attempts\`);
    } else {
      unprocessedAttempts = 0;
    }
    const resendDelay = unprocessedAttempts > 0 ? Math.random() * Math.min(20000, 100 * 2 ** unprocessedAttempts) : 0;
    const left = data.UnprocessedItems ? data.UnprocessedItems.orders || [] : [];
    if (left.length) {
      takeParams.RequestItems.orders = left;
      await new Promise((resolve) => setTimeout(resolve, resendDelay));
      return docs.batchWrite(takeParams).promise().then(handler);
    }
  };
  takeParams.RequestItems = params.RequestItems;
  return docs.batchWrite(takeParams).promise().then(handler);
}
module.exports = { batchWrite };`,
            },
          ],
        },
      ],
    },
    {
      // ... by a function declared after the first send (the count goes before that send), with a braceless
      // \`if\` (it gets braces for the wait) and a \`sleep\` helper in the file (reused).
      code: `${DOC}const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
export function loadUsers(keys: Record<string, unknown>[]) {
  const users: unknown[] = [];
  return doc.send(new BatchGetCommand({ RequestItems: { users: { Keys: keys } } })).then(collect);

  function collect(page: { Responses?: Record<string, unknown[]>; UnprocessedKeys?: Record<string, any> }): Promise<unknown[]> {
    users.push(...(page.Responses?.users ?? []));
    if (page.UnprocessedKeys?.users) return doc.send(new BatchGetCommand({ RequestItems: page.UnprocessedKeys })).then(collect);
    return Promise.resolve(users);
  }
}`,
      errors: [
        {
          messageId: RESENT,
          data: READ,
          line: 7,
          suggestions: [
            {
              messageId: 'waitBeforeResend',
              data: RESEND_DATA_READ,
              output: `${DOC}const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
export function loadUsers(keys: Record<string, unknown>[]) {
  const users: unknown[] = [];
  let unprocessedAttempts = 0;
  return doc.send(new BatchGetCommand({ RequestItems: { users: { Keys: keys } } })).then(collect);

  async function collect(page: { Responses?: Record<string, unknown[]>; UnprocessedKeys?: Record<string, any> }): Promise<unknown[]> {
    if (page.UnprocessedKeys && Object.keys(page.UnprocessedKeys).length > 0) {
      if (++unprocessedAttempts >= 5) throw new Error(\`DynamoDB left reads unprocessed after \${unprocessedAttempts} attempts\`);
    } else {
      unprocessedAttempts = 0;
    }
    const resendDelay = unprocessedAttempts > 0 ? Math.random() * Math.min(20000, 100 * 2 ** unprocessedAttempts) : 0;
    users.push(...(page.Responses?.users ?? []));
    if (page.UnprocessedKeys?.users) {
      await sleep(resendDelay);
      return doc.send(new BatchGetCommand({ RequestItems: page.UnprocessedKeys })).then(collect);
    }
    return Promise.resolve(users);
  }
}`,
            },
          ],
        },
      ],
    },
    {
      // A while loop that sends the leftovers again while any are left: the first batch and the re-send are both
      // reported, and both get the count before the loop, the limit and the wait first in it.
      code: `${V3}export async function writeAll(RequestItems) {
  let res = await client.send(new BatchWriteItemCommand({ RequestItems }));
  while (Object.keys(res.UnprocessedItems ?? {}).length) {
    res = await client.send(new BatchWriteItemCommand({ RequestItems: res.UnprocessedItems }));
  }
}`,
      errors: [4, 6].map((line) => ({
        messageId: RESENT,
        data: WRITE,
        line,
        suggestions: [
          {
            messageId: 'waitBeforeResend' as const,
            data: RESEND_DATA_WRITE,
            output: `${V3}export async function writeAll(RequestItems) {
  let res = await client.send(new BatchWriteItemCommand({ RequestItems }));
  let attempt = 0;
  while (Object.keys(res.UnprocessedItems ?? {}).length) {
    if (++attempt >= 5) throw new Error(\`DynamoDB left writes unprocessed after \${attempt} attempts\`);
    await new Promise((resolve) => setTimeout(resolve, Math.random() * Math.min(20000, 100 * 2 ** attempt)));
    res = await client.send(new BatchWriteItemCommand({ RequestItems: res.UnprocessedItems }));
  }
}`,
          },
        ],
      })),
    },
    {
      // The loop already counts and limits its rounds: only the wait, first in every round (the first batch went before it).
      code: `${V3}export async function writeAll(RequestItems) {
  let res = await client.send(new BatchWriteItemCommand({ RequestItems }));
  let tries = 1;
  while (Object.keys(res.UnprocessedItems ?? {}).length && tries < 5) {
    res = await client.send(new BatchWriteItemCommand({ RequestItems: res.UnprocessedItems }));
    tries++;
  }
}`,
      errors: [4, 7].map((line) => ({
        messageId: RESENT,
        data: WRITE,
        line,
        suggestions: [
          {
            messageId: 'waitBeforeLimitedResend' as const,
            data: RESEND_DATA_WRITE,
            output: `${V3}export async function writeAll(RequestItems) {
  let res = await client.send(new BatchWriteItemCommand({ RequestItems }));
  let tries = 1;
  let attempt = 0;
  while (Object.keys(res.UnprocessedItems ?? {}).length && tries < 5) {
    attempt += 1;
    await new Promise((resolve) => setTimeout(resolve, Math.random() * Math.min(20000, 100 * 2 ** attempt)));
    res = await client.send(new BatchWriteItemCommand({ RequestItems: res.UnprocessedItems }));
    tries++;
  }
}`,
          },
        ],
      })),
    },
    {
      // No suggestion: a handler made once for the whole module would share one count among all callers.
      code: `const AWS = require('aws-sdk');
const docs = new AWS.DynamoDB.DocumentClient();
const pending = { RequestItems: {} };
const onWritten = (data) => {
  if (data.UnprocessedItems && Object.keys(data.UnprocessedItems).length > 0) {
    pending.RequestItems = data.UnprocessedItems;
    return docs.batchWrite(pending).promise().then(onWritten);
  }
};
function save(items) {
  pending.RequestItems = { orders: items };
  return docs.batchWrite(pending).promise().then(onWritten);
}
module.exports = { save };`,
      errors: [{ messageId: RESENT, data: WRITE, line: 12, suggestions: [] }],
    },
    {
      // No suggestion: a return type that \`async\` would break.
      code: `${DOC}export function loadUsers(keys: Record<string, unknown>[]) {
  const users: unknown[] = [];
  const collect = (page: { Responses?: Record<string, unknown[]>; UnprocessedKeys?: Record<string, any> }): Promise<unknown[]> | unknown[] => {
    users.push(...(page.Responses?.users ?? []));
    if (page.UnprocessedKeys?.users) return doc.send(new BatchGetCommand({ RequestItems: page.UnprocessedKeys })).then(collect);
    return users;
  };
  return doc.send(new BatchGetCommand({ RequestItems: { users: { Keys: keys } } })).then(collect);
}`,
      errors: [{ messageId: RESENT, data: READ, line: 11, suggestions: [] }],
    },
    {
      // A callback made by a factory that only prints the result.
      code: `const AWS = require('aws-sdk');
const docs = new AWS.DynamoDB.DocumentClient();
function onDone(params) {
  return function (err, data) {
    if (err) console.error('batch failed', JSON.stringify(params), err);
    else console.log(JSON.stringify(data));
  };
}
function save(items) {
  const params = { RequestItems: { orders: items } };
  docs.batchWrite(params, onDone(params));
}
module.exports = { save };`,
      errors: [{ messageId: 'unprocessedIgnored', data: WRITE, line: 11 }],
    },
    {
      // Returned to a caller in the same file that drops it.
      code: `${DOC}async function saveAll(items) {
  return doc.send(new BatchWriteCommand({ RequestItems: { orders: items.map((Item) => ({ PutRequest: { Item } })) } }));
}
export async function handler(event) {
  await saveAll(event.items);
  return { statusCode: 204 };
}`,
      errors: [{ messageId: 'unprocessedDroppedByCallers', data: { ...WRITE, callers: 'line 8' }, line: 5, suggestions: [{ messageId: "sendUntilProcessed", output: `import { DynamoDBDocumentClient, BatchWriteCommand, BatchGetCommand } from '@aws-sdk/lib-dynamodb';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';

/** Sends a DynamoDB batch write again with what it left unprocessed, with backoff, until nothing is left. */
async function writeAllItems<Input extends { RequestItems?: object }, Output extends { UnprocessedItems?: object }>(
  send: (input: Input) => Promise<Output>,
  input: Input,
): Promise<Output> {
  let request = input;
  for (let attempt = 1; ; attempt++) {
    const output = await send(request);
    const unprocessed = output.UnprocessedItems;
    if (!unprocessed || Object.keys(unprocessed).length === 0) return output;
    if (attempt >= 5) throw new Error(\`DynamoDB left writes unprocessed after \${attempt} attempts\`);
    request = { ...request, RequestItems: unprocessed };
    await new Promise((resolve) => setTimeout(resolve, Math.random() * Math.min(20000, 100 * 2 ** attempt)));
  }
}

const doc = DynamoDBDocumentClient.from(new DynamoDBClient({}));
async function saveAll(items) {
  return writeAllItems((request) => doc.send(new BatchWriteCommand(request)), { RequestItems: { orders: items.map((Item) => ({ PutRequest: { Item } })) } });
}
export async function handler(event) {
  await saveAll(event.items);
  return { statusCode: 204 };
}` }] }],
    },
    {
      // Promise.all over chunks with async callbacks, whose array is never read.
      code: `const AWS = require('aws-sdk');
const docs = new AWS.DynamoDB.DocumentClient();
async function saveAll(chunks) {
  const results = await Promise.all(chunks.map(async (chunk) => (await docs.batchWrite({ RequestItems: chunk }).promise())));
  console.log('saved', chunks.length, 'chunks');
}
module.exports = { saveAll };`,
      errors: [{ messageId: 'unprocessedIgnored', data: WRITE, line: 4, suggestions: [{ messageId: "sendUntilProcessed", output: `const AWS = require('aws-sdk');

/** Sends a DynamoDB batch write again with what it left unprocessed, with backoff, until nothing is left. */
async function writeAllItems<Input extends { RequestItems?: object }, Output extends { UnprocessedItems?: object }>(
  send: (input: Input) => Promise<Output>,
  input: Input,
): Promise<Output> {
  let request = input;
  for (let attempt = 1; ; attempt++) {
    const output = await send(request);
    const unprocessed = output.UnprocessedItems;
    if (!unprocessed || Object.keys(unprocessed).length === 0) return output;
    if (attempt >= 5) throw new Error(\`DynamoDB left writes unprocessed after \${attempt} attempts\`);
    request = { ...request, RequestItems: unprocessed };
    await new Promise((resolve) => setTimeout(resolve, Math.random() * Math.min(20000, 100 * 2 ** attempt)));
  }
}

const docs = new AWS.DynamoDB.DocumentClient();
async function saveAll(chunks) {
  const results = await Promise.all(chunks.map(async (chunk) => (await writeAllItems((request) => docs.batchWrite(request).promise(), { RequestItems: chunk }))));
  console.log('saved', chunks.length, 'chunks');
}
module.exports = { saveAll };` }] }],
    },
    {
      // Printed only: the leftovers go to the log, not back to DynamoDB.
      code: `${DOC}export async function save(items) {
  const result = await doc.send(new BatchWriteCommand({ RequestItems: { orders: items } }));
  console.log(\`batch done: \${JSON.stringify(result)}\`);
}`,
      errors: [{ messageId: 'unprocessedIgnored', data: WRITE, line: 5, suggestions: [{ messageId: "sendUntilProcessed", output: `import { DynamoDBDocumentClient, BatchWriteCommand, BatchGetCommand } from '@aws-sdk/lib-dynamodb';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';

/** Sends a DynamoDB batch write again with what it left unprocessed, with backoff, until nothing is left. */
async function writeAllItems<Input extends { RequestItems?: object }, Output extends { UnprocessedItems?: object }>(
  send: (input: Input) => Promise<Output>,
  input: Input,
): Promise<Output> {
  let request = input;
  for (let attempt = 1; ; attempt++) {
    const output = await send(request);
    const unprocessed = output.UnprocessedItems;
    if (!unprocessed || Object.keys(unprocessed).length === 0) return output;
    if (attempt >= 5) throw new Error(\`DynamoDB left writes unprocessed after \${attempt} attempts\`);
    request = { ...request, RequestItems: unprocessed };
    await new Promise((resolve) => setTimeout(resolve, Math.random() * Math.min(20000, 100 * 2 ** attempt)));
  }
}

const doc = DynamoDBDocumentClient.from(new DynamoDBClient({}));
export async function save(items) {
  const result = await writeAllItems((request) => doc.send(new BatchWriteCommand(request)), { RequestItems: { orders: items } });
  console.log(\`batch done: \${JSON.stringify(result)}\`);
}` }] }],
    },
    {
      // SDK v2 in a CommonJS JavaScript file without semicolons: the helper is written without types, in the file's style.
      filename: 'audit.js',
      code: `const AWS = require("aws-sdk")
const docClient = new AWS.DynamoDB.DocumentClient()
exports.save = async (events) => {
  await docClient.batchWrite({ RequestItems: { audit: events } }).promise()
}
`,
      errors: [
        {
          messageId: 'unprocessedIgnored',
          data: WRITE,
          suggestions: [
            {
              messageId: 'sendUntilProcessed',
              output: `const AWS = require("aws-sdk")

/** Sends a DynamoDB batch write again with what it left unprocessed, with backoff, until nothing is left. */
async function writeAllItems(send, input) {
  let request = input
  for (let attempt = 1; ; attempt++) {
    const output = await send(request)
    const unprocessed = output.UnprocessedItems
    if (!unprocessed || Object.keys(unprocessed).length === 0) return output
    if (attempt >= 5) throw new Error(\`DynamoDB left writes unprocessed after \${attempt} attempts\`)
    request = { ...request, RequestItems: unprocessed }
    await new Promise((resolve) => setTimeout(resolve, Math.random() * Math.min(20000, 100 * 2 ** attempt)))
  }
}

const docClient = new AWS.DynamoDB.DocumentClient()
exports.save = async (events) => {
  await writeAllItems((request) => docClient.batchWrite(request).promise(), { RequestItems: { audit: events } })
}
`,
            },
          ],
        },
      ],
    },
    {
      // Awaited and discarded (v3 client, command).
      code: `${V3}export async function save(requests) {
  await client.send(new BatchWriteItemCommand({ RequestItems: { orders: requests } }));
}`,
      errors: [
        {
          messageId: 'unprocessedIgnored', data: WRITE, line: 4, column: 9, endLine: 4, endColumn: 87,
          suggestions: [
            {
              messageId: 'sendUntilProcessed',
              output: `import { DynamoDBClient, BatchWriteItemCommand, BatchGetItemCommand } from '@aws-sdk/client-dynamodb';

/** Sends a DynamoDB batch write again with what it left unprocessed, with backoff, until nothing is left. */
async function writeAllItems<Input extends { RequestItems?: object }, Output extends { UnprocessedItems?: object }>(
  send: (input: Input) => Promise<Output>,
  input: Input,
): Promise<Output> {
  let request = input;
  for (let attempt = 1; ; attempt++) {
    const output = await send(request);
    const unprocessed = output.UnprocessedItems;
    if (!unprocessed || Object.keys(unprocessed).length === 0) return output;
    if (attempt >= 5) throw new Error(\`DynamoDB left writes unprocessed after \${attempt} attempts\`);
    request = { ...request, RequestItems: unprocessed };
    await new Promise((resolve) => setTimeout(resolve, Math.random() * Math.min(20000, 100 * 2 ** attempt)));
  }
}

const client = new DynamoDBClient({});
export async function save(requests) {
  await writeAllItems((request) => client.send(new BatchWriteItemCommand(request)), { RequestItems: { orders: requests } });
}`,
            },
          ],
        },
      ],
    },
    {
      // Assigned and read only for another property.
      code: `${DOC}export async function save(requests) {
  const result = await doc.send(new BatchWriteCommand({ RequestItems: { orders: requests } }));
  console.log('batch took', result.$metadata.totalRetryDelay);
}`,
      errors: [
        {
          messageId: 'unprocessedIgnored', data: WRITE, line: 5, column: 24, endLine: 5, endColumn: 95,
          suggestions: [
            {
              messageId: 'sendUntilProcessed',
              output: `import { DynamoDBDocumentClient, BatchWriteCommand, BatchGetCommand } from '@aws-sdk/lib-dynamodb';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';

/** Sends a DynamoDB batch write again with what it left unprocessed, with backoff, until nothing is left. */
async function writeAllItems<Input extends { RequestItems?: object }, Output extends { UnprocessedItems?: object }>(
  send: (input: Input) => Promise<Output>,
  input: Input,
): Promise<Output> {
  let request = input;
  for (let attempt = 1; ; attempt++) {
    const output = await send(request);
    const unprocessed = output.UnprocessedItems;
    if (!unprocessed || Object.keys(unprocessed).length === 0) return output;
    if (attempt >= 5) throw new Error(\`DynamoDB left writes unprocessed after \${attempt} attempts\`);
    request = { ...request, RequestItems: unprocessed };
    await new Promise((resolve) => setTimeout(resolve, Math.random() * Math.min(20000, 100 * 2 ** attempt)));
  }
}

const doc = DynamoDBDocumentClient.from(new DynamoDBClient({}));
export async function save(requests) {
  const result = await writeAllItems((request) => doc.send(new BatchWriteCommand(request)), { RequestItems: { orders: requests } });
  console.log('batch took', result.$metadata.totalRetryDelay);
}`,
            },
          ],
        },
      ],
    },
    {
      // Destructured without the property.
      code: `${DOC}export async function load(keys) {
  const { Responses } = await doc.send(new BatchGetCommand({ RequestItems: { orders: { Keys: keys } } }));
  return Responses?.orders ?? [];
}`,
      errors: [
        {
          messageId: 'unprocessedIgnored', data: READ, line: 5, column: 31, endLine: 5, endColumn: 106,
          suggestions: [
            {
              messageId: 'sendUntilProcessed',
              output: `import { DynamoDBDocumentClient, BatchWriteCommand, BatchGetCommand } from '@aws-sdk/lib-dynamodb';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';

/** Sends a DynamoDB batch read again for the keys it left unprocessed, with backoff, and returns every item read. */
async function getAllItems<Input extends { RequestItems?: object }, Output extends { Responses?: Record<string, unknown[]>; UnprocessedKeys?: object }>(
  send: (input: Input) => Promise<Output>,
  input: Input,
): Promise<Output> {
  let request = input;
  const responses: Record<string, unknown[]> = {};
  for (let attempt = 1; ; attempt++) {
    const output = await send(request);
    for (const [table, items] of Object.entries(output.Responses ?? {})) responses[table] = [...(responses[table] ?? []), ...items];
    const unprocessed = output.UnprocessedKeys;
    if (!unprocessed || Object.keys(unprocessed).length === 0) return { ...output, Responses: responses };
    if (attempt >= 5) throw new Error(\`DynamoDB left reads unprocessed after \${attempt} attempts\`);
    request = { ...request, RequestItems: unprocessed };
    await new Promise((resolve) => setTimeout(resolve, Math.random() * Math.min(20000, 100 * 2 ** attempt)));
  }
}

const doc = DynamoDBDocumentClient.from(new DynamoDBClient({}));
export async function load(keys) {
  const { Responses } = await getAllItems((request) => doc.send(new BatchGetCommand(request)), { RequestItems: { orders: { Keys: keys } } });
  return Responses?.orders ?? [];
}`,
            },
          ],
        },
      ],
    },
    {
      // Destructured and never read.
      code: `${DOC}export async function save(items) {
  const { UnprocessedItems } = await doc.send(new BatchWriteCommand({ RequestItems: items }));
}`,
      errors: [
        {
          messageId: 'unprocessedIgnored', data: WRITE, line: 5, column: 38, endLine: 5, endColumn: 94,
          suggestions: [
            {
              messageId: 'sendUntilProcessed',
              output: `import { DynamoDBDocumentClient, BatchWriteCommand, BatchGetCommand } from '@aws-sdk/lib-dynamodb';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';

/** Sends a DynamoDB batch write again with what it left unprocessed, with backoff, until nothing is left. */
async function writeAllItems<Input extends { RequestItems?: object }, Output extends { UnprocessedItems?: object }>(
  send: (input: Input) => Promise<Output>,
  input: Input,
): Promise<Output> {
  let request = input;
  for (let attempt = 1; ; attempt++) {
    const output = await send(request);
    const unprocessed = output.UnprocessedItems;
    if (!unprocessed || Object.keys(unprocessed).length === 0) return output;
    if (attempt >= 5) throw new Error(\`DynamoDB left writes unprocessed after \${attempt} attempts\`);
    request = { ...request, RequestItems: unprocessed };
    await new Promise((resolve) => setTimeout(resolve, Math.random() * Math.min(20000, 100 * 2 ** attempt)));
  }
}

const doc = DynamoDBDocumentClient.from(new DynamoDBClient({}));
export async function save(items) {
  const { UnprocessedItems } = await writeAllItems((request) => doc.send(new BatchWriteCommand(request)), { RequestItems: items });
}`,
            },
          ],
        },
      ],
    },
    {
      // A floating promise, and .then that ignores its argument.
      code: `${V3}client.send(new BatchWriteItemCommand({ RequestItems: {} }));
client.send(new BatchGetItemCommand({ RequestItems: {} })).then(() => console.log('done'));`,
      errors: [
        {
          messageId: 'unprocessedIgnored', data: WRITE, line: 3, column: 1, endLine: 3, endColumn: 61,
          suggestions: [
            {
              messageId: 'sendUntilProcessed',
              output: `import { DynamoDBClient, BatchWriteItemCommand, BatchGetItemCommand } from '@aws-sdk/client-dynamodb';

/** Sends a DynamoDB batch write again with what it left unprocessed, with backoff, until nothing is left. */
async function writeAllItems<Input extends { RequestItems?: object }, Output extends { UnprocessedItems?: object }>(
  send: (input: Input) => Promise<Output>,
  input: Input,
): Promise<Output> {
  let request = input;
  for (let attempt = 1; ; attempt++) {
    const output = await send(request);
    const unprocessed = output.UnprocessedItems;
    if (!unprocessed || Object.keys(unprocessed).length === 0) return output;
    if (attempt >= 5) throw new Error(\`DynamoDB left writes unprocessed after \${attempt} attempts\`);
    request = { ...request, RequestItems: unprocessed };
    await new Promise((resolve) => setTimeout(resolve, Math.random() * Math.min(20000, 100 * 2 ** attempt)));
  }
}

const client = new DynamoDBClient({});
writeAllItems((request) => client.send(new BatchWriteItemCommand(request)), { RequestItems: {} });
client.send(new BatchGetItemCommand({ RequestItems: {} })).then(() => console.log('done'));`,
            },
          ],
        },
        {
          messageId: 'unprocessedIgnored', data: READ, line: 4, column: 1, endLine: 4, endColumn: 59,
          suggestions: [
            {
              messageId: 'sendUntilProcessed',
              output: `import { DynamoDBClient, BatchWriteItemCommand, BatchGetItemCommand } from '@aws-sdk/client-dynamodb';

/** Sends a DynamoDB batch read again for the keys it left unprocessed, with backoff, and returns every item read. */
async function getAllItems<Input extends { RequestItems?: object }, Output extends { Responses?: Record<string, unknown[]>; UnprocessedKeys?: object }>(
  send: (input: Input) => Promise<Output>,
  input: Input,
): Promise<Output> {
  let request = input;
  const responses: Record<string, unknown[]> = {};
  for (let attempt = 1; ; attempt++) {
    const output = await send(request);
    for (const [table, items] of Object.entries(output.Responses ?? {})) responses[table] = [...(responses[table] ?? []), ...items];
    const unprocessed = output.UnprocessedKeys;
    if (!unprocessed || Object.keys(unprocessed).length === 0) return { ...output, Responses: responses };
    if (attempt >= 5) throw new Error(\`DynamoDB left reads unprocessed after \${attempt} attempts\`);
    request = { ...request, RequestItems: unprocessed };
    await new Promise((resolve) => setTimeout(resolve, Math.random() * Math.min(20000, 100 * 2 ** attempt)));
  }
}

const client = new DynamoDBClient({});
client.send(new BatchWriteItemCommand({ RequestItems: {} }));
getAllItems((request) => client.send(new BatchGetItemCommand(request)), { RequestItems: {} }).then(() => console.log('done'));`,
            },
          ],
        },
      ],
    },
    {
      // Promise.all over chunks, awaited as a statement.
      code: `${DOC}await Promise.all(chunks.map((chunk) => doc.send(new BatchWriteCommand({ RequestItems: chunk }))));`,
      errors: [
        {
          messageId: 'unprocessedIgnored', data: WRITE, line: 4, column: 41, endLine: 4, endColumn: 97,
          suggestions: [
            {
              messageId: 'sendUntilProcessed',
              output: `import { DynamoDBDocumentClient, BatchWriteCommand, BatchGetCommand } from '@aws-sdk/lib-dynamodb';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';

/** Sends a DynamoDB batch write again with what it left unprocessed, with backoff, until nothing is left. */
async function writeAllItems<Input extends { RequestItems?: object }, Output extends { UnprocessedItems?: object }>(
  send: (input: Input) => Promise<Output>,
  input: Input,
): Promise<Output> {
  let request = input;
  for (let attempt = 1; ; attempt++) {
    const output = await send(request);
    const unprocessed = output.UnprocessedItems;
    if (!unprocessed || Object.keys(unprocessed).length === 0) return output;
    if (attempt >= 5) throw new Error(\`DynamoDB left writes unprocessed after \${attempt} attempts\`);
    request = { ...request, RequestItems: unprocessed };
    await new Promise((resolve) => setTimeout(resolve, Math.random() * Math.min(20000, 100 * 2 ** attempt)));
  }
}

const doc = DynamoDBDocumentClient.from(new DynamoDBClient({}));
await Promise.all(chunks.map((chunk) => writeAllItems((request) => doc.send(new BatchWriteCommand(request)), { RequestItems: chunk })));`,
            },
          ],
        },
      ],
    },
    {
      // Only converted to a boolean (as in @keyv/dynamo's deleteMany): the deletes DynamoDB skipped are reported as done.
      code: `import { DynamoDBDocument } from '@aws-sdk/lib-dynamodb';
import { DynamoDB } from '@aws-sdk/client-dynamodb';
const documents = DynamoDBDocument.from(new DynamoDB({}));
export async function deleteMany(keys) {
  const response = await documents.batchWrite({ RequestItems: { cache: keys.map((id) => ({ DeleteRequest: { Key: { id } } })) } });
  return Boolean(response);
}`,
      errors: [
        {
          messageId: 'unprocessedIgnored', data: WRITE, line: 5, column: 26, endLine: 5, endColumn: 131,
          suggestions: [
            {
              messageId: 'sendUntilProcessed',
              output: `import { DynamoDBDocument } from '@aws-sdk/lib-dynamodb';
import { DynamoDB } from '@aws-sdk/client-dynamodb';

/** Sends a DynamoDB batch write again with what it left unprocessed, with backoff, until nothing is left. */
async function writeAllItems<Input extends { RequestItems?: object }, Output extends { UnprocessedItems?: object }>(
  send: (input: Input) => Promise<Output>,
  input: Input,
): Promise<Output> {
  let request = input;
  for (let attempt = 1; ; attempt++) {
    const output = await send(request);
    const unprocessed = output.UnprocessedItems;
    if (!unprocessed || Object.keys(unprocessed).length === 0) return output;
    if (attempt >= 5) throw new Error(\`DynamoDB left writes unprocessed after \${attempt} attempts\`);
    request = { ...request, RequestItems: unprocessed };
    await new Promise((resolve) => setTimeout(resolve, Math.random() * Math.min(20000, 100 * 2 ** attempt)));
  }
}

const documents = DynamoDBDocument.from(new DynamoDB({}));
export async function deleteMany(keys) {
  const response = await writeAllItems((request) => documents.batchWrite(request), { RequestItems: { cache: keys.map((id) => ({ DeleteRequest: { Key: { id } } })) } });
  return Boolean(response);
}`,
            },
          ],
        },
      ],
    },
    {
      // A project that names no AWS SDK package, writing with the client its user hands in: known by
      // the request only DynamoDB takes; the callback ignores the data.
      filename: path.join(import.meta.dirname, '..', '..', 'fixtures', 'sdk-free', 'seed.ts'),
      code: `export function seed(dynamodb, params) {
  params = { RequestItems: {} };
  dynamodb.doc.batchWrite(params, function (err) { if (err) console.error(err); });
}`,
      errors: [{ messageId: 'unprocessedIgnored', data: WRITE, line: 3, column: 3, endLine: 3, endColumn: 83 }],
    },
    {
      // The aggregated v3 DynamoDB class with a callback ignoring the data.
      code: `import { DynamoDB } from '@aws-sdk/client-dynamodb';
const ddb = new DynamoDB({});
ddb.batchWriteItem({ RequestItems: {} }, (err) => { if (err) console.error(err); });`,
      errors: [{ messageId: 'unprocessedIgnored', data: WRITE, line: 3, column: 1, endLine: 3, endColumn: 84 }],
    },
    {
      // SDK v2 DocumentClient with .promise(), CommonJS.
      code: `const AWS = require('aws-sdk');
const docs = new AWS.DynamoDB.DocumentClient();
async function save(items) {
  await docs.batchWrite({ RequestItems: items }).promise();
}`,
      errors: [
        {
          messageId: 'unprocessedIgnored', data: WRITE, line: 4, column: 9, endLine: 4, endColumn: 49,
          suggestions: [
            {
              messageId: 'sendUntilProcessed',
              output: `const AWS = require('aws-sdk');

/** Sends a DynamoDB batch write again with what it left unprocessed, with backoff, until nothing is left. */
async function writeAllItems<Input extends { RequestItems?: object }, Output extends { UnprocessedItems?: object }>(
  send: (input: Input) => Promise<Output>,
  input: Input,
): Promise<Output> {
  let request = input;
  for (let attempt = 1; ; attempt++) {
    const output = await send(request);
    const unprocessed = output.UnprocessedItems;
    if (!unprocessed || Object.keys(unprocessed).length === 0) return output;
    if (attempt >= 5) throw new Error(\`DynamoDB left writes unprocessed after \${attempt} attempts\`);
    request = { ...request, RequestItems: unprocessed };
    await new Promise((resolve) => setTimeout(resolve, Math.random() * Math.min(20000, 100 * 2 ** attempt)));
  }
}

const docs = new AWS.DynamoDB.DocumentClient();
async function save(items) {
  await writeAllItems((request) => docs.batchWrite(request).promise(), { RequestItems: items });
}`,
            },
          ],
        },
      ],
    },
    {
      // A DocumentClient of the SDK copy a framework hands over (no import of aws-sdk), behind a lazy getter.
      filename: 'seed.js',
      code: PROVIDED_SDK_SEEDER,
      errors: [
        {
          messageId: 'unprocessedIgnored', data: WRITE, line: 10,
          suggestions: [
            {
              messageId: 'sendUntilProcessed', data: SEND_WRITE,
              output: `${JS_WRITE_HELPER}\n\n${PROVIDED_SDK_SEEDER.replace(
                'await this.documentClient.batchWrite({ RequestItems: { orders: items } }).promise();',
                'await writeAllItems((request) => this.documentClient.batchWrite(request).promise(), { RequestItems: { orders: items } });',
              )}`,
            },
          ],
        },
      ],
    },
    {
      // SDK v2 callback inside a promise executor, in JavaScript: the callback is kept in a
      // const and handed the helper's outcome.
      filename: 'store.js',
      code: `const AWS = require('aws-sdk');
const docs = new AWS.DynamoDB.DocumentClient();
function save(items) {
  return new Promise(function (resolve, reject) {
    docs.batchWrite({ RequestItems: { orders: items } }, function (err) {
      err ? reject(err) : resolve();
    });
  });
}
module.exports = { save };`,
      errors: [
        {
          messageId: 'unprocessedIgnored', data: WRITE, line: 5,
          suggestions: [
            {
              messageId: 'sendUntilProcessed', data: SEND_WRITE,
              output: `const AWS = require('aws-sdk');

${JS_WRITE_HELPER}

const docs = new AWS.DynamoDB.DocumentClient();
function save(items) {
  return new Promise(function (resolve, reject) {
    const onBatchDone = function (err) {
      err ? reject(err) : resolve();
    };
    writeAllItems((request) => docs.batchWrite(request).promise(), { RequestItems: { orders: items } }).then((output) => onBatchDone(null, output), onBatchDone);
  });
}
module.exports = { save };`,
            },
          ],
        },
      ],
    },
    {
      // A named callback of the file, in a file without semicolons.
      filename: 'store.js',
      code: `const AWS = require('aws-sdk')
const docs = new AWS.DynamoDB.DocumentClient()
function onDone(err) {
  if (err) console.error('batch failed', err)
}
function save(items) {
  docs.batchWrite({ RequestItems: { orders: items } }, onDone)
}
module.exports = { save }`,
      errors: [
        {
          messageId: 'unprocessedIgnored', data: WRITE, line: 7,
          suggestions: [
            {
              messageId: 'sendUntilProcessed', data: SEND_WRITE,
              output: `const AWS = require('aws-sdk')

${JS_WRITE_HELPER.replace(/;$/gm, '')}

const docs = new AWS.DynamoDB.DocumentClient()
function onDone(err) {
  if (err) console.error('batch failed', err)
}
function save(items) {
  writeAllItems((request) => docs.batchWrite(request).promise(), { RequestItems: { orders: items } }).then((output) => onDone(null, output), onDone)
}
module.exports = { save }`,
            },
          ],
        },
      ],
    },
    {
      // No suggestion where the callback reads \`this\` (the SDK's response), or where the
      // request object the call returns is used.
      filename: 'store.js',
      code: `const AWS = require('aws-sdk');
const docs = new AWS.DynamoDB.DocumentClient();
function save(params) {
  docs.batchWrite(params, function (err) { if (err) console.error(this.retryCount, err); });
}
function start(params, log) {
  const request = docs.batchWrite(params, (err) => log(err));
  request.on('retry', () => log('retrying'));
}
module.exports = { save, start };`,
      errors: [
        { messageId: 'unprocessedIgnored', data: WRITE, line: 4, suggestions: [] },
        { messageId: 'unprocessedIgnored', data: WRITE, line: 7, suggestions: [] },
      ],
    },
    {
      // SDK v2 low-level client, callback without a data parameter.
      code: `import DynamoDB from 'aws-sdk/clients/dynamodb';
const db = new DynamoDB();
db.batchGetItem({ RequestItems: {} }, function (err) { if (err) throw err; });`,
      errors: [{ messageId: 'unprocessedIgnored', data: READ, line: 3, column: 1, endLine: 3, endColumn: 78 }],
    },
    {
      // The DynamoDBDocument class on an injected, typed field.
      code: `import { DynamoDBDocument } from '@aws-sdk/lib-dynamodb';
export class OrdersRepository {
  constructor(private readonly documents: DynamoDBDocument) {}
  async saveAll(orders) {
    const response = await this.documents.batchWrite({ RequestItems: { orders } });
    return response.ConsumedCapacity;
  }
}`,
      errors: [
        {
          messageId: 'unprocessedIgnored', data: WRITE, line: 5, column: 28, endLine: 5, endColumn: 83,
          suggestions: [
            {
              messageId: 'sendUntilProcessed',
              output: `import { DynamoDBDocument } from '@aws-sdk/lib-dynamodb';

/** Sends a DynamoDB batch write again with what it left unprocessed, with backoff, until nothing is left. */
async function writeAllItems<Input extends { RequestItems?: object }, Output extends { UnprocessedItems?: object }>(
  send: (input: Input) => Promise<Output>,
  input: Input,
): Promise<Output> {
  let request = input;
  for (let attempt = 1; ; attempt++) {
    const output = await send(request);
    const unprocessed = output.UnprocessedItems;
    if (!unprocessed || Object.keys(unprocessed).length === 0) return output;
    if (attempt >= 5) throw new Error(\`DynamoDB left writes unprocessed after \${attempt} attempts\`);
    request = { ...request, RequestItems: unprocessed };
    await new Promise((resolve) => setTimeout(resolve, Math.random() * Math.min(20000, 100 * 2 ** attempt)));
  }
}

export class OrdersRepository {
  constructor(private readonly documents: DynamoDBDocument) {}
  async saveAll(orders) {
    const response = await writeAllItems((request) => this.documents.batchWrite(request), { RequestItems: { orders } });
    return response.ConsumedCapacity;
  }
}`,
            },
          ],
        },
      ],
    },
  ],
});

// With typed linting, a client imported from another module of the project is known by its type.
const typedRuleTester = new RuleTester({
  languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: typedDbFixtureDir } },
});

typedRuleTester.run('dynamodb-require-unprocessed-items-handling (typed)', rule, {
  valid: [
    {
      filename: typedDbFilename,
      code: `import { documents } from './db.js';
export async function save(items: unknown[]) {
  const { UnprocessedItems } = await documents.batchWrite({ RequestItems: { orders: items } });
  return UnprocessedItems;
}`,
    },
    {
      // Not a DynamoDB client: a repository with the same method name.
      filename: typedDbFilename,
      code: `const repository = { batchWrite: async (items: unknown[]) => items.length };
export async function save(items: unknown[]) {
  await repository.batchWrite(items);
}`,
    },
  ],
  invalid: [
    {
      filename: typedDbFilename,
      code: `import { documents } from './db.js';
export async function save(items: unknown[]) {
  await documents.batchWrite({ RequestItems: { orders: items } });
}`,
      errors: [
        {
          messageId: 'unprocessedIgnored', data: WRITE, line: 3, column: 9, endLine: 3, endColumn: 66,
          suggestions: [
            {
              messageId: 'sendUntilProcessed',
              output: `import { documents } from './db.js';

/** Sends a DynamoDB batch write again with what it left unprocessed, with backoff, until nothing is left. */
async function writeAllItems<Input extends { RequestItems?: object }, Output extends { UnprocessedItems?: object }>(
  send: (input: Input) => Promise<Output>,
  input: Input,
): Promise<Output> {
  let request = input;
  for (let attempt = 1; ; attempt++) {
    const output = await send(request);
    const unprocessed = output.UnprocessedItems;
    if (!unprocessed || Object.keys(unprocessed).length === 0) return output;
    if (attempt >= 5) throw new Error(\`DynamoDB left writes unprocessed after \${attempt} attempts\`);
    request = { ...request, RequestItems: unprocessed };
    await new Promise((resolve) => setTimeout(resolve, Math.random() * Math.min(20000, 100 * 2 ** attempt)));
  }
}

export async function save(items: unknown[]) {
  await writeAllItems((request) => documents.batchWrite(request), { RequestItems: { orders: items } });
}`,
            },
          ],
        },
      ],
    },
  ],
});
