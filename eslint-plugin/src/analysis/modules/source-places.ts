import path from 'node:path';

/** A line of a file of the project, named in a message about another file. */
export interface SourcePlace {
  file: string;
  line: number;
}

/** How many places a message names before it counts the rest. */
const NAMED_PLACES = 3;

/**
 * `line 6` in the linted file, `../handlers/import.ts:6, 9` in another, the files named
 * relative to the linted file's folder (with `/` on every system), a few at most.
 */
export function describePlaces(linted: string, places: readonly SourcePlace[]): string {
  const linesByFile = new Map<string, number[]>();
  for (const { file, line } of places) {
    const lines = linesByFile.get(file) ?? [];
    if (!lines.includes(line)) lines.push(line);
    linesByFile.set(file, lines);
  }
  const named = [...linesByFile].map(([file, lines]) => {
    const where = file === linted ? 'line ' : `${path.relative(path.dirname(linted), file).split(path.sep).join('/')}:`;
    return `${where}${lines.slice(0, NAMED_PLACES).join(', ')}${lines.length > NAMED_PLACES ? '…' : ''}`;
  });
  const shown = named.slice(0, NAMED_PLACES).join('; ');
  return named.length > NAMED_PLACES ? `${shown}; ${named.length - NAMED_PLACES} more files` : shown;
}
