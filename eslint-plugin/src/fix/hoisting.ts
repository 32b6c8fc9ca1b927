import { ASTUtils, type TSESLint, type TSESTree } from '@typescript-eslint/utils';
import { containsNode, visitIdentifiers } from '../analysis/ast';

/** Moving a value out of a piece of code, to compute it once before it. */

/** The expression reads nothing declared inside `container`, so it can run before it. */
export function isComputableBefore(sourceCode: Readonly<TSESLint.SourceCode>, node: TSESTree.Node, container: TSESTree.Node): boolean {
  let computable = true;
  visitIdentifiers(node, { skipObjectKeys: false }, (identifier) => {
    const variable = ASTUtils.findVariable(sourceCode.getScope(identifier) as TSESLint.Scope.Scope, identifier);
    if (variable?.defs.some((definition) => containsNode(container, definition.name))) computable = false;
  });
  return computable;
}

/** The statement's text, ending with a semicolon. */
export function withSemicolon(text: string): string {
  return text.trimEnd().endsWith(';') ? text : `${text};`;
}
