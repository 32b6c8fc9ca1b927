import type { DbCall } from './db-call';
import type { PostgresCall } from './pg-calls';

/** DynamoDB operations that create items (or run statements that may). */
const CREATING_DYNAMODB_OPERATIONS = new Set([
  'PutItem',
  'BatchWriteItem',
  'TransactWriteItems',
  'ExecuteStatement',
  'BatchExecuteStatement',
  'ExecuteTransaction',
]);

/**
 * The call may create records: a DynamoDB put, batch write, transaction or PartiQL
 * statement; a MongoDB insert or `bulkWrite`; a PostgreSQL `INSERT` (or a writing `WITH`).
 */
export function createsRecords(call: DbCall): boolean {
  switch (call.database) {
    case 'dynamodb':
      return CREATING_DYNAMODB_OPERATIONS.has(call.operation);
    case 'mongodb':
      return /^insert|^bulkWrite$/.test(call.operation);
    case 'postgres': {
      const statement = (call as PostgresCall).statement;
      return statement?.keyword === 'INSERT' || (statement?.keyword === 'WITH' && statement.isWrite);
    }
  }
}
