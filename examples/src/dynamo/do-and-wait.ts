// TypeScript port of the retry-and-backoff example in the DynamoDB error-handling guide
// ("DoAndWaitExample"): start an asynchronous operation (here: creating a table), then
// poll for its result, waiting min(100 ms × 3^retries, MAX_WAIT_INTERVAL) before each
// poll, and go round again on NOT_READY, THROTTLED and SERVER_ERROR.
// Kept as the guide wrote it, flaws included: the waits have no jitter, the loop just
// stops after MAX_RETRIES, and the empty catch swallows every exception.
import {
  CreateTableCommand,
  DescribeTableCommand,
  DynamoDBClient,
  type CreateTableCommandInput,
  type DescribeTableCommandOutput,
} from '@aws-sdk/client-dynamodb';

export enum Results {
  SUCCESS,
  NOT_READY,
  THROTTLED,
  SERVER_ERROR,
}

const MAX_RETRIES = 10;
const MAX_WAIT_INTERVAL = 60_000;

const client = new DynamoDBClient({});

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export async function doAndWaitExample(table: CreateTableCommandInput): Promise<void> {
  try {
    // asynchronous operation.
    const created = await client.send(new CreateTableCommand(table));
    const token = created.TableDescription?.TableName ?? table.TableName;
    let retries = 0;
    let retry = false;

    do {
      const waitTime = Math.min(getWaitTime(retries), MAX_WAIT_INTERVAL);
      console.log(`${waitTime}\n`);

      // Pause for result
      await sleep(waitTime);

      // Get result
      const result = await getAsyncOperationResult(client.send(new DescribeTableCommand({ TableName: token })));

      if (Results.SUCCESS === result) {
        retry = false;
      } else if (Results.NOT_READY === result) {
        retry = true;
      } else if (Results.THROTTLED === result) {
        retry = true;
      } else if (Results.SERVER_ERROR === result) {
        retry = true;
      } else {
        // stop on other error
        retry = false;
      }
    } while (retry && retries++ < MAX_RETRIES);
  } catch (ex) {
  }
}

export function getWaitTime(retryCount: number): number {
  const waitTime = Math.pow(3, retryCount) * 100;
  return waitTime;
}

/** Maps the outcome of one DescribeTable poll to the guide's result codes. */
async function getAsyncOperationResult(poll: Promise<DescribeTableCommandOutput>): Promise<Results | undefined> {
  try {
    const { Table } = await poll;
    return Table?.TableStatus === 'ACTIVE' ? Results.SUCCESS : Results.NOT_READY;
  } catch (err) {
    const error = err as { name?: string; $metadata?: { httpStatusCode?: number } };
    if (error.name === 'ProvisionedThroughputExceededException' || error.name === 'ThrottlingException') {
      return Results.THROTTLED;
    }
    if ((error.$metadata?.httpStatusCode ?? 0) >= 500) return Results.SERVER_ERROR;
    return undefined;
  }
}
