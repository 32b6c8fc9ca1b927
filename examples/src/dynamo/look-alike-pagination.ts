// Look-alikes that must stay silent: a pagination loop is not a retry, a client left
// at the SDK defaults (or with more attempts) keeps its retries, and S3 is not DynamoDB.
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, QueryCommand, type QueryCommandOutput } from '@aws-sdk/lib-dynamodb';
import { PutObjectCommand, S3Client } from '@aws-sdk/client-s3';

const reports = DynamoDBDocumentClient.from(new DynamoDBClient({ maxAttempts: 5, retryMode: 'adaptive' }));
const s3 = new S3Client({ maxAttempts: 1 });

const ORDERS_TABLE = process.env.ORDERS_TABLE ?? 'orders';

/** Every order of a customer, page by page. */
export async function listCustomerOrders(customerId: string): Promise<Record<string, unknown>[]> {
  const items: Record<string, unknown>[] = [];
  let lastKey: QueryCommandOutput['LastEvaluatedKey'];
  do {
    const page = await reports.send(
      new QueryCommand({
        TableName: ORDERS_TABLE,
        IndexName: 'byCustomer',
        KeyConditionExpression: 'customerId = :c',
        ExpressionAttributeValues: { ':c': customerId },
        ExclusiveStartKey: lastKey,
      }),
    );
    items.push(...(page.Items ?? []));
    lastKey = page.LastEvaluatedKey;
  } while (lastKey);
  return items;
}

export async function exportCustomerOrders(customerId: string): Promise<void> {
  const orders = await listCustomerOrders(customerId);
  await s3.send(
    new PutObjectCommand({ Bucket: 'order-exports', Key: `${customerId}.json`, Body: JSON.stringify(orders) }),
  );
}
