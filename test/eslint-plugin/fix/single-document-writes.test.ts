import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';
import { describe, expect, it } from 'vitest';
import { getSingleDocumentWritesText } from '../../../eslint-plugin/src/fix';
import { applyFix, findNode } from '../harness';

function rewrite(code: string): string | undefined {
  return applyFix(code, (sourceCode) => {
    const statement = findNode(sourceCode, AST_NODE_TYPES.ExpressionStatement, (node) => node.expression.type === AST_NODE_TYPES.AwaitExpression);
    const call = (statement.expression as TSESTree.AwaitExpression).argument as TSESTree.CallExpression;
    const callee = call.callee as TSESTree.MemberExpression;
    const [filter, update] = call.arguments as TSESTree.Expression[];
    if (!filter) throw new Error('no filter');
    const text = getSingleDocumentWritesText(sourceCode, { statement, receiver: callee.object, filter, update });
    return (fixer) => fixer.replaceText(statement, text);
  });
}

describe('getSingleDocumentWritesText', () => {
  it('rewrites an updateMany into one updateOne per matching _id, keeping the filter', () => {
    const code = 'async function close(orders, query) {\n  await orders.updateMany(query, { $set: { open: false } });\n}\n';
    expect(rewrite(code)).toBe(
      [
        'async function close(orders, query) {',
        '  {',
        '    const update = { $set: { open: false } };',
        '    const ids = (await orders.find(query, { projection: { _id: 1 } }).toArray()).map((doc) => doc._id);',
        '    if (ids.length > 0) {',
        '      await orders.bulkWrite(ids.map((id) => ({ updateOne: { filter: { ...query, _id: id }, update: update } })));',
        '    }',
        '  }',
        '}',
        '',
      ].join('\n'),
    );
  });

  it('rewrites a deleteMany, naming the filter without clashing with names the statement uses', () => {
    const code = 'async function purge(db, ids) {\n  await db.sessions.deleteMany({ user: ids });\n}\n';
    expect(rewrite(code)).toBe(
      [
        'async function purge(db, ids) {',
        '  {',
        '    const filter = { user: ids };',
        '    const ids2 = (await db.sessions.find(filter, { projection: { _id: 1 } }).toArray()).map((doc) => doc._id);',
        '    if (ids2.length > 0) {',
        '      await db.sessions.bulkWrite(ids2.map((id) => ({ deleteOne: { filter: { ...filter, _id: id } } })));',
        '    }',
        '  }',
        '}',
        '',
      ].join('\n'),
    );
  });
});
