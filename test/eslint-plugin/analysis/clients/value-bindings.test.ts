import type { TSESTree } from '@typescript-eslint/utils';
import { describe, expect, it } from 'vitest';
import { getMethodCall, getOutermostSameValue, resolveObjectLiteral } from '../../../../eslint-plugin/src/analysis/clients/value-bindings';
import type { AnyRuleContext } from '../../../../eslint-plugin/src/analysis/per-file-cache';
import { analyse, nodesOfType, textOf } from '../../harness';

/** The identifiers named `name` that read a value (not the declaration's own name). */
function readsOf(context: AnyRuleContext, name: string): TSESTree.Identifier[] {
  return nodesOfType(context, 'Identifier').filter(
    (identifier) =>
      identifier.name === name &&
      !(identifier.parent.type === 'VariableDeclarator' && identifier.parent.id === identifier) &&
      !(identifier.parent.type === 'MemberExpression' && identifier.parent.property === identifier),
  );
}

const POOL = `
  import { Pool } from 'pg';
  const pool = new Pool();`;

describe('getOutermostSameValue', () => {
  it('climbs through as, !, satisfies and <T>, but not into a member or a call', () => {
    const code = `${POOL}
      const a = (pool as Pool)!;
      const b = pool satisfies Pool;
      const c = <Pool>pool;
      const d = pool?.totalCount;
      const e = wrap(pool);`;
    const outer = analyse(code, (context) => readsOf(context, 'pool').map((identifier) => textOf(code, getOutermostSameValue(identifier))));
    expect(outer).toEqual(['(pool as Pool)!', 'pool satisfies Pool', '<Pool>pool', 'pool', 'pool']);
  });

  it('climbs through the chain around an optional member', () => {
    const code = `${POOL}
      const size = pool?.options;`;
    const outer = analyse(code, (context) => {
      const [member] = nodesOfType(context, 'MemberExpression');
      if (!member) throw new Error('no member');
      return getOutermostSameValue(member).type;
    });
    expect(outer).toBe('ChainExpression');
  });
});

describe('getMethodCall', () => {
  it('finds the method called on a pg pool, through TypeScript wrappers and optional chains', () => {
    const code = `${POOL}
      pool.on('error', (err) => console.error(err));
      await pool!.query('SELECT 1');
      await (pool as Pool).connect();
      await pool?.end?.();
      pool['removeAllListeners']();`;
    const methods = analyse(code, (context) =>
      readsOf(context, 'pool').map((identifier) => {
        const method = getMethodCall(identifier);
        return method && `${method.name}: ${textOf(code, method.call)}`;
      }),
    );
    expect(methods).toEqual([
      "on: pool.on('error', (err) => console.error(err))",
      "query: pool!.query('SELECT 1')",
      'connect: (pool as Pool).connect()',
      'end: pool?.end?.()',
      "removeAllListeners: pool['removeAllListeners']()",
    ]);
  });

  it('is undefined when the value is not the object of a call', () => {
    const code = `${POOL}
      const size = pool.totalCount;
      register(pool);
      const method = 'query';
      pool[method]('SELECT 1');
      const { query } = pool;
      process.once('exit', pool.end);`;
    expect(analyse(code, (context) => readsOf(context, 'pool').map((identifier) => getMethodCall(identifier)))).toEqual([
      undefined,
      undefined,
      undefined,
      undefined,
      undefined,
    ]);
  });
});

describe('resolveObjectLiteral', () => {
  /** The object literal each `new DynamoDBClient(config)` argument resolves to. */
  function configs(code: string): (string | undefined)[] {
    return analyse(code, (context) =>
      nodesOfType(context, 'NewExpression')
        .filter((node) => node.callee.type === 'Identifier' && node.callee.name === 'DynamoDBClient')
        .map((node) => {
          const literal = node.arguments[0] && resolveObjectLiteral(context, node.arguments[0]);
          return literal && textOf(code, literal);
        }),
    );
  }

  it('reads a literal argument and a const holding one, through as const', () => {
    const code = `
      import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
      const CONFIG = { region: 'eu-west-1', maxAttempts: 3 } as const;
      new DynamoDBClient({ maxAttempts: 1 });
      new DynamoDBClient(CONFIG);
      new DynamoDBClient({ maxAttempts: 2 } satisfies object);`;
    expect(configs(code)).toEqual(['{ maxAttempts: 1 }', "{ region: 'eu-west-1', maxAttempts: 3 }", '{ maxAttempts: 2 }']);
  });

  it('is undefined for a let, a parameter, a call or an array', () => {
    const code = `
      import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
      let config = { maxAttempts: 1 };
      export function make(options) {
        new DynamoDBClient(config);
        new DynamoDBClient(options);
        new DynamoDBClient(loadConfig());
        new DynamoDBClient([{ maxAttempts: 1 }]);
      }`;
    expect(configs(code)).toEqual([undefined, undefined, undefined, undefined]);
  });
});
