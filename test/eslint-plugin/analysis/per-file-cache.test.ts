import { describe, expect, it } from 'vitest';
import { type AnyRuleContext, createPerFileCache } from '../../../eslint-plugin/src/analysis/per-file-cache';
import { analyse } from '../harness';

const CODE = `
  import { Pool } from 'pg';
  const pool = new Pool();
  await pool.query('SELECT 1');`;

describe('createPerFileCache', () => {
  it('computes once per file, for every rule context that asks', () => {
    let runs = 0;
    const countStatements = createPerFileCache((context) => {
      runs += 1;
      return context.sourceCode.ast.body.length;
    });
    const results = analyse(CODE, (context) => {
      // Another rule linting the same file gets its own context over the same tree.
      const otherRule = Object.create(context) as AnyRuleContext;
      return [countStatements(context), countStatements(otherRule), countStatements(context)];
    });
    expect(results).toEqual([3, 3, 3]);
    expect(runs).toBe(1);
  });

  it('computes again for another file, or the same text linted again', () => {
    let runs = 0;
    const firstStatement = createPerFileCache((context) => {
      runs += 1;
      return context.sourceCode.ast.body[0]?.type;
    });
    expect(analyse(CODE, firstStatement)).toBe('ImportDeclaration');
    expect(analyse(`export const pool = 1;`, firstStatement)).toBe('ExportNamedDeclaration');
    expect(analyse(CODE, firstStatement)).toBe('ImportDeclaration');
    expect(runs).toBe(3);
  });

  it('keeps an undefined result instead of computing it again', () => {
    let runs = 0;
    const nothing = createPerFileCache((): undefined => {
      runs += 1;
      return undefined;
    });
    expect(analyse(CODE, (context) => [nothing(context), nothing(context)])).toEqual([undefined, undefined]);
    expect(runs).toBe(1);
  });

  it('works for a cache made after a file was first analysed', () => {
    const first = createPerFileCache((context) => context.sourceCode.ast.body.length);
    const results = analyse(CODE, (context) => {
      const late = createPerFileCache((lateContext) => lateContext.sourceCode.ast.body[0]?.type);
      return [first(context), late(context), late(context), first(context)];
    });
    expect(results).toEqual([3, 'ImportDeclaration', 'ImportDeclaration', 3]);
  });

  it('keeps each file its own result when computing one asks about another file', () => {
    const statementCount = createPerFileCache((context) => context.sourceCode.ast.body.length);
    const withImported = createPerFileCache((context): { own: number; imported?: number[] } => {
      const own = statementCount(context);
      if (context.sourceCode.ast.body[0]?.type !== 'ImportDeclaration') return { own };
      // As the module index does: analyse an imported module while this file's answer is pending.
      const imported = analyse(`export const pool = 1; export const other = 2;`, (moduleContext) => [statementCount(moduleContext), withImported(moduleContext).own]);
      return { own, imported };
    });
    const results = analyse(CODE, (context) => [withImported(context), statementCount(context), withImported(context)]);
    expect(results[0]).toEqual({ own: 3, imported: [2, 2] });
    expect(results[1]).toBe(3);
    expect(results[2]).toBe(results[0]);
  });
});
