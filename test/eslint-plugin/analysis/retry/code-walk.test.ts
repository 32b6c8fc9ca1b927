import type { TSESTree } from '@typescript-eslint/utils';
import { describe, expect, it } from 'vitest';
import { collectAssignedNames, collectIdentifierNames, walkOwnCode } from '../../../../eslint-plugin/src/analysis/retry/code-walk';
import type { AnyRuleContext } from '../../../../eslint-plugin/src/analysis/per-file-cache';
import { analyse, nodesOfType } from '../../harness';

/** The body of the first loop of the file: one attempt's code. */
function firstLoopBody(context: AnyRuleContext): TSESTree.Node {
  const loop = [...nodesOfType(context, 'ForStatement'), ...nodesOfType(context, 'WhileStatement'), ...nodesOfType(context, 'DoWhileStatement')].sort(
    (a, b) => a.range[0] - b.range[0],
  )[0];
  if (!loop) throw new Error('no loop');
  return loop.body;
}

const RETRY_LOOP = `
  import { Pool } from 'pg';
  const pool = new Pool();
  export async function pay(id: string) {
    for (let attempt = 0; attempt < 5; attempt++) {
      try {
        const result: QueryResult = await pool.query('UPDATE orders SET paid = true WHERE id = $1', [id]);
        return result.rowCount;
      } catch (err) {
        pool.on('error', (e) => log(e.message));
        await sleep(100 * 2 ** attempt);
      }
    }
  }`;

describe('walkOwnCode', () => {
  it('visits the attempt in source order, skipping types and nested functions', () => {
    const names = analyse(RETRY_LOOP, (context) => {
      const visited: string[] = [];
      walkOwnCode(firstLoopBody(context), context.sourceCode.visitorKeys, (node) => {
        if (node.type === 'Identifier') visited.push(node.name);
        return true;
      });
      return visited;
    });
    expect(names).toEqual(['result', 'pool', 'query', 'id', 'result', 'rowCount', 'err', 'pool', 'on', 'sleep', 'attempt']);
  });

  it('enters nested functions when asked, and never below a node whose visit returns false', () => {
    const [into, pruned] = analyse(RETRY_LOOP, (context) => {
      const body = firstLoopBody(context);
      const keys = context.sourceCode.visitorKeys;
      const all: string[] = [];
      walkOwnCode(
        body,
        keys,
        (node) => {
          if (node.type === 'Identifier') all.push(node.name);
          return true;
        },
        true,
      );
      const outsideCatch: string[] = [];
      walkOwnCode(body, keys, (node) => {
        if (node.type === 'Identifier') outsideCatch.push(node.name);
        return node.type !== 'CatchClause';
      });
      return [all, outsideCatch];
    });
    expect(into).toEqual(['result', 'pool', 'query', 'id', 'result', 'rowCount', 'err', 'pool', 'on', 'e', 'log', 'e', 'message', 'sleep', 'attempt']);
    expect(pruned).toEqual(['result', 'pool', 'query', 'id', 'result', 'rowCount']);
  });
});

describe('collectIdentifierNames', () => {
  it('collects the variables read or written, nested functions included, never property names or keys', () => {
    const code = `
      while (retrying) {
        const { rows, rowCount: count } = await client.query({ text: sql, values });
        retrying = rows.length === 0 && tries++ < limit;
        queue.push(() => notify(count));
      }`;
    const names = analyse(code, (context) => [...collectIdentifierNames(firstLoopBody(context), context.sourceCode.visitorKeys)].sort());
    expect(names).toEqual(['client', 'count', 'limit', 'notify', 'queue', 'retrying', 'rows', 'sql', 'tries', 'values']);
  });
});

describe('collectAssignedNames', () => {
  const code = `
    let done = false;
    do {
      try {
        result = await pool.query('SELECT 1');
        done = true;
        tries++;
        delay *= 2;
        [first, second] = pair;
        ({ LastEvaluatedKey: lastKey, Count: count = 0 } = page);
        retry = !done;
        const declared = 1;
        later(() => { skipped = true; });
      } catch (err) {
        failed = err.code === '40001';
      }
    } while (!done);`;

  it('collects assignments, updates and destructuring targets of the attempt, not declarations or nested functions', () => {
    const names = analyse(code, (context) => [...collectAssignedNames(firstLoopBody(context), context.sourceCode.visitorKeys)].sort());
    expect(names).toEqual(['count', 'delay', 'done', 'failed', 'first', 'lastKey', 'result', 'retry', 'second', 'tries']);
  });

  it('keeps only flag-like values (booleans, negations, comparisons, awaited results) when asked', () => {
    const names = analyse(code, (context) => [...collectAssignedNames(firstLoopBody(context), context.sourceCode.visitorKeys, true)].sort());
    // `tries++` is an update, not an assignment: it always counts.
    expect(names).toEqual(['done', 'failed', 'result', 'retry', 'tries']);
  });
});
