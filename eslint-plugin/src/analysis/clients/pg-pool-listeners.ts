import { AST_NODE_TYPES, ASTUtils, type TSESTree } from '@typescript-eslint/utils';
import { getKeyName } from '../ast';
import { getDeclaredClassBody } from '../called-functions';
import { findMembersNamed } from '../find-nodes-at-offsets';
import type { AnyRuleContext } from '../per-file-cache';
import { getMethodCall } from './value-bindings';

/** EventEmitter methods that attach a listener (a `pg` Pool is an EventEmitter). */
const LISTENER_METHODS = new Set(['on', 'once', 'addListener', 'prependListener', 'prependOnceListener']);

/** `reference.on('error', …)` (or a listener whose event name is not known: it may be 'error'). */
export function isErrorListenerCall(context: AnyRuleContext, reference: TSESTree.Node): boolean {
  const method = getMethodCall(reference);
  if (!method || !LISTENER_METHODS.has(method.name)) return false;
  const event = method.call.arguments[0];
  if (!event) return false;
  const value = ASTUtils.getStaticValue(event, context.sourceCode.getScope(event));
  return !value || value.value === 'error';
}

/**
 * For `new Holder(pool)` of a class declared in this file whose constructor only stores the
 * argument in fields of the instance (`this.pool = pool`, or a TypeScript parameter
 * property): the reads of those fields anywhere in the file (`this.pool`,
 * `this.underlying.pool`, by name). Undefined when the class is not this file's, or its
 * constructor does anything else with the argument.
 */
export function findClassFieldReads(context: AnyRuleContext, construction: TSESTree.NewExpression, argument: TSESTree.Node): TSESTree.MemberExpression[] | undefined {
  const index = construction.arguments.indexOf(argument as TSESTree.CallExpressionArgument);
  if (index < 0 || construction.arguments.slice(0, index).some((earlier) => earlier.type === AST_NODE_TYPES.SpreadElement)) return undefined;
  const body = getDeclaredClassBody(context, construction.callee);
  const constructor = body?.body.find((member): member is TSESTree.MethodDefinition => member.type === AST_NODE_TYPES.MethodDefinition && member.kind === 'constructor');
  if (!constructor) return undefined;
  const parameter = constructor.value.params[index];
  const fields = new Set<string>();
  let name: string | undefined;
  if (parameter?.type === AST_NODE_TYPES.TSParameterProperty && parameter.parameter.type === AST_NODE_TYPES.Identifier) {
    name = parameter.parameter.name;
    fields.add(name);
  } else if (parameter?.type === AST_NODE_TYPES.Identifier) {
    name = parameter.name;
  }
  if (name === undefined) return undefined;
  const variable = context.sourceCode.getDeclaredVariables(constructor.value).find((candidate) => candidate.name === name);
  if (!variable) return undefined;
  for (const reference of variable.references) {
    const assignment = (reference.identifier as TSESTree.Node).parent;
    const field =
      assignment?.type === AST_NODE_TYPES.AssignmentExpression && assignment.right === reference.identifier && assignment.left.type === AST_NODE_TYPES.MemberExpression && assignment.left.object.type === AST_NODE_TYPES.ThisExpression
        ? getKeyName(assignment.left)
        : undefined;
    if (field === undefined || assignment?.parent?.type !== AST_NODE_TYPES.ExpressionStatement) return undefined;
    fields.add(field);
  }
  return findMembersNamed(context, [...fields]).filter((member) => !(member.parent?.type === AST_NODE_TYPES.AssignmentExpression && member.parent.left === member));
}
