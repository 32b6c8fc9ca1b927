/**
 * The whole lines that `[start, end)` of `text` spans, their final line break included,
 * when nothing but spaces and tabs shares them; undefined otherwise (and on the last
 * line, which has no line break to take). Lines end at `\n`.
 */
export function getOwnLinesRange(text: string, start: number, end: number): [number, number] | undefined {
  const lineStart = text.lastIndexOf('\n', start - 1) + 1;
  const lineEnd = text.indexOf('\n', end);
  const ownsLines = /^[ \t]*$/.test(text.slice(lineStart, start)) && lineEnd !== -1 && /^[ \t]*$/.test(text.slice(end, lineEnd));
  return ownsLines ? [lineStart, lineEnd + 1] : undefined;
}
