import type { TSESTree } from '@typescript-eslint/utils';
import { findDynamoDbCalls, findDynamoDbClients } from './dynamodb-calls';
import { findMongoCalls } from './mongo-calls';
import { type AnyRuleContext, createPerFileCache } from '../per-file-cache';
import { findPgPools, findPostgresCalls } from './pg-calls';
import type { DbCall } from './db-call';
import { recordLintedModule, setDbCallFinder } from './module-exports';

/** Every database call of the file, in source order; computed once per file. */
export const findDbCalls = createPerFileCache((context: AnyRuleContext): readonly DbCall[] => {
  const calls = [...findMongoCalls(context), ...findDynamoDbCalls(context), ...findPostgresCalls(context)].sort(
    (a, b) => a.node.range[0] - b.node.range[0],
  );
  // The analyses are done: what the file exports costs little more now, and saves
  // parsing it again when a file linted later imports it.
  recordLintedModule(context, calls);
  return calls;
});

setDbCallFinder(findDbCalls);

/** Database calls whose source range lies inside `container` (a loop body, a callback…). */
export function findDbCallsWithin(context: AnyRuleContext, container: TSESTree.Node): DbCall[] {
  const [start, end] = container.range;
  return findDbCalls(context).filter((call) => call.node.range[0] >= start && call.node.range[1] <= end);
}

/**
 * Does the file touch a database at all (a call, a DynamoDB client, a pg pool)? Retry
 * rules ask this first: most files of a project have no database code, and retry-scope
 * analysis is the most expensive part of a lint.
 */
export function hasDatabaseCode(context: AnyRuleContext): boolean {
  return findDbCalls(context).length > 0 || findDynamoDbClients(context).length > 0 || findPgPools(context).length > 0;
}
