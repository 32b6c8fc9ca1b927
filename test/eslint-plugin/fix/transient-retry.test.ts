import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';
import { describe, expect, it } from 'vitest';
import { canRunAgainInArrow, findTopLevelSleepFunction, getTransientRetryHelper } from '../../../eslint-plugin/src/fix';
import { SERVICE_BACKOFF } from '../../../eslint-plugin/src/analysis/retry';
import { findNode, inFile } from '../harness';

function canRunAgain(code: string): boolean {
  return inFile(code, (sourceCode) => {
    const call = findNode(sourceCode, AST_NODE_TYPES.CallExpression, (node) => node.callee.type === AST_NODE_TYPES.MemberExpression && !isInsideOtherCall(node));
    return canRunAgainInArrow(call, sourceCode.visitorKeys);
  });
}

/** The outermost call of the statement (not one in its arguments). */
function isInsideOtherCall(node: TSESTree.Node): boolean {
  for (let current = node.parent; current; current = current.parent) if (current.type === AST_NODE_TYPES.CallExpression) return true;
  return false;
}

describe('canRunAgainInArrow', () => {
  it('accepts a call that reads names, properties, literals and calls', () => {
    expect(canRunAgain('async function f(q) { await orders.deleteMany({ owner: q.owner, at: new Date(), n: count(q) }); }')).toBe(true);
  });

  it('accepts an argument that is a function of its own awaiting inside (it runs when called)', () => {
    expect(canRunAgain('orders.deleteMany({ $where: async () => await check() });')).toBe(true);
    expect(canRunAgain('orders.deleteMany({ key: [async () => await check()] });')).toBe(true);
  });

  it('refuses a call that awaits, yields, assigns or counts in its arguments', () => {
    expect(canRunAgain('async function f() { await orders.deleteMany({ owner: await me() }); }')).toBe(false);
    expect(canRunAgain('function* f() { orders.deleteMany({ owner: yield 1 }); }')).toBe(false);
    expect(canRunAgain('orders.deleteMany({ owner: (last = me()) });')).toBe(false);
    expect(canRunAgain('orders.deleteMany({ n: n++ });')).toBe(false);
  });

  it('refuses a call that takes a callback', () => {
    expect(canRunAgain('orders.deleteMany({}, (error) => done(error));')).toBe(false);
    expect(canRunAgain('orders.deleteMany({}, function (error) { done(error); });')).toBe(false);
  });
});

describe('findTopLevelSleepFunction', () => {
  const sleepOf = (code: string): string | undefined => inFile(code, (sourceCode) => findTopLevelSleepFunction(sourceCode));

  it('finds a sleep function declared at the top level, in a module and in a script', () => {
    expect(sleepOf("import x from 'x';\nfunction sleep(ms) { return new Promise((resolve) => setTimeout(resolve, ms)); }")).toBe('sleep');
    expect(sleepOf('function first() {}\nfunction wait(ms) { return new Promise((resolve) => setTimeout(resolve, ms)); }')).toBe('wait');
    expect(inFile('function delay(ms) { return new Promise((r) => setTimeout(r, ms)); }', (sourceCode) => findTopLevelSleepFunction(sourceCode), { sourceType: 'script' })).toBe('delay');
  });

  it('leaves a const arrow (not yet set while the first statements run), a nested one, and other functions', () => {
    expect(sleepOf('const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));')).toBeUndefined();
    expect(sleepOf('function outer() { function sleep(ms) { return new Promise((r) => setTimeout(r, ms)); } }')).toBeUndefined();
    expect(sleepOf('function sleep(ms) { return ms * 2; }')).toBeUndefined();
    expect(sleepOf('')).toBeUndefined();
  });
});

describe('getTransientRetryHelper', () => {
  const retry = { database: 'mongodb' as const, isTransient: 'isTransientMongoError', maxAttempts: 5, backoff: SERVICE_BACKOFF.mongodb };
  const style = { quote: "'" as const, semicolons: true, indentUnit: '  ', typescript: false };

  it('takes the call as a function and resolves to its result; generic in TypeScript', () => {
    const helper = getTransientRetryHelper({ ...retry, sleep: undefined });
    expect(helper.name).toBe('retryOnTransientMongoError');
    expect(helper.parameterCount).toBe(1);
    expect(helper.getDeclaration('retryOnTransientMongoError', style)).toContain('async function retryOnTransientMongoError(call) {\n');
    expect(helper.getDeclaration('retryOnTransientMongoError', { ...style, typescript: true })).toContain(
      'async function retryOnTransientMongoError<T>(call: () => PromiseLike<T>): Promise<T> {\n',
    );
    expect(helper.getDeclaration('retry2', style)).toContain(
      [
        '      return await call();',
        '    } catch (error) {',
        '      if (attempt >= 5 || !isTransientMongoError(error)) throw error;',
        '      await new Promise((resolve) => setTimeout(resolve, Math.random() * Math.min(10000, 100 * 2 ** attempt)));',
      ].join('\n'),
    );
  });

  it('waits with the given sleep function', () => {
    const helper = getTransientRetryHelper({ ...retry, sleep: 'pause' });
    expect(helper.getDeclaration('retryOnTransientMongoError', style)).toContain('      await pause(Math.random() * Math.min(10000, 100 * 2 ** attempt));\n');
  });
});
