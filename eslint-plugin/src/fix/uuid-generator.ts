import { AST_NODE_TYPES, ASTUtils, type TSESLint, type TSESTree } from '@typescript-eslint/utils';

const CRYPTO_MODULES = ['crypto', 'node:crypto'];

/**
 * How to write a new random UUID at `at`: `randomUUID()` when it is imported from
 * `crypto`, else the global `crypto.randomUUID()` (Node 19+); undefined when a local
 * `crypto` hides the global.
 */
export function getUuidGenerator(sourceCode: Readonly<TSESLint.SourceCode>, at: TSESTree.Node): string | undefined {
  const scope = sourceCode.getScope(at);
  const imported = ASTUtils.findVariable(scope as TSESLint.Scope.Scope, 'randomUUID');
  if (imported && isImportOf(imported, CRYPTO_MODULES)) return 'randomUUID()';
  const crypto = ASTUtils.findVariable(scope as TSESLint.Scope.Scope, 'crypto');
  if (!crypto || crypto.defs.length === 0 || isImportOf(crypto, CRYPTO_MODULES)) return 'crypto.randomUUID()';
  return undefined;
}

function isImportOf(variable: TSESLint.Scope.Variable, modules: string[]): boolean {
  return variable.defs.some((definition) => {
    if (definition.type === 'ImportBinding') {
      const declaration = definition.parent as TSESTree.ImportDeclaration | undefined;
      return declaration !== undefined && modules.includes(declaration.source.value);
    }
    if (definition.type === 'Variable') {
      const init = (definition.node as TSESTree.VariableDeclarator).init;
      return (
        init?.type === AST_NODE_TYPES.CallExpression &&
        init.callee.type === AST_NODE_TYPES.Identifier &&
        init.callee.name === 'require' &&
        init.arguments[0]?.type === AST_NODE_TYPES.Literal &&
        modules.includes(String(init.arguments[0].value))
      );
    }
    return false;
  });
}
