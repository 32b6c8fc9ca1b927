// The regression corpus (regressions.json): inputs that failed once, replayed before every
// run. An entry names the bug behind it; `skip` (the bug's title) keeps it from failing
// the suite while the fix is not in, and goes when it is.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { FuzzInput } from './input';
import { expandRecipe } from './pathological';

export interface Regression {
  /** A short name of what fails. */
  id: string;
  /** How it was found: family, seed and run, or the issue it reproduces. */
  found: string;
  /** The known bug behind it (known-bugs.ts), when one is. */
  bug?: string;
  /** Why it does not run yet: the bug, until its fix is in. */
  skip?: string;
  /** The input; a pathological one keeps its recipe instead of its text (and `logLines: []` for a log line). */
  input: Omit<FuzzInput, 'text'> & { text?: string };
}

export const REGRESSIONS_FILE = path.join(import.meta.dirname, 'regressions.json');

export function loadRegressions(): Regression[] {
  return JSON.parse(readFileSync(REGRESSIONS_FILE, 'utf8')) as Regression[];
}

/** The input as the checks take it (a recipe written out). */
export function toInput(regression: Regression): FuzzInput {
  const { input } = regression;
  if (!input.recipe) return { ...input, text: input.text ?? '' };
  const expanded = expandRecipe(input.recipe);
  return input.logLines ? { ...input, text: '', logLines: [expanded] } : { ...input, text: expanded };
}

/** The stored form of an input: big pathological texts as their recipe. */
export function toStored(input: FuzzInput): Regression['input'] {
  if (!input.recipe) return input;
  const rest: Regression['input'] = { ...input };
  delete rest.text;
  return input.logLines ? { ...rest, logLines: [] } : rest;
}
