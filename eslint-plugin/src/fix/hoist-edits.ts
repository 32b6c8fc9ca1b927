import { AST_NODE_TYPES, ASTUtils, type TSESLint, type TSESTree } from '@typescript-eslint/utils';
import { containsNode, isFunctionNode, visitIdentifiers } from '../analysis/ast';
import type { RetryScope } from '../analysis/retry';

/**
 * Edits that move a value out of a retry so every attempt shares it: where to put a
 * declaration so it runs once before the retry, with which indentation, under a name
 * that changes nothing else, and whether the value can be computed there at all.
 */

type SourceCode = Readonly<TSESLint.SourceCode>;

/**
 * The statement before which a declaration runs once, before the retry: the loop
 * statement (or its label), or the statement holding a retry library's call. Undefined
 * for recursion and `.catch` retries, and when the retry is not a statement of a block.
 */
export function getRetryInsertionAnchor(scope: RetryScope): TSESTree.Node | undefined {
  if (scope.kind === 'loop') {
    const statement = scope.node.parent?.type === AST_NODE_TYPES.LabeledStatement ? scope.node.parent : scope.node;
    return isStatementListItem(statement) ? statement : undefined;
  }
  if (scope.kind !== 'library') return undefined;
  for (let current: TSESTree.Node | undefined = scope.node; current; current = current.parent) {
    if (isFunctionNode(current)) return undefined;
    if (isStatementListItem(current)) return current;
  }
  return undefined;
}

/** A statement directly in a block, the program, a static block or a `case`. */
export function isStatementListItem(node: TSESTree.Node): boolean {
  const parent = node.parent;
  return (
    parent?.type === AST_NODE_TYPES.BlockStatement ||
    parent?.type === AST_NODE_TYPES.Program ||
    parent?.type === AST_NODE_TYPES.StaticBlock ||
    (parent?.type === AST_NODE_TYPES.SwitchCase && parent.consequent.includes(node as TSESTree.Statement))
  );
}

/** The white space before `node` on its line, when nothing else precedes it there. */
export function getLineIndent(sourceCode: SourceCode, node: TSESTree.Node): string {
  const text = sourceCode.text;
  const lineStart = text.lastIndexOf('\n', node.range[0] - 1) + 1;
  const before = text.slice(lineStart, node.range[0]);
  return /^[ \t]*$/.test(before) ? before : '';
}

/** The statement with its own line (indentation and line break) when it has the line to itself. */
export function getStatementRemovalRange(sourceCode: SourceCode, statement: TSESTree.Node): [number, number] {
  const text = sourceCode.text;
  const lineStart = text.lastIndexOf('\n', statement.range[0] - 1) + 1;
  const lineEnd = text.indexOf('\n', statement.range[1]);
  const ownsLine =
    /^[ \t]*$/.test(text.slice(lineStart, statement.range[0])) &&
    lineEnd !== -1 &&
    /^[ \t]*$/.test(text.slice(statement.range[1], lineEnd));
  return ownsLine ? [lineStart, lineEnd + 1] : statement.range;
}

/** The expression reads nothing declared inside `container`, so it can run before it. */
export function isComputableBefore(sourceCode: SourceCode, node: TSESTree.Node, container: TSESTree.Node): boolean {
  let computable = true;
  visitIdentifiers(node, { skipObjectKeys: false }, (identifier) => {
    const variable = ASTUtils.findVariable(sourceCode.getScope(identifier) as TSESLint.Scope.Scope, identifier);
    if (variable?.defs.some((definition) => containsNode(container, definition.name))) computable = false;
  });
  return computable;
}

/**
 * A variable `name` is visible where a declaration would go before `anchor` (or declared
 * anywhere in that block), other than the one declared inside `own`: declaring it there
 * would clash or shadow.
 */
export function isNameTakenAt(sourceCode: SourceCode, name: string, anchor: TSESTree.Node, own?: TSESTree.Node): boolean {
  const variable = ASTUtils.findVariable(sourceCode.getScope(anchor.parent ?? anchor) as TSESLint.Scope.Scope, name);
  if (!variable) return false;
  return !own || !variable.defs.some((definition) => containsNode(own, definition.name));
}

/** The first candidate free both before `anchor` and where it will be used (`site`). */
export function pickFreeName(sourceCode: SourceCode, candidates: readonly string[], anchor: TSESTree.Node, site: TSESTree.Node): string | undefined {
  return candidates.find(
    (name) =>
      !isNameTakenAt(sourceCode, name, anchor) && !ASTUtils.findVariable(sourceCode.getScope(site) as TSESLint.Scope.Scope, name),
  );
}

export function withSemicolon(text: string): string {
  return text.trimEnd().endsWith(';') ? text : `${text};`;
}
