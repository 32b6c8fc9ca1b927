import { describe, expect, it } from 'vitest';
import { alwaysLeaves } from '../../../../eslint-plugin/src/analysis/retry/control-flow';
import { analyse, nodesOfType } from '../../harness';

/** Whether the catch block of a retry loop around a DynamoDB write always leaves the loop. */
function catchLeaves(handler: string, { inLoop = true }: { inLoop?: boolean } = {}): boolean {
  const code = `
    import { DynamoDBClient, PutItemCommand } from '@aws-sdk/client-dynamodb';
    const client = new DynamoDBClient({});
    export async function save(item) {
      for (let attempt = 0; attempt < 5; attempt++) {
        try {
          return await client.send(new PutItemCommand({ TableName: 'orders', Item: item }));
        } catch (err) {
          ${handler}
        }
      }
    }`;
  return analyse(code, (context) => {
    const [loop] = nodesOfType(context, 'ForStatement');
    const [handlerClause] = nodesOfType(context, 'CatchClause');
    if (!loop || !handlerClause) throw new Error('no retry loop');
    return alwaysLeaves(handlerClause.body, inLoop ? loop : undefined);
  });
}

describe('alwaysLeaves', () => {
  it.each([
    'throw err;',
    'console.warn(err); return undefined;',
    "if (err.name === 'ValidationException') { throw err; } else { return null; }",
    'try { await log(err); } finally { throw err; }',
    'try { throw err; } catch { return; }',
    '{ { throw err; } }',
    'for (const step of steps) { if (step) continue; } throw err;',
  ])('%s always leaves', (handler) => {
    expect(catchLeaves(handler)).toBe(true);
  });

  it.each([
    '',
    'await sleep(100 * 2 ** attempt);',
    'if (attempt === 4) throw err;',
    "if (err.name === 'ThrottlingException') continue; throw err;",
    "if (err.name === 'ThrottlingException') { await sleep(100); } else { throw err; }",
    'continue;',
    'try { throw err; } catch { await sleep(100); }',
    "switch (err.name) { case 'ThrottlingException': continue; default: throw err; }",
  ])('%s may go round again', (handler) => {
    expect(catchLeaves(handler)).toBe(false);
  });

  it('a break leaves only when it is known to be inside the loop', () => {
    expect(catchLeaves('break;', { inLoop: true })).toBe(true);
    expect(catchLeaves('break;', { inLoop: false })).toBe(false);
  });
});
