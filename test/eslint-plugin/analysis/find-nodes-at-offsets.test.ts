import { describe, expect, it } from 'vitest';
import { findMemberCallsNamed, findNodesAtOffsets } from '../../../eslint-plugin/src/analysis/find-nodes-at-offsets';
import { analyse, textOf } from '../harness';

const CODE = `
  import { MongoClient } from 'mongodb';
  const orders = new MongoClient('mongodb://localhost').db('shop').collection('orders');
  // orders.updateMany({}, {}) is only a comment
  export async function close(id: string) {
    await orders.updateMany({ id }, { $set: { status: 'closed' } });
    await orders
      .deleteOne({ id });
    const label = 'orders.updateMany';
    orders['updateMany']({}, {});
    return orders.updateManyLater;
  }`;

describe('findNodesAtOffsets', () => {
  it('returns the deepest node at each offset, keyed by offset', () => {
    const found = analyse(CODE, (context) => {
      const offsets = [CODE.indexOf('updateMany({ id }'), CODE.indexOf('{ id }') + 2, CODE.indexOf("'closed'"), CODE.indexOf('export')];
      const nodes = findNodesAtOffsets(context, offsets);
      return offsets.map((offset) => {
        const node = nodes.get(offset);
        return node && `${node.type}: ${textOf(CODE, node).slice(0, 30)}`;
      });
    });
    expect(found).toEqual([
      'Identifier: updateMany',
      'Identifier: id',
      "Literal: 'closed'",
      'ExportNamedDeclaration: export async function close(id',
    ]);
  });

  it('gives the innermost node that covers an offset in a comment or between tokens, and skips offsets outside the file', () => {
    const found = analyse(CODE, (context) => {
      const offsets = [CODE.indexOf('// orders'), CODE.indexOf('{ $set') - 1, CODE.length + 10, -1];
      const nodes = findNodesAtOffsets(context, [...offsets, offsets[0]!]);
      return [nodes.size, ...offsets.map((offset) => nodes.get(offset)?.type)];
    });
    expect(found).toEqual([2, 'Program', 'CallExpression', undefined, undefined]);
  });
});

describe('findMemberCallsNamed', () => {
  it('finds real member calls with those names, not comments, strings, computed members or longer names', () => {
    const calls = analyse(CODE, (context) =>
      findMemberCallsNamed(context, ['updateMany', 'deleteOne', 'insertOne']).map(
        ({ call, receiver, name }) => `${name} on ${textOf(CODE, receiver)} @${call.loc.start.line}`,
      ),
    );
    expect(calls).toEqual(['updateMany on orders @6', 'deleteOne on orders @7']);
  });

  it('finds nothing when no name occurs', () => {
    expect(analyse(CODE, (context) => findMemberCallsNamed(context, ['bulkWrite']))).toEqual([]);
  });
});
