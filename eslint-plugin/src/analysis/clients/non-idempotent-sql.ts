/**
 * The SQL statement writes again when run twice: an `INSERT` (callers check for
 * `ON CONFLICT` first), or an `UPDATE` that adds to a column (`SET n = n + 1`). Its
 * label for a message (`INSERT`, `UPDATE … SET n = n …`), or undefined.
 */
export function getNonIdempotentStatement(text: string): string | undefined {
  const stripped = text.replace(/--[^\n]*|\/\*[\s\S]*?\*\//g, ' ');
  if (/^\s*\(?\s*INSERT\b/i.test(stripped)) return 'INSERT';
  const relative = /\bSET\b[\s\S]*?\b("?[A-Za-z_][\w$]*"?)\s*=\s*\1\s*[-+|]/i.exec(stripped);
  if (/^\s*UPDATE\b/i.test(stripped) && relative) return `UPDATE … SET ${relative[1]} = ${relative[1]} …`;
  return undefined;
}
