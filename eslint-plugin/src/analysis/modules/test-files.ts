import { Minimatch } from 'minimatch';
import { TEST_FILE_PATTERNS } from '../../constants';

/** Compiled once: the server and the module index ask for every file they meet. */
const TEST_FILE_MATCHERS = TEST_FILE_PATTERNS.map((pattern) => new Minimatch(pattern, { dot: true }));

/**
 * Whether a file is a test file by the `recommended` preset's patterns, matched as ESLint
 * matches flat-config `files`: `relativePath` is relative to the folder of the config (for
 * the language server, the document's workspace folder; for the module index, the
 * project's), with `/` or `\\` separators.
 */
export function isTestFilePath(relativePath: string): boolean {
  const posixPath = relativePath.replace(/\\/g, '/').replace(/^\/+/, '');
  return TEST_FILE_MATCHERS.some((matcher) => matcher.match(posixPath));
}
