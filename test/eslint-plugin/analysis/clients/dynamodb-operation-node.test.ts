import { describe, expect, it } from 'vitest';
import { findDynamoDbCalls } from '../../../../eslint-plugin/src/analysis/clients/dynamodb-calls';
import { getDynamoDbOperationNode } from '../../../../eslint-plugin/src/analysis/clients/dynamodb-operation-node';
import { analyse, textOf } from '../../harness';

describe('getDynamoDbOperationNode', () => {
  it('points at the command class, the method name or the paginator call', () => {
    const code = `
      import { DynamoDBClient, TransactWriteItemsCommand, paginateScan } from '@aws-sdk/client-dynamodb';
      import { DynamoDBDocument } from '@aws-sdk/lib-dynamodb';
      const client = new DynamoDBClient({});
      const doc = DynamoDBDocument.from(client);
      export async function run() {
        await client.send(new TransactWriteItemsCommand({ TransactItems: [] }));
        const command = new TransactWriteItemsCommand({ TransactItems: [] });
        await client.send(command);
        await doc.transactWrite({ TransactItems: [] });
        for await (const page of paginateScan({ client }, { TableName: 'orders' })) console.log(page);
      }`;
    const nodes = analyse(code, (context) => findDynamoDbCalls(context).map((call) => textOf(code, getDynamoDbOperationNode(call))));
    expect(nodes).toEqual(['TransactWriteItemsCommand', 'TransactWriteItemsCommand', 'transactWrite', "paginateScan({ client }, { TableName: 'orders' })"]);
  });
});
