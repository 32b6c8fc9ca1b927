// Reads orders with a DynamoDB client whose automatic retries are turned off: every
// throttled request is an error for the caller.
import { DynamoDBClient, GetItemCommand } from '@aws-sdk/client-dynamodb';

const client = new DynamoDBClient({ endpoint: process.env.DYNAMODB_ENDPOINT, maxAttempts: 1 });

export async function getOrder(id) {
  const { Item } = await client.send(new GetItemCommand({ TableName: 'orders', Key: { id: { S: id } } }));
  return Item;
}
