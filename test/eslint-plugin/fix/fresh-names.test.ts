import { AST_NODE_TYPES } from '@typescript-eslint/utils';
import { describe, expect, it } from 'vitest';
import { getUsedNames, getUsedNamesInFile, isNameTakenAround, isNameTakenAt, pickFreeName, pickNumberedName } from '../../../eslint-plugin/src/fix';
import { analyse, findNode, inFile } from '../harness';

describe('pickFreeName', () => {
  it('gives the first candidate that is not taken', () => {
    expect(pickFreeName(['token', 'requestToken', 'key'], (name) => name === 'token')).toBe('requestToken');
  });

  it('gives undefined when every candidate is taken', () => {
    expect(pickFreeName(['a', 'b'], () => true)).toBeUndefined();
  });
});

describe('pickNumberedName', () => {
  it('gives the base name when it is free, else the first free numbered one', () => {
    expect(pickNumberedName('id', () => false)).toBe('id');
    expect(pickNumberedName('id', (name) => ['id', 'id2', 'id3'].includes(name))).toBe('id4');
  });
});

describe('getUsedNames', () => {
  it('collects the identifiers and keywords written in a node, not the ones outside it', () => {
    const code = 'const outside = 1;\nfunction save(doc: Doc) { return db.insert(doc); }\n';
    const names = inFile(code, (sourceCode) => getUsedNames(sourceCode, findNode(sourceCode, AST_NODE_TYPES.FunctionDeclaration)));
    expect([...names].sort()).toEqual(['Doc', 'db', 'doc', 'function', 'insert', 'return', 'save']);
  });
});

describe('getUsedNamesInFile', () => {
  it('is getUsedNames of the whole file, collected once per file and shared', () => {
    const code = 'const outside = 1;\nfunction save(doc: Doc) { return db.insert(doc); }\n';
    const { names, again, whole } = analyse(code, (context) => ({
      names: getUsedNamesInFile(context),
      again: getUsedNamesInFile(context),
      whole: getUsedNames(context.sourceCode, context.sourceCode.ast),
    }));
    expect(again).toBe(names);
    expect([...names].sort()).toEqual([...whole].sort());
    expect([...names].sort()).toEqual(['Doc', 'const', 'db', 'doc', 'function', 'insert', 'outside', 'return', 'save']);
  });

  it('is computed afresh for another file', () => {
    const first = analyse('const a = 1;', (context) => getUsedNamesInFile(context));
    const second = analyse('const b = 2;', (context) => getUsedNamesInFile(context));
    expect([...first]).toEqual(['const', 'a']);
    expect([...second]).toEqual(['const', 'b']);
  });
});

describe('isNameTakenAt / isNameTakenAround', () => {
  const code = [
    'const shared = 1;',
    'async function run(items) {',
    '  const before = 2;',
    '  for (const item of items) {',
    '    const requestId = randomUUID();',
    '    await put({ id: requestId, item });',
    '  }',
    '}',
  ].join('\n');

  it('sees the variables visible before the anchor, in its block and outside it', () => {
    const taken = inFile(code, (sourceCode) => {
      const loop = findNode(sourceCode, AST_NODE_TYPES.ForOfStatement);
      return ['shared', 'before', 'items', 'requestId', 'item', 'free'].filter((name) => isNameTakenAt(sourceCode, name, loop));
    });
    expect(taken).toEqual(['shared', 'before', 'items']);
  });

  it('does not count a variable declared in `own` (the declaration being moved)', () => {
    const code2 = 'function f() {\n  const id = 1;\n  g(id);\n}\n';
    const result = inFile(code2, (sourceCode) => {
      const declaration = findNode(sourceCode, AST_NODE_TYPES.VariableDeclaration);
      const call = findNode(sourceCode, AST_NODE_TYPES.ExpressionStatement);
      return [isNameTakenAt(sourceCode, 'id', call), isNameTakenAt(sourceCode, 'id', call, declaration)];
    });
    expect(result).toEqual([true, false]);
  });

  it('also counts the variables visible where the name will be used', () => {
    const taken = inFile(code, (sourceCode) => {
      const loop = findNode(sourceCode, AST_NODE_TYPES.ForOfStatement);
      const site = findNode(sourceCode, AST_NODE_TYPES.ObjectExpression);
      const isTaken = isNameTakenAround(sourceCode, loop, site);
      return ['shared', 'requestId', 'item', 'idempotencyKey'].filter(isTaken);
    });
    expect(taken).toEqual(['shared', 'requestId', 'item']);
  });
});
