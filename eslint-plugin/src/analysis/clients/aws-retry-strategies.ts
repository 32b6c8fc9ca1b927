import { AST_NODE_TYPES, ASTUtils, type TSESTree } from '@typescript-eslint/utils';
import { CONSTRUCT, findModuleReferences, hasModuleImport, type TraceMap } from '../modules';
import { type AnyRuleContext, createPerFileCache } from '../per-file-cache';

/**
 * The AWS SDK v3 retry strategies a client's `retryStrategy` option takes
 * (`new ConfiguredRetryStrategy(maxAttempts, delay)`, `new StandardRetryStrategy(maxAttempts)`,
 * `new AdaptiveRetryStrategy(maxAttemptsProvider)`), and how many attempts they allow.
 */

const STRATEGY_MODULES = ['@smithy/util-retry', '@aws-sdk/util-retry', '@aws-sdk/middleware-retry'] as const;
const STRATEGIES = ['ConfiguredRetryStrategy', 'StandardRetryStrategy', 'AdaptiveRetryStrategy'] as const;

const TRACE_MAP: TraceMap<true> = Object.fromEntries(
  STRATEGY_MODULES.map((module) => [module, Object.fromEntries(STRATEGIES.map((name) => [name, { [CONSTRUCT]: true }]))]),
);

/** Retry-strategy constructions of the file (`new ConfiguredRetryStrategy(…)` from the SDK's packages). */
const findRetryStrategyConstructions = createPerFileCache((context: AnyRuleContext): ReadonlySet<TSESTree.Node> => {
  if (!hasModuleImport(context, STRATEGY_MODULES)) return new Set();
  return new Set(findModuleReferences(context, TRACE_MAP).map((reference) => reference.node));
});

/**
 * The maximum number of attempts (the first included) of a retry-strategy construction,
 * when it is statically known: `new ConfiguredRetryStrategy(1)`, `new StandardRetryStrategy(async () => 1)`.
 */
export function getRetryStrategyMaxAttempts(context: AnyRuleContext, node: TSESTree.Node): number | undefined {
  if (node.type !== AST_NODE_TYPES.NewExpression || !findRetryStrategyConstructions(context).has(node)) return undefined;
  const argument = node.arguments[0];
  if (!argument || argument.type === AST_NODE_TYPES.SpreadElement) return undefined;
  let valueNode: TSESTree.Node | undefined = argument;
  if (argument.type === AST_NODE_TYPES.ArrowFunctionExpression || argument.type === AST_NODE_TYPES.FunctionExpression) {
    const body = argument.body;
    if (body.type !== AST_NODE_TYPES.BlockStatement) valueNode = body;
    else {
      const only = body.body.length === 1 ? body.body[0] : undefined;
      valueNode = only?.type === AST_NODE_TYPES.ReturnStatement ? (only.argument ?? undefined) : undefined;
    }
  }
  if (!valueNode) return undefined;
  const value = ASTUtils.getStaticValue(valueNode, context.sourceCode.getScope(valueNode));
  return value && typeof value.value === 'number' ? value.value : undefined;
}
