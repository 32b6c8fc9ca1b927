// Records an event, and retries a throttled write after a random wait that grows
// exponentially with the attempt (full jitter), up to five times. The loop is the only
// retry: the client's own retries are off, so that attempts do not multiply.
import { DynamoDBClient, PutItemCommand } from '@aws-sdk/client-dynamodb';

const client = new DynamoDBClient({ endpoint: process.env.DYNAMODB_ENDPOINT, maxAttempts: 1 });

export async function recordEvent(event) {
  for (let attempt = 0; attempt < 5; attempt++) {
    try {
      return await client.send(
        new PutItemCommand({ TableName: 'events', Item: { id: { S: event.id }, kind: { S: event.kind } } }),
      );
    } catch (err) {
      if (err.name !== 'ProvisionedThroughputExceededException' || attempt === 4) throw err;
      await new Promise((resolve) => setTimeout(resolve, Math.random() * Math.min(20000, 100 * 2 ** attempt)));
    }
  }
}
