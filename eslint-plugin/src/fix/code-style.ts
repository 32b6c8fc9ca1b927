import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { createPerFileCache, type AnyRuleContext } from '../analysis/per-file-cache';

/**
 * How the file is written, so that code an edit adds reads like its neighbours: the
 * quote of its strings, whether statements end with semicolons, one level of
 * indentation, and whether it is TypeScript (where added code carries types).
 */
export interface CodeStyle {
  quote: "'" | '"';
  semicolons: boolean;
  /** One level of indentation: two or four spaces, a tab. */
  indentUnit: string;
  typescript: boolean;
}

const TYPESCRIPT_FILE = /\.(?:[cm]?tsx?)$/i;
/** Statements that end with a semicolon in a file that writes them. */
const SEMICOLON_STATEMENTS = new Set(['VariableDeclaration', 'ExpressionStatement', 'ImportDeclaration', 'ReturnStatement', 'ThrowStatement']);

/** The file's style, read once per file. */
export const getCodeStyle: (context: AnyRuleContext) => CodeStyle = createPerFileCache((context) =>
  readCodeStyle(context.sourceCode, context.filename),
);

export function readCodeStyle(sourceCode: Readonly<TSESLint.SourceCode>, filename: string): CodeStyle {
  return {
    quote: readQuote(sourceCode),
    semicolons: readSemicolons(sourceCode),
    indentUnit: readIndentUnit(sourceCode.lines),
    typescript: TYPESCRIPT_FILE.test(filename) && !/\.d\.[cm]?ts$/i.test(filename),
  };
}

/** The quote of the first string literal; single quotes when there is none. */
function readQuote(sourceCode: Readonly<TSESLint.SourceCode>): "'" | '"' {
  const ast = sourceCode.ast as TSESTree.Program;
  const first = ast.tokens?.find((token) => token.type === 'String');
  return first?.value.startsWith('"') ? '"' : "'";
}

/** Most statements that may end with a semicolon do (the first few dozen are enough to tell); true when none does either way. */
function readSemicolons(sourceCode: Readonly<TSESLint.SourceCode>): boolean {
  let withSemicolon = 0;
  let without = 0;
  const visit = (statements: readonly TSESTree.Node[]): void => {
    for (const statement of statements) {
      if (withSemicolon + without >= 40) return;
      if (SEMICOLON_STATEMENTS.has(statement.type)) {
        if (sourceCode.getLastToken(statement)?.value === ';') withSemicolon++;
        else without++;
      }
    }
  };
  const program = sourceCode.ast as TSESTree.Program;
  visit(program.body);
  for (const statement of program.body) {
    const body = getFunctionBody(statement);
    if (body) visit(body);
  }
  return without === 0 || withSemicolon >= without;
}

function getFunctionBody(statement: TSESTree.Node): readonly TSESTree.Node[] | undefined {
  const declaration = statement.type === 'ExportNamedDeclaration' && statement.declaration ? statement.declaration : statement;
  if (declaration.type === 'FunctionDeclaration') return declaration.body.body;
  return undefined;
}

/** The indentation of the first indented line: a tab, or its spaces (2 by default). */
function readIndentUnit(lines: readonly string[]): string {
  for (const line of lines) {
    const indent = /^([ \t]+)\S/.exec(line)?.[1];
    if (!indent || indent.startsWith(' *') || line.trimStart().startsWith('*')) continue;
    if (indent.startsWith('\t')) return '\t';
    if (indent.length === 2 || indent.length === 4) return indent;
  }
  return '  ';
}

/**
 * Writes `text` (two-space indentation, single quotes, semicolons) in `style`: each
 * leading two spaces become one level of the file's indentation; quotes and line-ending
 * semicolons follow the file. `text` must not hold quotes inside its strings.
 */
export function formatInStyle(text: string, style: CodeStyle, baseIndent = ''): string {
  return text
    .split('\n')
    .map((line, index) => {
      const leading = /^ */.exec(line)?.[0].length ?? 0;
      let body = line.slice(leading);
      if (style.quote === '"') body = body.replace(/'/g, '"');
      if (!style.semicolons) body = body.replace(/;$/, '');
      if (body === '') return '';
      return `${index === 0 ? '' : baseIndent}${style.indentUnit.repeat(Math.floor(leading / 2))}${body}`;
    })
    .join('\n');
}

/** `: type` in TypeScript, nothing in JavaScript. */
export function typeAnnotation(style: CodeStyle, type: string): string {
  return style.typescript ? `: ${type}` : '';
}

/** A string literal in the file's quote style. */
export function quoteString(value: string, style: Pick<CodeStyle, 'quote'>): string {
  const escaped = value.replace(/\\/g, '\\\\').replace(new RegExp(style.quote, 'g'), `\\${style.quote}`);
  return `${style.quote}${escaped}${style.quote}`;
}
