import { AST_NODE_TYPES } from '@typescript-eslint/utils';
import type { DbCall } from './db-call';
import { findMemberCallsNamed } from '../find-nodes-at-offsets';
import { findMongoConnectCalls } from './mongo-connect-calls';
import { getMongoValues } from './mongo-values';
import { mayHaveDbValuesBeyondParameters } from './db-values';
import { type AnyRuleContext, createPerFileCache } from '../per-file-cache';

/**
 * Calls that open a MongoDB connection — `client.connect()` on a `MongoClient`,
 * `MongoClient.connect(uri)`, `mongoose.connect(uri)`, `mongoose.createConnection(uri)` — as
 * database calls. They are not data operations (no rule about reads and writes sees them), but
 * a retry around one is a connection retry, as pg's `connect` is: retries ask for them apart.
 */
export const findMongoConnectionOpens = createPerFileCache((context: AnyRuleContext): readonly DbCall[] => {
  if (!context.sourceCode.text.includes('onnect') || !mayHaveDbValuesBeyondParameters(context)) return [];
  const values = getMongoValues(context);
  if (!values.importsMongo && !values.hasTypes) return [];
  const calls: DbCall[] = [];
  for (const connect of findMongoConnectCalls(context)) {
    const node = connect.node;
    if (node.type !== AST_NODE_TYPES.CallExpression) continue;
    const operation = node.callee.type === AST_NODE_TYPES.MemberExpression && node.callee.property.type === AST_NODE_TYPES.Identifier ? node.callee.property.name : 'connect';
    calls.push({ node, database: 'mongodb', operation, isWrite: false });
  }
  for (const { call, receiver } of findMemberCallsNamed(context, ['connect'])) {
    if (calls.some((known) => known.node === call)) continue;
    if ((values.getTypeKind(receiver) ?? values.getKind(receiver)) === 'client') calls.push({ node: call, database: 'mongodb', operation: 'connect', isWrite: false });
  }
  return calls.sort((a, b) => a.node.range[0] - b.node.range[0]);
});
