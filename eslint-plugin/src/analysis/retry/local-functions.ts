import { AST_NODE_TYPES, type TSESLint, type TSESTree } from '@typescript-eslint/utils';
import { containsNode, type FunctionNode, getKeyName, visitNodes } from '../ast';

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

/**
 * The calls a function makes of itself, and those the rest of the file makes of it (for a
 * method, `this.name(…)` inside it and none known outside). Undefined when it is also named
 * other than to call it inside itself (`setTimeout(retry, ms)`).
 */
export function findOwnCalls(sourceCode: Readonly<TSESLint.SourceCode>, fn: FunctionNode): { selfCalls: TSESTree.CallExpression[]; otherCalls: TSESTree.CallExpression[] } | undefined {
  const name = getFunctionName(fn);
  if (!name) return undefined;
  const parent = fn.parent;
  if (parent?.type === AST_NODE_TYPES.MethodDefinition || (parent?.type === AST_NODE_TYPES.Property && parent.method)) {
    const selfCalls: TSESTree.CallExpression[] = [];
    visitNodes(fn, { skipTypeAnnotations: true }, (node) => {
      if (
        node.type === AST_NODE_TYPES.CallExpression &&
        node.callee.type === AST_NODE_TYPES.MemberExpression &&
        node.callee.object.type === AST_NODE_TYPES.ThisExpression &&
        getKeyName(node.callee) === name
      ) {
        selfCalls.push(node);
      }
      return true;
    });
    return { selfCalls, otherCalls: [] };
  }
  const declaration = fn.type === AST_NODE_TYPES.FunctionDeclaration ? fn : parent?.type === AST_NODE_TYPES.VariableDeclarator ? parent : undefined;
  const variable = declaration ? sourceCode.getDeclaredVariables(declaration).find((candidate) => candidate.name === name) : undefined;
  if (!variable) return undefined;
  const selfCalls: TSESTree.CallExpression[] = [];
  const otherCalls: TSESTree.CallExpression[] = [];
  for (const reference of variable.references) {
    if (reference.init) continue;
    const identifier = reference.identifier as TSESTree.Node;
    const call = identifier.parent;
    const inside = containsNode(fn, identifier);
    if (call?.type === AST_NODE_TYPES.CallExpression && call.callee === identifier) (inside ? selfCalls : otherCalls).push(call);
    else if (inside) return undefined;
  }
  return { selfCalls, otherCalls };
}
