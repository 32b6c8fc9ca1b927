import type { AnyRuleContext } from '../per-file-cache';
import { type AttemptCounters, collectAttemptCounters } from './attempt-counters';
import { getLoopAttemptCount, isAttemptBounded } from './attempt-limit';
import { getDelayShapeFacts } from './delay-shape';
import { getLargestDelay } from './longest-wait';
import { getLibraryDelayFacts } from './library-delay';
import { getRetryWait } from './wait-before-next-attempt';
import type { RetryScope } from './retry-scope';
import type { RetryDelayFacts } from './delay-facts';

/*
 * What a retry does between attempts (`delay-facts.ts` says what each fact means), put together from:
 * - `wait-before-next-attempt.ts`: the wait before the next attempt and its milliseconds expression;
 * - `delay-shape.ts`: growth, cap and jitter of that expression;
 * - `attempt-limit.ts`: whether the number of attempts is limited;
 * - `longest-wait.ts`: the longest single wait, when it can be computed;
 * - `library-delay.ts`: the same facts for retry libraries, from their options.
 */

export function getRetryDelayFacts(context: AnyRuleContext, scope: RetryScope): RetryDelayFacts {
  if (scope.kind === 'library') return getLibraryDelayFacts(context, scope);
  const counters = collectAttemptCounters(context, scope);
  const facts = collectFacts(context, scope, counters);
  if (scope.attemptVariable && counters.countingDown.has(scope.attemptVariable)) facts.attemptCountsDown = true;
  const maxAttempts = getLoopAttemptCount(scope);
  if (maxAttempts !== undefined) facts.maxAttempts = maxAttempts;
  return facts;
}

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
  const maxDelayMs = getLargestDelay(context, scope, found.delay, counters);
  if (maxDelayMs !== undefined) facts.maxDelayMs = maxDelayMs;
  return facts;
}
