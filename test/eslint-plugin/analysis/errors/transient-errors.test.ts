import { describe, expect, it } from 'vitest';
import { type ErrorValue, getDatabaseLabel, getErrorNature, getHttpStatusNature, getPermanentErrorExamples, getTransientErrorExamples, isAlreadyDoneError, isAlwaysPermanentError, isConflictError, isOutcomeUnknownError, isPermanentError, isTransientError } from '../../../../eslint-plugin/src/analysis/errors/transient-errors';

const name = (value: string): ErrorValue => ({ property: 'name', value, match: 'equal' });
const code = (value: string | number, match: ErrorValue['match'] = 'equal'): ErrorValue => ({ property: 'code', value, match });

describe('DynamoDB exceptions', () => {
  it.each([
    'ProvisionedThroughputExceededException',
    'ThrottlingException',
    'RequestLimitExceeded',
    'InternalServerError',
    'ServiceUnavailable',
  ])('%s is transient', (value) => {
    expect(getErrorNature(name(value), 'dynamodb')).toBe('transient');
    // SDK v2 puts the exception name in `err.code`.
    expect(getErrorNature(code(value), 'dynamodb')).toBe('transient');
  });

  it.each([
    'ConditionalCheckFailedException',
    'ValidationException',
    'AccessDeniedException',
    'ResourceNotFoundException',
    'IncompleteSignatureException',
    'TransactionCanceledException',
  ])('%s is permanent', (value) => {
    expect(isPermanentError(name(value), 'dynamodb')).toBe(true);
    expect(isPermanentError(name(value))).toBe(true);
  });

  it('does not know unrelated names', () => {
    expect(getErrorNature(name('NoSuchKey'), 'dynamodb')).toBeUndefined();
    expect(getErrorNature(name('Error'))).toBeUndefined();
  });
});

describe('PostgreSQL errors', () => {
  it.each(['ECONNRESET', 'ECONNREFUSED', '08006', '08001', '08000', '57P01', '57P03', '40001', '40P01'])('%s is transient', (value) => {
    expect(isTransientError(code(value), 'postgres')).toBe(true);
  });

  it.each(['23505', '23503', '23502', '23514', '23P01', '42P01', '42601', '42703', '22P02'])('%s is permanent', (value) => {
    expect(isPermanentError(code(value), 'postgres')).toBe(true);
    expect(isPermanentError(code(value))).toBe(true);
  });

  it('reads SQLSTATE class prefixes', () => {
    expect(getErrorNature(code('08', 'prefix'), 'postgres')).toBe('transient');
    expect(getErrorNature(code('23', 'prefix'), 'postgres')).toBe('permanent');
    expect(getErrorNature(code('42', 'prefix'))).toBe('permanent');
    expect(getErrorNature(code('4', 'prefix'))).toBeUndefined();
  });

  it('reads node-postgres connection messages', () => {
    expect(getErrorNature({ property: 'message', value: 'Connection terminated unexpectedly', match: 'substring' })).toBe(
      'transient',
    );
    expect(getErrorNature({ property: 'message', value: 'Connection terminated', match: 'substring' })).toBe('transient');
    expect(getErrorNature({ property: 'message', value: 'duplicate key value', match: 'substring' })).toBe('permanent');
    expect(getErrorNature({ property: 'message', value: 'oops', match: 'substring' })).toBeUndefined();
  });

  it('does not mistake a SQLSTATE for a MongoDB code', () => {
    expect(getErrorNature(code('11000'), 'postgres')).toBeUndefined();
    expect(getErrorNature(code(23505), 'mongodb')).toBeUndefined();
  });
});

describe('MongoDB errors', () => {
  it('11000 duplicate key is permanent, as number or string', () => {
    expect(isPermanentError(code(11000), 'mongodb')).toBe(true);
    expect(isPermanentError(code('11000'))).toBe(true);
    expect(isPermanentError(name('DuplicateKey'), 'mongodb')).toBe(true);
  });

  it('DocumentDB 225 TransactionTooOld and 301 are permanent', () => {
    expect(isPermanentError(code(225), 'mongodb')).toBe(true);
    expect(isPermanentError(code(301), 'mongodb')).toBe(true);
  });

  it('retryable labels and network errors are transient', () => {
    expect(getErrorNature({ property: 'label', value: 'RetryableWriteError', match: 'equal' })).toBe('transient');
    expect(getErrorNature({ property: 'label', value: 'TransientTransactionError', match: 'equal' })).toBe('transient');
    expect(getErrorNature({ property: 'label', value: 'Other', match: 'equal' })).toBeUndefined();
    expect(isTransientError(name('MongoNetworkError'))).toBe(true);
    expect(isTransientError(code(91), 'mongodb')).toBe(true);
  });
});

describe('HTTP status', () => {
  it('5xx and 429 are transient, other 4xx permanent', () => {
    expect(getHttpStatusNature(503)).toBe('transient');
    expect(getHttpStatusNature(500)).toBe('transient');
    expect(getHttpStatusNature(429)).toBe('transient');
    expect(getHttpStatusNature(403)).toBe('permanent');
    // 400 carries both DynamoDB's throttling and its validation errors.
    expect(getHttpStatusNature(400)).toBeUndefined();
    expect(getHttpStatusNature(Number.NaN)).toBeUndefined();
  });
});

describe('already done', () => {
  it('23505 and 11000 mean the keyed write already committed', () => {
    expect(isAlreadyDoneError(code('23505'))).toBe(true);
    expect(isAlreadyDoneError(code('23505'), 'postgres')).toBe(true);
    expect(isAlreadyDoneError(code(11000), 'mongodb')).toBe(true);
    expect(isAlreadyDoneError(code('23', 'prefix'), 'postgres')).toBe(true);
    expect(isAlreadyDoneError(code('23503'), 'postgres')).toBe(false);
    expect(isAlreadyDoneError(code('23505'), 'dynamodb')).toBe(false);
    expect(isAlreadyDoneError({ property: 'message', value: '23505', match: 'substring' })).toBe(false);
  });
});

describe('examples for messages', () => {
  it('names the documented permanent errors', () => {
    expect(getPermanentErrorExamples('dynamodb')).toContain('ConditionalCheckFailedException');
    expect(getPermanentErrorExamples('postgres')).toContain('23505');
    expect(getPermanentErrorExamples('mongodb')).toContain('11000');
  });
});

describe('conflicts', () => {
  it('condition failures and duplicate keys depend on the data, not only on the request', () => {
    expect(isConflictError(name('ConditionalCheckFailedException'))).toBe(true);
    expect(isConflictError(code('23505'))).toBe(true);
    expect(isConflictError(code(11000))).toBe(true);
    expect(isConflictError(code('23', 'prefix'))).toBe(true);
    expect(isConflictError(name('ValidationException'))).toBe(false);
    expect(isConflictError(code('42P01'))).toBe(false);
  });
});

describe('outcome unknown', () => {
  it('a dropped connection leaves the write unknown; a statement error does not', () => {
    expect(isOutcomeUnknownError(code('ECONNRESET'), 'postgres')).toBe(true);
    expect(isOutcomeUnknownError(code('08006'), 'postgres')).toBe(true);
    expect(isOutcomeUnknownError(code('57P01'), 'postgres')).toBe(true);
    expect(isOutcomeUnknownError({ property: 'message', value: 'Connection terminated unexpectedly', match: 'substring' }, 'postgres')).toBe(true);
    expect(isOutcomeUnknownError(code('40001'), 'postgres')).toBe(false);
    expect(isOutcomeUnknownError(code('23505'), 'postgres')).toBe(false);
    expect(isOutcomeUnknownError(code('57P03'), 'postgres')).toBe(false);
  });
});

describe('always permanent', () => {
  it('leaves out TransactionCanceledException, whose reasons decide', () => {
    expect(isAlwaysPermanentError(name('ConditionalCheckFailedException'), 'dynamodb')).toBe(true);
    expect(isAlwaysPermanentError(name('TransactionCanceledException'), 'dynamodb')).toBe(false);
    expect(isPermanentError(name('TransactionCanceledException'), 'dynamodb')).toBe(true);
  });
});

describe('words for messages', () => {
  it('names each database', () => {
    expect([getDatabaseLabel('mongodb'), getDatabaseLabel('dynamodb'), getDatabaseLabel('postgres')]).toEqual(['MongoDB', 'DynamoDB', 'PostgreSQL']);
  });

  it('gives transient examples of the database asked for, and none of the others', () => {
    const dynamodb = getTransientErrorExamples('dynamodb');
    const postgres = getTransientErrorExamples('postgres');
    const mongodb = getTransientErrorExamples('mongodb');
    expect(dynamodb).toContain('throttling');
    expect(dynamodb).not.toContain('connection');
    expect(postgres).toContain('40001');
    expect(postgres).not.toContain('ThrottlingException');
    expect(mongodb).toContain('RetryableWriteError');
    expect(mongodb).not.toContain('40001');
    // Every example is one the classification itself calls transient.
    expect(getErrorNature(name('ProvisionedThroughputExceededException'), 'dynamodb')).toBe('transient');
    expect(getErrorNature(code('40P01'), 'postgres')).toBe('transient');
    expect(getErrorNature(code('57P01'), 'postgres')).toBe('transient');
    expect(getErrorNature(code('40001'), 'postgres')).toBe('transient');
  });

  it('leaves write-only permanent errors out of the examples for reads', () => {
    expect(getPermanentErrorExamples('dynamodb', false)).not.toContain('ConditionalCheckFailedException');
    expect(getPermanentErrorExamples('postgres', false)).not.toContain('23505');
    expect(getPermanentErrorExamples('mongodb', false)).not.toContain('11000');
    expect(getPermanentErrorExamples('dynamodb', false)).toContain('ValidationException');
  });
});
