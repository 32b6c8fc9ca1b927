import { describe, expect, it } from 'vitest';
import { findEnclosingTransactionScopes, findTransactionScopes } from '../../../../eslint-plugin/src/analysis/clients/mongo-transactions';
import { type AnalyseOptions, analyse, nodesOfType } from '../../harness';

/** `kind@startLine-endLine` of each scope's code. */
function scopes(code: string, options: AnalyseOptions = {}): string[] {
  return analyse(
    code,
    (context) =>
      findTransactionScopes(context).map((scope) => {
        const lines = context.sourceCode.text.slice(0, scope.range[1]).split('\n').length;
        const start = context.sourceCode.text.slice(0, scope.range[0]).split('\n').length;
        return `${scope.kind}@${start}-${lines}`;
      }),
    options,
  );
}

describe('findTransactionScopes', () => {
  it('finds withTransaction callbacks, from withSession or startSession', () => {
    const code = `
      import { MongoClient } from 'mongodb';
      const client = new MongoClient('x');
      await client.withSession((session) => session.withTransaction(async () => {
        await write();
      }));
      const s = client.startSession();
      await s.withTransaction(function () {
        return write();
      });
    `;
    expect(scopes(code)).toEqual(['callback@4-6', 'callback@8-10']);
  });

  it('finds the code between startTransaction and the matching commitTransaction', () => {
    const code = `
      import { MongoClient } from 'mongodb';
      const session = new MongoClient('x').startSession();
      session.startTransaction();
      try {
        await write();
        await session.commitTransaction();
      } catch (error) {
        await session.abortTransaction();
      }
      await after();
    `;
    expect(scopes(code)).toEqual(['explicit@4-7']);
  });

  it('runs to the end of the function when there is no commit', () => {
    const code = `
      import type { ClientSession } from 'mongodb';
      export async function f(session: ClientSession) {
        session.startTransaction();
        await write();
      }
      await outside();
    `;
    expect(scopes(code)).toEqual(['explicit@4-6']);
  });

  it('finds Mongoose connection.transaction callbacks', () => {
    const code = `
      import mongoose from 'mongoose';
      await mongoose.connection.transaction(async (session) => {
        await write(session);
      });
    `;
    expect(scopes(code)).toEqual(['callback@3-5']);
  });

  it('ignores look-alikes', () => {
    const code = `
      import { DataSource } from 'typeorm';
      const runner = new DataSource({}).createQueryRunner();
      await runner.startTransaction();
      await runner.commitTransaction();
      await knex.transaction(async (trx) => trx('a').insert({}));
      const items = [];
      items.withTransaction?.(1);
      await sequelize.transaction(async () => {});
    `;
    expect(scopes(code)).toEqual([]);
  });

  it('uses types when ESLint has them', () => {
    const code = `
      import type { ClientSession } from 'mongodb';
      const fake = { startTransaction() {}, commitTransaction() {} };
      fake.startTransaction();
      fake.commitTransaction();
      export async function f(s: ClientSession) {
        s.startTransaction();
        await s.commitTransaction();
      }
    `;
    expect(scopes(code, { typed: 'mongodb' })).toEqual(['explicit@7-8']);
  });
});

describe('findEnclosingTransactionScopes', () => {
  /** For each `insertOne` call: the kinds and first lines of the transactions around it, innermost first. */
  function enclosing(code: string): string[][] {
    return analyse(code, (context) =>
      nodesOfType(context, 'CallExpression')
        .filter((call) => call.callee.type === 'MemberExpression' && context.sourceCode.getText(call.callee.property) === 'insertOne')
        .map((call) => findEnclosingTransactionScopes(context, call).map((scope) => `${scope.kind}@${scope.node.loc.start.line}`)),
    );
  }

  it('returns the transactions whose code holds the node, innermost first', () => {
    const code = `
      import { MongoClient } from 'mongodb';
      const client = new MongoClient('mongodb://localhost');
      const orders = client.db().collection('orders');
      const session = client.startSession();
      session.startTransaction();
      await orders.insertOne({ a: 1 }, { session });
      await session.withTransaction(async () => {
        await orders.insertOne({ b: 2 }, { session });
      });
      await session.commitTransaction();
      await orders.insertOne({ c: 3 });`;
    expect(enclosing(code)).toEqual([['explicit@6'], ['callback@8', 'explicit@6'], []]);
  });

  it('finds none around a look-alike transaction', () => {
    const code = `
      import { MongoClient } from 'mongodb';
      const orders = new MongoClient('mongodb://localhost').db().collection('orders');
      await knex.transaction(async (trx) => {
        await orders.insertOne({ a: 1 });
      });`;
    expect(enclosing(code)).toEqual([[]]);
  });
});
