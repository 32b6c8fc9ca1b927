import path from 'node:path';
import { RuleTester } from '@typescript-eslint/rule-tester';
import { afterAll, describe, it } from 'vitest';

// RuleTester needs a test framework's hooks; give it vitest's.
RuleTester.afterAll = afterAll;
RuleTester.describe = describe;
RuleTester.it = it;
RuleTester.itOnly = it.only;

/** Lints test code with @typescript-eslint/parser and no type information. */
export function createRuleTester(settings: Record<string, unknown> = {}): RuleTester {
  return new RuleTester({ languageOptions: { parserOptions: { ecmaVersion: 'latest', sourceType: 'module' } }, settings });
}

/** Folder of the typed-linting fixture project (its tsconfig includes `file.ts`). */
export const typedFixtureDir = path.join(import.meta.dirname, '..', 'fixtures', 'typed');

/**
 * Lints test code with full type information (typed linting): the code is checked
 * as `test/fixtures/typed/file.ts`, which sees the real `mongodb` types.
 */
export function createTypedRuleTester(settings: Record<string, unknown> = {}): RuleTester {
  return new RuleTester({
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: typedFixtureDir },
    },
    settings,
  });
}

/** Filename to pass in typed test cases. */
export const typedFilename = path.join(typedFixtureDir, 'file.ts');
