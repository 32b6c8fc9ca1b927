// ESLint locations → LSP positions.
//
// ESLint reports 1-based lines and 1-based columns, with `endColumn` exclusive; LSP wants
// 0-based lines and characters. Both count columns in UTF-16 code units, but they disagree
// on what ends a line: ESLint's JavaScript language also breaks lines at U+2028 / U+2029,
// LSP only at \n, \r\n and \r. So a location is turned into a text offset with ESLint's
// own line starts, and the offset into an LSP position by the document.
import type { Position, Range } from 'vscode-languageserver';
import type { TextDocument } from 'vscode-languageserver-textdocument';

/** How ESLint's JavaScript language splits lines (`astUtils.createGlobalLinebreakMatcher`). */
export const JS_LINE_BREAK = /\r\n|[\r\n\u2028\u2029]/g;
/** How line-oriented text formats (and LSP) split lines. */
export const TEXT_LINE_BREAK = /\r\n|[\r\n]/g;

/** Offsets at which each line starts; index 0 is line 1. */
export function findLineStarts(text: string, lineBreak: RegExp): number[] {
  const starts = [0];
  const matcher = new RegExp(lineBreak.source, 'g');
  for (let match = matcher.exec(text); match; match = matcher.exec(text)) {
    starts.push(match.index + match[0].length);
  }
  return starts;
}

/** Offset of an ESLint (1-based line, 1-based column) location, clamped into the text. */
export function getOffset(lineStarts: readonly number[], textLength: number, line: number, column: number): number {
  if (!Number.isFinite(line) || line < 1) return 0;
  const lineStart = lineStarts[line - 1];
  if (lineStart === undefined) return textLength;
  const nextLineStart = lineStarts[line] ?? textLength;
  const offset = lineStart + Math.max(0, (Number.isFinite(column) ? column : 1) - 1);
  return Math.min(offset, nextLineStart, textLength);
}

interface EslintLocation {
  line: number;
  column: number;
  endLine?: number | undefined;
  endColumn?: number | undefined;
}

/** The LSP range of an ESLint message; a message without an end becomes an empty range at its start. */
export function toLspRange(document: TextDocument, lineStarts: readonly number[], location: EslintLocation): Range {
  const length = document.getText().length;
  const start = getOffset(lineStarts, length, location.line, location.column);
  const end =
    location.endLine === undefined || location.endColumn === undefined
      ? start
      : Math.max(start, getOffset(lineStarts, length, location.endLine, location.endColumn));
  return { start: document.positionAt(start), end: document.positionAt(end) };
}

/** Whether `position` lies within `range` (ends included, so a hover at a squiggle's last character counts). */
export function isPositionInRange(position: Position, range: Range): boolean {
  const afterStart =
    position.line > range.start.line || (position.line === range.start.line && position.character >= range.start.character);
  const beforeEnd =
    position.line < range.end.line || (position.line === range.end.line && position.character <= range.end.character);
  return afterStart && beforeEnd;
}
