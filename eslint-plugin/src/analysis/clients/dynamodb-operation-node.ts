import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';
import type { DynamoDbCall } from './dynamodb-calls';

/** The node that names the call's operation: `TransactWriteItemsCommand` in `new TransactWriteItemsCommand(…)`, `transactWrite` in `doc.transactWrite(…)`. */
export function getDynamoDbOperationNode(call: DynamoDbCall): TSESTree.Node {
  if (call.command) return call.command.callee;
  const callee = call.node.callee;
  if (callee.type === AST_NODE_TYPES.MemberExpression) return callee.property;
  return call.node;
}
