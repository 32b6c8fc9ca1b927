import type { DbCall } from './db-calls';
import type { AnyRuleContext } from './per-file-cache';

/** postgres calls of the file. Placeholder until the postgres call tracking lands. */
export function findPostgresCalls(context: AnyRuleContext): DbCall[] {
  void context;
  return [];
}
