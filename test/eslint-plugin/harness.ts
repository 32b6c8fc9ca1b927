import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import * as tsParser from '@typescript-eslint/parser';
import type { AST_NODE_TYPES, TSESLint, TSESTree } from '@typescript-eslint/utils';
import { Linter } from 'eslint';
import { visitNodes } from '../../eslint-plugin/src/analysis/ast';
import type { AnyRuleContext } from '../../eslint-plugin/src/analysis/per-file-cache';
import plugin from '../../eslint-plugin/src/index';
import { typedFilename, typedFixtureDir } from './rule-tester';

/**
 * The harness of the analysis and fix tests: `analyse` runs an analysis function the way
 * rules run it, inside a real ESLint pass over a code string (parser, scope analysis and,
 * when asked, type information), and returns what the function returned; `applyFix`
 * applies the fix a fix helper builds the way ESLint applies a rule's fix.
 */

/** Typed-linting fixture whose project declares `pg`, `postgres` and the AWS SDK, with a `db.ts` owning clients. */
export const typedDbFixtureDir = path.join(import.meta.dirname, '..', 'fixtures', 'typed-db');
export const typedDbFilename = path.join(typedDbFixtureDir, 'file.ts');

const TYPED_FIXTURES = {
  /** test/fixtures/typed: sees the real `mongodb` types. */
  mongodb: { dir: typedFixtureDir, filename: typedFilename },
  /** test/fixtures/typed-db: `pg`, `postgres`, the AWS SDK, and a `db.ts` that exports clients. */
  db: { dir: typedDbFixtureDir, filename: typedDbFilename },
} as const;

export interface AnalyseOptions {
  /** `module` (the default: `import`/`export`), `commonjs` (`require`, top-level `return`) or `script` (top-level names are globals). */
  sourceType?: 'module' | 'commonjs' | 'script';
  /** `typescript` (the default: @typescript-eslint/parser, `file.ts`) or `javascript` (ESLint's own parser, `file.js`). */
  language?: 'typescript' | 'javascript';
  /**
   * Lint with type information, the code being `file.ts` of a fixture project:
   * `mongodb` (test/fixtures/typed) or `db` (test/fixtures/typed-db, whose `./db.js` exports clients).
   */
  typed?: keyof typeof TYPED_FIXTURES;
  /**
   * Other modules of the project, by path relative to the linted file (`db/mongo.js`):
   * written to a fresh folder on disk, beside the linted file, for the module index to read.
   */
  modules?: Readonly<Record<string, string>>;
  /** Instead of `modules`: a folder `writeModules` made, to lint a file in the same project again. */
  projectDir?: string;
}

const moduleDirs: string[] = [];
process.once('exit', () => {
  for (const dir of moduleDirs) rmSync(dir, { recursive: true, force: true });
});

/** A fresh folder holding `modules` (removed when the process exits); the linted file goes at its root. */
export function writeModules(modules: Readonly<Record<string, string>>): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'retry-safety-modules-'));
  moduleDirs.push(dir);
  for (const [name, text] of Object.entries(modules)) {
    mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    writeFileSync(path.join(dir, name), text);
  }
  return dir;
}

/**
 * Runs `analyseFile` on `code` from a throwaway rule, at `Program:exit` (the whole file
 * traversed), and returns its result. An exception of `analyseFile` is thrown as is;
 * a parse error throws too.
 */
export function analyse<T>(code: string, analyseFile: (context: AnyRuleContext) => T, options: AnalyseOptions = {}): T {
  let result: { value: T } | undefined;
  runProbeRule(code, options, (context) => {
    result = { value: analyseFile(context) };
    return undefined;
  });
  if (!result) throw new Error('the analysis did not run');
  return result.value;
}

export type SourceCode = Readonly<TSESLint.SourceCode>;

/** `analyse` for code that needs only the file's `SourceCode` (the fix helpers). */
export function inFile<T>(code: string, read: (sourceCode: SourceCode) => T, options: AnalyseOptions = {}): T {
  return analyse(code, (context) => read(context.sourceCode), options);
}

/**
 * The code after the fix `build` makes on the parsed `code`, as ESLint applies it (the
 * edits of one fix merged into one); undefined when `build` makes no fix.
 */
export function applyFix(
  code: string,
  build: (sourceCode: SourceCode, context: AnyRuleContext) => TSESLint.ReportFixFunction | null | undefined,
  options: AnalyseOptions = {},
): string | undefined {
  const fix = runProbeRule(code, options, (context) => build(context.sourceCode, context) ?? undefined)?.fix;
  if (!fix) return undefined;
  return code.slice(0, fix.range[0]) + fix.text + code.slice(fix.range[1]);
}

/**
 * Lints `code` with one throwaway fixable rule that calls `atEnd` at `Program:exit` and
 * reports the fix it returns, if any; returns that report. Exceptions of `atEnd` and
 * parse errors are thrown.
 */
function runProbeRule(
  code: string,
  options: AnalyseOptions,
  atEnd: (context: AnyRuleContext) => TSESLint.ReportFixFunction | undefined,
): Linter.LintMessage | undefined {
  const { sourceType = 'module', language = 'typescript', typed, modules } = options;
  if (typed && language !== 'typescript') throw new Error('typed linting needs the TypeScript parser');
  let failure: { error: unknown } | undefined;
  const rule = {
    meta: { type: 'problem', fixable: 'code', schema: [] },
    create(context: AnyRuleContext) {
      return {
        'Program:exit'() {
          try {
            const fix = atEnd(context);
            if (fix) context.report({ loc: { line: 1, column: 0 }, message: 'probe', fix } as never);
          } catch (error) {
            failure = { error };
          }
        },
      };
    },
  };
  const fixture = typed ? TYPED_FIXTURES[typed] : undefined;
  const languageOptions: Linter.Config['languageOptions'] =
    language === 'javascript'
      ? { sourceType, ecmaVersion: 'latest' }
      : {
          parser: tsParser,
          sourceType,
          ecmaVersion: 'latest',
          parserOptions: fixture ? { projectService: true, tsconfigRootDir: fixture.dir } : {},
        };
  const baseName = language === 'javascript' ? 'file.js' : 'file.ts';
  const projectDir = options.projectDir ?? (modules ? writeModules(modules) : undefined);
  const filename = fixture ? fixture.filename : projectDir ? path.join(projectDir, baseName) : baseName;
  const messages = new Linter({ configType: 'flat', ...(projectDir ? { cwd: projectDir } : {}) }).verify(
    code,
    [
      {
        files: ['**/*.ts', '**/*.js'],
        languageOptions,
        plugins: { harness: { rules: { probe: rule as never } } },
        rules: { 'harness/probe': 'error' },
      },
    ],
    filename,
  );
  if (failure) throw failure.error;
  const fatal = messages.find((message) => message.fatal);
  if (fatal) throw new Error(`parse error: ${fatal.message}`);
  return messages.find((message) => message.ruleId === 'harness/probe');
}

/** The source text of a node, or of a range. */
export function textOf(code: string, target: { range: readonly [number, number] } | readonly [number, number]): string {
  const [start, end] = 'range' in target ? target.range : target;
  return code.slice(start, end);
}

/** The first node of `type` (depth first, in source order) that `test` accepts; throws when there is none. */
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

/** Every node of the file that `test` accepts, in source order (outer before inner), found with the parser's visitor keys. */
export function findNodes<N extends TSESTree.Node = TSESTree.Node>(context: AnyRuleContext, test: (node: TSESTree.Node) => node is N): N[];
export function findNodes(context: AnyRuleContext, test?: (node: TSESTree.Node) => boolean): TSESTree.Node[];
export function findNodes(context: AnyRuleContext, test: (node: TSESTree.Node) => boolean = () => true): TSESTree.Node[] {
  const found: TSESTree.Node[] = [];
  const keys = context.sourceCode.visitorKeys as Record<string, readonly string[] | undefined>;
  const visit = (node: TSESTree.Node): void => {
    if (test(node)) found.push(node);
    for (const key of keys[node.type] ?? []) {
      const value = (node as unknown as Record<string, unknown>)[key];
      for (const child of Array.isArray(value) ? value : [value]) {
        if (child && typeof child === 'object' && typeof (child as { type?: unknown }).type === 'string') visit(child as TSESTree.Node);
      }
    }
  };
  visit(context.sourceCode.ast as TSESTree.Node);
  return found.sort((a, b) => a.range[0] - b.range[0]);
}

/** Every node of the file with the given type, in source order (outer before inner). */
export function nodesOfType<K extends `${AST_NODE_TYPES}`>(context: AnyRuleContext, type: K): Extract<TSESTree.Node, { type: K }>[] {
  return findNodes(context, (node): node is Extract<TSESTree.Node, { type: K }> => node.type === type);
}

/**
 * Lints `code` (TypeScript, an ES module, `file.ts`) with some of the plugin's rules,
 * named without the `retry-safety/` prefix, and returns ESLint's messages.
 */
export function lintWithPlugin(code: string, rules: readonly string[], modules?: Readonly<Record<string, string>>): Linter.LintMessage[] {
  // With `modules`, the file is linted at the root of a fresh folder that holds them.
  const projectDir = modules ? writeModules(modules) : undefined;
  return new Linter({ configType: 'flat', ...(projectDir ? { cwd: projectDir } : {}) }).verify(
    code,
    [
      {
        files: ['**/*.ts'],
        languageOptions: { parser: tsParser, sourceType: 'module', ecmaVersion: 'latest' },
        plugins: { 'retry-safety': plugin as never },
        rules: Object.fromEntries(rules.map((name) => [`retry-safety/${name}`, 'error'])),
      },
    ],
    projectDir ? path.join(projectDir, 'file.ts') : 'file.ts',
  );
}
