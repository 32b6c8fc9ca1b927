import { AST_NODE_TYPES, type TSESLint, type TSESTree } from '@typescript-eslint/utils';
import { type CodeStyle, quoteString } from './code-style';
import { getUsedNames, isNameTakenAround, isNameTakenAt, pickNumberedName } from './fresh-names';
import { getIndent } from './indentation';
import { insertLine } from './insert-statement';
import { isStatementListItem } from './statement-anchors';

type SourceCode = Readonly<TSESLint.SourceCode>;

/** `console.error('MongoDB updateOne failed', error)`. */
export function getLogErrorCall(what: string, errorName: string, style: CodeStyle): string {
  return `console.error(${quoteString(`${what} failed`, style)}, ${errorName})`;
}

/** A statement ending the way the file ends its statements. */
export function asStatement(text: string, style: CodeStyle): string {
  return style.semicolons ? `${text};` : text;
}

/**
 * Replaces an empty `.catch` / `.then(…, onRejected)` callback with one that logs the
 * error (`log`) or throws it on (`rethrow`).
 */
export function getCatchCallbackFix(
  sourceCode: SourceCode,
  callback: TSESTree.FunctionLike,
  what: string,
  action: 'log' | 'rethrow',
  style: CodeStyle,
): TSESLint.ReportFixFunction | undefined {
  const param = callback.params[0];
  if (param && param.type !== AST_NODE_TYPES.Identifier) return undefined;
  const name = param?.name ?? 'error';
  const body = action === 'log' ? getLogErrorCall(what, name, style) : `{ throw ${name}; }`;
  const isAsync = callback.async ? 'async ' : '';
  return (fixer) => fixer.replaceText(callback, `${isAsync}(${name}) => ${body}`);
}

/** Rethrows at the end of a catch block that may fall through (`throw err;` after its last statement). */
export function getRethrowAtEndFix(sourceCode: SourceCode, handler: TSESTree.CatchClause, style: CodeStyle): TSESLint.ReportFixFunction | undefined {
  const last = handler.body.body.at(-1);
  const catchToken = sourceCode.getFirstToken(handler);
  if (!last || !catchToken || (handler.param && handler.param.type !== AST_NODE_TYPES.Identifier)) return undefined;
  const name = handler.param?.name ?? pickNumberedName('error', (candidate) => getUsedNames(sourceCode, handler).has(candidate));
  return (fixer) => {
    const fixes = [insertLine(sourceCode, fixer, 'after', last, asStatement(`throw ${name}`, style), 'line')];
    if (!handler.param) fixes.push(fixer.insertTextAfter(catchToken, ` (${name})`));
    return fixes;
  };
}

/**
 * Throws the caught error where a catch gives up with an empty return (`if (retries === 0)
 * return;` becomes `if (retries === 0) throw err;`). The return ends its statement as written;
 * `catch {` gets a parameter.
 */
export function getRethrowInsteadOfReturnFix(
  sourceCode: SourceCode,
  handler: TSESTree.CatchClause,
  giveUp: TSESTree.ReturnStatement,
  style: CodeStyle,
): TSESLint.ReportFixFunction | undefined {
  const catchToken = sourceCode.getFirstToken(handler);
  if (!catchToken || (handler.param && handler.param.type !== AST_NODE_TYPES.Identifier)) return undefined;
  const name = handler.param?.name ?? pickNumberedName('error', (candidate) => getUsedNames(sourceCode, handler).has(candidate));
  const endsWithSemicolon = sourceCode.getLastToken(giveUp)?.value === ';';
  return (fixer) => {
    const fixes = [fixer.replaceText(giveUp, endsWithSemicolon || style.semicolons ? `throw ${name};` : `throw ${name}`)];
    if (!handler.param) fixes.push(fixer.insertTextAfter(catchToken, ` (${name})`));
    return fixes;
  };
}

/**
 * After a retry loop that may run out, throws an error whose `cause` is the last
 * attempt's error: a variable declared before the loop (or one the catch already keeps
 * the error in) is set in the catch, and read in a `throw` right after the loop.
 * Undefined unless the loop is a statement of a block and has one catch.
 */
export function getThrowAfterLoopFix(
  sourceCode: SourceCode,
  loop: TSESTree.Node,
  handler: TSESTree.CatchClause,
  what: string,
  style: CodeStyle,
): TSESLint.ReportFixFunction | undefined {
  if (!isStatementListItem(loop) || (handler.param && handler.param.type !== AST_NODE_TYPES.Identifier)) return undefined;
  const catchToken = sourceCode.getFirstToken(handler);
  const opening = sourceCode.getFirstToken(handler.body);
  if (!catchToken || !opening) return undefined;
  const errorName = handler.param?.name ?? pickNumberedName('error', (candidate) => getUsedNames(sourceCode, handler).has(candidate));
  const kept = findKeptErrorVariable(handler, errorName, (name) => isNameTakenAt(sourceCode, name, loop, loop));
  const lastName = kept ?? pickNumberedName('lastError', isNameTakenAround(sourceCode, loop, handler.body));
  const message = quoteString(`${what} failed after retrying`, style);
  const throwText = asStatement(`throw new Error(${message}, { cause: ${lastName} })`, style);
  const bodyIndent = handler.body.body[0] ? getIndent(sourceCode, handler.body.body[0], 'line') : `${getIndent(sourceCode, handler, 'line')}  `;
  return (fixer) => {
    const fixes = [insertLine(sourceCode, fixer, 'after', loop, throwText, 'line')];
    if (kept) return fixes;
    fixes.push(insertLine(sourceCode, fixer, 'before', loop, asStatement(`let ${lastName}${style.typescript ? ': unknown' : ''}`, style), 'line'));
    if (!handler.param) fixes.push(fixer.insertTextAfter(catchToken, ` (${errorName})`));
    fixes.push(fixer.insertTextAfter(opening, `\n${bodyIndent}${asStatement(`${lastName} = ${errorName}`, style)}`));
    return fixes;
  };
}

/** `lastError = err;` as a statement of the catch, into a variable declared outside the loop. */
function findKeptErrorVariable(handler: TSESTree.CatchClause, errorName: string, isDeclaredOutside: (name: string) => boolean): string | undefined {
  for (const child of handler.body.body) {
    if (child.type !== AST_NODE_TYPES.ExpressionStatement) continue;
    const expression = child.expression;
    if (expression.type !== AST_NODE_TYPES.AssignmentExpression || expression.operator !== '=') continue;
    if (expression.left.type !== AST_NODE_TYPES.Identifier || expression.right.type !== AST_NODE_TYPES.Identifier) continue;
    if (expression.right.name === errorName && isDeclaredOutside(expression.left.name)) return expression.left.name;
  }
  return undefined;
}

/**
 * After a loop that goes round while a flag says so (`do { … } while (retry && n++ < MAX)`),
 * throws when the flag still asks for another attempt: the attempts ran out.
 */
export function getThrowIfFlagAfterLoopFix(
  sourceCode: SourceCode,
  loop: TSESTree.Node,
  flag: string,
  what: string,
  style: CodeStyle,
): TSESLint.ReportFixFunction | undefined {
  if (!isStatementListItem(loop) || !isNameTakenAt(sourceCode, flag, loop, loop)) return undefined;
  const message = quoteString(`${what} did not succeed before the last attempt`, style);
  return (fixer) => insertLine(sourceCode, fixer, 'after', loop, `if (${flag}) ${asStatement(`throw new Error(${message})`, style)}`, 'line');
}
