import type { TSESTree } from '@typescript-eslint/utils';
import { isFunctionNode } from '../ast';
import { findMemberCallsNamed, type MemberCall } from '../find-nodes-at-offsets';
import { getMongoValues, type MongoValues } from './mongo-values';
import { type AnyRuleContext, createPerFileCache } from '../per-file-cache';

/**
 * Code that runs inside a MongoDB multi-document transaction, where individual
 * writes are not retryable (only `commitTransaction`/`abortTransaction` are).
 */
export interface TransactionScope {
  /** `callback`: `session.withTransaction(fn)` / Mongoose `connection.transaction(fn)`; `explicit`: `startTransaction()` … `commitTransaction()`. */
  kind: 'callback' | 'explicit';
  /** The `withTransaction`/`transaction` call, or the `startTransaction` call. */
  node: TSESTree.CallExpression;
  /** The transaction callback, for `kind: 'callback'`. */
  callback?: TSESTree.ArrowFunctionExpression | TSESTree.FunctionExpression;
  /** The `commitTransaction` call that ends an explicit transaction, when there is one. */
  commit?: TSESTree.CallExpression;
  /** Source range of the code that runs inside the transaction. */
  range: [number, number];
}

const TRANSACTION_METHODS = ['withTransaction', 'transaction', 'startTransaction', 'commitTransaction'];

/** Every transaction scope of the file, in source order; computed once per file. */
export const findTransactionScopes = createPerFileCache((context: AnyRuleContext): readonly TransactionScope[] => {
  const candidates = findMemberCallsNamed(context, TRANSACTION_METHODS);
  if (candidates.length === 0) return [];
  const values = getMongoValues(context);
  const commits = candidates.filter((candidate) => candidate.name === 'commitTransaction');
  const scopes: TransactionScope[] = [];
  for (const candidate of candidates) {
    if (candidate.name === 'withTransaction' || candidate.name === 'transaction') {
      const scope = getCallbackScope(values, candidate);
      if (scope) scopes.push(scope);
    } else if (candidate.name === 'startTransaction' && isSession(values, candidate.receiver, false)) {
      scopes.push(getExplicitScope(context, candidate, commits));
    }
  }
  return scopes;
});

/**
 * `commitTransaction()` calls on what may be a MongoDB session: a known session, or a
 * receiver nothing says is something else, in a file that imports no look-alike library
 * (TypeORM's query runner has a `commitTransaction` too). Callers need more evidence for
 * the unknown ones (a MongoDB error label checked around the call).
 */
export function findPossibleSessionCommits(context: AnyRuleContext): MemberCall[] {
  const candidates = findMemberCallsNamed(context, ['commitTransaction']);
  if (candidates.length === 0) return [];
  const values = getMongoValues(context);
  if (values.importsLookAlike) return [];
  return candidates.filter((candidate) => isSession(values, candidate.receiver, true));
}

/** Transaction scopes whose code contains `node`, innermost first. */
export function findEnclosingTransactionScopes(context: AnyRuleContext, node: TSESTree.Node): TransactionScope[] {
  const [start, end] = node.range;
  return findTransactionScopes(context)
    .filter((scope) => scope.range[0] <= start && scope.range[1] >= end)
    .sort((a, b) => b.range[0] - a.range[0]);
}

function getCallbackScope(values: MongoValues, { call, receiver, name }: MemberCall): TransactionScope | undefined {
  const callback = call.arguments[0];
  if (callback?.type !== 'ArrowFunctionExpression' && callback?.type !== 'FunctionExpression') return undefined;
  // `withTransaction` is the driver's name; a bare `.transaction(fn)` only on a Mongoose connection.
  if (name === 'transaction' ? !isConnection(values, receiver) : !isSession(values, receiver, true)) return undefined;
  return { kind: 'callback', node: call, callback, range: [callback.body.range[0], callback.body.range[1]] };
}

function getExplicitScope(context: AnyRuleContext, start: MemberCall, commits: readonly MemberCall[]): TransactionScope {
  const owner = getOwnerBody(start.call);
  const receiverText = context.sourceCode.getText(start.receiver);
  const commit = commits.find(
    (candidate) =>
      candidate.call.range[0] > start.call.range[1] &&
      getOwnerBody(candidate.call) === owner &&
      context.sourceCode.getText(candidate.receiver) === receiverText,
  );
  const end = commit ? commit.call.range[0] : owner.range[1];
  return { kind: 'explicit', node: start.call, ...(commit ? { commit: commit.call } : {}), range: [start.call.range[1], end] };
}

function isSession(values: MongoValues, receiver: TSESTree.Expression, allowUnknown: boolean): boolean {
  const typeKind = values.getTypeKind(receiver);
  if (typeKind !== undefined) return typeKind === 'session';
  const kind = values.getKind(receiver);
  if (kind !== undefined) return kind === 'session';
  // An untraced receiver: `withTransaction` is the driver's own name; `startTransaction`
  // is also TypeORM's, so it needs the file to use MongoDB and no look-alike library.
  return allowUnknown || (values.importsMongo && !values.importsLookAlike);
}

function isConnection(values: MongoValues, receiver: TSESTree.Expression): boolean {
  return (values.getTypeKind(receiver) ?? values.getKind(receiver)) === 'connection';
}

/** The body of the function (or the program) the call belongs to. */
function getOwnerBody(node: TSESTree.Node): TSESTree.Node {
  let current: TSESTree.Node | undefined = node.parent;
  while (current) {
    if (isFunctionNode(current)) {
      return current.body ?? current;
    }
    if (current.type === 'Program') return current;
    current = current.parent;
  }
  return node;
}
