import { AST_NODE_TYPES, ASTUtils, type TSESLint, type TSESTree } from '@typescript-eslint/utils';
import { type FunctionNode, isFunctionNode } from '../ast';
import { CALL, CONSTRUCT, findModuleReferences, type TraceMap } from '../modules';
import type { AnyRuleContext } from '../per-file-cache';
import { getLocalFunction } from '../called-functions';
import type { RetryScope } from './retry-scope';

/**
 * Retry libraries found by their import or require, and the calls that start a retry.
 * Options are read by `library-delay.ts`; this file only finds the calls, their callback and
 * their options object.
 */


type LibraryShape = 'callback-first' | 'either-order' | 'options-first' | 'operation' | 'policy' | 'strategy';

interface LibraryEntry {
  library: string;
  libraryFunction: string;
  shape: LibraryShape;
}

const entry = (library: string, libraryFunction: string, shape: LibraryShape): LibraryEntry => ({
  library,
  libraryFunction,
  shape,
});

const callable = (info: LibraryEntry) => ({ [CALL]: info, default: { [CALL]: info } });

const TRACE_MAP = {
  'p-retry': callable(entry('p-retry', 'pRetry', 'callback-first')),
  'async-retry': callable(entry('async-retry', 'retry', 'callback-first')),
  'promise-retry': callable(entry('promise-retry', 'promiseRetry', 'either-order')),
  retry: { operation: { [CALL]: entry('retry', 'retry.operation', 'operation') } },
  'exponential-backoff': { backOff: { [CALL]: entry('exponential-backoff', 'backOff', 'callback-first') } },
  cockatiel: { retry: { [CALL]: entry('cockatiel', 'retry', 'policy') } },
  // async's `retry([opts,] task[, callback])`: 5 attempts, no wait, unless told otherwise.
  async: { retry: { [CALL]: entry('async', 'async.retry', 'options-first') } },
  'async/retry': callable(entry('async', 'retry', 'options-first')),
  '@aws-sdk/util-retry': {
    ConfiguredRetryStrategy: { [CONSTRUCT]: entry('@aws-sdk/util-retry', 'ConfiguredRetryStrategy', 'strategy') },
  },
  '@smithy/util-retry': {
    ConfiguredRetryStrategy: { [CONSTRUCT]: entry('@smithy/util-retry', 'ConfiguredRetryStrategy', 'strategy') },
  },
};

/** Library names this analysis knows. */
export const RETRY_LIBRARIES = Object.keys(TRACE_MAP);

/** Every library name ends in one of these, followed by a quote: a cheap first test. */
const QUICK_MODULE_HINT = /(?:retry|backoff|cockatiel|async)['"`]/;

/** A quoted module name of a retry library somewhere in the text (an import or a require). */
const MODULE_NAME_PATTERN = new RegExp(
  `['"\`](?:${RETRY_LIBRARIES.map((name) => name.replace(/[/@.-]/g, (char) => `\\${char}`)).join('|')})['"\`]`,
);

export function findRetryLibraryScopes(context: AnyRuleContext): RetryScope[] {
  const sourceCode = context.sourceCode;
  const program = sourceCode.ast as TSESTree.Program;
  // Cheap exit: no import or require of any retry library in the text.
  const text = sourceCode.text;
  if (!QUICK_MODULE_HINT.test(text) || !MODULE_NAME_PATTERN.test(text)) return [];
  const scopes: RetryScope[] = [];
  for (const reference of findModuleReferences(context, TRACE_MAP as TraceMap<LibraryEntry>)) {
    const node = reference.node;
    const info = reference.info;
    if (node.type !== AST_NODE_TYPES.CallExpression && node.type !== AST_NODE_TYPES.NewExpression) continue;
    scopes.push(...buildScopes(context, node, info, program));
  }
  return scopes;
}

function buildScopes(
  context: AnyRuleContext,
  node: TSESTree.CallExpression | TSESTree.NewExpression,
  info: LibraryEntry,
  program: TSESTree.Program,
): RetryScope[] {
  void program;
  const base: Omit<RetryScope, 'attempt'> = {
    kind: 'library',
    node,
    library: info.library,
    libraryFunction: info.libraryFunction,
    handlers: [],
  };
  const args = node.arguments;
  const objectArg = (index: number): TSESTree.ObjectExpression | undefined => {
    const arg = args[index];
    if (arg && arg.type !== AST_NODE_TYPES.ObjectExpression) (base as { optionsUnknown?: boolean }).optionsUnknown = true;
    return arg?.type === AST_NODE_TYPES.ObjectExpression ? arg : undefined;
  };
  // Read the options argument first: it marks `base` when the options cannot be read.
  const optionsIndex = getOptionsIndex(context, info.shape, args);
  const options = optionsIndex >= 0 ? objectArg(optionsIndex) : undefined;
  switch (info.shape) {
    case 'callback-first': {
      const callback = resolveFunction(context, args[0]);
      return [{ ...base, attempt: callback ?? node, options, attemptVariable: getAttemptParam(callback, info) }];
    }
    case 'either-order': {
      // promiseRetry(fn, options) or promiseRetry(options, fn)
      const fnIndex = resolveFunction(context, args[0]) ? 0 : 1;
      const callback = resolveFunction(context, args[fnIndex]);
      return [{ ...base, attempt: callback ?? node, options, attemptVariable: getAttemptParam(callback, info) }];
    }
    case 'options-first': {
      // async.retry(task), async.retry({ times, interval }, task), async.retry(3, task, done)
      const callback = resolveFunction(context, args[optionsIndex + 1]);
      return [{ ...base, attempt: callback ?? node, options }];
    }
    case 'operation': {
      // const operation = retry.operation(options); operation.attempt((currentAttempt) => { … })
      const callbacks = findMethodCallbacks(context, node, 'attempt');
      if (callbacks.length === 0) return [{ ...base, attempt: node, options }];
      return callbacks.map((callback) => ({ ...base, attempt: callback, options, attemptVariable: getAttemptParam(callback, info) }));
    }
    case 'policy': {
      // const policy = retry(handleAll, { maxAttempts, backoff }); policy.execute(() => …)
      const callbacks = findMethodCallbacks(context, node, 'execute');
      if (callbacks.length === 0) return [{ ...base, attempt: node, options }];
      return callbacks.map((callback) => ({ ...base, attempt: callback, options }));
    }
    case 'strategy':
      return [{ ...base, attempt: node }];
    default:
      return [];
  }
}

/** Where a library call takes its options object; -1 when it takes none. */
function getOptionsIndex(context: AnyRuleContext, shape: LibraryShape, args: readonly TSESTree.CallExpressionArgument[]): number {
  switch (shape) {
    case 'operation':
      return 0;
    case 'either-order':
      return resolveFunction(context, args[0]) ? 1 : 0;
    case 'options-first':
      // The task alone, or options first: a number of attempts or an object (read by library-delay.ts).
      return resolveFunction(context, args[0]) ? -1 : 0;
    case 'strategy':
      return -1;
    default:
      return 1;
  }
}

/** The attempt-number parameter of a library callback, when the library passes one. */
function getAttemptParam(callback: FunctionNode | undefined, info: LibraryEntry): string | undefined {
  if (!callback) return undefined;
  const index = info.library === 'p-retry' || info.library === 'retry' ? 0 : info.library === 'exponential-backoff' ? -1 : 1;
  if (index < 0) return undefined;
  const param = callback.params[index];
  return param?.type === AST_NODE_TYPES.Identifier ? param.name : undefined;
}

/** A function written in place, or an identifier bound to a function in this file. */
function resolveFunction(context: AnyRuleContext, node: TSESTree.Node | undefined): FunctionNode | undefined {
  if (!node) return undefined;
  if (isFunctionNode(node)) return node;
  return getLocalFunction(context, node);
}

/**
 * Callbacks passed to `<result>.method(cb)`, where `<result>` is `node` itself
 * (`retry(…).execute(cb)`) or a variable it was stored in.
 */
function findMethodCallbacks(context: AnyRuleContext, node: TSESTree.Node, method: string): FunctionNode[] {
  const callbacks: FunctionNode[] = [];
  const take = (object: TSESTree.Node): void => {
    const member = object.parent;
    if (member?.type !== AST_NODE_TYPES.MemberExpression || member.object !== object) return;
    if (member.computed || member.property.type !== AST_NODE_TYPES.Identifier || member.property.name !== method) return;
    const call = member.parent;
    if (call?.type !== AST_NODE_TYPES.CallExpression || call.callee !== member) return;
    const callback = resolveFunction(context, call.arguments[0]);
    if (callback) callbacks.push(callback);
  };
  take(node);
  const declarator = node.parent;
  if (declarator?.type === AST_NODE_TYPES.VariableDeclarator && declarator.init === node && declarator.id.type === AST_NODE_TYPES.Identifier) {
    const variable = ASTUtils.findVariable(context.sourceCode.getScope(declarator) as TSESLint.Scope.Scope, declarator.id);
    for (const reference of variable?.references ?? []) {
      if (reference.identifier !== declarator.id) take(reference.identifier as TSESTree.Node);
    }
  }
  return callbacks;
}

