import type { DbCall } from './db-calls';
import type { AnyRuleContext } from './per-file-cache';

/** dynamodb calls of the file. Placeholder until the dynamodb call tracking lands. */
export function findDynamoDbCalls(context: AnyRuleContext): DbCall[] {
  void context;
  return [];
}
