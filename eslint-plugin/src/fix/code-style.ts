import { AST_NODE_TYPES, type TSESLint, type TSESTree } from '@typescript-eslint/utils';

type SourceCode = Readonly<TSESLint.SourceCode>;

/** How the file writes code, so that inserted code looks like the code around it. */
export interface CodeStyle {
  /** The quote most string literals use. */
  quote: "'" | '"';
  /** Statements end with `;` (most of the top-level and block statements do). */
  semicolons: boolean;
  /** The file is TypeScript: parameters written by an edit get a type. */
  typescript: boolean;
}

const styles = new WeakMap<SourceCode, CodeStyle>();

const TERMINATED_STATEMENTS = new Set<string>([
  AST_NODE_TYPES.ExpressionStatement,
  AST_NODE_TYPES.VariableDeclaration,
  AST_NODE_TYPES.ReturnStatement,
  AST_NODE_TYPES.ThrowStatement,
  AST_NODE_TYPES.ImportDeclaration,
]);

export function getCodeStyle(sourceCode: SourceCode, filename: string): CodeStyle {
  const known = styles.get(sourceCode);
  if (known) return known;
  let single = 0;
  let double = 0;
  for (const token of sourceCode.ast.tokens) {
    if (token.type !== 'String') continue;
    if (token.value.startsWith("'")) single += 1;
    else if (token.value.startsWith('"')) double += 1;
  }
  let withSemicolon = 0;
  let without = 0;
  const countStatements = (body: readonly TSESTree.Node[]): void => {
    for (const statement of body) {
      if (!TERMINATED_STATEMENTS.has(statement.type)) continue;
      if (sourceCode.getLastToken(statement)?.value === ';') withSemicolon += 1;
      else without += 1;
    }
  };
  countStatements(sourceCode.ast.body);
  for (const statement of sourceCode.ast.body) {
    if (statement.type === AST_NODE_TYPES.FunctionDeclaration) countStatements(statement.body.body);
  }
  const style: CodeStyle = {
    quote: double > single ? '"' : "'",
    semicolons: withSemicolon >= without,
    typescript: /\.[cm]?tsx?$/i.test(filename),
  };
  styles.set(sourceCode, style);
  return style;
}

/** A string literal in the file's quote style. */
export function quoteString(value: string, style: CodeStyle): string {
  const escaped = value.replace(/\\/g, '\\\\').replace(new RegExp(style.quote, 'g'), `\\${style.quote}`);
  return `${style.quote}${escaped}${style.quote}`;
}
