// Saves up to 25 orders with BatchWriteItem through writeAllItems, which sends the
// UnprocessedItems again with capped, jittered exponential backoff until none are left,
// and throws after its last attempt.
import { BatchWriteItemCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';

/** Sends a DynamoDB batch write again with what it left unprocessed, with backoff, until nothing is left. */
async function writeAllItems(send, input) {
  let request = input;
  for (let attempt = 1; ; attempt++) {
    const output = await send(request);
    const unprocessed = output.UnprocessedItems;
    if (!unprocessed || Object.keys(unprocessed).length === 0) return output;
    if (attempt >= 5) throw new Error(`DynamoDB left writes unprocessed after ${attempt} attempts`);
    request = { ...request, RequestItems: unprocessed };
    await new Promise((resolve) => setTimeout(resolve, Math.random() * Math.min(20000, 100 * 2 ** attempt)));
  }
}

const client = new DynamoDBClient({ endpoint: process.env.DYNAMODB_ENDPOINT });

export async function saveOrders(orders) {
  await writeAllItems((request) => client.send(new BatchWriteItemCommand(request)), {
      RequestItems: {
        orders: orders.map((order) => ({ PutRequest: { Item: { id: { S: order.id }, total: { N: String(order.total) } } } })),
      },
    });
}
