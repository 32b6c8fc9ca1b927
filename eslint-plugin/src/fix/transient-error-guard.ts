import { AST_NODE_TYPES, type TSESLint, type TSESTree } from '@typescript-eslint/utils';
import { type FunctionNode, isFunctionNode, visitNodes } from '../analysis/ast';
import type { AnyRuleContext } from '../analysis/per-file-cache';
import { getCalleeName, getFunctionName, type RetryScope, WAIT_NAME } from '../analysis/retry';
import { type FileHelper, getFileHelper, type HelperAccess } from './file-helpers';
import { getUsedNames, pickNumberedName } from './fresh-names';
import { getIndent } from './indentation';

type SourceCode = Readonly<TSESLint.SourceCode>;
type GuardFix = (fixer: TSESLint.RuleFixer) => TSESLint.RuleFix[];

/**
 * `if (!isTransient(err)) throw err;` in the code that decides to retry, so that an
 * error a retry cannot fix is rethrown instead: in a `catch` clause, before the first
 * statement that waits or goes round again (after any clean-up such as a ROLLBACK), or
 * at its end; in a `.catch(…)` callback, first. A handler without an error binding
 * gets one. Null for a handler whose shape leaves no clear place (a binding pattern,
 * a callback written as a node-style callback).
 */
export function getTransientGuardFix(
  sourceCode: SourceCode,
  handler: TSESTree.CatchClause | FunctionNode,
  isTransient: string,
  retryCallee?: string,
): GuardFix | null {
  if (handler.type === AST_NODE_TYPES.CatchClause) return getCatchClauseGuardFix(sourceCode, handler, isTransient, retryCallee);
  return getCallbackGuardFix(sourceCode, handler, isTransient);
}

/**
 * The guard in the decision of `scope`'s retry, with the classification it calls (`helper`,
 * the file's own function of that name or a declaration added once): null when the decision
 * is not a `catch` clause or a callback, or leaves no clear place for the guard.
 */
export function getHelperGuardFix(
  context: AnyRuleContext,
  decision: TSESTree.Node,
  scope: RetryScope,
  helper: FileHelper,
): { helper: HelperAccess; fix: (fixer: TSESLint.RuleFixer) => TSESLint.RuleFix[] } | null {
  if (decision.type !== AST_NODE_TYPES.CatchClause && !isFunctionNode(decision)) return null;
  const access = getFileHelper(context, helper, decision);
  // A function that retries by calling itself: the guard goes before that call.
  const retryCallee = scope.kind === 'recursion' && isFunctionNode(scope.node) ? getFunctionName(scope.node) : undefined;
  const guard = getTransientGuardFix(context.sourceCode, decision, access.name, retryCallee);
  if (!guard) return null;
  return { helper: access, fix: (fixer) => [...guard(fixer), ...access.fixes(fixer)] };
}

function getCatchClauseGuardFix(sourceCode: SourceCode, handler: TSESTree.CatchClause, isTransient: string, retryCallee: string | undefined): GuardFix | null {
  if (handler.param && handler.param.type !== AST_NODE_TYPES.Identifier) return null;
  const errorName = handler.param?.type === AST_NODE_TYPES.Identifier ? handler.param.name : freshErrorName(sourceCode, handler);
  const guard = `if (!${isTransient}(${errorName})) throw ${errorName};`;
  const catchKeyword = sourceCode.getFirstToken(handler);
  const body = handler.body.body;
  const before = body.find((statement) => goesRound(statement, retryCallee));
  const last = body.at(-1);
  return (fixer) => {
    const fixes: TSESLint.RuleFix[] = [];
    if (!handler.param && catchKeyword) fixes.push(fixer.insertTextAfter(catchKeyword, ` (${errorName})`));
    const target = before ?? (last && isJump(last) ? last : undefined);
    if (target) fixes.push(fixer.insertTextBefore(target, `${guard}\n${getIndent(sourceCode, target, 'line')}`));
    else if (last) fixes.push(fixer.insertTextAfter(last, `\n${getIndent(sourceCode, last, 'line')}${guard}`));
    else {
      const indent = getIndent(sourceCode, handler, 'line');
      fixes.push(fixer.replaceText(handler.body, `{\n${indent}  ${guard}\n${indent}}`));
    }
    return fixes;
  };
}

/** `.catch((err) => retry())` → `.catch((err) => { if (!t(err)) throw err; return retry(); })`; a block body gets the guard first. */
function getCallbackGuardFix(sourceCode: SourceCode, handler: FunctionNode, isTransient: string): GuardFix | null {
  const call = handler.parent;
  const isRejectionHandler =
    call?.type === AST_NODE_TYPES.CallExpression &&
    call.callee.type === AST_NODE_TYPES.MemberExpression &&
    ((getCalleeName(call.callee) === 'catch' && call.arguments[0] === handler) || (getCalleeName(call.callee) === 'then' && call.arguments[1] === handler));
  if (!isRejectionHandler || handler.params.length > 1) return null;
  const [param] = handler.params;
  if (param && param.type !== AST_NODE_TYPES.Identifier) return null;
  const errorName = param?.type === AST_NODE_TYPES.Identifier ? param.name : freshErrorName(sourceCode, handler);
  const guard = `if (!${isTransient}(${errorName})) throw ${errorName};`;
  const indent = getIndent(sourceCode, call, 'line');
  const addParam = (fixer: TSESLint.RuleFixer): TSESLint.RuleFix[] => {
    if (param) return [];
    const opening = sourceCode.getFirstToken(handler, { filter: (token) => token.value === '(' });
    if (!opening) return [];
    return [fixer.insertTextAfter(opening, errorName)];
  };
  if (!param && !sourceCode.getFirstToken(handler, { filter: (token) => token.value === '(' })) return null;
  const body = handler.body;
  if (body.type === AST_NODE_TYPES.BlockStatement) {
    const first = body.body[0];
    return (fixer) => [
      ...addParam(fixer),
      first ? fixer.insertTextBefore(first, `${guard}\n${getIndent(sourceCode, first, 'line')}`) : fixer.replaceText(body, `{\n${indent}  ${guard}\n${indent}}`),
    ];
  }
  return (fixer) => [...addParam(fixer), fixer.replaceText(body, `{\n${indent}  ${guard}\n${indent}  return ${sourceCode.getText(body)};\n${indent}}`)];
}

/** A statement that waits (`await sleep(…)`, a `setTimeout`), goes round (`continue`), or starts a new attempt (calls `retryCallee`). */
function goesRound(statement: TSESTree.Statement, retryCallee: string | undefined): boolean {
  if (statement.type === AST_NODE_TYPES.ContinueStatement) return true;
  // `retry = true;`: a flag the loop reads to go round.
  if (
    statement.type === AST_NODE_TYPES.ExpressionStatement &&
    statement.expression.type === AST_NODE_TYPES.AssignmentExpression &&
    statement.expression.right.type === AST_NODE_TYPES.Literal &&
    statement.expression.right.value === true
  ) {
    return true;
  }
  let found = false;
  visitNodes(statement, { skipTypeAnnotations: true }, (node) => {
    if (found || (node !== statement && isFunctionNode(node) && node.parent?.type !== AST_NODE_TYPES.NewExpression && !isTimerCallback(node))) return false;
    if (node.type === AST_NODE_TYPES.ContinueStatement) found = true;
    if (node.type === AST_NODE_TYPES.CallExpression) {
      const name = getCalleeName(node.callee);
      if (name && (WAIT_NAME.test(name) || name === 'setTimeout' || name === retryCallee || /retry/i.test(name))) found = true;
    }
    return !found;
  });
  return found;
}

function isJump(statement: TSESTree.Statement): boolean {
  return statement.type === AST_NODE_TYPES.ReturnStatement || statement.type === AST_NODE_TYPES.ThrowStatement || statement.type === AST_NODE_TYPES.BreakStatement;
}

function isTimerCallback(fn: FunctionNode): boolean {
  const parent = fn.parent;
  return parent?.type === AST_NODE_TYPES.CallExpression && getCalleeName(parent.callee) === 'setTimeout';
}

function freshErrorName(sourceCode: SourceCode, node: TSESTree.Node): string {
  const taken = getUsedNames(sourceCode, node);
  return pickNumberedName('error', (name) => taken.has(name));
}
