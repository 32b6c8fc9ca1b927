import type { TSESTree } from '@typescript-eslint/utils';
import { describe, expect, it } from 'vitest';
import { visitEveryNode } from '../../../../eslint-plugin/src/analysis/clients/value-bindings';
import { getCallbackPropertyUse, getPromisedPropertyUse } from '../../../../eslint-plugin/src/analysis/clients/result-usage';
import { analyse } from '../../harness';

/** How the promise of the `batch(…)` call in `code` is used for `UnprocessedItems`. */
function promiseUse(code: string): string {
  return analyse(code, (context) => {
    let call: TSESTree.Node | undefined;
    visitEveryNode(context.sourceCode.ast, (node) => {
      if (node.type === 'CallExpression' && node.callee.type === 'Identifier' && node.callee.name === 'batch') call ??= node;
    });
    return call ? getPromisedPropertyUse(context, call, 'UnprocessedItems') : 'no call';
  });
}

/** How the data parameter of the first function passed to `batch(input, cb)` is used. */
function callbackUse(code: string): string {
  return analyse(code, (context) => {
    let callback: TSESTree.Node | undefined;
    visitEveryNode(context.sourceCode.ast, (node) => {
      if (node.type === 'CallExpression' && node.callee.type === 'Identifier' && node.callee.name === 'batch') callback ??= node.arguments[1];
    });
    return callback ? getCallbackPropertyUse(context, callback, 1, 'UnprocessedItems') : 'no callback';
  });
}

describe('getPromisedPropertyUse', () => {
  it.each([
    ['const r = await batch(); use(r.UnprocessedItems);', 'read'],
    ['const { UnprocessedItems } = await batch(); retry(UnprocessedItems);', 'read'],
    ['const { UnprocessedItems: left = {} } = await batch(); retry(left);', 'read'],
    ['const { UnprocessedItems: { orders } } = await batch();', 'read'],
    ['const { ...rest } = await batch(); retry(rest.UnprocessedItems);', 'read'],
    ['let r; r = await batch(); if (r["UnprocessedItems"]) retry();', 'read'],
    ['async function f() { return batch(); }', 'read'],
    ['const f = async () => (await batch());', 'read'],
    ['batch().then((r) => r.UnprocessedItems);', 'read'],
    ['batch().catch(log).then(({ UnprocessedItems }) => retry(UnprocessedItems));', 'read'],
    ['const p = batch(); const r = await p; retry(r?.UnprocessedItems);', 'read'],
    ['await batch();', 'ignored'],
    ['batch();', 'ignored'],
    ['void batch();', 'ignored'],
    ['const r = await batch(); log(r.$metadata);', 'ignored'],
    ['const r = await batch();', 'ignored'],
    ['const { Responses } = await batch();', 'ignored'],
    ['const { UnprocessedItems } = await batch();', 'ignored'],
    ['batch().then(() => done());', 'ignored'],
    ['batch().finally(close);', 'ignored'],
    ['const p = batch(); await p;', 'ignored'],
    ['await Promise.all(chunks.map((c) => batch(c)));', 'ignored'],
    ['const all = await Promise.all(chunks.map((c) => batch(c))); check(all);', 'read'],
    ['const r = await batch(); return Boolean(r);', 'ignored'],
    ['const r = await batch(); if (!r) throw new Error();', 'ignored'],
    ['const r = await batch(); console.log(r);', 'ignored'],
    ['const r = await batch(); handle(r);', 'unknown'],
    ['const list = [await batch()];', 'unknown'],
    ['batch().then(handle);', 'unknown'],
    ['const r = await batch(); const key = pick(); use(r[key]);', 'unknown'],
    ['await retry(() => batch());', 'read'],
    ['queue.push(batch());', 'unknown'],
  ])('%s → %s', (code, expected) => {
    expect(promiseUse(code)).toBe(expected);
  });
});

describe('getCallbackPropertyUse', () => {
  it.each([
    ['batch({}, (err, data) => retry(data.UnprocessedItems));', 'read'],
    ['batch({}, function (err, { UnprocessedItems }) { retry(UnprocessedItems); });', 'read'],
    ['batch({}, (err) => { if (err) throw err; });', 'ignored'],
    ['batch({}, (err, data) => console.log(data.ConsumedCapacity));', 'ignored'],
    ['batch({}, (err, ...rest) => handle(rest));', 'unknown'],
    ['batch({}, onDone);', 'unknown'],
  ])('%s → %s', (code, expected) => {
    expect(callbackUse(code)).toBe(expected);
  });
});
