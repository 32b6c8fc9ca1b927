// What every message of the plugin must be, wherever it is reported: short enough to read
// at a glance in a terminal line or the editor's Problems view, and free of passwords.
import type { Linter } from 'eslint';

/** Longest message (or suggestion title) a rule may report, its data filled in. */
export const MAX_MESSAGE_LENGTH = 200;

/** `scheme://user:password@`: the password, up to the `@` (none that spans a path, options or a quote). */
const PASSWORD_IN_URI = /[a-z][a-z0-9+.-]*:\/\/[^\s:@/'"`]*:([^\s@/?#'"`]+)@/gi;

/** The passwords of the URIs written in `text`, except templates (`${password}`) and masks (`****`). */
export function findPasswords(text: string): string[] {
  const passwords = new Set<string>();
  for (const match of text.matchAll(PASSWORD_IN_URI)) {
    const password = match[1] ?? '';
    if (password.length < 2 || /^\**$/.test(password) || /^(?:\$\{|\{\{)/.test(password)) continue;
    passwords.add(password);
  }
  return [...passwords];
}

/**
 * What is wrong with the messages ESLint reported on `text`: a message or suggestion longer
 * than `MAX_MESSAGE_LENGTH`, or one that shows a password written in `text`.
 */
export function findMessageProblems(messages: readonly Linter.LintMessage[], text: string, where = ''): string[] {
  const passwords = findPasswords(text);
  const problems: string[] = [];
  for (const message of messages) {
    // A file no configuration applies to, or that does not parse, shows no rule's message.
    if (!message.ruleId) {
      if (!message.fatal) problems.push(`${where}${message.line}:${message.column} linted by no rule: ${message.message}`);
      continue;
    }
    const at = `${where}${message.line}:${message.column} ${message.ruleId}`;
    for (const shown of [message.message, ...(message.suggestions ?? []).map((suggestion) => suggestion.desc)]) {
      if (shown.length > MAX_MESSAGE_LENGTH) problems.push(`${at}: ${shown.length} characters: ${shown}`);
      const password = passwords.find((candidate) => shown.includes(candidate));
      if (password !== undefined) problems.push(`${at}: shows the password ${JSON.stringify(password)}: ${shown}`);
    }
  }
  return problems;
}
