// Look-alike that must stay silent: a batch write that resends UnprocessedItems with
// capped, full-jitter exponential backoff, a bounded number of attempts, and an error
// when items are still left; and a transaction whose ClientRequestToken is created
// once, outside the SDK's own retries.
import { randomUUID } from 'node:crypto';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { BatchWriteCommand, DynamoDBDocumentClient, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';

const documents = DynamoDBDocumentClient.from(new DynamoDBClient({ region: process.env.AWS_REGION ?? 'eu-west-1' }));

const BASE_DELAY_MS = 100;
const MAX_DELAY_MS = 20_000;
const MAX_ATTEMPTS = 8;

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

type WriteRequests = NonNullable<ConstructorParameters<typeof BatchWriteCommand>[0]['RequestItems']>;

export async function writeAll(requestItems: WriteRequests): Promise<void> {
  let pending: WriteRequests = requestItems;
  for (let attempt = 0; Object.keys(pending).length > 0; attempt++) {
    if (attempt === MAX_ATTEMPTS) {
      throw new Error(`DynamoDB left ${Object.keys(pending).length} table(s) unprocessed after ${MAX_ATTEMPTS} attempts`);
    }
    if (attempt > 0) {
      // Full jitter: a random wait between 0 and the capped exponential delay.
      await sleep(Math.random() * Math.min(MAX_DELAY_MS, BASE_DELAY_MS * 2 ** attempt));
    }
    const { UnprocessedItems } = await documents.send(new BatchWriteCommand({ RequestItems: pending }));
    pending = UnprocessedItems ?? {};
  }
}

export async function transfer(from: string, to: string, amountCents: number): Promise<void> {
  // One token for the whole logical operation: DynamoDB deduplicates a resent call for 10 minutes.
  const clientRequestToken = randomUUID();
  await documents.send(
    new TransactWriteCommand({
      ClientRequestToken: clientRequestToken,
      TransactItems: [
        {
          Update: {
            TableName: 'accounts',
            Key: { accountId: from },
            UpdateExpression: 'SET balance = balance - :amount',
            ConditionExpression: 'balance >= :amount',
            ExpressionAttributeValues: { ':amount': amountCents },
          },
        },
        {
          Update: {
            TableName: 'accounts',
            Key: { accountId: to },
            UpdateExpression: 'SET balance = balance + :amount',
            ExpressionAttributeValues: { ':amount': amountCents },
          },
        },
      ],
    }),
  );
}
