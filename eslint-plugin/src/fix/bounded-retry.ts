import { AST_NODE_TYPES, type TSESLint, type TSESTree } from '@typescript-eslint/utils';
import { getUsedNamesAround, pickNumberedName } from './fresh-names';
import { getIndent } from './indentation';

type SourceCode = Readonly<TSESLint.SourceCode>;

export interface BoundedRetry {
  /** `await x.write(…);` or `return [await] x.write(…);`. */
  statement: TSESTree.ExpressionStatement | TSESTree.ReturnStatement;
  /** Attempts before the error is rethrown, the first included. */
  maxAttempts: number;
  /** The function that tells a transient error, by name. */
  isTransient: string;
  /** The statement that waits, given the attempt counter's name. */
  getWait: (attempt: string) => string;
  /** One level of the file's indentation. */
  indentUnit: string;
}

/**
 * The statement wrapped in a retry loop: the write is tried up to `maxAttempts` times,
 * each failure that is not transient (and the last one) is rethrown, and the loop waits
 * before trying again. Undefined when the statement is not a lone awaited call.
 */
export function getBoundedRetryText(sourceCode: SourceCode, retry: BoundedRetry): string | undefined {
  const { statement, maxAttempts, isTransient, getWait, indentUnit } = retry;
  const argument = statement.type === AST_NODE_TYPES.ReturnStatement ? statement.argument : statement.expression;
  if (!argument) return undefined;
  const isAwaited = argument.type === AST_NODE_TYPES.AwaitExpression;
  if (statement.type === AST_NODE_TYPES.ExpressionStatement && !isAwaited) return undefined;
  const taken = getUsedNamesAround(sourceCode, statement);
  const attempt = pickNumberedName('attempt', (name) => taken.has(name));
  const error = pickNumberedName('error', (name) => taken.has(name));
  const indent = getIndent(sourceCode, statement, 'line');
  const call = sourceCode.getText(isAwaited ? argument.argument : argument);
  const attemptLines = statement.type === AST_NODE_TYPES.ReturnStatement ? [`return await ${call};`] : [`await ${call};`, 'break;'];
  const lines = [
    `for (let ${attempt} = 1; ; ${attempt}++) {`,
    '  try {',
    ...attemptLines.map((line) => `    ${line}`),
    `  } catch (${error}) {`,
    `    if (${attempt} >= ${maxAttempts} || !${isTransient}(${error})) throw ${error};`,
    `    ${getWait(attempt)}`,
    '  }',
    '}',
  ];
  const reindent = (line: string): string => {
    const leading = /^ */.exec(line)?.[0].length ?? 0;
    return `${indentUnit.repeat(leading / 2)}${line.slice(leading)}`;
  };
  return lines.map((line, index) => (index === 0 ? line : `${indent}${reindent(line)}`)).join('\n');
}
