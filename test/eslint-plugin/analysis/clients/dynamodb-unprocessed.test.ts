import { describe, expect, it } from 'vitest';
import { findDynamoDbCalls } from '../../../../eslint-plugin/src/analysis/clients/dynamodb-calls';
import { getDynamoDbResultPropertyUse, getUnprocessedResult } from '../../../../eslint-plugin/src/analysis/clients/dynamodb-unprocessed';
import { analyse } from '../../harness';

describe('getUnprocessedResult', () => {
  it('names the property of the batch operations and nothing for the others', () => {
    expect(getUnprocessedResult('BatchWriteItem')).toEqual({ property: 'UnprocessedItems', items: 'writes' });
    expect(getUnprocessedResult('BatchGetItem')).toEqual({ property: 'UnprocessedKeys', items: 'reads' });
    for (const operation of ['PutItem', 'TransactWriteItems', 'BatchExecuteStatement', 'Query']) expect(getUnprocessedResult(operation), operation).toBeUndefined();
  });
});

describe('getDynamoDbResultPropertyUse', () => {
  /** How each batch call of the file uses its UnprocessedItems. */
  function uses(code: string, sourceType: 'module' | 'commonjs' = 'module'): string[] {
    return analyse(code, (context) => findDynamoDbCalls(context).map((call) => getDynamoDbResultPropertyUse(context, call, 'UnprocessedItems').use), { sourceType });
  }

  it('follows v3 promises', () => {
    const code = `
      import { DynamoDBClient, BatchWriteItemCommand } from '@aws-sdk/client-dynamodb';
      const client = new DynamoDBClient({});
      export async function save(RequestItems) {
        const result = await client.send(new BatchWriteItemCommand({ RequestItems }));
        if (Object.keys(result.UnprocessedItems ?? {}).length > 0) await retryLater(result.UnprocessedItems);
        await client.send(new BatchWriteItemCommand({ RequestItems }));
      }`;
    expect(uses(code)).toEqual(['read', 'ignored']);
  });

  it('follows v2 requests through .promise(), .send(callback) and a callback argument', () => {
    const code = `
      const AWS = require('aws-sdk');
      const docs = new AWS.DynamoDB.DocumentClient();
      async function save(RequestItems) {
        const { UnprocessedItems } = await docs.batchWrite({ RequestItems }).promise();
        await retryLater(UnprocessedItems);
        docs.batchWrite({ RequestItems }).send((err, data) => retryLater(data.UnprocessedItems));
        docs.batchWrite({ RequestItems }, (err) => { if (err) throw err; });
        await docs.batchWrite({ RequestItems }).promise();
        const request = docs.batchWrite({ RequestItems });
      }`;
    expect(uses(code, 'commonjs')).toEqual(['read', 'read', 'ignored', 'ignored', 'unknown']);
  });
});
