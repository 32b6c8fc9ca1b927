import { AST_NODE_TYPES, type TSESLint, type TSESTree } from '@typescript-eslint/utils';
import { getUsedNamesAround, pickNumberedName } from './fresh-names';
import { fillEmptyBlock } from './fill-block';
import { getIndent } from './indentation';
import { getListedStatement } from './statement-anchors';

type SourceCode = Readonly<TSESLint.SourceCode>;

export interface AttemptLimitEdit {
  /** The loop that retries, and the `catch` that sends it round again. */
  loop: TSESTree.Node;
  handler: TSESTree.CatchClause;
  /** Attempts before the error is rethrown, the first included. */
  maxAttempts: number;
  /** The loop's counter when it has one (then only the limit is added); else one is declared. */
  counter?: string;
  /**
   * The wait between attempts, given the counter's name: a statement added at the end
   * of the catch (`await sleep(…);`), or a new delay for the wait already there.
   */
  wait: { insert: (attempt: string) => string } | { replace: TSESTree.Node; delay: (attempt: string) => string };
}

/**
 * Counts the attempts of a loop that retries without a counter, and gives up after the
 * last: `let attempt = 0;` before the loop, `if (++attempt >= N) throw err;` first in its
 * catch (which gets an error binding if it has none), and the wait (see `wait`). Null
 * when the loop or the catch has a shape where that is not clearly right: the loop is
 * not in a statement list, the catch binds a pattern, or its last statement leaves the
 * loop in a way the wait could not follow.
 */
export function getAttemptLimitFix(sourceCode: SourceCode, edit: AttemptLimitEdit): TSESLint.ReportFixFunction | null {
  const { loop, handler, maxAttempts, wait, counter } = edit;
  const anchor = counter ? loop : getListedStatement(loop);
  if (!anchor || (handler.param && handler.param.type !== AST_NODE_TYPES.Identifier)) return null;
  const taken = getUsedNamesAround(sourceCode, loop);
  const attempt = counter ?? pickNumberedName('attempt', (name) => taken.has(name));
  const errorName = handler.param?.type === AST_NODE_TYPES.Identifier ? handler.param.name : pickNumberedName('error', (name) => taken.has(name));
  const guard = counter ? `if (${attempt} >= ${maxAttempts}) throw ${errorName};` : `if (++${attempt} >= ${maxAttempts}) throw ${errorName};`;
  const body = handler.body.body;
  const last = body.at(-1);
  let waitStatement: string | undefined;
  if ('insert' in wait) {
    if (last && isJump(last)) return null;
    waitStatement = wait.insert(attempt);
  }
  const catchKeyword = sourceCode.getFirstToken(handler);
  const innerIndent = `${getIndent(sourceCode, handler, 'line')}  `;
  return (fixer) => {
    const fixes: TSESLint.RuleFix[] = counter ? [] : [fixer.insertTextBefore(anchor, `let ${attempt} = 0;\n${getIndent(sourceCode, anchor, 'line')}`)];
    if (!handler.param && catchKeyword) fixes.push(fixer.insertTextAfter(catchKeyword, ` (${errorName})`));
    const first = body[0];
    if (first) {
      fixes.push(fixer.insertTextBefore(first, `${guard}\n${getIndent(sourceCode, first, 'line')}`));
      if (waitStatement && last) fixes.push(fixer.insertTextAfter(last, `\n${getIndent(sourceCode, last, 'line')}${waitStatement}`));
    } else {
      // An empty catch, perhaps holding a comment: the statements go in, the comment stays.
      const fill = fillEmptyBlock(sourceCode, fixer, handler.body, [guard, ...(waitStatement ? [waitStatement] : [])].join(`\n${innerIndent}`), handler);
      if (fill) fixes.push(fill);
    }
    if ('replace' in wait) fixes.push(fixer.replaceText(wait.replace, wait.delay(attempt)));
    return fixes;
  };
}

function isJump(statement: TSESTree.Statement): boolean {
  return (
    statement.type === AST_NODE_TYPES.ContinueStatement ||
    statement.type === AST_NODE_TYPES.BreakStatement ||
    statement.type === AST_NODE_TYPES.ReturnStatement ||
    statement.type === AST_NODE_TYPES.ThrowStatement
  );
}
