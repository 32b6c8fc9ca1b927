import type { TSESTree } from '@typescript-eslint/utils';
import type { FunctionNode } from '../ast';

/**
 * A piece of code that runs again when an attempt fails: a loop that catches and
 * goes round, a function that calls itself from its catch, `.catch(() => retry())`,
 * or a retry library's callback.
 */
export interface RetryScope {
  kind: 'loop' | 'recursion' | 'catch-retry' | 'library';
  /** The loop statement, the recursive function, the `.catch` call or the library call. */
  node: TSESTree.Node;
  /** The code that runs once per attempt (loop body, function body, callback). */
  attempt: TSESTree.Node;
  /** Name of the variable that counts attempts, when there is one. */
  attemptVariable?: string;
  /** The retry library's module name, for `kind: 'library'`. */
  library?: string;
  /**
   * Where a failed attempt is caught before going round again: the loop's or the
   * function's `catch` clauses, or the `.catch` callback. Empty when the retry is
   * decided from a result (the `do { … } while (retry && retries++ < MAX)` shape)
   * or by a library.
   */
  handlers: readonly RetryHandler[];
  /**
   * The attempt is repeated because of what a response says, not because of a caught error:
   * a batch's leftovers sent again, a status polled until done. Such a loop's condition is no
   * bound on the attempts unless it compares a counter.
   */
  decidedByResult?: boolean;
  /** For `kind: 'library'`: the options object as written, when it is an object literal. */
  options?: TSESTree.ObjectExpression;
  /** For `kind: 'library'`: what the library call is (`pRetry`, `backOff`, `retry.operation`, …). */
  libraryFunction?: string;
  /** For `kind: 'library'`: options are passed but not as an object literal (a variable, a call), so they cannot be read. */
  optionsUnknown?: boolean;
}

/** A `catch` clause, or the callback of `.catch(cb)` / `.then(_, cb)`. */
export type RetryHandler = TSESTree.CatchClause | FunctionNode;
