// Order persistence on DynamoDB (AWS SDK v3, document client).
import { randomUUID } from 'node:crypto';
import { BatchGetCommand, BatchWriteCommand, GetCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { documents, ORDERS_TABLE, PAYMENTS_TABLE } from './client.js';

export interface Order {
  orderId: string;
  customerId: string;
  totalCents: number;
  status: 'NEW' | 'PAID' | 'SHIPPED';
}

const BATCH_SIZE = 25;
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Nightly import from the legacy shop. */
export async function importOrders(orders: Order[]): Promise<number> {
  for (let start = 0; start < orders.length; start += BATCH_SIZE) {
    const chunk = orders.slice(start, start + BATCH_SIZE);
    // Throttled writes come back in UnprocessedItems, which nobody looks at.
    await documents.send(
      new BatchWriteCommand({
        RequestItems: { [ORDERS_TABLE]: chunk.map((order) => ({ PutRequest: { Item: order } })) },
      }),
    );
  }
  return orders.length;
}

/** Archive old orders, all batches in parallel. */
export async function deleteOrders(orderIds: string[]): Promise<void> {
  const chunks: string[][] = [];
  for (let start = 0; start < orderIds.length; start += BATCH_SIZE) chunks.push(orderIds.slice(start, start + BATCH_SIZE));
  await Promise.all(
    chunks.map((chunk) =>
      documents.send(
        new BatchWriteCommand({
          RequestItems: { [ORDERS_TABLE]: chunk.map((orderId) => ({ DeleteRequest: { Key: { orderId } } })) },
        }),
      ),
    ),
  );
}

/** Loads many orders at once; keys DynamoDB did not get to are silently missing. */
export async function getOrders(orderIds: string[]): Promise<Order[]> {
  const { Responses } = await documents.send(
    new BatchGetCommand({
      RequestItems: { [ORDERS_TABLE]: { Keys: orderIds.map((orderId) => ({ orderId })) } },
    }),
  );
  return (Responses?.[ORDERS_TABLE] ?? []) as Order[];
}

export async function getOrder(orderId: string): Promise<Order | undefined> {
  const { Item } = await documents.send(new GetCommand({ TableName: ORDERS_TABLE, Key: { orderId } }));
  return Item as Order | undefined;
}

/**
 * Marks an order paid and records the payment in one transaction, retried by hand:
 * every attempt sends a new payment id and a new ClientRequestToken (the SDK makes one
 * per send), so an attempt whose response was lost is applied twice; it waits the same
 * 200 ms each time and retries even a failed condition, which can never succeed.
 */
export async function payOrder(orderId: string, amountCents: number): Promise<string> {
  for (let attempt = 1; ; attempt++) {
    const paymentId = randomUUID();
    try {
      await documents.send(
        new TransactWriteCommand({
          TransactItems: [
            {
              Update: {
                TableName: ORDERS_TABLE,
                Key: { orderId },
                UpdateExpression: 'SET #status = :paid',
                ConditionExpression: '#status = :new',
                ExpressionAttributeNames: { '#status': 'status' },
                ExpressionAttributeValues: { ':paid': 'PAID', ':new': 'NEW' },
              },
            },
            { Put: { TableName: PAYMENTS_TABLE, Item: { paymentId, orderId, amountCents } } },
          ],
        }),
      );
      return paymentId;
    } catch (err) {
      if (attempt >= 3) throw err;
      await sleep(200);
    }
  }
}
