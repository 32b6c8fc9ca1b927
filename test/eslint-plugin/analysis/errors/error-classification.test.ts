import { describe, expect, it } from 'vitest';
import { classifyRetryScope, retriesOutcomeUnknownErrors } from '../../../../eslint-plugin/src/analysis/errors/error-classification';
import type { ErrorClassification } from '../../../../eslint-plugin/src/analysis/errors/error-paths';
import { findDbCallsWithin } from '../../../../eslint-plugin/src/analysis/clients/db-calls';
import { findRetryScopes } from '../../../../eslint-plugin/src/analysis/retry/retry-scopes';
import { analyse } from '../../harness';

/** Classifies the first retry scope of `code`. */
function classify(code: string): ErrorClassification | undefined {
  return analyse(code, (context) => {
    const scope = findRetryScopes(context)[0];
    return scope ? classifyRetryScope(scope) : undefined;
  });
}

/** Classifies the first retry scope of `code` for its first database call. */
function classifyAtCall(code: string): ErrorClassification | undefined {
  return analyse(code, (context) => {
    const scope = findRetryScopes(context)[0];
    const call = scope && findDbCallsWithin(context, scope.attempt)[0];
    return scope && call ? classifyRetryScope(scope, call.node) : undefined;
  });
}

const values = (list: ErrorClassification['retriedValues']) => list.map((value) => `${value.property}:${value.match}:${value.value}`);

const loop = (handler: string, before = '') => `
  async function save(item) {
    ${before}
    for (let attempt = 0; attempt < 5; attempt++) {
      try {
        return await put(item);
      } catch (err) {
        ${handler}
      }
      await sleep(100 * 2 ** attempt);
    }
  }`;

describe('catch clauses of retry loops', () => {
  it('a catch that only counts attempts retries every error', () => {
    const result = classify(loop(`if (attempt === 4) throw err; console.warn('retrying', err);`));
    expect(result?.retriesEveryError).toBe(true);
    expect(result?.checksError).toBe(false);
  });

  it('an empty catch retries every error', () => {
    expect(classify(loop(''))?.retriesEveryError).toBe(true);
  });

  it('an allow-list of names retries only those', () => {
    const result = classify(
      loop(`if (err.name !== 'ThrottlingException' && err.name !== 'ProvisionedThroughputExceededException') throw err;`),
    );
    expect(result?.retriesEveryError).toBe(false);
    expect(result?.checksError).toBe(true);
    expect(values(result?.retriedValues ?? [])).toEqual([
      'name:equal:ThrottlingException',
      'name:equal:ProvisionedThroughputExceededException',
    ]);
  });

  it('reads includes() on a const list', () => {
    const result = classify(`
      const RETRYABLE = ['ECONNRESET', '40001'];
      ${loop(`if (!RETRYABLE.includes(err.code)) throw err;`)}`);
    expect(result?.retriesEveryError).toBe(false);
    expect(values(result?.retriedValues ?? [])).toEqual(['code:equal:ECONNRESET', 'code:equal:40001']);
  });

  it('reads Set.has, startsWith and message checks', () => {
    const result = classify(
      loop(`
        const transient = new Set(['57P01']).has(err.code) || err.code?.startsWith('08') || err.message.includes('Connection terminated');
        if (!transient) throw err;`),
    );
    expect(result?.retriesEveryError).toBe(false);
    expect(values(result?.retriedValues ?? [])).toEqual([
      'code:equal:57P01',
      'code:prefix:08',
      'message:substring:Connection terminated',
    ]);
  });

  it('a helper or instanceof check counts as a check', () => {
    expect(classify(loop(`if (!isRetryable(err)) throw err;`))?.retriesEveryError).toBe(false);
    expect(classify(loop(`if (err instanceof ValidationError) throw err;`))?.retriesEveryError).toBe(false);
    expect(classify(loop(`if (!err.$retryable) throw err;`))?.checkKinds).toEqual(['retryable']);
    expect(classify(loop(`if ((err as any).$metadata?.httpStatusCode < 500) throw err;`))?.checkKinds).toEqual(['httpStatus']);
  });

  it('instanceof an AWS SDK exception class reads the error name; other classes stay unknown', () => {
    const retried = classify(loop(`if (!(err instanceof ProvisionedThroughputExceededException)) throw err;`));
    expect(values(retried?.retriedValues ?? [])).toEqual(['name:equal:ProvisionedThroughputExceededException']);
    const compiled = classify(loop(`if (err instanceof client_dynamodb_1.TransactionCanceledException) { continue; } else { throw err; }`));
    expect(values(compiled?.retriedValues ?? [])).toEqual(['name:equal:TransactionCanceledException']);
    expect(compiled && retriesOutcomeUnknownErrors(compiled, 'dynamodb')).toBe(false);
    const own = classify(loop(`if (err instanceof QuotaException) { continue; } throw err;`));
    expect(own?.retriedValues).toEqual([]);
    expect(own && retriesOutcomeUnknownErrors(own, 'dynamodb')).toBe(true);
  });

  it('a deny-list of permanent errors is a check', () => {
    const result = classify(loop(`if (err.name === 'ConditionalCheckFailedException') throw err;`));
    expect(result?.retriesEveryError).toBe(false);
    expect(values(result?.stoppedValues ?? [])).toEqual(['name:equal:ConditionalCheckFailedException']);
  });

  it('a deny-list of transient errors still retries everything else', () => {
    const result = classify(loop(`if (err.code === 'ECONNRESET') { await sleep(10); continue; }`));
    expect(result?.retriesEveryError).toBe(true);
    expect(values(result?.retriedValues ?? [])).toEqual(['code:equal:ECONNRESET']);
  });

  it('an explicit permanent name on a retry path is reported as retried', () => {
    const result = classify(
      loop(`if (err.name === 'ThrottlingException' || err.name === 'ConditionalCheckFailedException') continue; else throw err;`),
    );
    expect(result?.retriesEveryError).toBe(false);
    expect(values(result?.retriedValues ?? [])).toContain('name:equal:ConditionalCheckFailedException');
  });

  it('switch on the code', () => {
    const result = classify(
      loop(`
        switch (err.code) {
          case 'ECONNRESET':
          case '57P01':
            break;
          case '23505':
            return 'already done';
          default:
            throw err;
        }`),
    );
    expect(result?.retriesEveryError).toBe(false);
    expect(values(result?.retriedValues ?? [])).toEqual(['code:equal:ECONNRESET', 'code:equal:57P01']);
    expect(values(result?.alreadyDoneValues ?? [])).toEqual(['code:equal:23505']);
  });

  it('an empty default case falls out of the switch', () => {
    expect(classify(loop(`switch (err.code) { default: }`))?.retriesEveryError).toBe(true);
    expect(classify(loop(`switch (err.code) { case '23505': throw err; case 'X': default: }`))?.retriesEveryError).toBe(false);
  });

  it('23505 treated as already done', () => {
    const result = classify(loop(`if (err.code === '23505') return; if (attempt === 4) throw err;`));
    expect(values(result?.alreadyDoneValues ?? [])).toEqual(['code:equal:23505']);
    // Everything else is still retried, but the author handled the permanent one.
    expect(result?.retriesEveryError).toBe(false);
  });

  it('aliases: destructured code, const code, catch ({ code })', () => {
    expect(classify(loop(`const { code } = err; if (code !== 'ECONNRESET') throw err;`))?.retriesEveryError).toBe(false);
    expect(classify(loop(`const code = (err as PgError).code; if (code !== 'ECONNRESET') throw err;`))?.retriesEveryError).toBe(false);
    expect(classify(loop(`const retryable = isTransient(err); if (!retryable) throw err;`))?.retriesEveryError).toBe(false);
  });

  it('a helper the error is handed to may decide by throwing; logging does not decide', () => {
    expect(classify(loop(`await handleDbError(err, attempt);`))?.retriesEveryError).toBe(false);
    expect(classify(loop(`console.warn('retrying', err); logger.error({ err }, 'failed'); log(err);`))?.retriesEveryError).toBe(true);
  });

  it('MongoDB labels', () => {
    const result = classify(loop(`if (!err.hasErrorLabel('RetryableWriteError')) throw err;`));
    expect(values(result?.retriedValues ?? [])).toEqual(['label:equal:RetryableWriteError']);
    const labels = classify(loop(`if (!err.errorLabels?.includes('TransientTransactionError')) throw err;`));
    expect(values(labels?.retriedValues ?? [])).toEqual(['label:equal:TransientTransactionError']);
  });

  it('a weak condition does not restrict', () => {
    const result = classify(loop(`if (attempt < 3 || err.code === 'ECONNRESET') continue; else throw err;`));
    expect(result?.retriesEveryError).toBe(true);
  });

  it('a flag the loop condition reads', () => {
    const code = (handler: string) => `
      async function save(item) {
        let retries = 0;
        let retry = true;
        while (retry && retries < 5) {
          try {
            await put(item);
            retry = false;
          } catch (err) {
            retries++;
            ${handler}
          }
        }
      }`;
    expect(classify(code(`if (retries >= 5) retry = false;`))?.retriesEveryError).toBe(true);
    const checked = classify(code(`if (err.name !== 'ThrottlingException') retry = false;`));
    expect(checked?.retriesEveryError).toBe(false);
    expect(values(checked?.retriedValues ?? [])).toEqual(['name:equal:ThrottlingException']);
  });

  it('a flag set from a check of the error retries when the check passes', () => {
    const code = (handler: string, test = 'retry && n++ < 5') => `
      async function save(sql) {
        let retry = false;
        let n = 0;
        do {
          retry = false;
          try {
            await pool.query(sql);
          } catch (e) {
            ${handler}
          }
        } while (${test});
      }`;
    const helper = classify(code(`retry = isRetryable(e);`));
    expect(helper?.retriesEveryError).toBe(false);
    expect(helper?.checksError).toBe(true);
    expect(helper?.paths.map((path) => path.outcome)).toEqual(['retry', 'done']);
    const serialization = classify(code(`retry = e.code === '40001';`));
    expect(serialization?.retriesEveryError).toBe(false);
    expect(values(serialization?.retriedValues ?? [])).toEqual(['code:equal:40001']);
    expect(values(serialization?.stoppedValues ?? [])).toEqual([]);
    // A permanent error let through is still visible to the rules.
    expect(values(classify(code(`retry = e.code === '23505';`))?.retriedValues ?? [])).toEqual(['code:equal:23505']);
    // `while (!done)`: the loop goes on where the check fails.
    const done = classify(code(`done = e.code !== '40001';`, '!done && n++ < 5').replace('retry = false;\n          try', 'done = true;\n          try'));
    expect(done?.retriesEveryError).toBe(false);
    expect(values(done?.retriedValues ?? [])).toEqual(['code:equal:40001']);
  });
});

describe('recursion and .catch retries', () => {
  it('recursive retry from the catch', () => {
    const code = (handler: string) => `
      async function save(item, attempt = 0) {
        try {
          return await put(item);
        } catch (err) {
          ${handler}
        }
      }`;
    expect(classify(code(`if (attempt < 3) return save(item, attempt + 1); throw err;`))?.retriesEveryError).toBe(true);
    expect(
      classify(code(`if (attempt < 3 && err.code === 'ECONNRESET') return save(item, attempt + 1); throw err;`))?.retriesEveryError,
    ).toBe(false);
  });

  it('an error-first callback that calls the function again', () => {
    const result = classify(`
      const AWS = require('aws-sdk');
      const db = new AWS.DynamoDB.DocumentClient();
      function save(item, attempt, done) {
        db.put({ TableName: 't', Item: item }, (err) => {
          if (err) {
            if (attempt < 3) return save(item, attempt + 1, done);
            return done(err);
          }
          done();
        });
      }`);
    expect(result?.retriesEveryError).toBe(true);
    const checked = classifyAtCall(`
      const { Pool } = require('pg');
      const pool = new Pool();
      function insert(row, attempt, done) {
        pool.query('INSERT INTO t VALUES ($1)', [row], (error) => {
          if (error && error.code === 'ECONNRESET' && attempt < 3) return insert(row, attempt + 1, done);
          done(error);
        });
      }`);
    expect(checked?.retriesEveryError).toBe(false);
    expect(values(checked?.retriedValues ?? [])).toEqual(['code:equal:ECONNRESET']);
  });

  it('.catch(() => retry())', () => {
    const result = classify(`
      function save(item, attempt = 0) {
        return put(item).catch((err) => retrySave(item));
      }`);
    expect(result?.retriesEveryError).toBe(true);
    const checked = classify(`
      function save(item) {
        return put(item).catch((err) => (err.name === 'ThrottlingException' ? retrySave(item) : Promise.reject(err)));
      }`);
    expect(checked?.retriesEveryError ?? false).toBe(false);
  });
});

describe('retry libraries', () => {
  it('p-retry without shouldRetry retries every error', () => {
    const result = classify(`
      import pRetry from 'p-retry';
      await pRetry(() => put(item), { retries: 5, randomize: true });`);
    expect(result?.retriesEveryError).toBe(true);
  });

  it('p-retry shouldRetry', () => {
    const result = classify(`
      import pRetry from 'p-retry';
      await pRetry(() => put(item), { retries: 5, shouldRetry: (error) => error.name !== 'ConditionalCheckFailedException' });`);
    expect(result?.retriesEveryError).toBe(false);
    expect(values(result?.stoppedValues ?? [])).toEqual(['name:equal:ConditionalCheckFailedException']);
    const v7 = classify(`
      import pRetry from 'p-retry';
      await pRetry(() => put(item), { shouldRetry: ({ error }) => error.code === 'ECONNRESET' });`);
    expect(values(v7?.retriedValues ?? [])).toEqual(['code:equal:ECONNRESET']);
  });

  it('p-retry AbortError in the attempt', () => {
    const result = classify(`
      import pRetry, { AbortError } from 'p-retry';
      await pRetry(async () => {
        try { return await put(item); }
        catch (err) { if (err.name === 'ConditionalCheckFailedException') throw new AbortError(err); throw err; }
      });`);
    expect(result?.retriesEveryError).toBe(false);
    expect(values(result?.stoppedValues ?? [])).toEqual(['name:equal:ConditionalCheckFailedException']);
  });

  it('async-retry bail', () => {
    const result = classify(`
      import retry from 'async-retry';
      await retry(async (bail) => {
        try { await put(item); }
        catch (err) { if (err.code === '23505') { bail(err); return; } throw err; }
      }, { retries: 3 });`);
    expect(result?.retriesEveryError).toBe(false);
    expect(values(result?.stoppedValues ?? [])).toEqual(['code:equal:23505']);
  });

  it('promise-retry .catch(retry)', () => {
    const result = classify(`
      const promiseRetry = require('promise-retry');
      promiseRetry((retry, number) => put(item).catch(retry), { retries: 3 });`);
    expect(result?.retriesEveryError).toBe(true);
  });

  it('p-retry onFailedAttempt that throws on some errors', () => {
    const result = classify(`
      import pRetry from 'p-retry';
      await pRetry(() => put(item), {
        onFailedAttempt: (error) => {
          if (error.name === 'ValidationException') throw error;
        },
      });`);
    expect(result?.retriesEveryError).toBe(false);
    expect(values(result?.stoppedValues ?? [])).toEqual(['name:equal:ValidationException']);
  });

  it('p-retry onFailedAttempt that only logs, or is defined elsewhere', () => {
    expect(
      classify(`
      import pRetry from 'p-retry';
      await pRetry(() => put(item), { onFailedAttempt: (error) => console.warn(error.attemptNumber, error.message) });`)?.retriesEveryError,
    ).toBe(true);
    expect(
      classify(`
      import pRetry from 'p-retry';
      await pRetry(() => put(item), { onFailedAttempt: stopOnPermanentErrors });`),
    ).toBeUndefined();
  });

  it('node-retry operation.retry(err)', () => {
    const code = (handler: string) => `
      const retry = require('retry');
      const operation = retry.operation({ retries: 5, randomize: true });
      operation.attempt(async () => {
        try { resolve(await put(item)); }
        catch (err) { ${handler} }
      });`;
    expect(classify(code(`if (operation.retry(err)) return; reject(operation.mainError());`))?.retriesEveryError).toBe(true);
    const checked = classify(code(`if (err.code !== '23505' && operation.retry(err)) return; reject(err);`));
    expect(checked?.retriesEveryError).toBe(false);
    expect(checked?.paths.some((path) => path.outcome === 'retry')).toBe(true);
  });

  it('cockatiel handleAll retries every error', () => {
    const result = classify(`
      import { retry, handleAll, ExponentialBackoff } from 'cockatiel';
      const policy = retry(handleAll, { maxAttempts: 3, backoff: new ExponentialBackoff() });
      await policy.execute(() => put(item));`);
    expect(result?.retriesEveryError).toBe(true);
  });

  it('exponential-backoff retry predicate', () => {
    const result = classify(`
      import { backOff } from 'exponential-backoff';
      await backOff(() => put(item), { retry: (e) => e.name === 'ThrottlingException' });`);
    expect(result?.retriesEveryError).toBe(false);
  });
});

describe('odd shapes', () => {
  it('computed members, optional chaining, casts and switch (true)', () => {
    expect(classify(loop(`if (err?.['code'] !== 'ECONNRESET') throw err;`))?.retriesEveryError).toBe(false);
    expect(classify(loop(`if ((<any>err).$metadata!.httpStatusCode! < 500) throw err;`))?.retriesEveryError).toBe(false);
    const result = classify(
      loop(`
        switch (true) {
          case err.name === 'ThrottlingException':
            continue;
          default:
            throw err;
        }`),
    );
    expect(result?.retriesEveryError).toBe(false);
    expect(values(result?.retriedValues ?? [])).toEqual(['name:equal:ThrottlingException']);
  });

  it('a computed member of the error is a check; p-retry 7 context destructured twice', () => {
    expect(classify(loop(`if (err[Symbol.for('code')]) throw err;`))?.retriesEveryError).toBe(false);
    const nested = classify(`
      import pRetry from 'p-retry';
      await pRetry(() => put(item), { shouldRetry: async ({ error: { code } }) => code === '40001' });`);
    expect(values(nested?.retriedValues ?? [])).toEqual(['code:equal:40001']);
    expect(nested?.retriesEveryError).toBe(false);
  });

  it('does not throw on a catch without a binding, spreads and unknown shapes', () => {
    expect(classify(loop(`const copy = { ...err }; if (copy) void 0;`))?.retriesEveryError).toBe(true);
    const noBinding = classify(`
      async function save(item) {
        for (let attempt = 0; attempt < 5; attempt++) {
          try { return await put(item); } catch { await sleep(10); }
        }
      }`);
    expect(noBinding?.retriesEveryError).toBe(true);
    expect(noBinding?.errorName).toBeUndefined();
  });

  it('a ternary in a .catch callback splits into paths', () => {
    const result = classify(`
      function save(item) {
        return put(item).catch((err) => (err.code === '23505' ? 'duplicate' : retrySave(item)));
      }`);
    expect(result?.retriesEveryError).toBe(false);
    expect(values(result?.alreadyDoneValues ?? [])).toEqual(['code:equal:23505']);
  });
});

describe('retriesOutcomeUnknownErrors', () => {
  const pg = (handler: string) => classify(loop(handler)) as ErrorClassification;
  it('is true when a dropped connection can be retried', () => {
    expect(retriesOutcomeUnknownErrors(pg(`if (attempt === 4) throw err;`), 'postgres')).toBe(true);
    expect(retriesOutcomeUnknownErrors(pg(`if (!isTransient(err)) throw err;`), 'postgres')).toBe(true);
    expect(retriesOutcomeUnknownErrors(pg(`if (err.code !== 'ECONNRESET' && err.code !== '40001') throw err;`), 'postgres')).toBe(true);
  });
  it('is false when only statement errors are retried', () => {
    expect(retriesOutcomeUnknownErrors(pg(`if (err.code !== '40001' && err.code !== '40P01') throw err;`), 'postgres')).toBe(false);
    expect(retriesOutcomeUnknownErrors(pg(`if (err.code !== '23505') throw err;`), 'postgres')).toBe(false);
  });
  it('is false when one required check admits only statement errors, whatever an opaque helper before it says', () => {
    expect(retriesOutcomeUnknownErrors(pg(`if (!isTransient(err)) throw err; if (err.code !== '40001') throw err;`), 'postgres')).toBe(false);
    expect(retriesOutcomeUnknownErrors(pg(`if (!isTransient(err) || attempt === 4) throw err; if (!['40001', '40P01'].includes(err.code)) throw err;`), 'postgres')).toBe(false);
    // A weak check (met without the error) keeps nothing out.
    expect(retriesOutcomeUnknownErrors(pg(`if (attempt < 2 || err.code === '40001') continue; throw err;`), 'postgres')).toBe(true);
  });
});

describe('predicates declared in the file', () => {
  const codes = (handler: string, helper: string) => values(classify(loop(handler, helper))?.retriedValues ?? []);

  it('reads a predicate made of consts and one return over its parameter, as a declaration or an arrow', () => {
    const declared = `function isNotApplied(error: unknown): boolean {
      const notAppliedCodes: unknown[] = ['40001', '40P01'];
      const code = (error as { code?: unknown } | null | undefined)?.code;
      return notAppliedCodes.includes(code);
    }`;
    expect(codes(`if (!isNotApplied(err)) throw err;`, declared)).toEqual(['code:equal:40001', 'code:equal:40P01']);
    expect(codes(`if (!isThrottled(err)) throw err;`, `const isThrottled = (e) => e.name === 'ThrottlingException';`)).toEqual(['name:equal:ThrottlingException']);
    // Through a wrapper of the error, and negated by the caller's test.
    expect(codes(`if (isPermanent(err.cause)) throw err;`, `const isPermanent = (e) => e.code !== 'ECONNRESET';`)).toEqual(['code:equal:ECONNRESET']);
    expect(retriesOutcomeUnknownErrors(classify(loop(`if (!isNotApplied(err)) throw err;`, declared)) as ErrorClassification, 'postgres')).toBe(false);
    // A default for a missing code (`?? ''`), a prefix and a list.
    const transient = `export function isTransientPgError(err: unknown): boolean {
      const code = (err as { code?: string } | undefined)?.code ?? '';
      return code.startsWith('08') || ['57P01', 'ECONNRESET'].includes(code);
    }`;
    expect(codes(`if (!isTransientPgError(err) || attempt === 4) throw err;`, transient)).toEqual(['code:prefix:08', 'code:equal:57P01', 'code:equal:ECONNRESET']);
  });

  it('keeps other shapes opaque: statements besides consts, several parameters, a call of itself, a helper declared elsewhere', () => {
    const opaqueHelper = (helper: string, call = 'isRetryable(err)') => {
      const result = classify(loop(`if (!${call}) throw err;`, helper));
      return { everyError: result?.retriesEveryError, kinds: result?.checkKinds, values: values(result?.retriedValues ?? []) };
    };
    const expected = { everyError: false, kinds: ['helper'], values: [] };
    expect(opaqueHelper(`function isRetryable(e) { if (e.code === 'X') return true; return e.code === 'Y'; }`)).toEqual(expected);
    expect(opaqueHelper(`function isRetryable(e, attempt) { return e.code === 'X'; }`, 'isRetryable(err, attempt)')).toEqual(expected);
    expect(opaqueHelper(`function isRetryable(e) { return isRetryable(e.cause); }`)).toEqual(expected);
    expect(opaqueHelper(`async function isRetryable(e) { return e.code === 'X'; }`)).toEqual(expected);
    expect(opaqueHelper(`let isRetryable = (e) => e.code === 'X';`)).toEqual(expected);
    expect(opaqueHelper('')).toEqual(expected);
  });
});
