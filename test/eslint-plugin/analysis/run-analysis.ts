import path from 'node:path';
import { Linter } from 'eslint';
import * as tsParser from '@typescript-eslint/parser';
import type { AnyRuleContext } from '../../../eslint-plugin/src/analysis/per-file-cache';

/**
 * Runs `analyse` on `code` inside a real ESLint run (TS parser, scope analysis) and
 * returns what it produced, so analysis modules can be unit-tested with a rule context.
 */
export function runAnalysis<T>(
  code: string,
  analyse: (context: AnyRuleContext) => T,
  sourceType: 'module' | 'commonjs' = 'module',
  { typed = false }: { typed?: boolean } = {},
): T {
  let result: T | undefined;
  let ran = false;
  const linter = new Linter({ configType: 'flat' });
  const messages = linter.verify(code, [
    {
      files: ['**/*.ts'],
      languageOptions: {
        parser: tsParser,
        sourceType,
        ecmaVersion: 'latest',
        parserOptions: typed ? { projectService: true, tsconfigRootDir: typedDbFixtureDir } : {},
      },
      plugins: {
        probe: {
          rules: {
            probe: {
              create(context: unknown) {
                return {
                  'Program:exit'() {
                    result = analyse(context as AnyRuleContext);
                    ran = true;
                  },
                };
              },
            },
          },
        },
      },
      rules: { 'probe/probe': 'error' },
    },
  ] as Linter.Config[], typed ? typedDbFilename : 'file.ts');
  const fatal = messages.find((message) => message.fatal);
  if (fatal) throw new Error(`parse error: ${fatal.message}`);
  if (!ran) throw new Error('analysis did not run');
  return result as T;
}

/** Typed-linting fixture whose project declares `pg`, `postgres` and the AWS SDK, with a `db.ts` owning clients. */
export const typedDbFixtureDir = path.join(import.meta.dirname, '..', '..', 'fixtures', 'typed-db');
export const typedDbFilename = path.join(typedDbFixtureDir, 'file.ts');

/** The source text of a node. */
export function textOf(code: string, node: { range: [number, number] }): string {
  return code.slice(node.range[0], node.range[1]);
}
