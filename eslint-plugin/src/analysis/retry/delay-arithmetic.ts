import { AST_NODE_TYPES, ASTUtils, type TSESLint, type TSESTree } from '@typescript-eslint/utils';
import type { AnyRuleContext } from '../per-file-cache';

/** Numbers out of delay expressions: `Math.*` calls, and the longest wait at a given attempt. */

/** Numeric value of a delay expression with the given variables set; Math.random() counts as 1. */
export function evaluateDelay(node: TSESTree.Node, env: Readonly<Record<string, number>>, context: AnyRuleContext): number | undefined {
  return evaluate(node, env, context, 0);
}

export function evaluate(node: TSESTree.Node, env: Readonly<Record<string, number>>, context: AnyRuleContext, depth: number): number | undefined {
  if (depth > 12) return undefined;
  const next = (child: TSESTree.Node): number | undefined => evaluate(child, env, context, depth + 1);
  switch (node.type) {
    case AST_NODE_TYPES.Literal:
      return typeof node.value === 'number' ? node.value : undefined;
    case AST_NODE_TYPES.Identifier: {
      if (node.name in env) return env[node.name];
      const scope = context.sourceCode.getScope(node) as TSESLint.Scope.Scope;
      const value = ASTUtils.getStaticValue(node, scope);
      if (value) return typeof value.value === 'number' ? value.value : undefined;
      // `const delay = 500 * 2 ** attempt;`: the value computed from the attempt.
      const init = getConstInit(ASTUtils.findVariable(scope, node));
      return init ? next(init) : undefined;
    }
    case AST_NODE_TYPES.BinaryExpression: {
      if (node.left.type === AST_NODE_TYPES.PrivateIdentifier) return undefined;
      const left = next(node.left);
      const right = next(node.right);
      if (left === undefined || right === undefined) return undefined;
      switch (node.operator) {
        case '+':
          return left + right;
        case '-':
          return left - right;
        case '*':
          return left * right;
        case '/':
          return left / right;
        case '**':
          return left ** right;
        case '<<':
          return left * 2 ** right;
        default:
          return undefined;
      }
    }
    case AST_NODE_TYPES.CallExpression: {
      const name = getMathFunction(node.callee);
      if (name === 'random') return 1;
      const args = node.arguments.map(next);
      if (args.some((arg) => arg === undefined)) return undefined;
      const values = args as number[];
      if (name === 'min') return Math.min(...values);
      if (name === 'max') return Math.max(...values);
      if (name === 'pow') return (values[0] ?? NaN) ** (values[1] ?? NaN);
      if (name === 'floor' || name === 'round' || name === 'ceil' || name === 'trunc') return values[0];
      return undefined;
    }
    case AST_NODE_TYPES.TSAsExpression:
    case AST_NODE_TYPES.TSNonNullExpression:
      return next(node.expression);
    default:
      return undefined;
  }
}

/** `Math.min` → `min`; undefined for anything else. */
export function getMathFunction(callee: TSESTree.Node): string | undefined {
  if (
    callee.type === AST_NODE_TYPES.MemberExpression &&
    !callee.computed &&
    callee.object.type === AST_NODE_TYPES.Identifier &&
    callee.object.name === 'Math' &&
    callee.property.type === AST_NODE_TYPES.Identifier
  ) {
    return callee.property.name;
  }
  return undefined;
}

/** `x * 2`, `x << 1`, `Math.min(x * 2, cap)`: an expression that multiplies its own previous value. */
export function isMultiplying(node: TSESTree.Node): boolean {
  if (node.type === AST_NODE_TYPES.BinaryExpression) {
    return node.operator === '*' || node.operator === '<<' || node.operator === '**' || isMultiplying(node.left) || isMultiplying(node.right);
  }
  if (node.type === AST_NODE_TYPES.CallExpression) return node.arguments.some(isMultiplying);
  return false;
}

/** The initializer of a `const` (one definition, never written again). */
function getConstInit(variable: TSESLint.Scope.Variable | null): TSESTree.Expression | undefined {
  const definition = variable?.defs.length === 1 ? variable.defs[0] : undefined;
  if (definition?.node.type !== AST_NODE_TYPES.VariableDeclarator || definition.node.id.type !== AST_NODE_TYPES.Identifier) return undefined;
  if (definition.parent?.type !== AST_NODE_TYPES.VariableDeclaration || definition.parent.kind !== 'const') return undefined;
  return definition.node.init ?? undefined;
}
