import { describe, expect, it } from 'vitest';
import { getFunctionName } from '../../../../eslint-plugin/src/analysis/retry/local-functions';
import { analyse, nodesOfType } from '../../harness';

/** The name of every function of the file, in source order. */
function names(code: string): (string | undefined)[] {
  return analyse(code, (context) =>
    [
      ...nodesOfType(context, 'FunctionDeclaration'),
      ...nodesOfType(context, 'FunctionExpression'),
      ...nodesOfType(context, 'ArrowFunctionExpression'),
    ]
      .sort((a, b) => a.range[0] - b.range[0])
      .map(getFunctionName),
  );
}

describe('getFunctionName', () => {
  it('names a function by its own name or by what it is assigned to', () => {
    const code = `
      import { Pool } from 'pg';
      const pool = new Pool();
      async function insertOrder(id) { return pool.query('INSERT INTO orders (id) VALUES ($1)', [id]); }
      const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
      const backoff = function wait(n) { return 100 * 2 ** n; };
      class Repo {
        save(order) { return pool.query('SELECT 1'); }
        retry = async () => this.save({});
      }
      const handlers = { onError: (err) => err };
      let later;
      later = () => 1;
      module.exports.connect = () => pool.connect();`;
    expect(names(code)).toEqual(['insertOrder', 'sleep', undefined, 'wait', 'save', 'retry', 'onError', 'later', 'connect']);
  });

  it('has no name for callbacks, computed keys and destructured targets', () => {
    const code = `
      items.forEach((item) => save(item));
      const key = 'save';
      const handlers = { [key]: () => 1 };
      const [first] = [() => 2];
      queue[key] = () => 3;`;
    expect(names(code)).toEqual([undefined, undefined, undefined, undefined]);
  });
});
