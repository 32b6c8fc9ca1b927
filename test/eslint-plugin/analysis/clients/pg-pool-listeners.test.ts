import { describe, expect, it } from 'vitest';
import { findPgPools } from '../../../../eslint-plugin/src/analysis/clients/pg-calls';
import { isErrorListenerCall } from '../../../../eslint-plugin/src/analysis/clients/pg-pool-listeners';
import { analyse, textOf } from '../../harness';

/** For each read of the first pool: the statement it is in and whether it attaches an 'error' listener. */
function listeners(code: string): string[] {
  return analyse(code, (context) => {
    const [pool] = findPgPools(context);
    if (!pool) throw new Error('no pool');
    return pool.references.slice(1).map((reference) => {
      let statement = reference;
      while (statement.parent && statement.parent.type !== 'Program') statement = statement.parent;
      return `${textOf(code, statement)}: ${isErrorListenerCall(context, reference)}`;
    });
  });
}

describe('isErrorListenerCall', () => {
  it("is true for on/once/addListener/prepend…('error'), and for an event name it cannot read", () => {
    const code = `
      import { Pool } from 'pg';
      const pool = new Pool();
      const ERROR = 'error';
      pool.on('error', (err) => console.error(err));
      pool.once(ERROR, onError);
      pool.addListener(\`error\`, onError);
      pool.prependListener(eventName, onError);
      pool.prependOnceListener('error', onError);`;
    expect(listeners(code).map((line) => line.endsWith(': true'))).toEqual([true, true, true, true, true]);
  });

  it('is false for other events, other methods and a listener call without an event', () => {
    const code = `
      import { Pool } from 'pg';
      const pool = new Pool();
      pool.on('connect', (client) => client.query('SET search_path TO app'));
      pool.off('error', onError);
      pool.emit('error', new Error('x'));
      pool.on();
      await pool.query('SELECT 1');
      register(pool);`;
    expect(listeners(code).map((line) => line.endsWith(': true'))).toEqual([false, false, false, false, false, false]);
  });
});
