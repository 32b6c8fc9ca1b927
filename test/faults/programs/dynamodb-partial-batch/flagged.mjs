// Saves up to 25 orders with one BatchWriteItem and moves on. DynamoDB returns the
// writes it did not process in UnprocessedItems, without an error: they are lost.
import { BatchWriteItemCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';

const client = new DynamoDBClient({ endpoint: process.env.DYNAMODB_ENDPOINT });

export async function saveOrders(orders) {
  await client.send(
    new BatchWriteItemCommand({
      RequestItems: {
        orders: orders.map((order) => ({ PutRequest: { Item: { id: { S: order.id }, total: { N: String(order.total) } } } })),
      },
    }),
  );
}
