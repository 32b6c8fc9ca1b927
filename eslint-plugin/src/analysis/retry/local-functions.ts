import { AST_NODE_TYPES, ASTUtils, type TSESLint, type TSESTree } from '@typescript-eslint/utils';
import { containsNode, type FunctionNode, getKeyName, getThisBinder, isFunctionNode, visitNodes } from '../ast';
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
  if (init?.type !== AST_NODE_TYPES.NewExpression || init.callee.type !== AST_NODE_TYPES.Identifier) return undefined;
  const classVariable = ASTUtils.findVariable(context.sourceCode.getScope(init) as TSESLint.Scope.Scope, init.callee);
  const classDefinition = classVariable?.defs.length === 1 ? classVariable.defs[0] : undefined;
  const declared = classDefinition?.type === 'ClassName' ? classDefinition.node : classDefinition?.type === 'Variable' ? classDefinition.node.init : undefined;
  return declared?.type === AST_NODE_TYPES.ClassDeclaration || declared?.type === AST_NODE_TYPES.ClassExpression ? declared.body : undefined;
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
