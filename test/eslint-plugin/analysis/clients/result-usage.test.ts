import type { TSESTree } from '@typescript-eslint/utils';
import { describe, expect, it } from 'vitest';
import { visitNodes } from '../../../../eslint-plugin/src/analysis/ast';
import { getCallbackPropertyUse, getPromisedFieldReads, getPromisedPropertyUse, getPromisedWrappedFieldReads } from '../../../../eslint-plugin/src/analysis/clients/result-usage';
import { analyse } from '../../harness';

/** How the promise of the `batch(…)` call in `code` is used for `UnprocessedItems`. */
function promiseUse(code: string): string {
  return analyse(code, (context) => {
    let call: TSESTree.Node | undefined;
    visitNodes(context.sourceCode.ast, { skipTypeAnnotations: false }, (node) => {
      if (node.type === 'CallExpression' && node.callee.type === 'Identifier' && node.callee.name === 'batch') call ??= node;
    });
    return call ? getPromisedPropertyUse(context, call, 'UnprocessedItems').use : 'no call';
  });
}

/** How the data parameter of the first function passed to `batch(input, cb)` is used. */
function callbackUse(code: string): string {
  return analyse(code, (context) => {
    let callback: TSESTree.Node | undefined;
    visitNodes(context.sourceCode.ast, { skipTypeAnnotations: false }, (node) => {
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
      visitNodes(context.sourceCode.ast, { skipTypeAnnotations: false }, (node) => {
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
    // if/while tests and Array.isArray look at it, not inside it.
    ['const r = await batch(); if (r) use(r.e); while (r) stop(); if (Array.isArray(r)) use(r.f);', ['e', 'f']],
    // f.call(thisArg, …) and f.apply(thisArg, [ … ]) of a local function: the arguments after thisArg.
    ['function toRow(first, doc) { return doc.g; }\nconst r = await batch(); toRow.call(this, 1, r);', ['g']],
    ['const toRow = function (first, doc) { return doc.h; };\nconst r = await batch(); toRow.apply(this, [1, r]);', ['h']],
    // TypeScript's this parameter is not one the callers pass.
    ['function toRow(this: unknown, doc: { j: number }) { return doc.j; }\nconst r = await batch(); toRow.call(this, r);', ['j']],
    // Taking the first item only when it is an array: never the result, which is one object.
    ['let r = await batch(); if (Array.isArray(r)) { r = r[0]; } use(r.i);', ['i']],
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
    // The result as the this of the function, after a spread of apply's list, or read through arguments.
    'function f() { return this.a; }\nconst r = await batch(); f.call(r);',
    'function f(a, doc) { return doc.a; }\nconst r = await batch(); f.apply(this, [...xs, r]);',
    'function f(doc) { return arguments[0]; }\nconst r = await batch(); f.call(this, r);',
    'function f(doc) { return doc.a; }\nconst r = await batch(); f.apply(this, list, r);',
    // An item taken without the array test, or under a test of another value, or in its else branch.
    'let r = await batch(); r = r[0]; use(r.a);',
    'let r = await batch(); if (Array.isArray(other)) r = r[0]; use(r.a);',
    'let r = await batch(); if (Array.isArray(r)) use(1); else r = r[0];',
    // The result passed on from the local function's while-test.
    'function f(doc) { while (doc) keep(doc); }\nf(await batch());',
  ])('%s → whole', (code) => {
    expect(fieldReads(code)).toBe('whole');
  });
});

describe('getPromisedWrappedFieldReads', () => {
  /** The fields read from the document under `value` of what `batch(…)` resolves to, or 'whole'. */
  function documentReads(code: string): string[] | 'whole' {
    return analyse(code, (context) => {
      let call: TSESTree.Node | undefined;
      visitNodes(context.sourceCode.ast, { skipTypeAnnotations: false }, (node) => {
        if (node.type === 'CallExpression' && node.callee.type === 'Identifier' && node.callee.name === 'batch') call ??= node;
      });
      if (!call) throw new Error('no batch() call');
      const fields = getPromisedWrappedFieldReads(context, call, 'value');
      return fields ? [...fields] : 'whole';
    });
  }

  it.each<[string, string[] | 'whole']>([
    ['const { ok } = await batch();', []],
    ['const r = await batch(); use(r.ok, r.value.a);', ['a']],
    ['const { value: doc } = await batch(); use(doc.b, doc.c);', ['b', 'c']],
    ['const { value: { d } = {} } = await batch(); use(d);', ['d']],
    // The shape of a job scheduler's save: the wrapper handed to a local function with f.call(this, …).
    [
      `const processResult = async function (job, result) {
  let value = result.insertedId ? result.insertedId : result.value;
  if (value) {
    if (Array.isArray(value)) {
      value = value[0];
    }
    job.id = value._id;
    job.next = value.nextRunAt;
  }
  return job;
};
export async function save(job) {
  const result = await batch();
  return await processResult.call(this, job, result);
}`,
      ['_id', 'nextRunAt'],
    ],
    // The same variable first holds the wrapper, then the document: both kinds of reads count as the document's.
    ['let r = await batch(); r = r.value; use(r.e);', ['value', 'e']],
  ])('%s → %j', (code, expected) => {
    expect(documentReads(code)).toEqual(expected);
  });

  it.each([
    'const r = await batch(); keep(r.value);',
    'const r = await batch(); keep(r);',
    'const { value } = await batch(); keep(value);',
    'const { value, ...rest } = await batch(); use(value.a); keep(rest);',
    'export async function save() { const r = await batch(); return r.value; }',
    'const r = await batch(); r.value.save();',
    'let r = await batch(); let v = r.value; v = v[0]; use(v.a);',
  ])('%s → whole', (code) => {
    expect(documentReads(code)).toBe('whole');
  });
});
