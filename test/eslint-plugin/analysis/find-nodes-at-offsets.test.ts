import { visitorKeys } from '@typescript-eslint/visitor-keys';
import type { TSESTree } from '@typescript-eslint/utils';
import { describe, expect, it } from 'vitest';
import { findComputedMemberCalls, findMemberCallsNamed, findNodesAtOffsets, findThisExpressions, hasMemberCallText, isNameChar, skipName, skipSpaces } from '../../../eslint-plugin/src/analysis/find-nodes-at-offsets';
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

/** The reference answer: at each level, the first child (in visitor-key order, each list scanned in full) whose range holds the offset. */
function deepestByScan(root: TSESTree.Node, offset: number): TSESTree.Node {
  const keys = visitorKeys as Record<string, readonly string[] | undefined>;
  let current = root;
  for (;;) {
    let next: TSESTree.Node | undefined;
    for (const key of keys[current.type] ?? []) {
      const value = (current as unknown as Record<string, unknown>)[key];
      for (const child of Array.isArray(value) ? value : [value]) {
        const node = child as TSESTree.Node | null | undefined;
        if (node && typeof node.type === 'string' && node.range[0] <= offset && offset < node.range[1]) {
          next = node;
          break;
        }
      }
      if (next) break;
    }
    if (!next) return current;
    current = next;
  }
}

describe('findNodesAtOffsets on long lists', () => {
  // Long statement, argument, element (with holes), property and class-member lists.
  const statements = Array.from({ length: 40 }, (_, index) => `const v${index} = f(${index}, [${index}, , ${index + 1}], { k${index}: ${index} });`).join('\n');
  const code = `${statements}
call(${Array.from({ length: 30 }, (_, index) => `a${index}`).join(', ')});
const holes = [${Array.from({ length: 20 }, (_, index) => (index % 3 === 0 ? '' : `h${index}`)).join(', ')}];
class Big { ${Array.from({ length: 20 }, (_, index) => `m${index}() { return this.x${index}; } // note ${index}`).join('\n')}\n}
const text = \`a \${statements} b \${holes} c\`;`;

  it('finds for every offset, alone, all at once or in sparse groups, what a full scan finds', () => {
    const result = analyse(code, (context) => {
      const root = context.sourceCode.ast as TSESTree.Node;
      const offsets = Array.from({ length: code.length }, (_, index) => index);
      const expected = offsets.map((offset) => deepestByScan(root, offset));
      const together = findNodesAtOffsets(context, offsets);
      // Sparse groups: offsets in gaps between a long list's children, next to offsets in them.
      const sparse = findNodesAtOffsets(context, offsets.filter((offset) => offset % 7 === 0));
      const mismatches: string[] = [];
      for (const [index, offset] of offsets.entries()) {
        const alone = findNodesAtOffsets(context, [offset]).get(offset);
        const inSparse = offset % 7 === 0 ? sparse.get(offset) : expected[index];
        if (alone !== expected[index] || together.get(offset) !== expected[index] || inSparse !== expected[index]) mismatches.push(`${offset}: ${expected[index]?.type}`);
      }
      return { checked: offsets.length, mismatches };
    });
    expect(result.mismatches).toEqual([]);
    expect(result.checked).toBe(code.length);
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

  it('answers each list asked of one file, also a list with names not asked for before, and prefixes of longer names', () => {
    const code = `
      store.find$x(1);
      store.find(2);
      store.findOne(3);
      pool . query('SELECT 1');
      client?.neverAskedBefore(4);`;
    const found = analyse(code, (context) => {
      const names = (list: string[]): string[] => findMemberCallsNamed(context, list).map(({ name, call }) => `${name}@${call.loc.start.line}`);
      return { first: names(['find']), second: names(['findOne', 'query']), third: names(['neverAskedBefore']), again: names(['find', 'findOne']) };
    });
    expect(found).toEqual({ first: ['find@3'], second: ['findOne@4', 'query@5'], third: ['neverAskedBefore@6'], again: ['find@3', 'findOne@4'] });
  });

  it('answers a long list asked again for other files, also after the search was started again with many new names', () => {
    // Long lists are remembered once their names are in the search; short ones are added each time.
    const longList = ['alphaWrite', 'betaWrite', 'gammaWrite', 'deltaWrite', 'epsilonWrite', 'zetaWrite'];
    const code = (call: string): string => `store.${call}(1);\nstore.other(2);`;
    const namesIn = (text: string, list: readonly string[]): string[] => analyse(text, (context) => findMemberCallsNamed(context, list).map(({ name }) => name));
    expect(namesIn(code('alphaWrite'), longList)).toEqual(['alphaWrite']);
    expect(namesIn(code('zetaWrite'), longList)).toEqual(['zetaWrite']);
    // More names than the search keeps: it starts again, and the long list must be searched for again.
    for (let batch = 0; batch < 110; batch++) {
      const many = Array.from({ length: 5 }, (_, index) => `unused${batch}x${index}`);
      namesIn(code('other'), many);
    }
    expect(namesIn(code('gammaWrite'), longList)).toEqual(['gammaWrite']);
  });
});

describe('findComputedMemberCalls', () => {
  it('finds calls whose computed key can name a method, not list elements or well-known symbols', () => {
    const code = `
      const method = pick();
      client[method](params);
      client['deleteMany']({});
      client[\`\${verb}Item\`](params);
      handlers[0](event);
      handlers[i + 1](event);
      await resource[Symbol.asyncDispose]();
      const read = client[method];
      client.send(command);`;
    const found = analyse(code, (context) => findComputedMemberCalls(context).map(({ call }) => textOf(code, call.callee)));
    expect(found).toEqual(['client[method]', "client['deleteMany']", 'client[`${verb}Item`]', 'handlers[i + 1]']);
  });
});

describe('hasMemberCallText', () => {
  it('is true for a name followed by a call or type arguments, not for a property read or a longer name', () => {
    const has = (code: string, names: string[]): boolean => analyse(code, (context) => hasMemberCallText(context, names));
    expect(has('db.collection ("orders");', ['collection'])).toBe(true);
    expect(has('db.collection<Order>("orders");', ['collection'])).toBe(true);
    expect(has('const c = db.collection;', ['collection'])).toBe(false);
    expect(has('db.collections();', ['collection'])).toBe(false);
  });
});

describe('findThisExpressions', () => {
  it('finds every this inside a node, in source order, not in comments, strings, longer names or outside it', () => {
    const code = `const before = this;
class Store {
  // this is a comment
  constructor() { this.label = 'this'; const thisOne = 1; this.other = () => this; }
  run() { return function () { return this.x; }; }
  get thisValue() { return a.this; }
}
const after = this;`;
    const found = analyse(code, (context) => {
      const store = context.sourceCode.ast.body[1] as TSESTree.ClassDeclaration;
      return findThisExpressions(context, store.body).map((node) => `${node.type} ${node.loc.start.line}:${node.loc.start.column}`);
    });
    expect(found).toEqual(['ThisExpression 4:18', 'ThisExpression 4:58', 'ThisExpression 4:77', 'ThisExpression 5:38']);
  });
});

describe('the text helpers', () => {
  it('tell name characters and skip names and spaces both ways, Unicode spaces included', () => {
    expect(['a', 'Z', '0', '_', '$'].map(isNameChar)).toEqual([true, true, true, true, true]);
    expect(['.', ' ', '-', 'é', '', undefined].map(isNameChar)).toEqual([false, false, false, false, false, false]);
    const text = 'a\u00a0\t\n $x_1\u2028.b';
    expect(skipSpaces(text, 1, 1)).toBe(5);
    expect(skipName(text, 5, 1)).toBe(9);
    expect(skipSpaces(text, 9, 1)).toBe(10);
    expect(skipName(text, 8, -1)).toBe(4);
    expect(skipSpaces(text, 4, -1)).toBe(0);
    expect(skipName(text, text.length - 1, 1)).toBe(text.length);
  });
});
