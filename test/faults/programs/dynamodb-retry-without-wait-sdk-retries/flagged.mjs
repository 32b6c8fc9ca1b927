// Records an event, and retries a throttled write at once, up to five times, on top of
// the client's own retries (exponential backoff with full jitter).
import { DynamoDBClient, PutItemCommand } from '@aws-sdk/client-dynamodb';

const client = new DynamoDBClient({ endpoint: process.env.DYNAMODB_ENDPOINT });

export async function recordEvent(event) {
  for (let attempt = 0; attempt < 5; attempt++) {
    try {
      return await client.send(
        new PutItemCommand({ TableName: 'events', Item: { id: { S: event.id }, kind: { S: event.kind } } }),
      );
    } catch (err) {
      if (err.name !== 'ProvisionedThroughputExceededException' || attempt === 4) throw err;
    }
  }
}
