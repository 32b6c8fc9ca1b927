import { type CodePresetName, RULE_PREFIX } from './constants';
import type { RuleId } from './rules';

type Severity = 'off' | 'warn' | 'error';

interface PresetLevels {
  recommended: Severity;
  strict: Severity;
  /**
   * `recommended` turns the rule off in test files (TEST_FILE_PATTERNS): its reports there
   * are about set-up and helper code that never meets a production failure (`deleteMany({})`
   * before each test, fixture inserts, a pool in a helper, a "wait for the database" loop).
   * `strict` and `all` keep it on everywhere.
   */
  quietInTests: boolean;
}

/**
 * Severity of each rule per preset. `error` where the code loses or duplicates
 * data or crashes; `warn` where it only degrades under failure.
 */
const presets: Record<RuleId, PresetLevels> = {
  'mongo-no-non-retryable-write': { recommended: 'warn', strict: 'error', quietInTests: true },
  'mongo-retry-writes-connection-string': { recommended: 'error', strict: 'error', quietInTests: false },
  'mongo-require-insert-id': { recommended: 'warn', strict: 'error', quietInTests: true },
  'mongo-no-retry-in-transaction': { recommended: 'error', strict: 'error', quietInTests: false },
  'mongo-prefer-projection-on-find-and-modify': { recommended: 'off', strict: 'warn', quietInTests: false },
  'require-retry-backoff': { recommended: 'warn', strict: 'error', quietInTests: true },
  'no-retry-on-permanent-error': { recommended: 'warn', strict: 'error', quietInTests: true },
  'no-swallowed-db-error': { recommended: 'error', strict: 'error', quietInTests: true },
  'require-idempotent-retry': { recommended: 'error', strict: 'error', quietInTests: false },
  'dynamodb-require-unprocessed-items-handling': { recommended: 'error', strict: 'error', quietInTests: true },
  'dynamodb-no-disabled-retries': { recommended: 'warn', strict: 'error', quietInTests: true },
  'pg-require-pool-error-listener': { recommended: 'error', strict: 'error', quietInTests: true },
  'pg-require-whole-transaction-retry': { recommended: 'error', strict: 'error', quietInTests: false },
};

/** `{ 'retry-safety/<id>': severity }` for one preset. */
export function presetRules(preset: CodePresetName): Record<string, Severity> {
  const entries = Object.entries(presets).map(([id, severity]) => {
    const level = preset === 'all' ? 'error' : severity[preset];
    return [`${RULE_PREFIX}${id}`, level] as const;
  });
  return Object.fromEntries(entries.filter(([, level]) => level !== 'off'));
}

/** `{ 'retry-safety/<id>': 'off' }` for the rules `recommended` turns off in test files. */
export function testFileRules(): Record<string, 'off'> {
  const quiet = Object.entries(presets).filter(([, levels]) => levels.quietInTests && levels.recommended !== 'off');
  return Object.fromEntries(quiet.map(([id]) => [`${RULE_PREFIX}${id}`, 'off'] as const));
}
