import { ASTUtils, AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';
import type { AnyRuleContext } from '../per-file-cache';
import { getParameterSlot, getSlotArguments } from './call-sites';
import { resolveConst } from './mongo-connect-calls';
import { getMethodCall, getOutermostSameValue } from './value-bindings';

const MAX_DEPTH = 4;

/**
 * The strings an expression can be, as far as the code says: a string literal, a `const`
 * holding one, the fallback of `process.env.X ?? 'host'` (or `||`), both branches of a
 * conditional, a parameter's default, or what every caller in the file passes for a
 * parameter (`run('batchWrite', params)` → `operation` is `'batchWrite'`). Undefined when
 * a value is unknown (an environment variable with no fallback, a call).
 */
export function getPossibleStrings(context: AnyRuleContext, node: TSESTree.Node, depth = 0): string[] | undefined {
  if (depth > MAX_DEPTH) return undefined;
  const value = resolveConst(context.sourceCode, node);
  switch (value.type) {
    case AST_NODE_TYPES.Literal:
      return typeof value.value === 'string' ? [value.value] : undefined;
    case AST_NODE_TYPES.TemplateLiteral:
      return value.expressions.length === 0 ? [value.quasis[0]?.value.cooked ?? ''] : undefined;
    case AST_NODE_TYPES.LogicalExpression:
      // `process.env.DB_HOST ?? 'orders.cluster-….docdb.amazonaws.com'`: the code's own value is the fallback.
      return value.operator === '??' || value.operator === '||' ? getPossibleStrings(context, value.right, depth + 1) : undefined;
    case AST_NODE_TYPES.ConditionalExpression: {
      const consequent = getPossibleStrings(context, value.consequent, depth + 1);
      const alternate = getPossibleStrings(context, value.alternate, depth + 1);
      return consequent && alternate ? [...consequent, ...alternate] : undefined;
    }
    case AST_NODE_TYPES.Identifier:
      return getParameterStrings(context, value, depth) ?? getAliasStrings(context, value, depth);
    default:
      return undefined;
  }
}

/** `function connect(host = 'orders.cluster-….docdb.amazonaws.com')`, and what the file's callers pass. */
function getParameterStrings(context: AnyRuleContext, identifier: TSESTree.Identifier, depth: number): string[] | undefined {
  const variable = ASTUtils.findVariable(context.sourceCode.getScope(identifier), identifier);
  const definition = variable?.defs.length === 1 ? variable.defs[0] : undefined;
  if (!variable || definition?.type !== 'Parameter') return undefined;
  const pattern = definition.name.parent;
  const fallback = pattern?.type === AST_NODE_TYPES.AssignmentPattern && pattern.left === definition.name ? pattern.right : undefined;
  const slot = getParameterSlot(variable);
  const passed = slot && getSlotArguments(context, slot);
  if (!passed) return fallback ? getPossibleStrings(context, fallback, depth + 1) : undefined;
  const found: string[] = [];
  for (const argument of passed) {
    // An explicit `undefined` takes the default.
    const given = argument.type === AST_NODE_TYPES.Identifier && argument.name === 'undefined' ? fallback : argument;
    const strings = given && getPossibleStrings(context, given, depth + 1);
    if (!strings) return undefined;
    found.push(...strings);
  }
  return found;
}

/** `const host = otherConst`: one step further. */
function getAliasStrings(context: AnyRuleContext, identifier: TSESTree.Identifier, depth: number): string[] | undefined {
  const resolved = resolveConst(context.sourceCode, identifier);
  return resolved === identifier ? undefined : getPossibleStrings(context, resolved, depth + 1);
}

/**
 * When `node` is the object of a method call, that call and the names the method can have:
 * `client.put(…)` → `put`; `this.client[operation](params)` → what `operation` can be
 * (a `const`, or what every caller of the enclosing function passes).
 */
export function getCalledMethodNames(context: AnyRuleContext, node: TSESTree.Node): { call: TSESTree.CallExpression; names: string[] } | undefined {
  const method = getMethodCall(node);
  if (method) return { call: method.call, names: [method.name] };
  const outer = getOutermostSameValue(node);
  const member = outer.parent;
  if (member?.type !== AST_NODE_TYPES.MemberExpression || member.object !== outer || !member.computed) return undefined;
  const callee = getOutermostSameValue(member);
  const call = callee.parent;
  if (call?.type !== AST_NODE_TYPES.CallExpression || call.callee !== callee) return undefined;
  const names = getPossibleStrings(context, member.property);
  return names && names.length > 0 ? { call, names: [...new Set(names)] } : undefined;
}
