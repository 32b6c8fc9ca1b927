import { Linter } from 'eslint';
import tsParser from '@typescript-eslint/parser';
import type { TSESLint } from '@typescript-eslint/utils';
import type { AnyRuleContext } from '../../../eslint-plugin/src/analysis/per-file-cache';
import { typedFilename, typedFixtureDir } from '../rule-tester';

/**
 * Runs `analyse` on `code` inside a throwaway rule (the way rules call the analysis)
 * and returns what it produced. `typed` lints the code as the typed fixture file.
 */
export function analyse<T>(code: string, analyseFile: (context: AnyRuleContext) => T, options: { typed?: boolean; js?: boolean } = {}): T {
  let result: T | undefined;
  const rule: TSESLint.RuleModule<string, []> = {
    defaultOptions: [],
    meta: { type: 'problem', messages: {}, schema: [] },
    create(context) {
      return {
        'Program:exit'() {
          result = analyseFile(context as unknown as AnyRuleContext);
        },
      };
    },
  };
  const linter = new Linter({ configType: 'flat' });
  const languageOptions: Linter.Config['languageOptions'] = options.js
    ? { sourceType: 'commonjs', ecmaVersion: 'latest' }
    : options.typed
      ? { parser: tsParser, parserOptions: { projectService: true, tsconfigRootDir: typedFixtureDir } }
      : { parser: tsParser, parserOptions: { ecmaVersion: 'latest', sourceType: 'module' } };
  const messages = linter.verify(
    code,
    [{ files: ['**/*.ts', '**/*.js'], plugins: { test: { rules: { analyse: rule as never } } }, rules: { 'test/analyse': 'error' }, languageOptions }],
    options.typed ? typedFilename : options.js ? 'file.js' : 'file.ts',
  );
  const fatal = messages.find((message) => message.fatal);
  if (fatal) throw new Error(fatal.message);
  return result as T;
}
