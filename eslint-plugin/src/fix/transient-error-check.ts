import type { Database } from '../analysis/clients';
import { getTransientErrorTable, NOT_APPLIED_TRANSIENT_SQLSTATES } from '../analysis/errors';
import type { CodeStyle } from './code-style';
import type { FileHelper } from './file-helpers';

/**
 * A function that tells, at run time, whether a database error may pass on retry,
 * written from the analysis's own table of transient errors (so the code a fix adds and
 * the rules agree): DynamoDB exception names and the SDK's `$retryable`, PostgreSQL
 * SQLSTATEs and SQLSTATE classes, MongoDB error labels, codes and code names.
 */

const HELPER_NAMES: Record<Database, string> = {
  dynamodb: 'isTransientDynamoDbError',
  postgres: 'isTransientPgError',
  mongodb: 'isTransientMongoError',
};

const WIDTH = 100;

/** The helper for `database`, to add once per file (or reuse, under the same name). */
export function getTransientErrorHelper(database: Database): FileHelper {
  return { name: HELPER_NAMES[database], parameterCount: 1, getDeclaration: (name, style) => getDeclaration(database, name, style) };
}

/**
 * For PostgreSQL: whether an error says the statement was not applied (rolled back or
 * refused before it ran), so that running it again cannot apply it twice.
 */
export function getNotAppliedPgErrorHelper(): FileHelper {
  return {
    name: 'isNotAppliedPgError',
    parameterCount: 1,
    // One list and one `return`: the retry analysis reads the codes through the call.
    getDeclaration: (name, style) =>
      [
        '/** Whether PostgreSQL rolled the statement back or refused it before it ran: a serialization failure, a deadlock, too many connections, a server starting up. */',
        `function ${name}(${style.typescript ? 'error: unknown' : 'error'})${style.typescript ? ': boolean' : ''} {`,
        `  const notAppliedCodes${style.typescript ? ': unknown[]' : ''} = ${formatList(NOT_APPLIED_TRANSIENT_SQLSTATES.map((code) => `'${code}'`), 2)};`,
        `  const code = ${style.typescript ? '(error as { code?: unknown } | null | undefined)' : 'error'}?.code;`,
        '  return notAppliedCodes.includes(code);',
        '}',
      ].join('\n'),
  };
}

function getDeclaration(database: Database, name: string, style: CodeStyle): string {
  const table = getTransientErrorTable(database);
  const param = style.typescript ? 'error: unknown' : 'error';
  const returns = style.typescript ? ': boolean' : '';
  const read = (fields: string, type: string): string => `const { ${fields} } = ${style.typescript ? `(error ?? {}) as { ${type} }` : 'error ?? {}'};`;
  const list = (values: readonly (string | number)[]): string => formatList(values.map((value) => (typeof value === 'string' ? `'${value}'` : String(value))), 2);
  switch (database) {
    case 'dynamodb':
      return [
        '/** Whether a DynamoDB error may pass on retry: throttling, a 5xx, a lost connection. */',
        `function ${name}(${param})${returns} {`,
        `  const transientNames = ${list(table.names)};`,
        `  ${read('name, code, $retryable, retryable, $metadata, statusCode', 'name?: unknown; code?: unknown; $retryable?: unknown; retryable?: unknown; $metadata?: { httpStatusCode?: number }; statusCode?: number')}`,
        '  if ($retryable || retryable === true) return true;',
        '  const status = $metadata?.httpStatusCode ?? statusCode;',
        '  if (status !== undefined && status >= 500) return true;',
        '  return transientNames.some((transient) => transient === name || transient === code);',
        '}',
      ].join('\n');
    case 'postgres':
      return [
        '/** Whether a PostgreSQL error may pass on retry: a lost or refused connection, a serialization failure, a deadlock. */',
        `function ${name}(${param})${returns} {`,
        `  const transientCodes = ${list([...table.sqlStates, ...table.names])};`,
        `  const transientClasses = ${list(table.sqlStateClasses)};`,
        `  const transientMessages = ${list(table.messages)};`,
        `  ${read('code, message', 'code?: unknown; message?: unknown')}`,
        "  if (typeof code === 'string' && (transientCodes.includes(code) || transientClasses.includes(code.slice(0, 2)))) return true;",
        "  return typeof message === 'string' && transientMessages.some((part) => message.includes(part));",
        '}',
      ].join('\n');
    case 'mongodb':
      return [
        '/** Whether a MongoDB error may pass on retry: labelled so by the driver, a network error, a primary election. */',
        `function ${name}(${param})${returns} {`,
        `  const transientLabels = ${list(table.labels)};`,
        `  const transientCodes = ${list(table.codes)};`,
        `  const transientNames = ${list(table.names)};`,
        `  ${read('code, codeName, name, errorLabels', 'code?: unknown; codeName?: unknown; name?: unknown; errorLabels?: unknown')}`,
        '  if (Array.isArray(errorLabels) && errorLabels.some((label) => transientLabels.includes(label))) return true;',
        "  if (typeof code === 'number' && transientCodes.includes(code)) return true;",
        '  return transientNames.some((transient) => transient === codeName || transient === name);',
        '}',
      ].join('\n');
  }
}

/** `['a', 'b']`, or over several lines when it would be long (on a line indented by `indent` spaces). */
function formatList(items: readonly string[], indent: number): string {
  const oneLine = `[${items.join(', ')}]`;
  if (oneLine.length <= WIDTH - 30) return oneLine;
  const lines: string[] = [];
  let line = '';
  for (const item of items) {
    if (line && line.length + item.length + 2 > WIDTH - indent - 2) {
      lines.push(line.trimEnd());
      line = '';
    }
    line += `${item}, `;
  }
  if (line) lines.push(line.replace(/, $/, ','));
  const inner = ' '.repeat(indent + 2);
  return `[\n${lines.map((text) => `${inner}${text}`).join('\n')}\n${' '.repeat(indent)}]`;
}
