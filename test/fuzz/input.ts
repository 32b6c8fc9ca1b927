// One fuzz input: what is linted (or logged), and what the checks need to know about it.
import type { LintRequest } from './lint';

export const FAMILIES = ['program', 'eslump', 'mutation', 'connection-string', 'log-line', 'pathological'] as const;
export type Family = (typeof FAMILIES)[number];

/**
 * A connection string written into a text file at a known place. `decode` turns the
 * written text into the value the application reads: `raw` (unquoted, or quoted without
 * escapes), `json` (a JSON-style double-quoted string), `none` (prose or a value whose end
 * the format leaves open: only where fixes may go is checked).
 */
export interface PlacedUri {
  start: number;
  end: number;
  decode: 'raw' | 'json' | 'none';
}

export interface FuzzInput extends LintRequest {
  family: Family;
  /** Markers inside passwords and secret option values: none may appear in a message, a suggestion or a log line. */
  secrets: string[];
  /** The passwords of the generated connection strings, as written (to tell which known bug a shown secret comes under). */
  passwords?: string[];
  /** Template pieces written into connection strings; read as a plain word before the driver parses a URI. */
  templates: string[];
  /** Connection strings of text files and where they are (code is read back through its string literals). */
  uris: PlacedUri[];
  /** Log-line family: lines given to the language server's logger. */
  logLines?: string[];
  /** What made the input (a seed file, a mutation, a pathological shape), for reports. */
  origin: string;
  /** Pathological inputs: the text (or log line) as pieces repeated, how a failing one is stored. */
  recipe?: Array<[piece: string, times: number]>;
}
