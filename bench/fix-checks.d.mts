// Types of bench/fix-checks.mjs (plain Node ESM so the benchmark runs without a build).
import type { Linter } from 'eslint';

export interface CheckedEdit {
  rule: string;
  kind: 'fix' | 'suggestion';
  title: string;
  line: number;
  /** Empty when the edit passes every check. */
  failures: string[];
  /** The file's text with the edit applied. */
  text: string;
}

export interface Coverage {
  findings: number;
  withEdit: number;
  suggestions: number;
  fixes: number;
}

export function applyEdit(text: string, edit: { range: [number, number]; text: string }): string;
export function tallyCoverage(messages: Linter.LintMessage[], into?: Map<string, Coverage>): Map<string, Coverage>;
export function checkEdits(input: {
  text: string;
  messages: Linter.LintMessage[];
  relint: (text: string) => Promise<Linter.LintMessage[]>;
  typeErrors?: (text: string) => string[];
}): Promise<CheckedEdit[]>;
export function createTypeChecker(options?: { tsconfigPath?: string }): (path: string) => (text: string) => string[];
export function isTypeScriptFile(path: string): boolean;
