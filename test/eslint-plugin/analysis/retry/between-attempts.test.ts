import { describe, expect, it } from 'vitest';
import { getRetryDelayFacts } from '../../../../eslint-plugin/src/analysis/retry/between-attempts';
import { findRetryScopes } from '../../../../eslint-plugin/src/analysis/retry/retry-scopes';
import { analyse, lintWithPlugin } from '../../harness';

function factsOf(code: string) {
  return analyse(code, (context) => {
    const scopes = findRetryScopes(context);
    if (scopes.length !== 1) throw new Error(`expected one retry scope, found ${scopes.length}`);
    const facts = getRetryDelayFacts(context, scopes[0] as (typeof scopes)[number]);
    const { waits, growth, capped, jittered, bounded, maxDelayMs } = facts;
    return { waits, growth, capped, jittered, bounded, maxDelayMs, delay: facts.delay ? context.sourceCode.getText(facts.delay) : undefined };
  });
}

const loop = (wait: string, head = 'for (let attempt = 0; attempt < 5; attempt++)') => `
  async function run() {
    ${head} {
      try { return await coll.insertOne(doc); } catch (err) { ${wait} }
    }
  }`;

describe('getRetryDelayFacts: hand-written loops', () => {
  it('no wait at all', () => {
    expect(factsOf(loop('console.warn(err);'))).toMatchObject({ waits: false, growth: 'none', bounded: true });
  });

  it('constant wait through a promise around setTimeout', () => {
    expect(factsOf(loop('await new Promise((r) => setTimeout(r, 1000));'))).toMatchObject({
      waits: true,
      growth: 'none',
      capped: false,
      jittered: false,
      delay: '1000',
    });
  });

  it('constant wait through a module constant and timers/promises', () => {
    const code = `import { setTimeout as sleep } from 'node:timers/promises';\nconst RETRY_DELAY = 250;\n${loop('await sleep(RETRY_DELAY);')}`;
    expect(factsOf(code)).toMatchObject({ waits: true, growth: 'none', jittered: false, delay: 'RETRY_DELAY' });
  });

  it('exponential with 2 ** n, uncapped, no jitter, largest wait computed', () => {
    expect(factsOf(loop('await sleep(100 * 2 ** attempt);'))).toMatchObject({
      growth: 'exponential',
      capped: false,
      jittered: false,
      maxDelayMs: 1600,
    });
  });

  it('capped full jitter', () => {
    expect(factsOf(loop('await sleep(Math.random() * Math.min(20000, 100 * 2 ** attempt));'))).toMatchObject({
      waits: true,
      growth: 'exponential',
      capped: true,
      jittered: true,
      bounded: true,
    });
  });

  it('Math.pow, << and a ternary clamp', () => {
    expect(factsOf(loop('await delay(Math.pow(2, attempt) * 50);'))).toMatchObject({ growth: 'exponential', capped: false });
    expect(factsOf(loop('await delay(Math.floor(Math.random() * (100 << attempt)));'))).toMatchObject({ growth: 'exponential', jittered: true });
    expect(factsOf(loop('const d = 100 * 2 ** attempt; await wait(d > 5000 ? 5000 : d);'))).toMatchObject({ growth: 'exponential', capped: true });
  });

  it('a delay variable doubled with *= and clamped with if', () => {
    const code = `
      async function run() {
        let backoffMs = 100;
        for (let attempt = 0; attempt < 5; attempt++) {
          try { return await coll.insertOne(doc); } catch (err) {
            await sleep(backoffMs + Math.random() * 100);
            backoffMs *= 2;
            if (backoffMs > 10000) backoffMs = 10000;
          }
        }
      }`;
    expect(factsOf(code)).toMatchObject({ growth: 'exponential', capped: true, jittered: true });
  });

  it("the DynamoDB seed: Math.min(getWaitTime(retries), MAX_WAIT_INTERVAL) with 3 ** retries in the helper", () => {
    const code = `
      const MAX_RETRIES = 5, MAX_WAIT_INTERVAL = 60000;
      function getWaitTime(retryCount) { return Math.pow(3, retryCount) * 100; }
      async function doAndWait(token) {
        let retries = 0;
        let retry = false;
        do {
          const waitTime = Math.min(getWaitTime(retries), MAX_WAIT_INTERVAL);
          await sleep(waitTime);
          const result = await getAsyncOperationResult(token);
          retry = result === 'THROTTLED';
        } while (retry && retries++ < MAX_RETRIES);
      }`;
    expect(factsOf(code)).toMatchObject({ waits: true, growth: 'exponential', capped: true, jittered: false, bounded: true });
  });

  it('a local sleep helper is followed to its setTimeout; an imported backoff helper is judged by its argument', () => {
    const local = `const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));\n${loop('await sleep(500);')}`;
    expect(factsOf(local)).toMatchObject({ waits: true, growth: 'none', jittered: false });
    const imported = `import { backoff } from './util';\n${loop('await backoff(attempt);')}`;
    expect(factsOf(imported)).toMatchObject({ waits: true, growth: 'exponential', capped: undefined, jittered: undefined });
  });

  it("the longest wait and the attempt bound of a loop whose test bounds the delay itself, unless the body grows it before the wait", () => {
    const sleep = 'await new Promise((r) => setTimeout(r, Math.random() * delay));';
    expect(factsOf(loop(sleep, 'for (let delay = 5000; delay <= 60000; delay *= 2)'))).toMatchObject({ capped: false, bounded: true, maxDelayMs: 60000 });
    const whileLoop = (catchBody: string) => `
  async function run() {
    let delay = 100;
    while (delay < 3200) {
      try { return await coll.insertOne(doc); } catch (err) { ${catchBody} }
    }
  }`;
    expect(factsOf(whileLoop(`${sleep} delay *= 2;`))).toMatchObject({ bounded: true, maxDelayMs: 3200 });
    // A delay the body also sets to something else does not stop the loop for sure.
    expect(factsOf(whileLoop(`${sleep} delay = delay > 1000 ? 100 : delay * 2;`)).bounded).toBeUndefined();
    expect(factsOf(whileLoop(`delay *= 2; ${sleep}`)).maxDelayMs).toBeUndefined();
    // A do-while checks its test after the first wait: nothing said.
    expect(factsOf(`async function run() { let delay = 100; do { try { return await coll.insertOne(doc); } catch (err) { ${sleep} delay *= 2; } } while (delay < 3200); }`).maxDelayMs).toBeUndefined();
  });

  it('a plain local sleep helper: the argument is the delay; a helper local constant is read with the argument', () => {
    const plain = `function sleep(ms: number) { return new Promise((resolve) => setTimeout(resolve, ms)); }\n${loop('await sleep(1000 * 2 ** attempt);')}`;
    expect(factsOf(plain)).toMatchObject({ delay: '1000 * 2 ** attempt', growth: 'exponential', capped: false, maxDelayMs: 16000 });
    const seed = `function getWaitTime(retryCount) { const waitTime = Math.pow(3, retryCount) * 100; return waitTime; }\n${loop('await pause(getWaitTime(attempt));')}`;
    expect(factsOf(seed)).toMatchObject({ growth: 'exponential', capped: false, jittered: false });
  });

  it('same-file delay helpers, declared after use, as a function declaration or a const arrow', () => {
    const body = `
      async function doAndWait(token) {
        let retries = 0;
        let retry = false;
        do {
          const waitTime = Math.min(getWaitTime(retries), MAX_WAIT_INTERVAL);
          await sleep(waitTime);
          retry = (await poll(token)) === 'THROTTLED';
        } while (retry && retries++ < MAX_RETRIES);
      }`;
    const expected = { waits: true, growth: 'exponential', capped: true, jittered: false, bounded: true };
    const declared = `${body}\nfunction getWaitTime(retryCount: number): number { const waitTime = Math.pow(3, retryCount) * 100; return waitTime; }`;
    expect(factsOf(`const MAX_RETRIES = 10, MAX_WAIT_INTERVAL = 60000;${declared}`)).toMatchObject(expected);
    const arrow = `const MAX_RETRIES = 10, MAX_WAIT_INTERVAL = 60000;\nconst getWaitTime = (n: number) => Math.pow(3, n) * 100;${body}`;
    expect(factsOf(arrow)).toMatchObject(expected);
    const arrowBlock = `const MAX_RETRIES = 10, MAX_WAIT_INTERVAL = 60000;\nconst getWaitTime = (n: number) => { return 100 * 3 ** n; };${body}`;
    expect(factsOf(arrowBlock)).toMatchObject(expected);
    // A helper that ignores its argument waits the same time every attempt.
    const fixed = `const MAX_RETRIES = 10, MAX_WAIT_INTERVAL = 60000;\nconst getWaitTime = (n: number) => 500;${body}`;
    expect(factsOf(fixed)).toMatchObject({ waits: true, growth: 'none', jittered: false });
  });

  it('a catch that continues only under the attempt limit and rethrows otherwise is bounded', () => {
    const code = `
      async function insertOrder(id) {
        for (let attempt = 1; ; attempt++) {
          try {
            return await pool.query('INSERT INTO orders(id) VALUES ($1)', [id]);
          } catch (err) {
            if (err.code === '40001' && attempt < 5) continue;
            throw err;
          }
        }
      }`;
    expect(factsOf(code)).toMatchObject({ waits: false, bounded: true });
    // The same continue with nothing after it going round for ever.
    expect(factsOf(code.replace('throw err;', 'log(err);'))).toMatchObject({ waits: false, bounded: false });
  });

  it('a retry flag reset before the try: bounded by the counter of the condition', () => {
    const code = `
      async function upd(id) {
        let retry = false;
        let n = 0;
        do {
          retry = false;
          try { await pool.query(sql, [id]); } catch (e) { retry = true; }
        } while (retry && n++ < 5);
      }`;
    expect(factsOf(code)).toMatchObject({ waits: false, bounded: true });
  });

  it('a local backoff helper computing a capped jittered delay from the attempt', () => {
    const code = `
      function backoffDelay(n) { return Math.random() * Math.min(20000, 100 * 2 ** n); }
      ${loop('await sleep(backoffDelay(attempt));')}`;
    expect(factsOf(code)).toMatchObject({ growth: 'exponential', capped: true, jittered: true });
  });

  it('a wait stored in a variable and awaited later', () => {
    expect(factsOf(loop('const pause = delay(Math.min(2 ** attempt, 30) * 1000); await pause;'))).toMatchObject({
      waits: true,
      growth: 'exponential',
      capped: true,
    });
    // A computed delay that is not awaited is not a wait.
    expect(factsOf(loop('const ms = computeDelay(attempt); log(ms);'))).toMatchObject({ waits: false });
  });

  it('unknown delays stay unknown', () => {
    expect(factsOf(loop('await sleep(config.retryDelay * factor(attempt));'))).toMatchObject({ waits: true, capped: undefined, jittered: undefined });
    expect(factsOf(loop('await sleep(DELAYS[attempt]);'))).toMatchObject({ waits: true, capped: undefined, jittered: undefined });
  });

  it('a delay built on settings: its shape is known, its size is not', () => {
    // `this.retryDelayMs` is the same on every attempt: without Math.random() there is no jitter.
    expect(factsOf(loop('await sleep(this.retryDelayMs * Math.pow(2, attempt));'))).toMatchObject({ waits: true, growth: 'exponential', capped: undefined, jittered: false });
    const options = 'const options = loadOptions();\n';
    expect(factsOf(options + loop('await sleep(Math.min(this.maxDelayMs, options.baseMs * 2 ** attempt));'))).toMatchObject({ growth: 'exponential', capped: true, jittered: false });
    expect(factsOf(options + loop('await sleep(Math.random() * options.baseMs * 2 ** attempt);'))).toMatchObject({ growth: 'exponential', jittered: true });
    // A property the retry assigns changes from attempt to attempt: not a setting.
    expect(factsOf(loop('await sleep(this.delay); this.delay = next(this.delay);'))).toMatchObject({ waits: true, jittered: undefined });
  });

  it('bounds: while (true) with and without a limit', () => {
    const unbounded = `
      async function run() {
        while (true) {
          try { await pool.query('SELECT 1'); break; } catch (e) { await sleep(1000); }
        }
      }`;
    expect(factsOf(unbounded)).toMatchObject({ bounded: false });
    const guarded = `
      async function run() {
        let attempt = 0;
        while (true) {
          try { await pool.query('SELECT 1'); break; } catch (e) {
            if (++attempt >= 5) throw e;
            await sleep(1000);
          }
        }
      }`;
    expect(factsOf(guarded)).toMatchObject({ bounded: true });
    const flag = `
      async function run() {
        let done = false;
        while (!done) {
          try { await pool.query('SELECT 1'); done = true; } catch (e) { await sleep(1000); }
        }
      }`;
    expect(factsOf(flag)).toMatchObject({ bounded: false });
  });
});

describe('getRetryDelayFacts: recursion and .catch', () => {
  it('recursion through setTimeout with a constant delay and no bound', () => {
    expect(
      factsOf(`
        function connect() {
          client.connect().catch((err) => { setTimeout(() => connect(), 5000); });
        }`),
    ).toMatchObject({ waits: true, growth: 'none', bounded: false, delay: '5000' });
  });

  it('a watchdog timer is not a wait; a counter kept on this bounds the retry', () => {
    expect(
      factsOf(`
        class Migrations {
          async run() {
            const timeout = setTimeout(() => process.exit(1), 20000);
            try { await coll.insertOne(doc); clearTimeout(timeout); } catch (e) {
              if (this.retries < this.maxRetries) {
                this.retries++;
                await this.wait(1000 * this.retries);
                await this.run();
              }
            }
          }
        }`),
    ).toMatchObject({ waits: true, bounded: true, delay: '1000 * this.retries' });
  });

  it('recursion through setTimeout(fn, ms) passing the function itself', () => {
    expect(
      factsOf(`
        function connect() {
          client.connect().catch(() => setTimeout(connect, 5000));
        }`),
    ).toMatchObject({ waits: true, growth: 'none', delay: '5000' });
  });

  it('recursion with a counted attempt and a guard', () => {
    expect(
      factsOf(`
        async function write(item, attempt = 0) {
          try { return await coll.insertOne(item); } catch (err) {
            if (attempt >= 4) throw err;
            await sleep(Math.random() * Math.min(10000, 100 * 2 ** attempt));
            return write(item, attempt + 1);
          }
        }`),
    ).toMatchObject({ waits: true, growth: 'exponential', capped: true, jittered: true, bounded: true });
  });

  it('recursion doubling a delay parameter', () => {
    expect(
      factsOf(`
        async function write(item, delayMs = 100) {
          try { return await coll.insertOne(item); } catch (err) {
            await sleep(delayMs);
            return write(item, delayMs * 2);
          }
        }`),
    ).toMatchObject({ waits: true, growth: 'exponential', capped: false });
  });

  it('.catch retrying at once', () => {
    expect(factsOf(`pool.query(sql).catch(() => pool.query(sql));`)).toMatchObject({ waits: false });
  });
});

describe('getRetryDelayFacts: libraries', () => {
  it('p-retry defaults: exponential, uncapped, no jitter, bounded at 10 retries', () => {
    expect(factsOf(`import pRetry from 'p-retry';\npRetry(() => coll.insertOne(doc));`)).toMatchObject({
      waits: true,
      growth: 'exponential',
      capped: false,
      jittered: false,
      bounded: true,
      maxDelayMs: 512000,
    });
  });

  it('p-retry with randomize and maxTimeout', () => {
    expect(
      factsOf(`import pRetry from 'p-retry';\npRetry(() => coll.insertOne(doc), { retries: 5, randomize: true, maxTimeout: 10000 });`),
    ).toMatchObject({ capped: true, jittered: true, bounded: true, maxDelayMs: 10000 });
  });

  it('async-retry randomizes by default; factor 1 removes growth; forever removes the bound', () => {
    expect(factsOf(`const retry = require('async-retry');\nretry(() => coll.insertOne(doc), { retries: 3 });`)).toMatchObject({ jittered: true });
    expect(factsOf(`const retry = require('async-retry');\nretry(() => coll.insertOne(doc), { factor: 1 });`)).toMatchObject({ growth: 'none' });
    expect(
      factsOf(`const retry = require('retry');\nconst op = retry.operation({ forever: true, randomize: true });\nop.attempt(() => coll.insertOne(doc));`),
    ).toMatchObject({ bounded: false, jittered: true });
    expect(factsOf(`import promiseRetry from 'promise-retry';\npromiseRetry((r) => coll.insertOne(doc).catch(r), { retries: Infinity });`)).toMatchObject({ bounded: false });
  });

  it('options passed as a variable are unknown', () => {
    expect(factsOf(`import pRetry from 'p-retry';\npRetry(() => coll.insertOne(doc), opts);`)).toMatchObject({
      waits: undefined,
      growth: undefined,
      capped: undefined,
      jittered: undefined,
      bounded: undefined,
    });
    expect(factsOf(`import pRetry from 'p-retry';\npRetry(() => coll.insertOne(doc), { ...opts, retries: 3 });`)).toMatchObject({
      jittered: undefined,
      bounded: undefined,
    });
    expect(factsOf(`import pRetry from 'p-retry';\npRetry(() => coll.insertOne(doc), { ...opts, retries: 3, forever: false });`)).toMatchObject({
      bounded: true,
    });
  });

  it('exponential-backoff defaults and full jitter', () => {
    expect(factsOf(`import { backOff } from 'exponential-backoff';\nbackOff(() => client.send(cmd));`)).toMatchObject({
      growth: 'exponential',
      capped: false,
      jittered: false,
      bounded: true,
    });
    expect(
      factsOf(`import { backOff } from 'exponential-backoff';\nbackOff(() => client.send(cmd), { jitter: 'full', maxDelay: 20000 });`),
    ).toMatchObject({ capped: true, jittered: true });
  });

  it('cockatiel: no backoff means no wait and no maxAttempts means no bound', () => {
    expect(factsOf(`import { retry, handleAll } from 'cockatiel';\nretry(handleAll).execute(() => client.send(cmd));`)).toMatchObject({
      waits: false,
      bounded: false,
    });
    expect(
      factsOf(
        `import { retry, handleAll, ExponentialBackoff } from 'cockatiel';\nretry(handleAll, { maxAttempts: 5, backoff: new ExponentialBackoff() }).execute(() => client.send(cmd));`,
      ),
    ).toMatchObject({ waits: true, growth: 'exponential', capped: true, jittered: true, bounded: true });
  });

  it('ConfiguredRetryStrategy with a constant and with a function of the attempt', () => {
    expect(factsOf(`import { ConfiguredRetryStrategy } from '@smithy/util-retry';\nnew ConfiguredRetryStrategy(4, 1000);`)).toMatchObject({
      waits: true,
      growth: 'none',
      jittered: false,
      bounded: true,
    });
    expect(
      factsOf(`import { ConfiguredRetryStrategy } from '@aws-sdk/util-retry';\nnew ConfiguredRetryStrategy(4, (attempt) => 100 + attempt * 1000);`),
    ).toMatchObject({ growth: 'linear', jittered: false });
  });
});

/** A leading import stays at the top; the rest goes into an async function (it may `return`). */
function wrap(code: string): string {
  const match = /^(import [^;]+;)\s*/.exec(code);
  const head = match ? match[1] : '';
  const rest = match ? code.slice(match[0].length) : code;
  return `${head}\nasync function main() {\n${rest}\n}`;
}

describe('odd shapes never throw', () => {
  it.each([
    'for (;;) {}',
    'do ; while (retry && retries++ < 3);',
    'while (x) try { await coll.insertOne(d); break; } catch { continue; }',
    'for (let attempt = 0; attempt < 3; attempt++) { try { return await coll?.insertOne?.(d); } catch ({ message }) { await sleep?.(...delays); } }',
    'for (let attempt = 0; attempt < 3; attempt++) { try { return await db[method](d); } catch (e) { await sleep(delays[attempt] ?? 1000); } }',
    'class A { async #save(d, attempt = 0) { try { return await this.coll.insertOne(d); } catch { return this.#save(d, attempt + 1); } } }',
    'const o = { async save(attempt) { try { return await coll.insertOne(d); } catch { return this.save(attempt + 1); } } };',
    'label: while (true) { try { await coll.insertOne(d); break label; } catch (e) { if (++n > 3) throw e; await new Promise((r) => setTimeout(r)); } }',
    "import pRetry from 'p-retry'; pRetry(); pRetry(...args); pRetry(fn, { ...defaults, [key]: 1, 'factor': 1, retries: -1 });",
    "import { retry } from 'cockatiel'; retry(); retry(handleAll, { backoff: new backoffs.Exponential() }).execute();",
    "import { ConfiguredRetryStrategy } from '@smithy/util-retry'; new ConfiguredRetryStrategy(); new ConfiguredRetryStrategy(n, () => { if (x) return 1; });",
    "const retry = require('retry'); const op = retry.operation(); op.attempt(); op.attempt(notAFunction);",
    'async function* gen(attempt) { try { yield await coll.insertOne(d); } catch { yield* gen(attempt + 1); } }',
    'for (let attempt = 0; attempt < 3; attempt++) { try { return await coll.insertOne(d); } catch { await sleep(2 ** attempt << x >>> y); } }',
    'p.catch(); p.then(); p.catch(async function named() {}); p.then(null, () => retry());',
  ])('%s', (code) => {
    expect(() =>
      analyse(wrap(code), (context) => findRetryScopes(context).map((scope) => getRetryDelayFacts(context, scope))),
    ).not.toThrow();
    // The rules built on it too, with database calls in reach.
    const withDb = `import { MongoClient } from 'mongodb';\nconst coll = new MongoClient('mongodb://h').db().collection('c');\n${wrap(code)}`;
    expect(() => lintWithPlugin(withDb, ['require-retry-backoff', 'no-swallowed-db-error'])).not.toThrow();
  });
});
