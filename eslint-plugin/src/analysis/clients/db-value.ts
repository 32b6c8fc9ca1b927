import type { MongoValueKind } from './mongo-kinds';

/**
 * What an expression is, database-wise, across the three databases: the vocabulary the
 * module index and the value analysis share.
 */

/** PostgreSQL: a pool, a single connection, the postgres.js `sql` pool, or one of its transactions / reserved connections. */
export type PgRole = 'pool' | 'client' | 'sql' | 'sql-connection';

export type DynamoDbClientKind =
  /** v3 `DynamoDBClient` (`send` only). */
  | 'client'
  /** v3 aggregated `DynamoDB` class (`ddb.putItem(…)` and `send`). */
  | 'aggregated-client'
  /** v3 `DynamoDBDocumentClient` (`send` only). */
  | 'document-client'
  /** v3 `DynamoDBDocument` (`doc.put(…)` and `send`). */
  | 'aggregated-document-client'
  /** v2 `AWS.DynamoDB`. */
  | 'v2-client'
  /** v2 `AWS.DynamoDB.DocumentClient`. */
  | 'v2-document-client';

export type DbValue =
  | { database: 'mongodb'; kind: MongoValueKind }
  | { database: 'postgres'; role: PgRole; library: 'pg' | 'postgres' }
  | { database: 'dynamodb'; kind: DynamoDbClientKind };

/** The same value (same database and kind). */
export function isSameDbValue(a: DbValue, b: DbValue): boolean {
  if (a.database !== b.database) return false;
  if (a.database === 'postgres' && b.database === 'postgres') return a.role === b.role && a.library === b.library;
  return (a as { kind: string }).kind === (b as { kind: string }).kind;
}
