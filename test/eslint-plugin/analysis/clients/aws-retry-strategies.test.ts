import { describe, expect, it } from 'vitest';
import { getRetryStrategyMaxAttempts } from '../../../../eslint-plugin/src/analysis/clients/aws-retry-strategies';
import { analyse, nodesOfType, textOf } from '../../harness';

/** `source text → max attempts` for every `new …(…)` of the file. */
function maxAttempts(code: string): string[] {
  return analyse(code, (context) =>
    nodesOfType(context, 'NewExpression').map((node) => `${textOf(code, node)} → ${getRetryStrategyMaxAttempts(context, node)}`),
  );
}

describe('getRetryStrategyMaxAttempts', () => {
  it('reads the attempts of the SDK strategies passed to a DynamoDB client', () => {
    const code = `
      import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
      import { ConfiguredRetryStrategy, StandardRetryStrategy, AdaptiveRetryStrategy } from '@smithy/util-retry';
      const ATTEMPTS = 4;
      export const a = new DynamoDBClient({ retryStrategy: new ConfiguredRetryStrategy(1, 100) });
      export const b = new StandardRetryStrategy(async () => 3);
      export const c = new AdaptiveRetryStrategy(() => { return ATTEMPTS; });
      export const d = new ConfiguredRetryStrategy(ATTEMPTS * 2, (attempt) => attempt * 100);`;
    expect(maxAttempts(code)).toEqual([
      'new DynamoDBClient({ retryStrategy: new ConfiguredRetryStrategy(1, 100) }) → undefined',
      'new ConfiguredRetryStrategy(1, 100) → 1',
      'new StandardRetryStrategy(async () => 3) → 3',
      'new AdaptiveRetryStrategy(() => { return ATTEMPTS; }) → 4',
      'new ConfiguredRetryStrategy(ATTEMPTS * 2, (attempt) => attempt * 100) → 8',
    ]);
  });

  it('also from @aws-sdk/util-retry and @aws-sdk/middleware-retry, and by require', () => {
    expect(maxAttempts(`import { StandardRetryStrategy } from '@aws-sdk/middleware-retry'; new StandardRetryStrategy(async () => 2);`)).toEqual([
      'new StandardRetryStrategy(async () => 2) → 2',
    ]);
    expect(maxAttempts(`const retry = require('@aws-sdk/util-retry'); new retry.ConfiguredRetryStrategy(5);`)).toEqual([
      'new retry.ConfiguredRetryStrategy(5) → 5',
    ]);
  });

  it('is undefined when the count is not known statically', () => {
    const code = `
      import { ConfiguredRetryStrategy, StandardRetryStrategy } from '@smithy/util-retry';
      new ConfiguredRetryStrategy(config.maxAttempts);
      new ConfiguredRetryStrategy(...args);
      new ConfiguredRetryStrategy();
      new StandardRetryStrategy(async () => { const n = await load(); return n; });`;
    expect(maxAttempts(code).map((line) => line.split(' → ')[1])).toEqual(['undefined', 'undefined', 'undefined', 'undefined']);
  });

  it('ignores look-alike classes that do not come from the SDK', () => {
    const code = `
      import { ConfiguredRetryStrategy } from './retry';
      class StandardRetryStrategy { constructor(public attempts: number) {} }
      new ConfiguredRetryStrategy(1);
      new StandardRetryStrategy(1);`;
    expect(maxAttempts(code)).toEqual(['new ConfiguredRetryStrategy(1) → undefined', 'new StandardRetryStrategy(1) → undefined']);
  });
});
