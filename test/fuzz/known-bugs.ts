// Bugs the fuzz suite found that are known and not fixed yet. A failure one of them
// explains is counted under it instead of failing the run; the regression corpus keeps an
// input of each, skipped with the bug's title until the fix is in. When a fix lands, its
// entry goes from here and the skip from the corpus (whose other entries are the bugs
// of issue 10 the suite found and that are fixed: they run every time).
import type { Failure } from './checks';
import type { FuzzInput } from './input';

export interface KnownBug {
  id: string;
  /** The bug, as the skip reason and the reports name it. */
  title: string;
  /** Whether this bug explains `failure` of `input`. */
  explains(input: FuzzInput, failure: Failure): boolean;
}

/** The password of a URI the driver accepted: after the first `:` of the user info, which runs to the last `@` before the path. */
function getPassword(uri: string): string | undefined {
  const afterScheme = uri.indexOf('://') + 3;
  const authorityEnd = uri.slice(afterScheme).search(/[/?]/);
  const authority = authorityEnd === -1 ? uri.slice(afterScheme) : uri.slice(afterScheme, afterScheme + authorityEnd);
  const at = authority.lastIndexOf('@');
  const colon = authority.indexOf(':');
  return at === -1 || colon === -1 || colon > at ? undefined : authority.slice(colon + 1, at);
}

/** The written password around a shown marker: from the `:` after the scheme before it to the next `@`. */
function getPasswordAround(text: string, secret: string): string | undefined {
  const index = text.indexOf(secret);
  if (index === -1) return undefined;
  const schemeEnd = text.lastIndexOf('://', index);
  if (schemeEnd === -1) return undefined;
  const at = text.indexOf('@', index + secret.length);
  return text.slice(schemeEnd + 3, at === -1 ? index + secret.length : at);
}

/** Where an input's secrets are written: its text, settings and log lines. */
function getHaystacks(input: FuzzInput): string[] {
  return [input.text, JSON.stringify(input.settings ?? null) ?? '', ...(input.logLines ?? [])];
}

/** Whether every shown secret comes from a password matching `pattern` (a generated password, else the text around the secret). */
function isShownFromPasswordWith(input: FuzzInput, failure: Failure, where: Array<'message' | 'suggestion' | 'log'>, pattern: RegExp): boolean {
  if (failure.property !== 'no-secret' || !failure.shown || !where.includes(failure.shown.where)) return false;
  return failure.shown.secrets.every((secret) => {
    const passwords = (input.passwords ?? []).filter((password) => password.includes(secret));
    if (passwords.length > 0) return passwords.some((password) => pattern.test(safeDecode(password)));
    return getHaystacks(input).some((haystack) => {
      const password = getPasswordAround(haystack, secret);
      return password !== undefined && pattern.test(password);
    });
  });
}

/** A `${` or `{{` that nothing closes. */
const UNCLOSED_TEMPLATE = /\$\{(?![^}]*\})|\{\{(?![^}]*\}\})/u;

export const KNOWN_BUGS: readonly KnownBug[] = [
  {
    id: 'password-trailing-separator',
    title: 'a password ending in U+2028 or U+2029 (app:28011 then U+2028 before the @), with another connection string later in the file, makes the user name look like the host: the message shows the password as a port, and the fix writes into the credentials',
    explains: (input, failure) => {
      if (failure.property === 'uri-valid') {
        const password = failure.uri && getPassword(failure.uri.before);
        return password !== undefined && /[\u2028\u2029]$/u.test(safeDecode(password));
      }
      return isShownFromPasswordWith(input, failure, ['message', 'suggestion'], /[\u2028\u2029]$/u);
    },
  },
  {
    id: 'password-at-then-space',
    title: 'a password holding an @ and then white space (app:@pw *@host) shows in a message when a documentdb.hosts pattern matches: the scan stops at the space, and the part of the password after its @ reads as the host',
    explains: (input, failure) => isShownFromPasswordWith(input, failure, ['message', 'suggestion'], /@.*\s/su),
  },
  {
    id: 'unclosed-template-in-password',
    title: 'a password holding an unclosed ${ makes the scan run past the end of its line to the next }, so the fix lands outside the connection string (after the closing brace of a Terraform block)',
    explains: (input, failure) => failure.property === 'uri-valid' && !failure.uri && (input.passwords ?? []).some((password) => UNCLOSED_TEMPLATE.test(password)),
  },
  {
    id: 'log-masking-line-separator',
    title: "a password holding U+2028 or U+2029 shows in a server log line: the log's masking ends a password at a line end, and these are line ends to it",
    explains: (input, failure) => isShownFromPasswordWith(input, failure, ['log'], /[\u2028\u2029]/u),
  },
  {
    id: 'masking-nested-scheme',
    title: "a password holding another URI's scheme (12345 pw…mongodb://…) shows in a message or a server log line: the masking ends the URI where the next scheme starts, so the password's start reads as a port or the rest of the password as hosts",
    explains: (input, failure) => isShownFromPasswordWith(input, failure, ['message', 'suggestion', 'log'], /[a-z][a-z0-9+.-]*:\/\//iu),
  },
];

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** The known bug behind a failure, if one is. */
export function explain(input: FuzzInput, failure: Failure): KnownBug | undefined {
  return KNOWN_BUGS.find((bug) => bug.explains(input, failure));
}

/** When known bugs explain every failure of an input: the one behind the first. */
export function classify(input: FuzzInput, failures: readonly Failure[]): KnownBug | undefined {
  const bugs = failures.map((failure) => explain(input, failure));
  return bugs.every((bug) => bug !== undefined) ? bugs[0] : undefined;
}

export function findKnownBug(id: string): KnownBug | undefined {
  return KNOWN_BUGS.find((bug) => bug.id === id);
}
