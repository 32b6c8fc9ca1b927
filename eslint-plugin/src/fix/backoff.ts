import { ASTUtils, type TSESLint, type TSESTree } from '@typescript-eslint/utils';
import { isPlainSleepHelper, PLAIN_WAIT_NAME } from '../analysis/retry';
import type { ServiceBackoff } from '../analysis/retry';
import { getDefinedFunction } from './file-helpers';

/**
 * The wait a fix writes between attempts: capped exponential backoff with full jitter,
 * `random(0, min(cap, base × 2^attempt))` (AWS's "Exponential backoff and jitter").
 */

/** `Math.random() * Math.min(cap, base * 2 ** attempt)`. */
export function getBackoffDelayText(attempt: string, backoff: ServiceBackoff): string {
  return `Math.random() * Math.min(${backoff.maxDelayMs}, ${backoff.baseDelayMs} * 2 ** ${attempt})`;
}

/**
 * The statement that waits `delay` milliseconds at `at`: `await sleep(delay);` with a
 * `sleep`-like helper visible there (one parameter, resolving after `setTimeout`), else
 * `await new Promise((resolve) => setTimeout(resolve, delay));`.
 */
export function getWaitStatement(sourceCode: Readonly<TSESLint.SourceCode>, at: TSESTree.Node, delay: string): string {
  const sleep = findSleepHelper(sourceCode, at);
  return sleep ? `await ${sleep}(${delay});` : `await new Promise((resolve) => setTimeout(resolve, ${delay}));`;
}

/** A visible `sleep(ms)` / `delay(ms)` / `wait(ms)` declared in the file whose body waits with `setTimeout(…, ms)`. */
export function findSleepHelper(sourceCode: Readonly<TSESLint.SourceCode>, at: TSESTree.Node): string | undefined {
  for (let scope: TSESLint.Scope.Scope | null = sourceCode.getScope(at) as TSESLint.Scope.Scope; scope; scope = scope.upper) {
    for (const variable of scope.variables) {
      if (!PLAIN_WAIT_NAME.test(variable.name)) continue;
      const fn = variable.defs[0] && getDefinedFunction(variable.defs[0].node as TSESTree.Node);
      if (fn && fn.params.length === 1 && isPlainSleepHelper(fn) && ASTUtils.findVariable(sourceCode.getScope(at) as TSESLint.Scope.Scope, variable.name) === variable) {
        return variable.name;
      }
    }
  }
  return undefined;
}
