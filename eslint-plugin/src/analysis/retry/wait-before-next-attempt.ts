import { AST_NODE_TYPES, type TSESLint, type TSESTree } from '@typescript-eslint/utils';
import type { AnyRuleContext } from '../per-file-cache';
import { getLocalFunction } from '../called-functions';
import { getFunctionName } from './local-functions';
import { walkOwnCode } from './code-walk';
import { type FunctionNode, isFunctionNode } from '../ast';
import { BACKOFF_HELPER_NAME, getCalleeName, getWaitNode, isAwaitedOrReturned, isPlainSleepHelper, isStored, NOT_WAIT_NAME, PLAIN_WAIT_NAME, WAIT_NAME } from './wait-calls';
import type { RetryScope } from './retry-scope';

/** The wait between two attempts of a retry, and the milliseconds expression it is given. */
export interface RetryWait {
  /** The waiting call (or the awaited promise around a timer). */
  wait: TSESTree.Node;
  /** The milliseconds as written; the call itself for a helper that computes its own delay. */
  delay?: TSESTree.Expression;
}

/** The first wait before the next attempt of `scope`: in the attempt, or in its handlers for a catch-retry. */
export function getRetryWait(context: AnyRuleContext, scope: RetryScope): RetryWait | undefined {
  return new RetryWaitFinder(context, scope).find();
}

class RetryWaitFinder {
  private readonly keys: TSESLint.SourceCode.VisitorKeys;

  constructor(
    private readonly context: AnyRuleContext,
    private readonly scope: RetryScope,
  ) {
    this.keys = context.sourceCode.visitorKeys;
  }

  find(): RetryWait | undefined {
    let found: RetryWait | undefined;
    const roots: TSESTree.Node[] = [this.scope.attempt];
    if (this.scope.kind === 'catch-retry') roots.splice(0, 1, ...this.scope.handlers);
    for (const root of roots) {
      walkOwnCode(
        root,
        this.keys,
        (node) => {
          if (found) return false;
          if (isFunctionNode(node) && node !== root && !this.isCallbackOfAttempt(node)) return false;
          const wait = this.getWait(node);
          if (wait) found = wait;
          return !found;
        },
        true,
      );
    }
    return found;
  }

  /** `setTimeout(connect, ms)`, `setTimeout(() => connect(), ms)`: the timer starts the next attempt. */
  private isRetriedFrom(callback: TSESTree.Node | undefined): boolean {
    if (!callback || this.scope.kind !== 'recursion' || !isFunctionNode(this.scope.node)) return false;
    const name = getFunctionName(this.scope.node);
    if (!name) return false;
    if (callback.type === AST_NODE_TYPES.Identifier) return callback.name === name;
    if (!isFunctionNode(callback)) return false;
    let found = false;
    walkOwnCode(
      callback.body,
      this.keys,
      (node) => {
        if (node.type === AST_NODE_TYPES.CallExpression && getCalleeName(node.callee) === name) found = true;
        return !found;
      },
      true,
    );
    return found;
  }

  /** Callbacks that run as part of the attempt: promise executors, timers, `.then`/`.catch`. */
  private isCallbackOfAttempt(fn: FunctionNode): boolean {
    if (this.scope.handlers.includes(fn)) return true;
    // `docClient.batchWrite(params, (err, data) => { … setTimeout(() => write(left), ms) })`: the
    // SDK callback that starts the next attempt.
    if (this.scope.decidedByResult && this.isRetriedFrom(fn)) return true;
    const parent = fn.parent;
    if (parent?.type === AST_NODE_TYPES.NewExpression) return true;
    if (parent?.type !== AST_NODE_TYPES.CallExpression || !parent.arguments.includes(fn as TSESTree.CallExpressionArgument)) return false;
    const name = getCalleeName(parent.callee);
    return name === 'setTimeout' || name === 'then' || name === 'catch' || name === 'finally';
  }

  private getWait(node: TSESTree.Node): RetryWait | undefined {
    if (node.type !== AST_NODE_TYPES.CallExpression) return undefined;
    const name = getCalleeName(node.callee);
    if (!name) return undefined;
    const [first, second] = node.arguments;
    if (name === 'setTimeout') {
      // setTimeout(fn, ms) — a timer, or `timers/promises` setTimeout(ms) that is awaited.
      if (second && second.type !== AST_NODE_TYPES.SpreadElement) {
        // A timer counts when it holds the next attempt back: inside a promise that is awaited,
        // or calling the retry again. A watchdog (`setTimeout(() => process.exit(1), 20000)`) does not.
        const waitNode = getWaitNode(node);
        if (waitNode !== node || this.isRetriedFrom(first)) return { wait: waitNode, delay: second };
        return undefined;
      }
      if (first && first.type !== AST_NODE_TYPES.SpreadElement && !isFunctionNode(first) && isAwaitedOrReturned(node)) {
        return { wait: node, delay: first };
      }
      return undefined;
    }
    if (name === 'wait' && node.callee.type === AST_NODE_TYPES.MemberExpression) {
      // scheduler.wait(ms)
      if (first && first.type !== AST_NODE_TYPES.SpreadElement) return { wait: node, delay: first };
    }
    if (!WAIT_NAME.test(name) || NOT_WAIT_NAME.test(name)) return undefined;
    // `const pause = delay(ms); …; await pause;` — stored and awaited later: only for plain wait verbs.
    if (!isAwaitedOrReturned(node) && !(PLAIN_WAIT_NAME.test(name) && isStored(node))) return undefined;
    const helper = getLocalFunction(this.context, node.callee);
    if (helper) return this.getHelperWait(node, helper);
    // An imported backoff helper fed the attempt (`await backoff(attempt)`) computes its own delay.
    if (first && BACKOFF_HELPER_NAME.test(name)) return { wait: node, delay: node };
    if (first && first.type !== AST_NODE_TYPES.SpreadElement) return { wait: node, delay: first };
    return { wait: node };
  }

  /**
   * A local `sleep(ms)` / `backoff(attempt)` helper: its own wait, with its parameters read
   * as the call's arguments. `delay` is then the call itself, analysed through the helper.
   */
  private getHelperWait(call: TSESTree.CallExpression, helper: FunctionNode): RetryWait {
    const first = call.arguments[0];
    // A plain `sleep(ms)` helper waits exactly its argument: read the argument itself.
    if (first && first.type !== AST_NODE_TYPES.SpreadElement && isPlainSleepHelper(helper)) return { wait: call, delay: first };
    if (helper.params.length > 0 && first && first.type !== AST_NODE_TYPES.SpreadElement) return { wait: call, delay: call };
    if (helper.params.length === 0) return { wait: call, delay: call };
    return { wait: call };
  }
}
