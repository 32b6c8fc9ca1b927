import { describe, expect, it } from 'vitest';
import { findDatabaseRetryScopes, findEnclosingRetryScopes, findRetryScopes } from '../../../../eslint-plugin/src/analysis/retry/retry-scopes';
import type { RetryScope } from '../../../../eslint-plugin/src/analysis/retry/retry-scope';
import { type AnalyseOptions, analyse } from '../../harness';

interface Summary {
  kind: RetryScope['kind'];
  line: number;
  attemptVariable?: string;
  library?: string;
  libraryFunction?: string;
  handlers: number;
  options?: boolean;
  attemptType: string;
}

function scopesOf(code: string, options?: AnalyseOptions): Summary[] {
  return analyse(
    code,
    (context) =>
      findRetryScopes(context).map((scope) => {
        const summary: Summary = {
          kind: scope.kind,
          line: scope.node.loc.start.line,
          handlers: scope.handlers.length,
          attemptType: scope.attempt.type,
        };
        if (scope.attemptVariable !== undefined) summary.attemptVariable = scope.attemptVariable;
        if (scope.library !== undefined) summary.library = scope.library;
        if (scope.libraryFunction !== undefined) summary.libraryFunction = scope.libraryFunction;
        if (scope.options) summary.options = true;
        return summary;
      }),
    options,
  );
}

describe('findRetryScopes: loops', () => {
  it('finds a for loop that returns on success and waits in catch', () => {
    expect(
      scopesOf(`
        async function save(client, item) {
          for (let attempt = 0; attempt < 5; attempt++) {
            try {
              return await client.send(new PutItemCommand(item));
            } catch (err) {
              await sleep(100 * 2 ** attempt);
            }
          }
          throw new Error('gave up');
        }`),
    ).toEqual([{ kind: 'loop', line: 3, attemptVariable: 'attempt', handlers: 1, attemptType: 'BlockStatement' }]);
  });

  it('finds while (true) with a counter incremented in catch', () => {
    expect(
      scopesOf(`
        let attempts = 0;
        while (true) {
          try {
            await pool.query('SELECT 1');
            break;
          } catch (e) {
            attempts++;
            if (attempts > 5) throw e;
          }
        }`),
    ).toEqual([{ kind: 'loop', line: 3, attemptVariable: 'attempts', handlers: 1, attemptType: 'BlockStatement' }]);
  });

  it("finds the DynamoDB seed's do…while (retry && retries++ < MAX_RETRIES) without a catch", () => {
    expect(
      scopesOf(`
        let retries = 0;
        let retry = false;
        do {
          const waitTime = Math.min(getWaitTime(retries), MAX_WAIT_INTERVAL);
          await sleep(waitTime);
          const result = await getAsyncOperationResult(token);
          if (result === 'SUCCESS') retry = false;
          else if (result === 'THROTTLED') retry = true;
          else retry = false;
        } while (retry && retries++ < MAX_RETRIES);`),
    ).toEqual([{ kind: 'loop', line: 4, attemptVariable: 'retries', handlers: 0, attemptType: 'BlockStatement' }]);
  });

  it('finds a do…while whose catch sets the flag the condition reads', () => {
    expect(
      scopesOf(`
        let retries = 0, retry;
        do {
          try {
            await ddb.put(params).promise();
            retry = false;
          } catch (err) {
            retry = true;
          }
        } while (retry && retries++ < 3);`),
    ).toEqual([{ kind: 'loop', line: 3, attemptVariable: 'retries', handlers: 1, attemptType: 'BlockStatement' }]);
  });

  it('finds a loop that continues in catch and breaks after the try', () => {
    expect(
      scopesOf(`
        for (let i = 0; i < 3; i++) {
          try {
            await client.query('UPDATE t SET x = 1');
          } catch (err) {
            await delay(1000);
            continue;
          }
          break;
        }`),
    ).toEqual([{ kind: 'loop', line: 2, attemptVariable: 'i', handlers: 1, attemptType: 'BlockStatement' }]);
  });

  it('finds while (!result) with the result assigned in the try block', () => {
    expect(
      scopesOf(`
        let result;
        let tries = 0;
        while (!result && tries < 4) {
          try { result = await coll.findOne({ _id: id }); } catch { tries += 1; }
        }`),
    ).toEqual([{ kind: 'loop', line: 4, attemptVariable: 'tries', handlers: 1, attemptType: 'BlockStatement' }]);
  });

  it('finds a DynamoDB UnprocessedItems loop held to an attempt limit', () => {
    expect(
      scopesOf(`
        let unprocessed = requestItems;
        let attempt = 0;
        while (Object.keys(unprocessed).length > 0 && attempt < 5) {
          const out = await client.send(new BatchWriteItemCommand({ RequestItems: unprocessed }));
          unprocessed = out.UnprocessedItems ?? {};
          attempt++;
          await sleep(Math.random() * Math.min(20000, 100 * 2 ** attempt));
        }`),
    ).toEqual([{ kind: 'loop', line: 4, attemptVariable: 'attempt', handlers: 0, attemptType: 'BlockStatement' }]);
  });

  it('finds a for…of over a list of delays when the try block does not use the item', () => {
    expect(
      scopesOf(`
        for (const wait of [100, 200, 400]) {
          try { return await coll.insertOne(doc); } catch { await sleep(wait); }
        }`),
    ).toEqual([{ kind: 'loop', line: 2, handlers: 1, attemptType: 'BlockStatement' }]);
  });

  it('finds labelled and nested shapes without double counting the inner per-item loop', () => {
    const scopes = scopesOf(`
      outer: for (let attempt = 0; attempt < 3; attempt++) {
        try {
          for (const item of items) { await coll.insertOne(item); }
          break outer;
        } catch (e) {
          await sleep(2 ** attempt * 100);
        }
      }`);
    expect(scopes.map((scope) => [scope.kind, scope.line])).toEqual([['loop', 2]]);
  });
});

describe('findRetryScopes: catches that decide, and retry flags', () => {
  it('finds a loop whose catch continues on some paths and rethrows on others', () => {
    expect(
      scopesOf(`
        async function insertOrder(id) {
          for (let attempt = 1; ; attempt++) {
            try {
              return await pool.query('INSERT INTO orders(id) VALUES ($1)', [id]);
            } catch (err) {
              if (err.code === '40001' && attempt < 5) continue;
              throw err;
            }
          }
        }`),
    ).toEqual([{ kind: 'loop', line: 3, attemptVariable: 'attempt', handlers: 1, attemptType: 'BlockStatement' }]);
  });

  it('finds a catch that continues from inside a block, an else branch or a switch', () => {
    const shapes = [
      `if (isTransient(err) && attempt < 5) { log(err); continue; } throw err;`,
      `if (attempt >= 5) { throw err; } else { continue; }`,
      `switch (err.code) { case '40001': continue; default: throw err; }`,
    ];
    for (const shape of shapes) {
      expect(
        scopesOf(`
          for (let attempt = 1; ; attempt++) {
            try { return await pool.query(sql); } catch (err) { ${shape} }
          }`),
      ).toEqual([{ kind: 'loop', line: 2, attemptVariable: 'attempt', handlers: 1, attemptType: 'BlockStatement' }]);
    }
  });

  it('finds a catch that rethrows unless retryable, waits, and falls through to the next attempt', () => {
    expect(
      scopesOf(`
        for (let attempt = 1; ; attempt++) {
          try {
            return await pool.query(sql);
          } catch (err) {
            if (!isRetryable(err) || attempt >= MAX) throw err;
            await sleep(100 * 2 ** attempt);
          }
        }`),
    ).toEqual([{ kind: 'loop', line: 2, attemptVariable: 'attempt', handlers: 1, attemptType: 'BlockStatement' }]);
  });

  it('finds do { retry = false; try … catch { retry = true } } while (retry && n++ < 5)', () => {
    expect(
      scopesOf(`
        let retry = false;
        let n = 0;
        do {
          retry = false;
          try {
            await pool.query('UPDATE orders SET x = 1 WHERE id = $1', [id]);
          } catch (e) {
            retry = true;
          }
        } while (retry && n++ < 5);`),
    ).toEqual([{ kind: 'loop', line: 4, attemptVariable: 'n', handlers: 1, attemptType: 'BlockStatement' }]);
  });

  it('finds while (shouldRetry) with the flag reset first and set in the catch', () => {
    expect(
      scopesOf(`
        let shouldRetry = true;
        let attempts = 0;
        while (shouldRetry) {
          shouldRetry = false;
          try {
            await coll.updateOne({ _id: id }, { $set: { seen: true } });
          } catch (err) {
            attempts++;
            if (attempts < 3) shouldRetry = true;
            else throw err;
          }
        }`),
    ).toEqual([{ kind: 'loop', line: 4, attemptVariable: 'attempts', handlers: 1, attemptType: 'BlockStatement' }]);
  });

  it('finds while (!done) with done = true first and done = false in the catch', () => {
    expect(
      scopesOf(`
        let done = false, tries = 0;
        while (!done && tries < 5) {
          done = true;
          try { await pool.query(sql); } catch (err) { done = false; tries++; }
        }`),
    ).toEqual([{ kind: 'loop', line: 3, attemptVariable: 'tries', handlers: 1, attemptType: 'BlockStatement' }]);
  });

  it('finds the DynamoDB seed variant with the flag set from the status code in the catch', () => {
    expect(
      scopesOf(`
        let retries = 0;
        let retry = false;
        do {
          retry = false;
          try {
            await client.send(new PutItemCommand(params));
          } catch (err) {
            const status = err.$metadata?.httpStatusCode ?? 0;
            if (status >= 500 || err.name === 'ThrottlingException') retry = true;
          }
        } while (retry && retries++ < MAX_RETRIES);`),
    ).toEqual([{ kind: 'loop', line: 4, attemptVariable: 'retries', handlers: 1, attemptType: 'BlockStatement' }]);
  });

  it.each([
    [
      'a flag set in the catch that stops the loop (running = false)',
      `let running = true;
       while (running) {
         running = true;
         try { await pool.query(sql); } catch (err) { running = false; log(err); }
       }`,
    ],
    [
      'a flag reset to the value that keeps the loop going',
      `do {
         retry = true;
         try { await pool.query(sql); } catch (err) { retry = true; }
       } while (retry && n++ < 5);`,
    ],
    [
      'a flag read under || (the other side keeps the loop going)',
      `do {
         retry = false;
         try { await pool.query(sql); } catch (err) { retry = true; }
       } while (retry || keepPolling);`,
    ],
    [
      'a catch whose continue belongs to a nested loop before the throw',
      `for (let attempt = 0; attempt < 3; attempt++) {
         try { return await pool.query(sql); } catch (err) {
           for (const h of handlers) { if (!h) continue; h(err); }
           throw err;
         }
       }`,
    ],
    [
      'a catch that rethrows after a conditional log',
      `for (let attempt = 0; attempt < 3; attempt++) {
         try { return await pool.query(sql); } catch (err) { if (attempt > 1) log(err); throw err; }
       }`,
    ],
    [
      'per-item for…of whose catch continues on some errors',
      `for (const item of items) {
         try { await coll.insertOne(item); } catch (err) { if (err.code === 11000) continue; throw err; }
       }`,
    ],
    [
      'a flag computed in the catch from something other than the error',
      `do {
         retry = false;
         try { await pool.query(sql); } catch (err) { retry = n < 3; }
       } while (retry && n++ < 5);`,
    ],
    [
      'a flag computed from the error but reset to the value that keeps the loop going',
      `do {
         retry = true;
         try { await pool.query(sql); } catch (err) { retry = isRetryable(err); }
       } while (retry && n++ < 5);`,
    ],
  ])('ignores %s', (_name, code) => {
    expect(scopesOf(code)).toEqual([]);
  });

  it.each([
    ['a helper', `retry = isRetryable(err);`],
    ['a code comparison', `retry = err.code === '40001';`],
    ['a check joined with a limit', `retry = isRetryable(err) && n < 5;`],
  ])('finds a do…while whose catch sets the retry flag from a check of the error (%s)', (_name, assignment) => {
    expect(
      scopesOf(`
        do {
          retry = false;
          try { await pool.query(sql); } catch (err) { ${assignment} }
        } while (retry && n++ < 5);`),
    ).toEqual([{ kind: 'loop', line: 2, attemptVariable: 'n', handlers: 1, attemptType: 'BlockStatement' }]);
  });
});

describe('findRetryScopes: loops that are not retries', () => {
  it.each([
    [
      'DynamoDB pagination',
      `let ExclusiveStartKey;
       do {
         const page = await client.send(new QueryCommand({ TableName, ExclusiveStartKey }));
         items.push(...page.Items);
         ExclusiveStartKey = page.LastEvaluatedKey;
       } while (ExclusiveStartKey);`,
    ],
    [
      'pagination with a try/catch per page',
      `let lastKey;
       do {
         try {
           const page = await ddb.scan({ TableName, ExclusiveStartKey: lastKey }).promise();
           lastKey = page.LastEvaluatedKey;
         } catch (err) { logger.warn(err); }
       } while (lastKey);`,
    ],
    [
      'per-item for…of that logs and moves on',
      `for (const item of items) {
         try { await coll.insertOne(item); } catch (err) { console.error('skip', item.id, err); }
       }`,
    ],
    [
      'per-item for…of that continues',
      `for (const user of users) {
         try { await pool.query('UPDATE users SET seen = now() WHERE id = $1', [user.id]); } catch (err) { failures.push(err); continue; }
         done++;
       }`,
    ],
    [
      'indexed loop over an array',
      `for (let i = 0; i < items.length; i++) {
         try { await client.send(new PutItemCommand(items[i])); } catch (e) { log(e); }
       }`,
    ],
    [
      'failover over endpoints by index',
      `for (let attempt = 0; attempt < MAX; attempt++) {
         try { return await connect(hosts[attempt]); } catch (e) { last = e; }
       }`,
    ],
    [
      'queue drain',
      `while (queue.length) {
         const job = queue.shift();
         try { await pool.query(job.sql); } catch (e) { console.error(e); }
       }`,
    ],
    [
      'catch that always rethrows',
      `for (let attempt = 0; attempt < 3; attempt++) {
         try { return await coll.updateOne(f, u); } catch (e) { throw new Error('failed', { cause: e }); }
       }`,
    ],
    [
      'loop that repeats the work with no exit on success',
      `for (let i = 0; i < 3; i++) {
         try { await coll.insertOne({ i }); } catch {}
       }`,
    ],
    ['a plain counting loop with a call', `for (let attempt = 0; attempt < 3; attempt++) { await warmUp(attempt); }`],
    [
      'a while loop over a cursor',
      `while (await cursor.hasNext()) {
         try { const doc = await cursor.next(); await handle(doc); } catch (e) { console.error(e); }
       }`,
    ],
    [
      'pagination with a page counter and a cursor default',
      `let lastKey;
       let page = 0;
       do {
         try {
           const out = await ddb.scan({ TableName, ExclusiveStartKey: lastKey }).promise();
           lastKey = out.LastEvaluatedKey ?? null;
         } catch (err) { logger.warn(err); }
         page++;
       } while (lastKey && page < MAX_PAGES);`,
    ],
    [
      'an index loop over a collection with a per-item try',
      `for (let attempt = 0; attempt < jobs.length; attempt++) {
         try { await pool.query(jobs[attempt].sql); } catch (err) { log(err); }
       }`,
    ],
    ['for await over a stream', `for await (const row of stream) { try { await handle(row); } catch (e) { log(e); } }`],
  ])('%s', (_name, code) => {
    expect(scopesOf(code)).toEqual([]);
  });
});

describe('findRetryScopes: recursion', () => {
  it('finds a function calling itself from its catch', () => {
    expect(
      scopesOf(`
        async function write(item, attempt = 0) {
          try {
            return await docClient.send(new PutCommand(item));
          } catch (err) {
            if (attempt >= 5) throw err;
            await sleep(100 * 2 ** attempt);
            return write(item, attempt + 1);
          }
        }`),
    ).toEqual([{ kind: 'recursion', line: 2, attemptVariable: 'attempt', handlers: 1, attemptType: 'BlockStatement' }]);
  });

  it('finds an arrow function retrying from setTimeout inside its catch', () => {
    expect(
      scopesOf(`
        const connect = async () => {
          try { await client.connect(); } catch (e) { setTimeout(() => connect(), 5000); }
        };`),
    ).toEqual([{ kind: 'recursion', line: 2, handlers: 1, attemptType: 'BlockStatement' }]);
  });

  it('counts the attempts by a growing argument that a condition on the way to the self-call compares', () => {
    const execute = (guard: string) =>
      scopesOf(`
        function seed(doc, params) {
          const execute = function (interval) {
            setTimeout(function () {
              doc.batchWrite(params, function (err) {
                if (err) {
                  if (${guard}) execute(interval + 1000);
                }
              });
            }, interval);
          };
          execute(0);
        }`);
    expect(execute("err.code === 'ResourceNotFoundException' && interval <= 5000")).toEqual([
      { kind: 'recursion', line: 3, attemptVariable: 'interval', handlers: 1, attemptType: 'BlockStatement' },
    ]);
    // Not compared: nothing says it counts.
    expect(execute("err.code === 'ResourceNotFoundException'")).toEqual([{ kind: 'recursion', line: 3, handlers: 1, attemptType: 'BlockStatement' }]);
  });

  it('finds a method calling this.method() from a .catch callback', () => {
    expect(
      scopesOf(`
        class Repo {
          save(doc, retriesLeft = 3) {
            return this.coll.insertOne(doc).catch((err) => this.save(doc, retriesLeft - 1));
          }
        }`),
    ).toEqual([{ kind: 'recursion', line: 3, attemptVariable: 'retriesLeft', handlers: 1, attemptType: 'BlockStatement' }]);
  });

  it('finds a function re-calling itself for unprocessed items with attempt + 1', () => {
    expect(
      scopesOf(`
        async function batchWrite(items, attempt = 0) {
          const out = await client.send(new BatchWriteItemCommand({ RequestItems: items }));
          if (out.UnprocessedItems && Object.keys(out.UnprocessedItems).length) {
            await sleep(Math.random() * Math.min(20000, 100 * 2 ** attempt));
            return batchWrite(out.UnprocessedItems, attempt + 1);
          }
        }`),
    ).toEqual([{ kind: 'recursion', line: 2, attemptVariable: 'attempt', handlers: 0, attemptType: 'BlockStatement' }]);
  });

  it('finds a Node-style callback retrying from its error branch (SDK v2)', () => {
    expect(
      scopesOf(`
        function putWithRetry(params, callback) {
          dynamodb.putItem(params, function (err, data) {
            if (err) return setTimeout(function () { putWithRetry(params, callback); }, 1000);
            callback(null, data);
          });
        }`),
    ).toEqual([{ kind: 'recursion', line: 2, handlers: 1, attemptType: 'BlockStatement' }]);
  });

  it('ignores a function that also calls itself after a success (iteration, not retry)', () => {
    expect(
      scopesOf(`
        function create() {
          const index = indexes.shift();
          if (!index) return done();
          let promise;
          try { promise = coll.createIndex(index); } catch (err) { create(); return; }
          promise.then(() => create(), (err) => { create(); });
        }`),
    ).toEqual([]);
  });

  it('ignores tree recursion and a method calling a free function of the same name', () => {
    expect(
      scopesOf(`
        function walk(node, depth) { for (const child of node.children) walk(child, depth + 1); }
        class A { save() { try { return save(); } catch (e) { return save(); } } }`),
    ).toEqual([]);
  });
});

describe('findRetryScopes: .catch retries', () => {
  it('finds .catch(() => retry(...)) and a repeated call', () => {
    expect(
      scopesOf(`
        const a = coll.insertOne(doc).catch(() => retryInsert(doc));
        const b = pool.query(sql).catch((e) => pool.query(sql));
        const c = ddb.put(params).promise().catch(() => ddb.put(params).promise());`),
    ).toEqual([
      { kind: 'catch-retry', line: 2, handlers: 1, attemptType: 'CallExpression' },
      { kind: 'catch-retry', line: 3, handlers: 1, attemptType: 'CallExpression' },
      { kind: 'catch-retry', line: 4, handlers: 1, attemptType: 'CallExpression' },
    ]);
  });

  it('ignores .catch handlers that log, default, call something else or fall back to other arguments', () => {
    expect(
      scopesOf(`
        coll.insertOne(doc).catch(() => null);
        pool.query(sql).catch((e) => logger.error(e));
        pool.query(sql).then((r) => r.rows, (e) => fallback(e));
        validate(PRODUCTION_URL, receipt).then(ok, (error) => validate(SANDBOX_URL, receipt));`),
    ).toEqual([]);
  });
});

describe('findRetryScopes: libraries', () => {
  it('finds p-retry (ESM default import) with its options', () => {
    expect(
      scopesOf(`
        import pRetry from 'p-retry';
        await pRetry(async (attemptNumber) => coll.insertOne(doc), { retries: 5, randomize: true });`),
    ).toEqual([
      {
        kind: 'library',
        line: 3,
        library: 'p-retry',
        libraryFunction: 'pRetry',
        attemptVariable: 'attemptNumber',
        handlers: 0,
        options: true,
        attemptType: 'ArrowFunctionExpression',
      },
    ]);
  });

  it('finds async-retry by require and resolves a named callback', () => {
    expect(
      scopesOf(
        `
        const retry = require('async-retry');
        async function run(bail, attempt) { return pool.query('SELECT 1'); }
        module.exports = () => retry(run, { retries: 3 });`,
        { sourceType: 'commonjs' },
      ),
    ).toEqual([
      {
        kind: 'library',
        line: 4,
        library: 'async-retry',
        libraryFunction: 'retry',
        attemptVariable: 'attempt',
        handlers: 0,
        options: true,
        attemptType: 'FunctionDeclaration',
      },
    ]);
  });

  it('finds promise-retry in both argument orders, aliased', () => {
    const scopes = scopesOf(`
      import again from 'promise-retry';
      again((retry, number) => coll.updateOne(f, u).catch(retry), { retries: 2 });
      again({ retries: 2 }, function (retry) { return coll.updateOne(f, u).catch(retry); });`);
    expect(scopes.map((scope) => [scope.kind, scope.library, scope.options, scope.attemptType])).toEqual([
      ['library', 'promise-retry', true, 'ArrowFunctionExpression'],
      ['library', 'promise-retry', true, 'FunctionExpression'],
    ]);
  });

  it('finds retry.operation and its attempt callback', () => {
    const scopes = scopesOf(`
      const retry = require('retry');
      const operation = retry.operation({ retries: 5, factor: 3, minTimeout: 1000, randomize: true });
      operation.attempt(async (currentAttempt) => {
        try { await pool.query(sql); } catch (err) { if (operation.retry(err)) return; }
      });`);
    expect(scopes).toEqual([
      {
        kind: 'library',
        line: 3,
        library: 'retry',
        libraryFunction: 'retry.operation',
        attemptVariable: 'currentAttempt',
        handlers: 0,
        options: true,
        attemptType: 'ArrowFunctionExpression',
      },
    ]);
  });

  it('finds exponential-backoff backOff, cockatiel retry().execute and ConfiguredRetryStrategy', () => {
    const scopes = scopesOf(`
      import { backOff } from 'exponential-backoff';
      import { retry, handleAll, ExponentialBackoff } from 'cockatiel';
      import { ConfiguredRetryStrategy } from '@smithy/util-retry';
      await backOff(() => client.send(cmd), { numOfAttempts: 5, jitter: 'full' });
      const policy = retry(handleAll, { maxAttempts: 3, backoff: new ExponentialBackoff() });
      await policy.execute(() => client.send(cmd));
      const strategy = new ConfiguredRetryStrategy(4, (attempt) => 100 + attempt * 1000);`);
    expect(scopes.map((scope) => [scope.library, scope.libraryFunction, scope.line, scope.attemptType])).toEqual([
      ['exponential-backoff', 'backOff', 5, 'ArrowFunctionExpression'],
      ['cockatiel', 'retry', 6, 'ArrowFunctionExpression'],
      ['@smithy/util-retry', 'ConfiguredRetryStrategy', 8, 'NewExpression'],
    ]);
  });

  it('does not double count promise-retry`s own retry callback as a .catch retry', () => {
    const scopes = scopesOf(`
      const promiseRetry = require('promise-retry');
      promiseRetry((retry) => coll.insertOne(doc).catch((err) => retry(err)));`);
    expect(scopes.map((scope) => scope.kind)).toEqual(['library']);
  });

  it('ignores functions named like retry libraries that are not imported from them', () => {
    expect(
      scopesOf(`
        import { retry } from './my-retry';
        import pRetry from 'p-retry-lookalike';
        await retry(() => coll.insertOne(doc), { retries: 3 });`),
    ).toEqual([]);
  });
});

describe('findEnclosingRetryScopes', () => {
  it('returns the innermost scope first', () => {
    const kinds = analyse(
      `
      async function write(item, attempt = 0) {
        for (let i = 0; i < 3; i++) {
          try { return await coll.insertOne(item); } catch (e) { await sleep(2 ** i); }
        }
        return write(item, attempt + 1);
      }`,
      (context) => {
        const program = context.sourceCode.ast;
        let target: import('@typescript-eslint/utils').TSESTree.Node | undefined;
        const visit = (node: import('@typescript-eslint/utils').TSESTree.Node): void => {
          if (node.type === 'CallExpression' && node.callee.type === 'MemberExpression') target ??= node;
          for (const key of context.sourceCode.visitorKeys[node.type] ?? []) {
            const value = (node as unknown as Record<string, unknown>)[key];
            for (const child of Array.isArray(value) ? value : [value]) {
              if (child && typeof child === 'object' && 'type' in child) visit(child as typeof node);
            }
          }
        };
        visit(program);
        return findEnclosingRetryScopes(context, target as import('@typescript-eslint/utils').TSESTree.Node).map((scope) => scope.kind);
      },
    );
    expect(kinds).toEqual(['loop', 'recursion']);
  });
});

describe('findDatabaseRetryScopes', () => {
  const retryLoop = (attempt: string) => `
    async function run() {
      for (let attempt = 0; attempt < 3; attempt++) {
        try { return await ${attempt}; } catch (err) { await sleep(100 * 2 ** attempt); }
      }
    }`;

  it('returns the retry scopes of a file that uses a database', () => {
    const code = `
      import { MongoClient } from 'mongodb';
      const orders = new MongoClient('mongodb://localhost').db().collection('orders');
      ${retryLoop('orders.insertOne({ total: 1 })')}`;
    expect(analyse(code, (context) => findDatabaseRetryScopes(context).map((scope) => `${scope.kind}@${scope.node.loc.start.line}`))).toEqual(['loop@6']);
  });

  it('returns none in a file without database code, though it has retry scopes', () => {
    const code = `
      import { PrismaClient } from '@prisma/client';
      const prisma = new PrismaClient();
      ${retryLoop("fetch('/orders')")}
      ${retryLoop('prisma.order.updateMany({ where: {}, data: {} })')}`;
    expect(analyse(code, (context) => [findRetryScopes(context).length, findDatabaseRetryScopes(context).length])).toEqual([2, 0]);
  });
});
