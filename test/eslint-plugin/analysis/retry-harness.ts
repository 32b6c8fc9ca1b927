import * as parser from '@typescript-eslint/parser';
import type { TSESLint } from '@typescript-eslint/utils';
import { Linter } from 'eslint';

type Context = Readonly<TSESLint.RuleContext<string, readonly unknown[]>>;

/**
 * Parses `code` with @typescript-eslint/parser and runs `analyze` with a real rule
 * context (the same one rules get), returning its result and the source text.
 */
export function analyzeCode<T>(code: string, analyze: (context: Context) => T, filename = 'file.ts'): T {
  let result: T | undefined;
  let failure: unknown;
  const linter = new Linter({ configType: 'flat' });
  const messages = linter.verify(
    code,
    [
      {
        files: ['**/*.ts', '**/*.js', '**/*.mjs', '**/*.cjs'],
        languageOptions: { parser, sourceType: filename.endsWith('.cjs') ? 'commonjs' : 'module' },
        plugins: {
          probe: {
            rules: {
              analyze: {
                create(context) {
                  return {
                    Program() {
                      try {
                        result = analyze(context as unknown as Context);
                      } catch (error) {
                        failure = error;
                      }
                    },
                  };
                },
              },
            },
          },
        },
        rules: { 'probe/analyze': 'error' },
      },
    ],
    filename,
  );
  if (failure) throw failure;
  const fatal = messages.find((message) => message.fatal);
  if (fatal) throw new Error(`parse error: ${fatal.message}`);
  return result as T;
}
