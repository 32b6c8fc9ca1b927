import type { TSESTree } from '@typescript-eslint/utils';

/** What the analysis knows about the wait between attempts, for loops and recursion as for retry libraries. */

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
  /** Part of the wait is a setting (`this.retryDelayMs * 2 ** attempt`): a suggestion keeps it rather than rewrite the wait. */
  fromSettings?: boolean;
  /** The number of attempts is limited. */
  bounded: boolean | undefined;
  /** At most this many attempts, when the loop's head says so in numbers (`attempt < 2`). */
  maxAttempts?: number;
  /** The longest single wait in milliseconds, when it can be computed. */
  maxDelayMs?: number;
  /** The attempt variable counts down (`retriesLeft--`): `2 ** it` would shrink, so no suggestion builds on it. */
  attemptCountsDown?: boolean;
  /** For libraries: the option each fact comes from, for reports and suggestions. */
  library?: LibraryDelayDetails;
}

export interface LibraryDelayDetails {
  /** Options written in the call, by name. */
  properties: ReadonlyMap<string, TSESTree.Property>;
  /** The options object literal, when there is one. */
  options?: TSESTree.ObjectExpression;
  /** Option that turns jitter on, and the value to write (`randomize: true`, `jitter: 'full'`). */
  jitterFix?: { key: string; value: string };
  /** Option that caps the wait (`maxTimeout`, `maxDelay`). */
  capKey?: string;
  /** The option responsible for each missing property, when an option (not a default) removes it. */
  growthProperty?: TSESTree.Property;
  jitterProperty?: TSESTree.Property;
  boundProperty?: TSESTree.Property;
  waitProperty?: TSESTree.Property;
}
