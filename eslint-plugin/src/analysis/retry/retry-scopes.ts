import { AST_NODE_TYPES, type TSESLint, type TSESTree } from '@typescript-eslint/utils';
import { findImportedCallSites, findMongoConnectionOpens, getFunctionExportNames, hasDatabaseCode } from '../clients';
import { type AnyRuleContext, createPerFileCache } from '../per-file-cache';
import { ATTEMPT_NAME } from './attempt-counters';
import { getFunctionName } from './local-functions';
import { walkAll } from './code-walk';
import { containsNode, type FunctionNode, isFunctionNode, isLoopNode, isPromiseMethod } from '../ast';
import { findRetryLibraryScopes } from './retry-libraries';
import { mayBeResultDecidedLoop } from './result-retries';
import { getLoopRetryScope, isRetryLoopType, type LoopNode } from './retry-loops';
import { findThisCalls, getCatchRetryScope, getPromiseRejectionHandler, getRecursiveRetryScope, isMethodCallingItself, isRetryShapedSelfCall, isTimerCallbackOf } from './retry-recursion';
import type { RetryScope } from './retry-scope';
import { findRetriedDbCalls } from './retried-calls';


/** Every retry scope of the file; computed once per file. */
export const findRetryScopes = createPerFileCache((context: AnyRuleContext): readonly RetryScope[] => {
  const scopes: RetryScope[] = [];
  const visitorKeys = context.sourceCode.visitorKeys;
  const recursive = new Set<TSESTree.Node>();
  const catchCalls: TSESTree.CallExpression[] = [];
  const candidates = collectCandidates(context);
  catchCalls.push(...candidates.catchCalls);
  const sourceText = context.sourceCode.text;
  for (const loop of candidates.loops) {
    const [start, end] = loop.body.range;
    const hasTry = candidates.tryRanges.some(([tryStart, tryEnd]) => tryStart >= start && tryEnd <= end);
    const test = loop.type === AST_NODE_TYPES.ForOfStatement ? null : loop.test;
    const hasCounterTest = test !== null && ATTEMPT_NAME.test(sourceText.slice(test.range[0], test.range[1]));
    if (!hasTry && !hasCounterTest && !mayBeResultDecidedLoop(loop, sourceText)) continue;
    const scope = getLoopRetryScope(context, loop);
    if (scope) scopes.push(scope);
  }
  for (const fn of candidates.selfCalling) {
    const scope = getRecursiveRetryScope(context, fn);
    if (scope) {
      scopes.push(scope);
      recursive.add(fn);
    }
  }
  let libraryScopes: RetryScope[] = [];
  try {
    libraryScopes = findRetryLibraryScopes(context);
  } catch {
    // An unexpected shape must never break linting; fall back to no library scopes.
    libraryScopes = [];
  }
  scopes.push(...libraryScopes);
  for (const call of catchCalls) {
    const scope = getCatchRetryScope(call, visitorKeys, libraryScopes);
    if (scope) scopes.push(scope);
  }
  return scopes.sort((a, b) => a.node.range[0] - b.node.range[0]);
});

interface Candidates {
  loops: LoopNode[];
  /** Named functions that call themselves somewhere in their body. */
  selfCalling: FunctionNode[];
  tryRanges: (readonly [number, number])[];
  catchCalls: TSESTree.CallExpression[];
}

/**
 * Where retries can be, read from the scope analysis the parser already did (no extra
 * walk over the whole tree): every function has a scope, every catch clause has one, and
 * every loop body block has one. A function calls itself when its own name is among the
 * references that leave its scope.
 */
function collectCandidates(context: AnyRuleContext): Candidates {
  const candidates: Candidates = { loops: [], selfCalling: [], tryRanges: [], catchCalls: [] };
  const scopeManager = context.sourceCode.scopeManager;
  if (!scopeManager) return collectCandidatesByWalking(context);
  const loops = new Set<LoopNode>();
  let thisCalls: Map<string, number[]> | undefined;
  const getThisCalls = (): Map<string, number[]> => (thisCalls ??= findThisCalls(context.sourceCode.text));
  for (const scope of scopeManager.scopes) {
    const block = scope.block as TSESTree.Node;
    if (scope.type === 'catch') {
      if (block.parent?.type === AST_NODE_TYPES.TryStatement) candidates.tryRanges.push(block.parent.range);
    } else if (scope.type === 'block' || scope.type === 'for') {
      const loop = scope.type === 'for' ? block : block.parent;
      if (loop && isRetryLoopType(loop) && (scope.type === 'for' || loop.body === block)) loops.add(loop);
    } else if (scope.type === 'function' && isFunctionNode(block)) {
      const parent = block.parent;
      if (parent?.type === AST_NODE_TYPES.CallExpression && getPromiseRejectionHandler(parent) === block) {
        candidates.catchCalls.push(parent);
      }
      const name = getFunctionName(block);
      if (!name) continue;
      const callsItself =
        scope.through.some((reference) => {
          const identifier = reference.identifier as TSESTree.Node;
          return (
            identifier.type === AST_NODE_TYPES.Identifier &&
            identifier.name === name &&
            identifier.parent?.type === AST_NODE_TYPES.CallExpression &&
            (identifier.parent.callee === identifier || isTimerCallbackOf(identifier.parent, name)) &&
            isRetryShapedSelfCall(context, identifier.parent, block)
          );
        }) || isMethodCallingItself(block, name, getThisCalls());
      if (callsItself) candidates.selfCalling.push(block);
    }
  }
  candidates.loops = [...loops];
  return candidates;
}

/** The same candidates by walking the tree, for a parser that gives no scope analysis. */
function collectCandidatesByWalking(context: AnyRuleContext): Candidates {
  const candidates: Candidates = { loops: [], selfCalling: [], tryRanges: [], catchCalls: [] };
  const functions: FunctionNode[] = [];
  const callNames = new Set<string>();
  walkAll(context.sourceCode.ast as TSESTree.Program, context.sourceCode.visitorKeys, (node) => {
    if (isRetryLoopType(node)) candidates.loops.push(node);
    else if (isFunctionNode(node)) functions.push(node);
    else if (node.type === AST_NODE_TYPES.TryStatement && node.handler) candidates.tryRanges.push(node.range);
    else if (node.type === AST_NODE_TYPES.CallExpression) {
      if (getPromiseRejectionHandler(node)) candidates.catchCalls.push(node);
      if (node.callee.type === AST_NODE_TYPES.Identifier) callNames.add(node.callee.name);
      if (node.callee.type === AST_NODE_TYPES.MemberExpression && node.callee.property.type === AST_NODE_TYPES.Identifier) {
        callNames.add(node.callee.property.name);
      }
    }
  });
  candidates.selfCalling = functions.filter((fn) => {
    const name = getFunctionName(fn);
    return name !== undefined && callNames.has(name);
  });
  return candidates;
}

/** Retry scopes whose attempt contains `node`, innermost first. */
export function findEnclosingRetryScopes(context: AnyRuleContext, node: TSESTree.Node): RetryScope[] {
  const [start, end] = node.range;
  return findRetryScopes(context)
    .filter((scope) => scope.attempt.range[0] <= start && scope.attempt.range[1] >= end)
    .sort((a, b) => b.attempt.range[0] - a.attempt.range[0]);
}

/**
 * Retry scopes of a file that touches a database, else none. Every rule asks about
 * retries of database work, most files have none, and retry-scope analysis is the
 * costliest part of a lint, so rules start here. A file whose only database work is in
 * other modules' functions touches a database when a retry calls one of them: only those
 * calls are looked up, as each costs a read of the module's summary.
 */
export const findDatabaseRetryScopes = createPerFileCache((context: AnyRuleContext): readonly RetryScope[] => {
  if (hasDatabaseCode(context) || findMongoConnectionOpens(context).length > 0) return findRetryScopes(context);
  // Finding the retry scopes costs more than reading a summary: first the calls that stand
  // where an attempt can be and do database work, then whether a retry holds one.
  const sites = [...findImportedCallSites(context)].filter(([call, site]) => mayBeRetriedCall(call) && site.calls.length > 0);
  if (sites.length === 0) return findHelperRetryScopes(context);
  const scopes = findRetryScopes(context);
  return sites.some(([call]) => scopes.some((scope) => containsNode(scope.attempt, call))) ? scopes : findHelperRetryScopes(context);
});

/**
 * A rule's listener that runs a check on each of the file's database retry scopes. The
 * check is made (`makeCheck`) only for a file that has one: most files have none, and a
 * rule's check is many functions and the state they share.
 */
export function checkDatabaseRetryScopes(context: AnyRuleContext, makeCheck: () => (scope: RetryScope) => void): TSESLint.RuleListener {
  return {
    'Program:exit'() {
      const scopes = findDatabaseRetryScopes(context);
      if (scopes.length === 0) return;
      const check = makeCheck();
      for (const scope of scopes) check(scope);
    },
  };
}

/**
 * A file with no database code of its own may hold a retry helper that other modules hand
 * their database work to (`export async function withRetry(fn)` … `await fn()`, called as
 * `withRetry(() => pool.query(…))` in `orders.js`). Only a file that names a retry in its
 * text and catches errors is looked at.
 */
const findHelperRetryScopes = createPerFileCache((context: AnyRuleContext): readonly RetryScope[] => {
  const text = context.sourceCode.text;
  if (!text.includes('catch') || !ATTEMPT_NAME.test(text) || !callsParameterWhereAttemptCanBe(context)) return [];
  const scopes = findRetryScopes(context);
  // Every rule asks: the answer is kept for the file.
  return scopes.some((scope) => findRetriedDbCalls(context, scope).length > 0) ? scopes : [];
});

/**
 * Whether an exported function of the file calls one of its parameters where a retry's
 * attempt can be: what a retry helper that other modules hand their work to does (a file
 * with no database code has nothing of its own to pass it). Reading the parameters' uses
 * costs far less than finding the file's retry scopes, which most files with `catch` and
 * a retry counter in their text (a driver's own code) would otherwise pay for nothing.
 */
function callsParameterWhereAttemptCanBe(context: AnyRuleContext): boolean {
  for (const scope of context.sourceCode.scopeManager?.scopes ?? []) {
    if (scope.type !== 'function') continue;
    for (const variable of scope.variables) {
      const definition = variable.defs[0];
      if (definition?.type !== 'Parameter') continue;
      const calledWhereAttemptCanBe = variable.references.some(({ identifier }) => {
        const call = identifier.parent;
        return call?.type === AST_NODE_TYPES.CallExpression && call.callee === identifier && mayBeRetriedCall(call);
      });
      if (calledWhereAttemptCanBe && isFunctionNode(definition.node) && getFunctionExportNames(context, definition.node).length > 0) return true;
    }
  }
  return false;
}

/**
 * Whether a call stands where a retry's attempt can be: in a loop, in a `try` block, in a
 * promise chain, with a callback of its own, or in a function handed to another call (a
 * retry library's task, a timer). Most calls of another module's functions are none of these.
 */
function mayBeRetriedCall(call: TSESTree.Node): boolean {
  if (call.type === AST_NODE_TYPES.CallExpression && call.arguments.some((argument) => isFunctionNode(argument))) return true;
  for (let node: TSESTree.Node = call; node.parent; node = node.parent) {
    const parent: TSESTree.Node = node.parent;
    if (parent.type === AST_NODE_TYPES.TryStatement && parent.block === node) return true;
    if (isLoopNode(parent) && parent.body === node) return true;
    if (parent.type === AST_NODE_TYPES.MemberExpression && parent.object === node && isPromiseMethod(parent)) return true;
    if ((parent.type === AST_NODE_TYPES.CallExpression || parent.type === AST_NODE_TYPES.NewExpression) && isFunctionNode(node) && parent.callee !== node) return true;
  }
  return false;
}
