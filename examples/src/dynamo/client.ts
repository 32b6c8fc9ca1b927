// Shared DynamoDB clients of the order service.
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';

// "Fail fast so the API stays snappy": this turns off the SDK's retries, so every
// throttle or 5xx from DynamoDB becomes a failed request.
export const dynamo = new DynamoDBClient({
  region: process.env.AWS_REGION ?? 'eu-west-1',
  maxAttempts: 1,
});

export const documents = DynamoDBDocumentClient.from(dynamo, {
  marshallOptions: { removeUndefinedValues: true },
});

export const ORDERS_TABLE = process.env.ORDERS_TABLE ?? 'orders';
export const PAYMENTS_TABLE = process.env.PAYMENTS_TABLE ?? 'payments';
