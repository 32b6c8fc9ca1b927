// The audit log still runs on the AWS SDK v2 DocumentClient.
import AWS from 'aws-sdk';

const auditLog = new AWS.DynamoDB.DocumentClient({
  region: process.env.AWS_REGION ?? 'eu-west-1',
  // Retries made the audit endpoint slow; turned off "for now".
  maxRetries: 0,
});

const AUDIT_TABLE = process.env.AUDIT_TABLE ?? 'audit-log';

export interface AuditEvent {
  eventId: string;
  orderId: string;
  type: string;
  at: string;
}

export async function writeAuditEvents(events: AuditEvent[]): Promise<void> {
  await auditLog
    .batchWrite({ RequestItems: { [AUDIT_TABLE]: events.map((event) => ({ PutRequest: { Item: event } })) } })
    .promise();
}
