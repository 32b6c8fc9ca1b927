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
});
