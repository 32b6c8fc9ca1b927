// Reads orders with a DynamoDB client that keeps the AWS SDK's automatic retries
// (exponential backoff with full jitter).
import { DynamoDBClient, GetItemCommand } from '@aws-sdk/client-dynamodb';

const client = new DynamoDBClient({ endpoint: process.env.DYNAMODB_ENDPOINT });

export async function getOrder(id) {
  const { Item } = await client.send(new GetItemCommand({ TableName: 'orders', Key: { id: { S: id } } }));
  return Item;
}
