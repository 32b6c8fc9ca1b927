import mongoNoNonRetryableWrite from './mongo-no-non-retryable-write';
import mongoRetryWritesConnectionString from './mongo-retry-writes-connection-string';
import mongoRequireInsertId from './mongo-require-insert-id';
import mongoNoRetryInTransaction from './mongo-no-retry-in-transaction';
import mongoPreferProjectionOnFindAndModify from './mongo-prefer-projection-on-find-and-modify';
import requireRetryBackoff from './require-retry-backoff';
import noRetryOnPermanentError from './no-retry-on-permanent-error';
import noSwallowedDbError from './no-swallowed-db-error';
import requireIdempotentRetry from './require-idempotent-retry';
import dynamodbRequireUnprocessedItemsHandling from './dynamodb-require-unprocessed-items-handling';
import dynamodbNoDisabledRetries from './dynamodb-no-disabled-retries';
import pgRequirePoolErrorListener from './pg-require-pool-error-listener';
import pgRequireWholeTransactionRetry from './pg-require-whole-transaction-retry';

/** Every rule of the plugin, by id. */
export const rules = {
  'mongo-no-non-retryable-write': mongoNoNonRetryableWrite,
  'mongo-retry-writes-connection-string': mongoRetryWritesConnectionString,
  'mongo-require-insert-id': mongoRequireInsertId,
  'mongo-no-retry-in-transaction': mongoNoRetryInTransaction,
  'mongo-prefer-projection-on-find-and-modify': mongoPreferProjectionOnFindAndModify,
  'require-retry-backoff': requireRetryBackoff,
  'no-retry-on-permanent-error': noRetryOnPermanentError,
  'no-swallowed-db-error': noSwallowedDbError,
  'require-idempotent-retry': requireIdempotentRetry,
  'dynamodb-require-unprocessed-items-handling': dynamodbRequireUnprocessedItemsHandling,
  'dynamodb-no-disabled-retries': dynamodbNoDisabledRetries,
  'pg-require-pool-error-listener': pgRequirePoolErrorListener,
  'pg-require-whole-transaction-retry': pgRequireWholeTransactionRetry,
};

export type RuleId = keyof typeof rules;
