// Paths on disk of document and folder URIs. Free of ESLint: the server reads workspace
// folders before the linter has loaded.
import { fileURLToPath } from 'node:url';

/** The path on disk of a `file:` URI; undefined for other schemes and malformed URIs. */
export function getFilePath(uri: string): string | undefined {
  if (!uri.startsWith('file:')) return undefined;
  try {
    return fileURLToPath(uri);
  } catch {
    return undefined;
  }
}
