import type { TSESTree } from '@typescript-eslint/utils';
import type { AnyRuleContext } from './per-file-cache';
import { collectAttemptCounters, type AttemptCounters } from './retry-attempt-counters';
import { isAttemptBounded } from './retry-attempt-bound';
import { getDelayShapeFacts } from './retry-delay-shape';
import { getLargestDelay } from './retry-largest-delay';
import { getLibraryDelayFacts } from './retry-library-delay';
import { getRetryWait } from './retry-wait';
import type { RetryScope } from './retry-scopes';

/*
 * What a retry does between attempts, put together from:
 * - `retry-wait.ts`: the wait before the next attempt and its milliseconds expression;
 * - `retry-delay-shape.ts`: growth, cap and jitter of that expression;
 * - `retry-attempt-bound.ts`: whether the number of attempts is limited;
 * - `retry-largest-delay.ts`: the longest single wait, when it can be computed;
 * - `retry-library-delay.ts`: the same facts for retry libraries, from their options.
 */

/**
 * What a retry does between attempts. Every fact is `undefined` when the code does
 * not say (a delay read from a variable we cannot follow, options passed as a variable):
 * rules report only on `false`.
 */
export interface RetryDelayFacts {
  /** Some wait happens before the next attempt. */
  waits: boolean | undefined;
  /** The waiting call: `await sleep(ms)`, `new Promise(r => setTimeout(r, ms))`, `setTimeout(() => retry(), ms)`. */
  wait?: TSESTree.Node;
  /** The milliseconds expression as written at the wait, when there is one. */
  delay?: TSESTree.Expression;
  /** How the wait changes with the attempt. */
  growth: 'none' | 'linear' | 'exponential' | undefined;
  /** The growth stops at a maximum (`Math.min(cap, …)`, a clamp, a library's `maxTimeout`). */
  capped: boolean | undefined;
  /** The wait has a random part (`Math.random()`, a library's `randomize`/`jitter`). */
  jittered: boolean | undefined;
  /** The number of attempts is limited. */
  bounded: boolean | undefined;
  /** The longest single wait in milliseconds, when it can be computed. */
  maxDelayMs?: number;
  /** The attempt variable counts down (`retriesLeft--`): `2 ** it` would shrink, so no suggestion builds on it. */
  attemptCountsDown?: boolean;
  /** For libraries: the option each fact comes from, for reports and suggestions. */
  library?: import('./retry-library-delay').LibraryDelayDetails;
}

export function getRetryDelayFacts(context: AnyRuleContext, scope: RetryScope): RetryDelayFacts {
  if (scope.kind === 'library') return getLibraryDelayFacts(context, scope);
  const counters = collectAttemptCounters(context, scope);
  const facts = collectFacts(context, scope, counters);
  if (scope.attemptVariable && counters.countingDown.has(scope.attemptVariable)) facts.attemptCountsDown = true;
  return facts;
}

/**
 * Growth, cap and jitter of one delay expression, read as a retry scope would read it
 * (used for a library's delay callback such as `ConfiguredRetryStrategy`'s).
 */
export function getDelayExpressionFacts(
  context: AnyRuleContext,
  scope: RetryScope,
  expression: TSESTree.Expression,
): Pick<RetryDelayFacts, 'growth' | 'capped' | 'jittered'> {
  return getDelayShapeFacts(context, scope, collectAttemptCounters(context, scope), expression);
}

export { evaluateDelay } from './retry-delay-value';
export { getCalleeName } from './retry-wait-calls';

function collectFacts(context: AnyRuleContext, scope: RetryScope, counters: AttemptCounters): RetryDelayFacts {
  const bounded = isAttemptBounded(context, scope, counters);
  const found = getRetryWait(context, scope);
  if (!found) {
    return { waits: false, growth: 'none', capped: false, jittered: false, bounded };
  }
  if (!found.delay) {
    // `await sleep()` / `await backoff()` with nothing to read: the helper decides.
    return { waits: true, wait: found.wait, growth: undefined, capped: undefined, jittered: undefined, bounded };
  }
  const facts: RetryDelayFacts = {
    waits: true,
    wait: found.wait,
    delay: found.delay,
    ...getDelayShapeFacts(context, scope, counters, found.delay),
    bounded,
  };
  const maxDelayMs = getLargestDelay(context, scope, found.delay);
  if (maxDelayMs !== undefined) facts.maxDelayMs = maxDelayMs;
  return facts;
}
