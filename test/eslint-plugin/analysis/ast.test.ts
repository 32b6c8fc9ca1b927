import type { TSESTree } from '@typescript-eslint/utils';
import { describe, expect, it } from 'vitest';
import {
  containsNode,
  getKeyName,
  isFunctionNode,
  isLoopNode,
  isNode,
  type KeyNameOptions,
  unwrapExpression,
  type UnwrapOptions,
  visitIdentifiers,
  visitNodes,
} from '../../../eslint-plugin/src/analysis/ast';
import { analyse, findNodes, nodesOfType, textOf } from '../harness';

const RETRY = `
  import { MongoClient } from 'mongodb';
  const orders = new MongoClient('mongodb://localhost').db('shop').collection('orders');
  export async function save(order: { id: string }) {
    for (let attempt = 0; attempt < 3; attempt++) {
      try {
        return await orders.insertOne({ _id: order.id, total: 1 });
      } catch (err) {
        await new Promise((resolve) => setTimeout(resolve, 100 * 2 ** attempt));
      }
    }
    orders.find({}).forEach(function print(doc) { console.log(doc); });
    class Audit { record() { return orders.countDocuments(); } }
    return new Audit();
  }`;

describe('isFunctionNode', () => {
  it('is true for function declarations, function expressions (methods too) and arrows only', () => {
    const found = analyse(RETRY, (context) => findNodes(context, isFunctionNode).map((node) => `${node.type}@${node.loc.start.line}`));
    expect(found).toEqual(['FunctionDeclaration@4', 'ArrowFunctionExpression@9', 'FunctionExpression@12', 'FunctionExpression@13']);
  });
});

describe('isLoopNode', () => {
  it('is true for the five loop statements, not for iteration calls or other statements', () => {
    const code = `
      for (let i = 0; i < 3; i++) {}
      for (const key in item) {}
      for (const row of rows) {}
      while (retrying) {}
      do {} while (retrying);
      rows.forEach((row) => row);
      switch (x) { default: break; }
      label: if (x) break label;`;
    const loops = analyse(code, (context) => context.sourceCode.ast.body.map((statement) => `${statement.type}:${isLoopNode(statement)}`));
    expect(loops).toEqual([
      'ForStatement:true',
      'ForInStatement:true',
      'ForOfStatement:true',
      'WhileStatement:true',
      'DoWhileStatement:true',
      'ExpressionStatement:false',
      'SwitchStatement:false',
      'LabeledStatement:false',
    ]);
  });
});

describe('containsNode', () => {
  it('tells whether a node lies inside another (a node contains itself)', () => {
    const result = analyse(RETRY, (context) => {
      const [loop] = nodesOfType(context, 'ForStatement');
      const [insert, ...others] = nodesOfType(context, 'CallExpression').filter(
        (call) => call.callee.type === 'MemberExpression' && /insertOne|countDocuments/.test(textOf(RETRY, call.callee)),
      );
      if (!loop || !insert || !others[0]) throw new Error('missing nodes');
      return [containsNode(loop, insert), containsNode(insert, loop), containsNode(loop, loop), containsNode(loop, others[0])];
    });
    expect(result).toEqual([true, false, true, false]);
  });
});

describe('visitIdentifiers', () => {
  const code = `export const doc = { _id: order.id, total, [key]: value, nested: { status } };`;

  it('visits variable names, never .property names', () => {
    const names = analyse(code, (context) => {
      const found: string[] = [];
      visitIdentifiers(context.sourceCode.ast, { skipObjectKeys: false }, (identifier) => found.push(identifier.name));
      return found.sort();
    });
    expect(names).toEqual(['_id', 'doc', 'key', 'nested', 'order', 'status', 'status', 'total', 'total', 'value']);
  });

  it('skips object keys when asked, but keeps shorthand properties and computed keys', () => {
    const names = analyse(code, (context) => {
      const found: string[] = [];
      visitIdentifiers(context.sourceCode.ast, { skipObjectKeys: true }, (identifier) => found.push(identifier.name));
      return found.sort();
    });
    expect(names).toEqual(['doc', 'key', 'order', 'status', 'status', 'total', 'total', 'value']);
  });
});

describe('visitNodes', () => {
  const code = `export function pay(pool: Pool, id: string): Promise<void> { return pool.query(sql, [id]); }`;

  it('visits every node once, type annotations included unless skipped', () => {
    const identifiers = (skipTypeAnnotations: boolean) =>
      analyse(code, (context) => {
        const found: string[] = [];
        visitNodes(context.sourceCode.ast, { skipTypeAnnotations }, (node) => {
          if (node.type === 'Identifier') found.push(node.name);
        });
        return found.sort();
      });
    expect(identifiers(false)).toEqual(['Pool', 'Promise', 'id', 'id', 'pay', 'pool', 'pool', 'query', 'sql']);
    expect(identifiers(true)).toEqual(['id', 'id', 'pay', 'pool', 'pool', 'query', 'sql']);
  });

  it('visits a node before its children', () => {
    const late = analyse(code, (context) => {
      const seen = new Set<TSESTree.Node>();
      const childrenFirst: string[] = [];
      visitNodes(context.sourceCode.ast, { skipTypeAnnotations: false }, (node) => {
        if (node.parent && !seen.has(node.parent)) childrenFirst.push(node.type);
        seen.add(node);
      });
      return [seen.size, childrenFirst];
    });
    expect(late).toEqual([expect.any(Number), []]);
    expect(late[0]).toBeGreaterThan(20);
  });

  it('does not enter the children of a node whose visit returns false', () => {
    const types = analyse(code, (context) => {
      const found: string[] = [];
      visitNodes(context.sourceCode.ast, { skipTypeAnnotations: true }, (node) => {
        found.push(node.type);
        return node.type !== 'ReturnStatement';
      });
      return found.sort();
    });
    expect(types).toEqual(['BlockStatement', 'ExportNamedDeclaration', 'FunctionDeclaration', 'Identifier', 'Identifier', 'Identifier', 'Program', 'ReturnStatement']);
  });
});

describe('isNode', () => {
  it('is true for objects with a string type', () => {
    const program = analyse('const a = 1;', (context) => context.sourceCode.ast);
    expect(isNode(program)).toBe(true);
    expect(isNode(program.body[0])).toBe(true);
    expect(isNode({ type: 'Identifier', name: 'x' })).toBe(true);
    for (const value of [null, undefined, 'Identifier', [program], { type: 1 }, { name: 'x' }]) expect(isNode(value)).toBe(false);
  });
});

describe('unwrapExpression', () => {
  /** What `pool` reads as, from the outermost expression of each `use(…)` argument. */
  function unwrapped(code: string, options?: UnwrapOptions): string[] {
    return analyse(code, (context) =>
      nodesOfType(context, 'CallExpression')
        .filter((call) => call.callee.type === 'Identifier' && call.callee.name === 'use')
        .map((call) => textOf(code, unwrapExpression(call.arguments[0] as TSESTree.Node, options))),
    );
  }
  const code = `
    use((pool as Pool)!);
    use(pool satisfies Pool);
    use(<Pool>pool);
    use(client?.pool);
    use(await pool);
    use(getPool());`;

  it('looks through as, !, satisfies, <T> and ?. by default, not through await or calls', () => {
    expect(unwrapped(code)).toEqual(['pool', 'pool', 'pool', 'client?.pool', 'await pool', 'getPool()']);
  });

  it('follows the options', () => {
    expect(unwrapped(code, { typeAssertions: false, chains: false, awaits: true })).toEqual([
      'pool',
      'pool',
      '<Pool>pool',
      'client?.pool',
      'pool',
      'getPool()',
    ]);
  });

  it('unwraps the chain around an optional member', () => {
    const types = analyse(`use(client?.pool);`, (context) => {
      const [argument] = nodesOfType(context, 'ChainExpression');
      if (!argument) throw new Error('no chain');
      return [unwrapExpression(argument).type, unwrapExpression(argument, { chains: false }).type];
    });
    expect(types).toEqual(['MemberExpression', 'ChainExpression']);
  });
});

describe('getKeyName', () => {
  const code = `
    client.db;
    client['db'];
    client[\`db\`];
    client[name];
    client[0];
    const options = { retryWrites: false, 'maxPoolSize': 10, ['tls']: true, [\`appName\`]: 'api', [key]: 1 };
    class Store { #pool = null; static limit = 1; connect() { return this.#pool; } }`;

  function keyNames(options?: KeyNameOptions): (string | undefined)[] {
    return analyse(code, (context) => [
      ...nodesOfType(context, 'MemberExpression'),
      ...nodesOfType(context, 'Property'),
      ...nodesOfType(context, 'PropertyDefinition'),
      ...nodesOfType(context, 'MethodDefinition'),
    ]
      .sort((a, b) => a.range[0] - b.range[0])
      .map((node) => getKeyName(node, options)));
  }

  it('reads identifiers, strings, expression-free templates and private names', () => {
    expect(keyNames()).toEqual(['db', 'db', 'db', undefined, undefined, 'retryWrites', 'maxPoolSize', 'tls', 'appName', undefined, 'pool', 'limit', 'connect', 'pool']);
  });

  it('leaves out computed keys, templates or private names when asked', () => {
    expect(keyNames({ computed: false, privateNames: 'none' })).toEqual([
      'db',
      undefined,
      undefined,
      undefined,
      undefined,
      'retryWrites',
      'maxPoolSize',
      undefined,
      undefined,
      undefined,
      undefined,
      'limit',
      'connect',
      undefined,
    ]);
    expect(keyNames({ templates: false, privateNames: 'hashed' })).toEqual([
      'db',
      'db',
      undefined,
      undefined,
      undefined,
      'retryWrites',
      'maxPoolSize',
      'tls',
      undefined,
      undefined,
      '#pool',
      'limit',
      'connect',
      '#pool',
    ]);
  });
});
