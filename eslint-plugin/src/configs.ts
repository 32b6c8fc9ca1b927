import { type CodePresetName, RULE_PREFIX } from './constants';
import type { RuleId } from './rules';

type Severity = 'off' | 'warn' | 'error';

/**
 * Severity of each rule per preset. `error` where the code loses or duplicates
 * data or crashes; `warn` where it only degrades under failure.
 */
const presets: Record<RuleId, { recommended: Severity; strict: Severity }> = {
  'mongo-no-non-retryable-write': { recommended: 'warn', strict: 'error' },
  'mongo-retry-writes-connection-string': { recommended: 'error', strict: 'error' },
  'mongo-require-insert-id': { recommended: 'warn', strict: 'error' },
  'mongo-no-retry-in-transaction': { recommended: 'error', strict: 'error' },
  'mongo-prefer-projection-on-find-and-modify': { recommended: 'off', strict: 'warn' },
  'require-retry-backoff': { recommended: 'warn', strict: 'error' },
  'no-retry-on-permanent-error': { recommended: 'warn', strict: 'error' },
  'no-swallowed-db-error': { recommended: 'error', strict: 'error' },
  'require-idempotent-retry': { recommended: 'error', strict: 'error' },
  'dynamodb-require-unprocessed-items-handling': { recommended: 'error', strict: 'error' },
  'dynamodb-no-disabled-retries': { recommended: 'warn', strict: 'error' },
  'pg-require-pool-error-listener': { recommended: 'error', strict: 'error' },
  'pg-require-whole-transaction-retry': { recommended: 'error', strict: 'error' },
};

/** `{ 'retry-safety/<id>': severity }` for one preset. */
export function presetRules(preset: CodePresetName): Record<string, Severity> {
  const entries = Object.entries(presets).map(([id, severity]) => {
    const level = preset === 'all' ? 'error' : severity[preset];
    return [`${RULE_PREFIX}${id}`, level] as const;
  });
  return Object.fromEntries(entries.filter(([, level]) => level !== 'off'));
}
