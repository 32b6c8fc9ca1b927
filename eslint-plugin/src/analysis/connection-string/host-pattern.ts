/**
 * The `documentdb.hosts` patterns: `*` matches any run of characters, `?` one character,
 * anything else itself, case-insensitively, against the whole subject.
 *
 * Matched by walking pattern and subject together, going back only to the last `*` seen
 * (a later star can stand for whatever an earlier one would have taken), so the time is at
 * most the pattern's length times the subject's: `*a*a*a*a*a*a*a*a*c` against a long host
 * costs no more than that, where a regular expression backtracks through every way of
 * placing the `a`s.
 */
export function matchHostPattern(pattern: string, subject: string, work?: { steps: number }): boolean {
  const glob = pattern.toLowerCase();
  const text = subject.toLowerCase();
  let globIndex = 0;
  let textIndex = 0;
  /** Position in the pattern just after the last `*`, and where in the subject that star's run ends now. */
  let starNext = -1;
  let starText = 0;
  let steps = 0;
  while (textIndex < text.length) {
    steps++;
    const char = glob[globIndex];
    if (char === '*') {
      starNext = ++globIndex;
      starText = textIndex;
    } else if (char !== undefined && (char === '?' || char === text[textIndex])) {
      globIndex++;
      textIndex++;
    } else if (starNext !== -1) {
      // Let the last star take one more character, and match the rest after it again.
      globIndex = starNext;
      textIndex = ++starText;
    } else {
      if (work) work.steps += steps;
      return false;
    }
  }
  while (glob[globIndex] === '*') globIndex++;
  if (work) work.steps += steps;
  return globIndex === glob.length;
}
