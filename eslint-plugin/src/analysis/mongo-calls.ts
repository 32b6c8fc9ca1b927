import type { DbCall } from './db-calls';
import type { AnyRuleContext } from './per-file-cache';

/** mongodb calls of the file. Placeholder until the mongodb call tracking lands. */
export function findMongoCalls(context: AnyRuleContext): DbCall[] {
  void context;
  return [];
}
