/**
 * The client option that sets how often each AWS SDK tries a DynamoDB request: v3
 * `maxAttempts` counts every attempt, the first included; v2 `maxRetries` counts the
 * retries after it. Each SDK ignores the other's option.
 */

export type RetryCountOption = 'maxAttempts' | 'maxRetries';

/** The retry-count option that SDK `sdkVersion` reads. */
export function getRetryCountOption(sdkVersion: 2 | 3): RetryCountOption {
  return sdkVersion === 3 ? 'maxAttempts' : 'maxRetries';
}

/** The other SDK's retry-count option, which SDK `sdkVersion` ignores. */
export function getIgnoredRetryCountOption(sdkVersion: 2 | 3): RetryCountOption {
  return sdkVersion === 3 ? 'maxRetries' : 'maxAttempts';
}

/** `value` of SDK `sdkVersion`'s retry-count option allows no retry: `maxAttempts` ≤ 1, `maxRetries` ≤ 0. */
export function turnsRetriesOff(sdkVersion: 2 | 3, value: number): boolean {
  return sdkVersion === 3 ? value <= 1 : value <= 0;
}
