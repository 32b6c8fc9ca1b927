// Bugs the fuzz suite found that are known and not fixed yet. A failure one of them
// explains is counted under it instead of failing the run; the regression corpus keeps an
// input of each, skipped with the bug's title until the fix is in. When a fix lands, its
// entry goes from here and the skip from the corpus (whose other entries are the bugs
// of issue 10 the suite found and that are fixed: they run every time).
import type { Failure } from './checks';
import type { FuzzInput } from './input';

export interface KnownBug {
  id: string;
  /** The bug, as the skip reason and the reports name it. */
  title: string;
  /** Whether this bug explains `failure` of `input`. */
  explains(input: FuzzInput, failure: Failure): boolean;
}

/** None open: the bugs the suite found are fixed, and their inputs run in the corpus. */
export const KNOWN_BUGS: readonly KnownBug[] = [];

/** The known bug behind a failure, if one is. */
export function explain(input: FuzzInput, failure: Failure): KnownBug | undefined {
  return KNOWN_BUGS.find((bug) => bug.explains(input, failure));
}

/** When known bugs explain every failure of an input: the one behind the first. */
export function classify(input: FuzzInput, failures: readonly Failure[]): KnownBug | undefined {
  const bugs = failures.map((failure) => explain(input, failure));
  return bugs.every((bug) => bug !== undefined) ? bugs[0] : undefined;
}

export function findKnownBug(id: string): KnownBug | undefined {
  return KNOWN_BUGS.find((bug) => bug.id === id);
}
