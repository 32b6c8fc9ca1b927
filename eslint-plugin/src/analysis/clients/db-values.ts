import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';
import type { DbValue } from './db-value';
import { getDynamoDbAnalysis } from './dynamodb-calls';
import { getMongoValues } from './mongo-values';
import type { AnyRuleContext } from '../per-file-cache';
import { getPostgresAnalysis } from './pg-calls';

/**
 * What an expression is, database-wise, whatever the database: the one question the
 * module index asks of another module's exports, answered by the file's MongoDB, pg and
 * DynamoDB analyses. Undefined when none of them knows, or when they disagree.
 */
export function getDbValue(context: AnyRuleContext, node: TSESTree.Node): DbValue | undefined {
  const found: DbValue[] = [];
  const mongo = getMongoValues(context).getKind(node);
  if (mongo !== undefined && mongo !== 'other') found.push({ database: 'mongodb', kind: mongo });
  const inner = unwrapValue(node);
  const pgValues = getPostgresAnalysis(context).values;
  const pg = pgValues.get(inner) ?? pgValues.get(node);
  if (pg) found.push({ database: 'postgres', ...pg });
  const dynamoValues = getDynamoDbAnalysis(context).values;
  const dynamo = dynamoValues.get(node) ?? dynamoValues.get(inner);
  if (dynamo) found.push({ database: 'dynamodb', kind: dynamo });
  return found.length === 1 ? found[0] : undefined;
}

/** `x!`, `x as T`: the expression inside (the analyses record the inner node). */
function unwrapValue(node: TSESTree.Node): TSESTree.Node {
  let current = node;
  while (
    current.type === AST_NODE_TYPES.TSNonNullExpression ||
    current.type === AST_NODE_TYPES.TSAsExpression ||
    current.type === AST_NODE_TYPES.TSSatisfiesExpression
  ) {
    current = current.expression;
  }
  return current;
}
