import { AST_NODE_TYPES, ASTUtils, type TSESLint, type TSESTree } from '@typescript-eslint/utils';
import { type FunctionNode, getKeyName, getThisBinder, isFunctionNode } from './ast';
import type { AnyRuleContext } from './per-file-cache';

/** The function a call or a name runs, when this file declares it. */

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

/**
 * The function a call runs, when the file shows it: a local function (`createSchema(client)`),
 * a method of the class the call is written in, called on its own `this` (`this.createTable()`,
 * from a method or an arrow function inside one), or a method of a class of this file called on
 * a `const` made from it (`const repo = new Repo(); repo.save(order)`).
 */
export function getCalledFunction(context: AnyRuleContext, call: TSESTree.CallExpression): FunctionNode | undefined {
  const callee = call.callee;
  if (callee.type === AST_NODE_TYPES.Identifier) return getLocalFunction(context, callee);
  if (callee.type !== AST_NODE_TYPES.MemberExpression) return undefined;
  const name = getKeyName(callee);
  if (name === undefined) return undefined;
  if (callee.object.type === AST_NODE_TYPES.Identifier) {
    const body = getInstanceClassBody(context, callee.object);
    return body && getMethod(body, name);
  }
  if (callee.object.type !== AST_NODE_TYPES.ThisExpression) return undefined;
  // `this` is the instance only in a method, or in an arrow function inside one.
  const method = getThisBinder(callee).parent;
  if (method?.type !== AST_NODE_TYPES.MethodDefinition || method.static) return undefined;
  return getMethod(method.parent, name);
}

/** The one instance method of that name in a class body. */
function getMethod(body: TSESTree.ClassBody, name: string): FunctionNode | undefined {
  const found = body.body.filter(
    (member): member is TSESTree.MethodDefinition => member.type === AST_NODE_TYPES.MethodDefinition && member.kind === 'method' && !member.static && getKeyName(member) === name,
  );
  const value = found.length === 1 ? found[0]?.value : undefined;
  return value && isFunctionNode(value) ? value : undefined;
}

/** For `repo` of `const repo = new Repo(…)`, with `class Repo` declared in this file: its body. */
function getInstanceClassBody(context: AnyRuleContext, object: TSESTree.Identifier): TSESTree.ClassBody | undefined {
  const variable = ASTUtils.findVariable(context.sourceCode.getScope(object) as TSESLint.Scope.Scope, object);
  const definition = variable?.defs.length === 1 ? variable.defs[0] : undefined;
  if (definition?.type !== 'Variable' || definition.parent.kind !== 'const') return undefined;
  const init = definition.node.init;
  return init?.type === AST_NODE_TYPES.NewExpression ? getDeclaredClassBody(context, init.callee) : undefined;
}

/** The body of `class Holder { … }` declared in this file, for a name of it (`Holder` in `new Holder()`). */
export function getDeclaredClassBody(context: AnyRuleContext, name: TSESTree.Node): TSESTree.ClassBody | undefined {
  if (name.type !== AST_NODE_TYPES.Identifier) return undefined;
  const variable = ASTUtils.findVariable(context.sourceCode.getScope(name) as TSESLint.Scope.Scope, name);
  const definition = variable?.defs.length === 1 ? variable.defs[0] : undefined;
  const declared = definition?.type === 'ClassName' ? definition.node : definition?.type === 'Variable' ? definition.node.init : undefined;
  return declared?.type === AST_NODE_TYPES.ClassDeclaration || declared?.type === AST_NODE_TYPES.ClassExpression ? declared.body : undefined;
}
