import { AST_NODE_TYPES, ASTUtils, type TSESTree } from '@typescript-eslint/utils';
import type { AnyRuleContext } from '../per-file-cache';

/**
 * `node` is an option given to a DynamoDB client's constructor:
 * `new DynamoDBClient({ retryStrategy: <node> })` (or a document client built the same
 * way), or `const strategy = <node>; new DynamoDBClient({ retryStrategy: strategy })`.
 */
export function isPassedToDynamoDbClient(context: AnyRuleContext, node: TSESTree.Node): boolean {
  return isDynamoDbClientOption(node) || isDeclaredForDynamoDbClient(context, node);
}

function isDynamoDbClientOption(node: TSESTree.Node): boolean {
  const property = node.parent;
  if (property?.type !== AST_NODE_TYPES.Property || property.value !== node) return false;
  const object = property.parent;
  const client = object?.parent;
  return (
    client?.type === AST_NODE_TYPES.NewExpression &&
    client.callee.type === AST_NODE_TYPES.Identifier &&
    /^DynamoDB(Client)?$/.test(client.callee.name)
  );
}

function isDeclaredForDynamoDbClient(context: AnyRuleContext, node: TSESTree.Node): boolean {
  const declarator = node.parent;
  if (declarator?.type !== AST_NODE_TYPES.VariableDeclarator || declarator.id.type !== AST_NODE_TYPES.Identifier) return false;
  const variable = ASTUtils.findVariable(context.sourceCode.getScope(declarator), declarator.id);
  return (variable?.references ?? []).some((reference) => isDynamoDbClientOption(reference.identifier as TSESTree.Node));
}
