import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';
import { describe, expect, it } from 'vitest';
import { getSingleDocumentWritesText } from '../../../eslint-plugin/src/fix';
import { applyFix, findNode } from '../harness';

function rewrite(code: string, typescript = false): string | undefined {
  return applyFix(code, (sourceCode) => {
    const statement = findNode(sourceCode, AST_NODE_TYPES.ExpressionStatement, (node) => node.expression.type === AST_NODE_TYPES.AwaitExpression);
    const call = (statement.expression as TSESTree.AwaitExpression).argument as TSESTree.CallExpression;
    const callee = call.callee as TSESTree.MemberExpression;
    const [filter, update] = call.arguments as TSESTree.Expression[];
    if (!filter) throw new Error('no filter');
    const text = getSingleDocumentWritesText(sourceCode, { statement, receiver: callee.object, filter, update }, typescript);
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

  it('in TypeScript, keeps literals `as const` and types the parameters from the arrays (an untyped collection leaves no implicit any), under names the statement does not use', () => {
    const code = 'async function close(docs: any) {\n  await docs.updateMany({ open: true }, { $set: { open: false } });\n}\n';
    expect(rewrite(code, true)).toBe(
      [
        'async function close(docs: any) {',
        '  {',
        '    const filter = { open: true } as const;',
        '    const update = { $set: { open: false } } as const;',
        '    const docs2 = await docs.find(filter, { projection: { _id: 1 } }).toArray();',
        '    const ids = docs2.map((doc: (typeof docs2)[number]) => doc._id);',
        '    if (ids.length > 0) {',
        '      await docs.bulkWrite(ids.map((id: (typeof ids)[number]) => ({ updateOne: { filter: { ...filter, _id: id }, update: update } })));',
        '    }',
        '  }',
        '}',
        '',
      ].join('\n'),
    );
  });
});
