import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';

/** Where control goes after a statement: whether an attempt's code always leaves the loop or may go round again. */

/**
 * Every path through the statement leaves `loop` (or the function): throw, return, break
 * out, or both branches do. A block leaves when one of its statements always leaves and no
 * statement before it can go round first (`if (retryable) continue; throw err;` does not
 * always leave).
 */
export function alwaysLeaves(statement: TSESTree.Statement, loop?: TSESTree.Node): boolean {
  switch (statement.type) {
    case AST_NODE_TYPES.ThrowStatement:
    case AST_NODE_TYPES.ReturnStatement:
      return true;
    case AST_NODE_TYPES.BreakStatement:
      return loop !== undefined;
    case AST_NODE_TYPES.ContinueStatement:
      return false;
    case AST_NODE_TYPES.ExpressionStatement:
      return isProcessExit(statement.expression);
    case AST_NODE_TYPES.BlockStatement:
      for (const child of statement.body) {
        if (alwaysLeaves(child, loop)) return true;
        if (mayContinue(child)) return false;
      }
      return false;
    case AST_NODE_TYPES.IfStatement:
      return statement.alternate !== null && alwaysLeaves(statement.consequent, loop) && alwaysLeaves(statement.alternate, loop);
    case AST_NODE_TYPES.TryStatement:
      if (statement.finalizer && alwaysLeaves(statement.finalizer, loop)) return true;
      return alwaysLeaves(statement.block, loop) && (statement.handler === null || alwaysLeaves(statement.handler.body, loop));
    default:
      return false;
  }
}

/**
 * The statement may go round the enclosing loop: it holds a `continue` outside any nested
 * loop or function (inside those, a `continue` goes round the nested loop instead).
 */
function mayContinue(statement: TSESTree.Statement): boolean {
  switch (statement.type) {
    case AST_NODE_TYPES.ContinueStatement:
      return true;
    case AST_NODE_TYPES.BlockStatement:
      return statement.body.some(mayContinue);
    case AST_NODE_TYPES.IfStatement:
      return mayContinue(statement.consequent) || (statement.alternate !== null && mayContinue(statement.alternate));
    case AST_NODE_TYPES.TryStatement:
      return (
        mayContinue(statement.block) ||
        (statement.handler !== null && mayContinue(statement.handler.body)) ||
        (statement.finalizer !== null && mayContinue(statement.finalizer))
      );
    case AST_NODE_TYPES.LabeledStatement:
      return mayContinue(statement.body);
    case AST_NODE_TYPES.SwitchStatement:
      return statement.cases.some((switchCase) => switchCase.consequent.some(mayContinue));
    default:
      return false;
  }
}

/** `process.exit(1)`: nothing runs after it, so a retry that calls it gives up there. */
export function isProcessExit(expression: TSESTree.Expression): boolean {
  const callee = expression.type === AST_NODE_TYPES.CallExpression ? expression.callee : undefined;
  return (
    callee?.type === AST_NODE_TYPES.MemberExpression &&
    !callee.computed &&
    callee.object.type === AST_NODE_TYPES.Identifier &&
    callee.object.name === 'process' &&
    callee.property.type === AST_NODE_TYPES.Identifier &&
    callee.property.name === 'exit'
  );
}
