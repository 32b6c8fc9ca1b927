import { describe, expect, it } from 'vitest';
import { isPassedToDynamoDbClient } from '../../../../eslint-plugin/src/analysis/clients/dynamodb-client-options';
import { analyse, nodesOfType, textOf } from '../../harness';

/** `strategy text: passed?` for every `new …RetryStrategy(…)` of the file. */
function strategies(code: string): string[] {
  return analyse(code, (context) =>
    nodesOfType(context, 'NewExpression')
      .filter((node) => textOf(code, node.callee).endsWith('RetryStrategy'))
      .map((node) => `${textOf(code, node)}: ${isPassedToDynamoDbClient(context, node)}`),
  );
}

describe('isPassedToDynamoDbClient', () => {
  it('is true for an option of new DynamoDBClient / new DynamoDB, given inline or through a variable', () => {
    const code = `
      import { DynamoDB, DynamoDBClient } from '@aws-sdk/client-dynamodb';
      import { ConfiguredRetryStrategy, StandardRetryStrategy } from '@smithy/util-retry';
      export const a = new DynamoDBClient({ region: 'eu-west-1', retryStrategy: new ConfiguredRetryStrategy(1) });
      const strategy = new StandardRetryStrategy(async () => 2);
      export const b = new DynamoDB({ retryStrategy: strategy });`;
    expect(strategies(code)).toEqual(['new ConfiguredRetryStrategy(1): true', 'new StandardRetryStrategy(async () => 2): true']);
  });

  it('is false for other clients, a strategy kept for later, or one passed through a config object', () => {
    const code = `
      import { S3Client } from '@aws-sdk/client-s3';
      import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
      import { ConfiguredRetryStrategy } from '@smithy/util-retry';
      export const s3 = new S3Client({ retryStrategy: new ConfiguredRetryStrategy(1) });
      export const unused = new ConfiguredRetryStrategy(2);
      const config = { retryStrategy: new ConfiguredRetryStrategy(3) };
      export const ddb = new DynamoDBClient(config);`;
    expect(strategies(code).map((line) => line.split(': ')[1])).toEqual(['false', 'false', 'false']);
  });
});
