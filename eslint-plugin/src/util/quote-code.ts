/** Longest piece of the file's code a message quotes; a longer one is cut with `…`. */
const MAX_QUOTED_CODE_LENGTH = 60;

/**
 * Code written in the linted file, as a message quotes it: on one line and cut to fit, so
 * that a long expression cannot make the message run on (the location shows it whole).
 */
export function quoteCode(text: string, maxLength = MAX_QUOTED_CODE_LENGTH): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > maxLength ? `${line.slice(0, maxLength - 1)}…` : line;
}
