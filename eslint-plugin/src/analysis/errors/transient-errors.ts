import type { Database } from '../clients';

/**
 * The one table of which database errors a retry can fix (transient) and which it
 * cannot (permanent). Facts from DOMAIN.md §1–§3 and the vendors' error references:
 * - DynamoDB: https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/Programming.Errors.html
 * - PostgreSQL SQLSTATEs: https://www.postgresql.org/docs/current/errcodes-appendix.html
 * - MongoDB retryable errors: https://github.com/mongodb/specifications (retryable-writes)
 */
export type ErrorNature = 'transient' | 'permanent';

/** Which part of an error a value was compared with. */
export type ErrorProperty = 'name' | 'code' | 'message' | 'label' | 'httpStatus';

/** How a check compares the error's property with the value. */
export type ErrorMatch = 'equal' | 'prefix' | 'substring';

/** One value a check compares the error with: `err.name === 'ThrottlingException'`, `err.code.startsWith('08')`. */
export interface ErrorValue {
  property: ErrorProperty;
  value: string | number;
  match: ErrorMatch;
}

/** DynamoDB exception names (`err.name` in SDK v3, `err.code` in SDK v2) a retry can fix: throttling and 5xx. */
const DYNAMODB_TRANSIENT = new Set([
  'ProvisionedThroughputExceededException',
  'ThrottlingException',
  'Throttling',
  'RequestLimitExceeded',
  'TooManyRequestsException',
  'LimitExceededException',
  // "OK to retry? Yes" in the DynamoDB error table: another transaction holds the item.
  'TransactionConflictException',
  'TransactionInProgressException',
  'InternalServerError',
  'InternalFailure',
  'ServiceUnavailable',
  'ServiceUnavailableException',
  'RequestTimeout',
  'RequestTimeoutException',
  'TimeoutError',
]);

/** DynamoDB exceptions that fail again on retry: the request itself is wrong or not allowed. */
const DYNAMODB_PERMANENT = new Set([
  'ConditionalCheckFailedException',
  'ValidationException',
  'AccessDeniedException',
  'ResourceNotFoundException',
  'IncompleteSignatureException',
  'MissingAuthenticationTokenException',
  'UnrecognizedClientException',
  'InvalidSignatureException',
  'SerializationException',
  'ResourceInUseException',
  'ItemCollectionSizeLimitExceededException',
  'IdempotentParameterMismatchException',
  'DuplicateItemException',
  // Permanent when a condition failed (its CancellationReasons say `ConditionalCheckFailed`),
  // which is the common cause; a conflict-only cancellation is the rarer transient case.
  'TransactionCanceledException',
]);

/** node-postgres / Node.js socket error codes that mean the connection was lost or not opened. */
const NODE_CONNECTION_CODES = new Set([
  'ECONNRESET',
  'ECONNREFUSED',
  'ETIMEDOUT',
  'EPIPE',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
]);

/** Messages node-postgres uses for a dropped or unavailable connection (matched as substrings). */
const PG_TRANSIENT_MESSAGES = [
  'Connection terminated unexpectedly',
  'Connection terminated',
  'timeout exceeded when trying to connect',
  'Client has encountered a connection error',
  'the database system is starting up',
  'the database system is shutting down',
  'terminating connection',
];

/** SQLSTATEs a retry (on a new connection, of the whole transaction) can fix. */
const PG_TRANSIENT_SQLSTATES = new Set([
  '57P01', // admin_shutdown
  '57P02', // crash_shutdown
  '57P03', // cannot_connect_now
  '40001', // serialization_failure
  '40P01', // deadlock_detected
  '53300', // too_many_connections
]);

/** SQLSTATE classes: 08 connection exception (transient); 22 data, 23 integrity, 28 auth, 42 syntax/undefined (permanent). */
const PG_TRANSIENT_CLASSES = new Set(['08']);
const PG_PERMANENT_CLASSES = new Set(['22', '23', '28', '42']);

/** MongoDB server codes a retry can fix (the retryable-writes specification's list, plus WriteConflict). */
const MONGO_TRANSIENT_CODES = new Set([
  6, 7, 89, 91, 112, 134, 189, 262, 9001, 10107, 11600, 11602, 13435, 13436,
]);

/** MongoDB codes a retry cannot fix. 225/301 are DocumentDB's retryable-write errors (DOMAIN.md §1). */
const MONGO_PERMANENT_CODES = new Set([
  11000, // DuplicateKey
  11001, // DuplicateKey (legacy)
  121, // DocumentValidationFailure
  2, // BadValue
  9, // FailedToParse
  13, // Unauthorized
  18, // AuthenticationFailed
  225, // TransactionTooOld: a newer write of the session already committed
  301, // Retryable writes are not supported: set retryWrites=false before DocumentDB 8.0.2
]);

const MONGO_TRANSIENT_NAMES = new Set([
  'MongoNetworkError',
  'MongoNetworkTimeoutError',
  'MongoServerSelectionError',
  'MongoServerClosedError',
  'MongoPoolClearedError',
  'NotWritablePrimary',
  'PrimarySteppedDown',
  'WriteConflict',
  'NetworkTimeout',
  'HostUnreachable',
  'ShutdownInProgress',
]);

const MONGO_PERMANENT_NAMES = new Set(['DuplicateKey', 'DocumentValidationFailure', 'Unauthorized', 'TransactionTooOld']);

/** Error labels the MongoDB driver attaches to errors worth retrying. */
const MONGO_TRANSIENT_LABELS = new Set(['RetryableWriteError', 'TransientTransactionError', 'UnknownTransactionCommitResult']);

/** Errors that, after a retry of a keyed write, mean "the earlier attempt already committed". */
const ALREADY_DONE: Record<'postgres' | 'mongodb', readonly (string | number)[]> = {
  postgres: ['23505'],
  mongodb: [11000, 11001, 'DuplicateKey'],
};

/** PostgreSQL's SQLSTATE classes (errcodes appendix); keeps `'11000'` from passing for a SQLSTATE. */
const SQLSTATE_CLASSES = new Set(
  '00 01 02 03 08 09 0A 0B 0F 0L 0P 0Z 20 21 22 23 24 25 26 27 28 2B 2D 2F 34 38 39 3B 3D 3F 40 42 44 53 54 55 57 58 72 F0 HV P0 XX'.split(' '),
);

function isSqlState(value: string): boolean {
  return /^[0-9A-Z]{5}$/.test(value) && SQLSTATE_CLASSES.has(value.slice(0, 2));
}

function getPostgresNature(value: string, match: ErrorMatch): ErrorNature | undefined {
  if (match === 'prefix') {
    if (value.length !== 2) return undefined;
    if (PG_TRANSIENT_CLASSES.has(value)) return 'transient';
    if (PG_PERMANENT_CLASSES.has(value)) return 'permanent';
    return undefined;
  }
  if (NODE_CONNECTION_CODES.has(value)) return 'transient';
  if (!isSqlState(value)) return undefined;
  if (PG_TRANSIENT_SQLSTATES.has(value)) return 'transient';
  const sqlClass = value.slice(0, 2);
  if (PG_TRANSIENT_CLASSES.has(sqlClass)) return 'transient';
  if (PG_PERMANENT_CLASSES.has(sqlClass)) return 'permanent';
  return undefined;
}

function getMessageNature(value: string): ErrorNature | undefined {
  const lower = value.toLowerCase();
  if (lower.length < 6) return undefined;
  if (PG_TRANSIENT_MESSAGES.some((message) => message.toLowerCase().includes(lower) || lower.includes(message.toLowerCase()))) {
    return 'transient';
  }
  if (NODE_CONNECTION_CODES.has(value)) return 'transient';
  if (/duplicate key|E11000/i.test(value)) return 'permanent';
  if (/throttl|rate exceeded|provisioned throughput/i.test(value)) return 'transient';
  return undefined;
}

function getNameOrCodeNature(database: Database | undefined, value: string | number, match: ErrorMatch): ErrorNature | undefined {
  const text = String(value);
  const asNumber = typeof value === 'number' ? value : /^\d+$/.test(text) ? Number(text) : undefined;
  const checks: Database[] = database ? [database] : ['dynamodb', 'postgres', 'mongodb'];
  for (const db of checks) {
    let nature: ErrorNature | undefined;
    if (db === 'dynamodb' && match === 'equal') {
      nature = DYNAMODB_TRANSIENT.has(text) ? 'transient' : DYNAMODB_PERMANENT.has(text) ? 'permanent' : undefined;
      if (!nature && NODE_CONNECTION_CODES.has(text)) nature = 'transient';
    } else if (db === 'postgres' && typeof value === 'string') {
      nature = getPostgresNature(text, match);
    } else if (db === 'mongodb' && match === 'equal') {
      if (asNumber !== undefined && !(typeof value === 'string' && isSqlState(text))) {
        nature = MONGO_TRANSIENT_CODES.has(asNumber) ? 'transient' : MONGO_PERMANENT_CODES.has(asNumber) ? 'permanent' : undefined;
      } else {
        nature = MONGO_TRANSIENT_NAMES.has(text) ? 'transient' : MONGO_PERMANENT_NAMES.has(text) ? 'permanent' : undefined;
        if (!nature && NODE_CONNECTION_CODES.has(text)) nature = 'transient';
      }
    }
    if (nature) return nature;
  }
  return undefined;
}

/**
 * Whether an error matching `check` is worth retrying. `database` narrows the lookup;
 * without it every table is consulted. `undefined` when the value is not in a table.
 */
export function getErrorNature(check: ErrorValue, database?: Database): ErrorNature | undefined {
  switch (check.property) {
    case 'label':
      return typeof check.value === 'string' && MONGO_TRANSIENT_LABELS.has(check.value) ? 'transient' : undefined;
    case 'httpStatus':
      return getHttpStatusNature(Number(check.value));
    case 'message':
      return typeof check.value === 'string' ? getMessageNature(check.value) : undefined;
    case 'name':
    case 'code':
      return getNameOrCodeNature(database, check.value, check.match);
  }
}

/** 5xx and 429 are retryable; other 4xx are not, except DynamoDB's throttling errors, which are 400s. */
export function getHttpStatusNature(status: number): ErrorNature | undefined {
  if (!Number.isInteger(status)) return undefined;
  if (status >= 500 && status <= 599) return 'transient';
  if (status === 429) return 'transient';
  if (status >= 401 && status <= 499) return 'permanent';
  return undefined;
}

export function isPermanentError(check: ErrorValue, database?: Database): boolean {
  return getErrorNature(check, database) === 'permanent';
}

/**
 * Permanent whatever its details say. `TransactionCanceledException` is permanent when a
 * condition failed but worth retrying when its `CancellationReasons` say
 * `TransactionConflict`, so a retry that names it may well be right.
 */
export function isAlwaysPermanentError(check: ErrorValue, database?: Database): boolean {
  return isPermanentError(check, database) && String(check.value) !== 'TransactionCanceledException';
}

export function isTransientError(check: ErrorValue, database?: Database): boolean {
  return getErrorNature(check, database) === 'transient';
}

/**
 * True for the errors that mean "the earlier attempt already committed" when a keyed
 * write is retried: PostgreSQL 23505 unique_violation, MongoDB 11000 duplicate key.
 */
export function isAlreadyDoneError(check: ErrorValue, database?: Database): boolean {
  if (check.property !== 'code' && check.property !== 'name') return false;
  if (check.match === 'prefix') return (database === undefined || database === 'postgres') && check.value === '23';
  if (check.match !== 'equal') return false;
  const lists =
    database === 'postgres' ? [ALREADY_DONE.postgres] : database === 'mongodb' ? [ALREADY_DONE.mongodb] : database ? [] : Object.values(ALREADY_DONE);
  return lists.some((list) => list.some((known) => String(known) === String(check.value)));
}

/**
 * Errors after which nobody knows whether the write happened: the connection dropped or
 * timed out, possibly after the server committed. An error the server reports for the
 * statement (40001, 40P01, 23505, 42xxx…) means it was not applied.
 */
export function isOutcomeUnknownError(check: ErrorValue, database: Database): boolean {
  if (!isTransientError(check, database)) return false;
  if (database === 'postgres' && (check.property === 'code' || check.property === 'name')) {
    return !NOT_APPLIED_TRANSIENT_SQLSTATES.includes(String(check.value));
  }
  return true;
}

/**
 * Transient PostgreSQL errors after which the statement is known not to have been applied:
 * rolled back (serialization failure, deadlock) or refused before it ran (too many
 * connections, the server starting up).
 */
export const NOT_APPLIED_TRANSIENT_SQLSTATES: readonly string[] = ['40001', '40P01', '53300', '57P03'];

/**
 * Errors that say the data conflicts with the request (a failed condition, a duplicate
 * key): permanent for the same request, but a retry that reads again or builds a new
 * request (optimistic locking, a new random code) may succeed.
 */
const CONFLICTS = new Set([
  'ConditionalCheckFailedException',
  'TransactionCanceledException',
  'DuplicateItemException',
  '23505',
  '11000',
  '11001',
  'DuplicateKey',
]);

export function isConflictError(check: ErrorValue): boolean {
  if (check.property !== 'name' && check.property !== 'code') return false;
  if (check.match === 'prefix') return check.value === '23';
  return check.match === 'equal' && CONFLICTS.has(String(check.value));
}

/** Examples of errors a retry cannot fix, for messages, by database; reads cannot hit the write-only ones. */
export function getPermanentErrorExamples(database: Database, isWrite = true): string {
  switch (database) {
    case 'dynamodb':
      return isWrite ? '`ConditionalCheckFailedException`, `ValidationException`' : '`ValidationException`, `ResourceNotFoundException`';
    case 'postgres':
      return isWrite ? '23505 unique_violation, 42P01 undefined_table' : '42601 syntax_error, 42P01 undefined_table';
    case 'mongodb':
      return isWrite ? '11000 duplicate key' : '13 Unauthorized, 2 BadValue';
  }
}

/** The errors worth retrying, in a few words for messages ("Retry only …"), by database. */
export function getTransientErrorExamples(database: Database): string {
  switch (database) {
    case 'dynamodb':
      return 'throttling and 5xx errors';
    case 'postgres':
      return 'connection errors and 40001, 40P01, 57P01';
    case 'mongodb':
      return 'errors labelled `RetryableWriteError` or `TransientTransactionError`';
  }
}

/** Human-readable name of the database, for messages. */
export function getDatabaseLabel(database: Database): string {
  return database === 'dynamodb' ? 'DynamoDB' : database === 'postgres' ? 'PostgreSQL' : 'MongoDB';
}

/** What a retry can fix for one database, from the tables above: for code that checks errors at run time. */
export interface TransientErrorTable {
  /** Exception names (DynamoDB `err.name`, SDK v2 `err.code`; MongoDB `err.codeName`) and Node.js socket codes. */
  names: readonly string[];
  /** MongoDB server codes. */
  codes: readonly number[];
  /** MongoDB error labels. */
  labels: readonly string[];
  /** PostgreSQL SQLSTATEs and SQLSTATE classes (two characters). */
  sqlStates: readonly string[];
  sqlStateClasses: readonly string[];
  /** Parts of node-postgres messages for a lost connection. */
  messages: readonly string[];
}

export function getTransientErrorTable(database: Database): TransientErrorTable {
  const none: TransientErrorTable = { names: [], codes: [], labels: [], sqlStates: [], sqlStateClasses: [], messages: [] };
  switch (database) {
    case 'dynamodb':
      return { ...none, names: [...DYNAMODB_TRANSIENT, ...NODE_CONNECTION_CODES] };
    case 'postgres':
      return {
        ...none,
        names: [...NODE_CONNECTION_CODES],
        sqlStates: [...PG_TRANSIENT_SQLSTATES],
        sqlStateClasses: [...PG_TRANSIENT_CLASSES],
        // The shortest text that matches each message (`Connection terminated` covers `… unexpectedly`).
        messages: PG_TRANSIENT_MESSAGES.filter((message) => !PG_TRANSIENT_MESSAGES.some((other) => other !== message && message.includes(other))),
      };
    case 'mongodb':
      return { ...none, names: [...MONGO_TRANSIENT_NAMES], codes: [...MONGO_TRANSIENT_CODES], labels: [...MONGO_TRANSIENT_LABELS] };
  }
}
