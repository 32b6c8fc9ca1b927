import * as tsParser from '@typescript-eslint/parser';
import type { AST_NODE_TYPES, TSESLint, TSESTree } from '@typescript-eslint/utils';
import { Linter } from 'eslint';
import { visitNodes } from '../../../eslint-plugin/src/analysis/ast';

/**
 * The fix helpers' tests harness: a code string parsed and scope-analysed by a real
 * ESLint pass (@typescript-eslint/parser), its `SourceCode` handed to the test, and the
 * fix a test builds applied the way ESLint applies a rule's fix.
 */

export type SourceCode = Readonly<TSESLint.SourceCode>;

export interface ParseOptions {
  /** `module` (the default) or `commonjs`. */
  sourceType?: 'module' | 'commonjs';
}

/** Runs `read` on the parsed `code` (at `Program:exit`) and returns what it returned. */
export function inFile<T>(code: string, read: (sourceCode: SourceCode) => T, options: ParseOptions = {}): T {
  let result: { value: T } | undefined;
  runProbe(code, options, (sourceCode) => {
    result = { value: read(sourceCode) };
    return null;
  });
  if (!result) throw new Error('the probe rule did not run');
  return result.value;
}

/**
 * The code after the fix `build` makes on the parsed `code`, as ESLint applies it (the
 * edits of one fix merged into one); undefined when `build` makes no fix.
 */
export function applyFix(
  code: string,
  build: (sourceCode: SourceCode) => TSESLint.ReportFixFunction | null | undefined,
  options: ParseOptions = {},
): string | undefined {
  const messages = runProbe(code, options, build);
  const fix = messages.find((message) => message.ruleId === 'probe/probe')?.fix;
  if (!fix) return undefined;
  return code.slice(0, fix.range[0]) + fix.text + code.slice(fix.range[1]);
}

/** The first node of `type` (depth first, in source order) that `test` accepts. */
export function findNode<T extends AST_NODE_TYPES>(
  sourceCode: SourceCode,
  type: T,
  test: (node: Extract<TSESTree.Node, { type: T }>) => boolean = () => true,
): Extract<TSESTree.Node, { type: T }> {
  let found: Extract<TSESTree.Node, { type: T }> | undefined;
  visitNodes(sourceCode.ast as TSESTree.Node, { skipTypeAnnotations: false }, (node) => {
    if (found) return false;
    if (node.type === type && test(node as Extract<TSESTree.Node, { type: T }>)) found = node as Extract<TSESTree.Node, { type: T }>;
    return !found;
  });
  if (!found) throw new Error(`no ${type} found`);
  return found;
}

/** The text of `range` in `code`. */
export function textOf(code: string, range: readonly [number, number]): string {
  return code.slice(range[0], range[1]);
}

function runProbe(
  code: string,
  options: ParseOptions,
  build: (sourceCode: SourceCode) => TSESLint.ReportFixFunction | null | undefined,
): Linter.LintMessage[] {
  const rule = {
    meta: { type: 'problem', fixable: 'code', schema: [] },
    create(context: { sourceCode: unknown; report(descriptor: unknown): void }) {
      return {
        'Program:exit'() {
          const fix = build(context.sourceCode as SourceCode);
          if (fix) context.report({ loc: { line: 1, column: 0 }, message: 'probe', fix });
        },
      };
    },
  };
  const linter = new Linter({ configType: 'flat' });
  const messages = linter.verify(
    code,
    [
      {
        files: ['**/*.ts'],
        languageOptions: { parser: tsParser, sourceType: options.sourceType ?? 'module', ecmaVersion: 'latest' },
        plugins: { probe: { rules: { probe: rule as never } } },
        rules: { 'probe/probe': 'error' },
      },
    ] as Linter.Config[],
    'file.ts',
  );
  const fatal = messages.find((message) => message.fatal);
  if (fatal) throw new Error(`parse error: ${fatal.message}`);
  return messages;
}
