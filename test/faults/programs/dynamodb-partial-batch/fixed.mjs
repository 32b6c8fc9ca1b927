// Saves up to 25 orders with BatchWriteItem and sends the UnprocessedItems again, with
// exponential backoff and full jitter, until none are left.
import { BatchWriteItemCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';

const client = new DynamoDBClient({ endpoint: process.env.DYNAMODB_ENDPOINT });
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

export async function saveOrders(orders) {
  let pending = {
    orders: orders.map((order) => ({ PutRequest: { Item: { id: { S: order.id }, total: { N: String(order.total) } } } })),
  };
  for (let attempt = 0; pending && Object.keys(pending).length > 0; attempt++) {
    if (attempt === 8) throw new Error('DynamoDB left writes unprocessed after 8 attempts');
    if (attempt > 0) await sleep(Math.random() * Math.min(20_000, 100 * 2 ** attempt));
    const result = await client.send(new BatchWriteItemCommand({ RequestItems: pending }));
    pending = result.UnprocessedItems;
  }
}
