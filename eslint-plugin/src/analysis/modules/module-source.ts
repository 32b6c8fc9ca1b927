import { analyze } from 'eslint-scope';
import type { TSESTree } from '@typescript-eslint/utils';
import { SourceCode } from 'eslint';
import type { AnyRuleContext } from '../per-file-cache';
import { getModuleSettings } from './module-files';

/**
 * Another module of the project, parsed with the parser the linted file uses and given
 * the shape of a rule context, so that the same analyses that read the linted file can
 * read it. Parsing only: type information is never asked for (no `project` options).
 */

interface ParserLike {
  parse?: (text: string, options?: unknown) => unknown;
  parseForESLint?: (text: string, options?: unknown) => { ast: unknown; scopeManager?: unknown; visitorKeys?: unknown };
}

type VisitorKeys = Record<string, readonly string[] | undefined>;

const JSX_EXTENSIONS = /\.(?:jsx|tsx|js|mjs|cjs)$/;

/** A parsed module as the analyses see it; `report` does nothing. */
export function parseModule(context: AnyRuleContext, file: string, text: string): AnyRuleContext | undefined {
  const parser = (context.languageOptions as { parser?: ParserLike } | undefined)?.parser;
  const visitorKeys = context.sourceCode.visitorKeys as VisitorKeys;
  const parsed = parser ? parseWith(parser, file, blankInlineSourceMap(text), visitorKeys) : undefined;
  if (!parsed) return undefined;
  try {
    setParents(parsed.ast, parsed.visitorKeys);
    const ast = parsed.ast as TSESTree.Program & { tokens?: unknown[]; comments?: unknown[] };
    ast.tokens = [];
    ast.comments = [];
    const sourceCode = new SourceCode({
      text,
      ast: parsed.ast as never,
      scopeManager: parsed.scopeManager as never,
      visitorKeys: parsed.visitorKeys as never,
      parserServices: {},
    });
    // What the analyses read of a context; the linted file's settings and options apply.
    return {
      id: context.id,
      cwd: context.cwd,
      filename: file,
      physicalFilename: file,
      languageOptions: context.languageOptions,
      settings: getModuleSettings(context),
      options: [],
      sourceCode: sourceCode as unknown as AnyRuleContext['sourceCode'],
      report: () => undefined,
    } as unknown as AnyRuleContext;
  } catch {
    return undefined;
  }
}

/** A trailing `//# sourceMappingURL=data:…` comment (compiled output): often most of the file. */
const INLINE_SOURCE_MAP = /\/\/# sourceMappingURL=data:[^\n]*\s*$/;

/**
 * The text with a trailing inline source map turned into spaces: the parser skips them
 * instead of copying a comment of hundreds of kilobytes, and every offset stays the same
 * (the module's `SourceCode` keeps the text as read).
 */
export function blankInlineSourceMap(text: string): string {
  const start = text.lastIndexOf('//# sourceMappingURL=data:');
  if (start < 0 || !INLINE_SOURCE_MAP.test(text.slice(start))) return text;
  return text.slice(0, start) + ' '.repeat(text.length - start);
}

function parseWith(
  parser: ParserLike,
  file: string,
  text: string,
  fallbackKeys: VisitorKeys,
): { ast: TSESTree.Program; scopeManager: unknown; visitorKeys: VisitorKeys } | undefined {
  for (const sourceType of ['module', 'script'] as const) {
    const options = {
      ecmaVersion: 'latest',
      sourceType,
      range: true,
      loc: true,
      // The analyses of a module read its tree and scopes, not its tokens: skipping them
      // saves most of the cost of ESLint's token index.
      tokens: false,
      comment: false,
      filePath: file,
      ecmaFeatures: { jsx: JSX_EXTENSIONS.test(file) && !file.endsWith('.ts') },
    };
    try {
      if (parser.parseForESLint) {
        const result = parser.parseForESLint(text, options);
        const ast = result.ast as TSESTree.Program;
        const scopeManager = result.scopeManager ?? analyzeScopes(ast, sourceType, fallbackKeys);
        return { ast, scopeManager, visitorKeys: (result.visitorKeys as VisitorKeys | undefined) ?? fallbackKeys };
      }
      if (parser.parse) {
        const ast = parser.parse(text, options) as TSESTree.Program;
        return { ast, scopeManager: analyzeScopes(ast, sourceType, fallbackKeys), visitorKeys: fallbackKeys };
      }
    } catch {
      // Not parseable as a module: try as a script, then give up on this module.
    }
  }
  return undefined;
}

/** Scope analysis as ESLint does it for parsers that give none (espree). */
function analyzeScopes(ast: TSESTree.Program, sourceType: 'module' | 'script', keys: VisitorKeys): unknown {
  return analyze(ast as never, { ecmaVersion: 2022, sourceType, childVisitorKeys: keys as never, fallback: 'iteration' } as never);
}

function setParents(root: TSESTree.Node, keys: VisitorKeys): void {
  const stack: TSESTree.Node[] = [root];
  for (let node = stack.pop(); node; node = stack.pop()) {
    for (const key of keys[node.type] ?? []) {
      const value = (node as unknown as Record<string, unknown>)[key];
      const children = Array.isArray(value) ? value : [value];
      for (const child of children) {
        if (child && typeof (child as TSESTree.Node).type === 'string') {
          (child as { parent: TSESTree.Node }).parent = node;
          stack.push(child as TSESTree.Node);
        }
      }
    }
  }
}
