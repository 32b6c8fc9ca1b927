import { AST_NODE_TYPES, ASTUtils, type TSESLint, type TSESTree } from '@typescript-eslint/utils';
import { type FunctionNode, isFunctionNode } from '../ast';
import type { AnyRuleContext } from '../per-file-cache';

/** Finding the functions a retry calls or names: `sleep`, `backoff`, the function that calls itself. */

/** The name a function is called by: its own name, or the variable, property or method it is assigned to. */
export function getFunctionName(fn: FunctionNode): string | undefined {
  if (fn.id) return fn.id.name;
  const parent = fn.parent;
  if (!parent) return undefined;
  switch (parent.type) {
    case AST_NODE_TYPES.VariableDeclarator:
      return parent.id.type === AST_NODE_TYPES.Identifier ? parent.id.name : undefined;
    case AST_NODE_TYPES.Property:
    case AST_NODE_TYPES.MethodDefinition:
    case AST_NODE_TYPES.PropertyDefinition:
      return !parent.computed && parent.key.type === AST_NODE_TYPES.Identifier ? parent.key.name : undefined;
    case AST_NODE_TYPES.AssignmentExpression:
      if (parent.left.type === AST_NODE_TYPES.Identifier) return parent.left.name;
      if (
        parent.left.type === AST_NODE_TYPES.MemberExpression &&
        !parent.left.computed &&
        parent.left.property.type === AST_NODE_TYPES.Identifier
      ) {
        return parent.left.property.name;
      }
      return undefined;
    default:
      return undefined;
  }
}

/** The function an identifier (a callee, a callback) names, when it is declared in this file (`function sleep(ms) {…}`, `const backoff = (n) => …`). */
export function getLocalFunction(context: AnyRuleContext, callee: TSESTree.Node): FunctionNode | undefined {
  if (callee.type !== AST_NODE_TYPES.Identifier) return undefined;
  const variable = ASTUtils.findVariable(context.sourceCode.getScope(callee) as TSESLint.Scope.Scope, callee);
  const definition = variable?.defs[0];
  // A parameter's definition node is the function that declares it, not the function it holds.
  if (!definition || definition.type === 'Parameter') return undefined;
  if (isFunctionNode(definition.node)) return definition.node;
  if (definition.node.type === AST_NODE_TYPES.VariableDeclarator && definition.node.init && isFunctionNode(definition.node.init)) {
    return definition.node.init;
  }
  return undefined;
}
