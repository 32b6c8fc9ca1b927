/**
 * Edits of a connection string's `retryWrites` option, as ESLint-style
 * `{ range, text }` replacements in the scanned text.
 */
import type { ConnectionStringToken, TextEdit, UriOption } from './scan';

/**
 * Removes `options` (a subset of `token.options`) with one adjacent `&` each, or the
 * whole `?…` part when nothing else is left. Other options keep their order and text.
 */
export function getRemoveOptionsEdits(token: ConnectionStringToken, removed: readonly UriOption[]): TextEdit[] {
  const all = token.options;
  const removedSet = new Set(removed);
  const firstKept = all.findIndex((option) => !removedSet.has(option));
  if (firstKept === -1) {
    if (token.queryStart === undefined) return [];
    return [{ range: [token.queryStart, token.end], text: '' }];
  }
  const edits: TextEdit[] = [];
  all.forEach((option, index) => {
    if (!removedSet.has(option)) return;
    if (index < firstKept) {
      // Leading options: remove up to the next option, taking the `&` after.
      edits.push({ range: [option.start, all[index + 1]!.start], text: '' });
    } else {
      // After a kept option: remove from the end of the previous option, taking the `&` before.
      edits.push({ range: [all[index - 1]!.end, option.end], text: '' });
    }
  });
  return edits;
}

/** Appends `name=value` to the URI: after `&`, `?` or `/?` as its form needs. */
export function getAppendOptionEdit(token: ConnectionStringToken, name: string, value: string): TextEdit {
  const option = `${name}=${value}`;
  let insert: string;
  if (token.queryStart !== undefined) {
    const lastChar = token.raw.at(-1);
    insert = token.end === token.queryStart + 1 || lastChar === '&' ? option : `&${option}`;
  } else if (token.hasPath) {
    insert = `?${option}`;
  } else {
    insert = `/?${option}`;
  }
  return { range: [token.end, token.end], text: insert };
}

/**
 * Puts `name=value` first in the options, just after the `?` (with an `&` when options
 * follow): where the URI ends does not matter to it. The URI must have a `?`.
 */
export function getPrependOptionEdit(token: ConnectionStringToken, name: string, value: string): TextEdit {
  const at = token.queryStart! + 1;
  return { range: [at, at], text: at < token.end ? `${name}=${value}&` : `${name}=${value}` };
}

/** Replaces the value of each option by `value`. */
export function getSetValueEdits(options: readonly UriOption[], value: string): TextEdit[] {
  return options.map((option) => ({ range: [option.valueStart, option.end], text: value }));
}
