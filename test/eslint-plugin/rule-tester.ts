import path from 'node:path';
import tsParser from '@typescript-eslint/parser';
import { type InvalidTestCase, RuleTester, type RuleTesterConfig, type RunTests, type TestLanguageOptions } from '@typescript-eslint/rule-tester';
import * as espree from 'espree';
import type { RuleModule } from '@typescript-eslint/utils/ts-eslint';
import { Linter } from 'eslint';
import { afterAll, describe, expect, it } from 'vitest';
import { RULE_PREFIX } from '../../eslint-plugin/src/constants';
import plugin from '../../eslint-plugin/src/index';
import { MAX_MESSAGE_LENGTH, findMessageProblems } from './messages';

// RuleTester needs a test framework's hooks; give it vitest's.
RuleTester.afterAll = afterAll;
RuleTester.describe = describe;
RuleTester.it = it;
RuleTester.itOnly = it.only;

/**
 * A RuleTester that also lints each invalid case with every rule of the plugin (the rule
 * under test with the case's options) and checks that no message or suggestion is longer
 * than `MAX_MESSAGE_LENGTH` or shows a password written in the code.
 */
class MessageCheckingRuleTester extends RuleTester {
  readonly #config: RuleTesterConfig;

  constructor(config: RuleTesterConfig) {
    super(config);
    this.#config = config;
  }

  override run<MessageIds extends string, Options extends readonly unknown[]>(
    ruleName: string,
    rule: RuleModule<MessageIds, Options>,
    tests: RunTests<MessageIds, Options>,
  ): void {
    super.run(ruleName, rule, tests);
    const ruleId = Object.entries(plugin.rules).find(([, candidate]) => candidate === (rule as unknown))?.[0];
    if (!ruleId) return;
    describe(ruleName, () => {
      it(`every rule's messages on the invalid cases: at most ${MAX_MESSAGE_LENGTH} characters, no password`, () => {
        let reported = 0;
        const problems = tests.invalid.flatMap((test, index) => {
          const where = `invalid case ${index + 1} (${test.filename ?? 'file.ts'}) `;
          const messages = lintWithEveryRule(this.#config, ruleId, test);
          reported += messages.filter((message) => message.ruleId).length;
          return findMessageProblems(messages, test.code, where);
        });
        expect(problems).toEqual([]);
        if (tests.invalid.length > 0) expect(reported).toBeGreaterThan(0);
      });
    });
  }
}

function lintWithEveryRule(config: RuleTesterConfig, ruleId: string, test: InvalidTestCase<string, readonly unknown[]>): Linter.LintMessage[] {
  const parserOptions = { ...config.languageOptions?.parserOptions, ...test.languageOptions?.parserOptions };
  const filename = test.filename ?? 'file.ts';
  const linter = new Linter({ cwd: path.isAbsolute(filename) ? path.dirname(filename) : process.cwd() });
  const rules: Linter.RulesRecord = Object.fromEntries(Object.keys(plugin.rules).map((id) => [RULE_PREFIX + id, 'error']));
  rules[RULE_PREFIX + ruleId] = ['error', ...(test.options ?? [])];
  return linter.verify(
    test.code,
    {
      files: ['**/*.{js,jsx,mjs,cjs,ts,tsx,mts,cts}'],
      plugins: { 'retry-safety': plugin as never },
      languageOptions: {
        parser: tsParser,
        parserOptions,
        ...(typeof parserOptions.sourceType === 'string' ? { sourceType: parserOptions.sourceType as 'module' | 'script' } : {}),
        ...(test.languageOptions?.globals ? { globals: test.languageOptions.globals as Linter.Globals } : {}),
      },
      rules,
      settings: { ...config.settings, ...test.settings },
    },
    filename,
  );
}

/** Lints test code with @typescript-eslint/parser and no type information. */
export function createRuleTester(settings: Record<string, unknown> = {}): RuleTester {
  return new MessageCheckingRuleTester({ languageOptions: { parserOptions: { ecmaVersion: 'latest', sourceType: 'module' } }, settings });
}

/** Folder of the typed-linting fixture project (its tsconfig includes `file.ts`). */
export const typedFixtureDir = path.join(import.meta.dirname, '..', 'fixtures', 'typed');

/**
 * Lints test code with full type information (typed linting): the code is checked
 * as `test/fixtures/typed/file.ts`, which sees the real `mongodb` types.
 */
export function createTypedRuleTester(settings: Record<string, unknown> = {}): RuleTester {
  return new MessageCheckingRuleTester({
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: typedFixtureDir },
    },
    settings,
  });
}

/** Filename to pass in typed test cases. */
export const typedFilename = path.join(typedFixtureDir, 'file.ts');

/** CommonJS parsed by ESLint's own parser, whose scope for the file is a function scope (flat config's `sourceType`, which the tester's type leaves out). */
export const commonJsWithEspree = { parser: espree, sourceType: 'commonjs' } as unknown as TestLanguageOptions;
