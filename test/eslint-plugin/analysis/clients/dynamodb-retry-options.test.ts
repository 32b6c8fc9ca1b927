import { describe, expect, it } from 'vitest';
import { getIgnoredRetryCountOption, getRetryCountOption, turnsRetriesOff } from '../../../../eslint-plugin/src/analysis/clients/dynamodb-retry-options';

describe('getRetryCountOption / getIgnoredRetryCountOption', () => {
  it('v3 reads maxAttempts and ignores maxRetries; v2 the other way round', () => {
    expect([getRetryCountOption(3), getIgnoredRetryCountOption(3)]).toEqual(['maxAttempts', 'maxRetries']);
    expect([getRetryCountOption(2), getIgnoredRetryCountOption(2)]).toEqual(['maxRetries', 'maxAttempts']);
  });
});

describe('turnsRetriesOff', () => {
  it('v3 maxAttempts counts the first attempt: 1 or less leaves no retry', () => {
    expect([0, 1, 2, 3].map((value) => turnsRetriesOff(3, value))).toEqual([true, true, false, false]);
  });

  it('v2 maxRetries counts only retries: 0 or less leaves none', () => {
    expect([-1, 0, 1, 3].map((value) => turnsRetriesOff(2, value))).toEqual([true, true, false, false]);
  });
});
