import type { TSESTree } from '@typescript-eslint/utils';

export type Database = 'mongodb' | 'dynamodb' | 'postgres';

/** A call that reaches a database, found by following its client's import (or its type). */
export interface DbCall {
  /** The call itself: `coll.updateMany(...)`, `client.send(new PutCommand(...))`, `` sql`…` ``. */
  node: TSESTree.CallExpression | TSESTree.NewExpression | TSESTree.TaggedTemplateExpression;
  database: Database;
  /** Operation name as the database knows it: `updateMany`, `PutItem`, `query`, `BatchWriteItem`, … */
  operation: string;
  /** True when the call may change data (inserts, updates, deletes, DDL, write transactions). */
  isWrite: boolean;
}
