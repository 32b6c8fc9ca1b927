import type { TSESTree } from '@typescript-eslint/utils';
import { describe, expect, it } from 'vitest';
import { visitEveryNode } from '../../../../eslint-plugin/src/analysis/clients/value-bindings';
import { getCallbackPropertyUse, getPromisedFieldReads, getPromisedPropertyUse } from '../../../../eslint-plugin/src/analysis/clients/result-usage';
import { analyse } from '../../harness';

/** How the promise of the `batch(…)` call in `code` is used for `UnprocessedItems`. */
function promiseUse(code: string): string {
  return analyse(code, (context) => {
    let call: TSESTree.Node | undefined;
    visitEveryNode(context.sourceCode.ast, (node) => {
      if (node.type === 'CallExpression' && node.callee.type === 'Identifier' && node.callee.name === 'batch') call ??= node;
    });
    return call ? getPromisedPropertyUse(context, call, 'UnprocessedItems').use : 'no call';
  });
}

/** How the data parameter of the first function passed to `batch(input, cb)` is used. */
function callbackUse(code: string): string {
  return analyse(code, (context) => {
    let callback: TSESTree.Node | undefined;
    visitEveryNode(context.sourceCode.ast, (node) => {
      if (node.type === 'CallExpression' && node.callee.type === 'Identifier' && node.callee.name === 'batch') callback ??= node.arguments[1];
    });
    return callback ? getCallbackPropertyUse(context, callback, 1, 'UnprocessedItems').use : 'no callback';
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
    // Printed only.
    ['const r = await batch(); console.log(JSON.stringify(r));', 'ignored'],
    ['const r = await batch(); logger.info(`saved: ${JSON.stringify(r)}`);', 'ignored'],
    ['const r = await batch(); this.logger.debug(r);', 'ignored'],
    ['const r = await batch(); res.send(JSON.stringify(r));', 'unknown'],
    // Returned to callers in the file.
    ['async function save(c) { return batch(c); } await save(1); await save(2);', 'ignored'],
    ['async function save(c) { return batch(c); } const r = await save(1); retry(r.UnprocessedItems);', 'read'],
    ['async function save(c) { return batch(c); } await save(1); const r = await save(2); handle(r);', 'unknown'],
    ['async function save(c) { const r = await batch(c); return r; } save(1).then(() => done());', 'ignored'],
    ['const save = (c) => batch(c); async function all(cs) { for (const c of cs) await save(c); } all([]);', 'ignored'],
    ['export async function save(c) { return batch(c); } await save(1);', 'read'],
    ['async function save(c) { return batch(c); } register(save);', 'read'],
    ['async function save(c) { return batch(c); }', 'read'],
    ['async function save(c) { if (c) return save(c - 1); return batch(c); } await save(3);', 'ignored'],
    // The array of Promise.all, never read.
    ['const results = await Promise.all(chunks.map(async (c) => (await batch(c))));', 'ignored'],
    ['await Promise.all(chunks.map(async (c) => { const r = await batch(c); return r; }));', 'ignored'],
    ['const results = await Promise.all(chunks.map(async (c) => (await batch(c)))); return results;', 'read'],
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
    // Named handlers and handlers made by a factory.
    ['function onDone(err, data) { retry(data.UnprocessedItems); } batch({}, onDone);', 'read'],
    ['const onDone = (err) => { if (err) throw err; }; batch({}, onDone);', 'ignored'],
    ['function onDone(params) { return function (err, data) { if (err) throw err; console.log(JSON.stringify(data)); }; } batch(params, onDone(params));', 'ignored'],
    ['function onDone(params) { return (err, data) => retry(params, data.UnprocessedItems); } batch(params, onDone(params));', 'read'],
    ['function onDone(params) { const handler = (err, data) => retry(data.UnprocessedItems); return handler; } batch(params, onDone(params));', 'read'],
    ['function onDone(params) { return pick(params); } batch(params, onDone(params));', 'unknown'],
    ['let handler = null; handler = (err) => done(err); batch({}, handler);', 'ignored'],
    ['let handler = (err, data) => retry(data.UnprocessedItems); handler = other; batch({}, handler);', 'unknown'],
  ])('%s → %s', (code, expected) => {
    expect(callbackUse(code)).toBe(expected);
  });
});

describe('getPromisedFieldReads', () => {
  /** The fields read from what the `batch(…)` call resolves to, or 'whole' when it may be used whole. */
  function fieldReads(code: string): string[] | 'whole' {
    return analyse(code, (context) => {
      let call: TSESTree.Node | undefined;
      visitEveryNode(context.sourceCode.ast, (node) => {
        if (node.type === 'CallExpression' && node.callee.type === 'Identifier' && node.callee.name === 'batch') call ??= node;
      });
      if (!call) throw new Error('no batch() call');
      const fields = getPromisedFieldReads(context, call);
      return fields ? [...fields] : 'whole';
    });
  }

  it.each<[string, string[] | 'whole']>([
    // A local function's parameter: what it reads of it.
    ['function toRow(doc) { return [doc.a, doc.b]; }\nconst r = await batch(); toRow(r);', ['a', 'b']],
    ['const toRow = (first, doc) => doc.c;\nexport const f = async () => toRow(1, await batch());', ['c']],
    ['function skip(doc) { return 1; }\nskip(await batch());', []],
    // assert() and assert.ok() test that it is there.
    ["import assert from 'node:assert';\nconst r = await batch(); assert(r, 'missing'); assert.ok(r); use(r.d);", ['d']],
  ])('%s → %j', (code, expected) => {
    expect(fieldReads(code)).toEqual(expected);
  });

  it.each([
    // The parameter passed on, a rest parameter, a method of another object, an argument after a spread, assert's deep checks.
    'function keep(doc) { cache.set(doc); }\nkeep(await batch());',
    'function all(...docs) { return docs[0].a; }\nall(await batch());',
    'const r = await batch(); this.toRow(r);',
    'function pick(a, doc) { return doc.a; }\nconst r = await batch(); pick(...xs, r);',
    "import assert from 'node:assert';\nconst r = await batch(); assert.deepEqual(r, expected);",
    'const r = await batch(); unknownFunction(r);',
    'const r = await batch(); r.save();',
  ])('%s → whole', (code) => {
    expect(fieldReads(code)).toBe('whole');
  });
});
