import { AST_NODE_TYPES, ASTUtils, type TSESLint, type TSESTree } from '@typescript-eslint/utils';
import { findDynamoDbCalls } from '../clients';
import { containsNode, getEnclosingFunction, getKeyName } from '../ast';
import { type AnyRuleContext, createPerFileCache } from '../per-file-cache';
import { alwaysLeaves } from './control-flow';
import { collectDeclaredNames, collectIdentifierNames, walkOwnCode } from './code-walk';

/**
 * Retries decided by what the response says rather than by a caught error: a DynamoDB batch
 * sent again with what it left unprocessed, a status polled until it reads "done", a loop
 * that leaves once a result is good. Pagination (`LastEvaluatedKey` → `ExclusiveStartKey`)
 * and loops that work through what each response returns are not retries.
 */

/**
 * What a DynamoDB batch did not process (`BatchWriteItem`'s `UnprocessedItems`,
 * `BatchGetItem`'s `UnprocessedKeys`, as in `../clients/dynamodb-unprocessed.ts`): sending
 * it again sends the same request again.
 */
const LEFTOVER_PROPERTIES = new Set(['UnprocessedItems', 'UnprocessedKeys']);

/** Booleans a response carries to say it is ready or it worked. */
const READY_PROPERTY = /^(is)?(ready|ok|done|success|succeeded|complete|completed|available|acknowledged)$/i;

/**
 * `node` reads what a batch left unprocessed: `res.UnprocessedItems`, or a variable set from
 * it (`const left = data.UnprocessedItems; … write({ RequestItems: left })`).
 */
export function readsLeftovers(context: AnyRuleContext, node: TSESTree.Node, depth = 0): boolean {
  // Only a file that names them can read them: most files are done without a walk.
  if (depth === 0 && !namesLeftovers(context)) return false;
  let found = false;
  walkOwnCode(
    node,
    context.sourceCode.visitorKeys,
    (child) => {
      if (found) return false;
      if (child.type === AST_NODE_TYPES.MemberExpression && !child.computed && child.property.type === AST_NODE_TYPES.Identifier && LEFTOVER_PROPERTIES.has(child.property.name)) {
        found = true;
      } else if (child.type === AST_NODE_TYPES.Identifier && depth < 2 && isReadReference(child)) {
        found = isDestructuredLeftover(context, child) || findWrittenValues(context, child).some((value) => readsLeftovers(context, value, depth + 1));
      }
      return !found;
    },
    true,
  );
  return found;
}

const namesLeftovers = createPerFileCache((context: AnyRuleContext): boolean => {
  const text = context.sourceCode.text;
  return [...LEFTOVER_PROPERTIES].some((name) => text.includes(name));
});

/**
 * A variable bound from a leftover property by destructuring: `const { UnprocessedKeys } = res`,
 * `({ UnprocessedItems: left } = await send(…))`.
 */
function isDestructuredLeftover(context: AnyRuleContext, identifier: TSESTree.Identifier): boolean {
  const variable = ASTUtils.findVariable(context.sourceCode.getScope(identifier) as TSESLint.Scope.Scope, identifier);
  if (!variable) return false;
  const bindings = [...variable.defs.map((definition) => definition.name as TSESTree.Node), ...variable.references.filter((reference) => reference.isWrite()).map((reference) => reference.identifier as TSESTree.Node)];
  return bindings.some((binding) => {
    // `{ UnprocessedKeys = {} }` puts an AssignmentPattern between the name and its property.
    const holder = binding.parent?.type === AST_NODE_TYPES.AssignmentPattern && binding.parent.left === binding ? binding.parent : binding;
    const property = holder.parent;
    return property?.type === AST_NODE_TYPES.Property && property.value === holder && property.parent.type === AST_NODE_TYPES.ObjectPattern && LEFTOVER_PROPERTIES.has(getKeyName(property) ?? '');
  });
}

/** An identifier read as a value (not a property name, an object key or a declaration). */
function isReadReference(identifier: TSESTree.Identifier): boolean {
  const parent = identifier.parent;
  if (parent.type === AST_NODE_TYPES.MemberExpression && parent.property === identifier && !parent.computed) return false;
  if (parent.type === AST_NODE_TYPES.Property && parent.key === identifier && !parent.shorthand) return false;
  return !(parent.type === AST_NODE_TYPES.VariableDeclarator && parent.id === identifier);
}

/**
 * The values a variable is given: its initializer, the right sides of its assignments, and
 * what is stored in its properties (`options.data = { Items: left }`, `params.RequestItems[t] = left`).
 */
function findWrittenValues(context: AnyRuleContext, identifier: TSESTree.Identifier): TSESTree.Node[] {
  const variable = ASTUtils.findVariable(context.sourceCode.getScope(identifier) as TSESLint.Scope.Scope, identifier);
  if (!variable) return [];
  const values: TSESTree.Node[] = [];
  for (const definition of variable.defs) {
    if (definition.node.type === AST_NODE_TYPES.VariableDeclarator && definition.node.init) values.push(definition.node.init);
  }
  for (const reference of variable.references) {
    const parent = (reference.identifier as TSESTree.Node).parent;
    if (reference.isWrite() && parent?.type === AST_NODE_TYPES.AssignmentExpression && parent.left === reference.identifier) values.push(parent.right);
    let target: TSESTree.Node = reference.identifier as TSESTree.Node;
    while (target.parent?.type === AST_NODE_TYPES.MemberExpression && target.parent.object === target) target = target.parent;
    if (target !== reference.identifier && target.parent?.type === AST_NODE_TYPES.AssignmentExpression && target.parent.left === target) {
      values.push(target.parent.right);
    }
  }
  return values;
}

export type ResultLoop = TSESTree.ForStatement | TSESTree.WhileStatement | TSESTree.DoWhileStatement;

/**
 * A loop with no `try` that goes round because of a response: it resends leftovers, polls a
 * status until it reads as done, or loops forever and leaves once a result is good.
 */
/**
 * Cheap first look: a condition that could be decided by a
 * response (no condition, `true`, a flag, a status comparison, leftovers).
 */
export function mayBeResultDecidedLoop(loop: TSESTree.Node, sourceText: string): loop is ResultLoop {
  if (loop.type !== AST_NODE_TYPES.ForStatement && loop.type !== AST_NODE_TYPES.WhileStatement && loop.type !== AST_NODE_TYPES.DoWhileStatement) return false;
  const test = loop.test;
  if (!test || isAlwaysTrue(test)) return true;
  return isFlagShaped(test) || sourceText.slice(loop.range[0], loop.range[1]).includes('Unprocessed');
}

function isFlagShaped(test: TSESTree.Expression): boolean {
  if (test.type === AST_NODE_TYPES.Identifier) return true;
  if (test.type === AST_NODE_TYPES.UnaryExpression && test.operator === '!') return isFlagShaped(test.argument);
  if (test.type === AST_NODE_TYPES.LogicalExpression && test.operator === '&&') return isFlagShaped(test.left) && isFlagShaped(test.right);
  return test.type === AST_NODE_TYPES.BinaryExpression && ['===', '!==', '==', '!='].includes(test.operator);
}

export function isResultDecidedLoop(context: AnyRuleContext, loop: ResultLoop): boolean {
  const keys = context.sourceCode.visitorKeys;
  const test = loop.test;
  if (test && readsLeftovers(context, test)) return true;
  if (test && isStatusTest(context, test, loop.body)) return true;
  if (!test || isAlwaysTrue(test)) return leavesOnGoodResult(loop, keys);
  return false;
}

function isAlwaysTrue(test: TSESTree.Expression): boolean {
  return test.type === AST_NODE_TYPES.Literal && test.value === true;
}

/**
 * `while (!done)`, `while (status !== 'ACTIVE')`, `while (retry)`: every part of the condition
 * is a flag or a status that the loop body sets from a response.
 */
function isStatusTest(context: AnyRuleContext, test: TSESTree.Expression, body: TSESTree.Statement): boolean {
  const keys = context.sourceCode.visitorKeys;
  let assignments: Map<string, TSESTree.Node[]> | undefined;
  const getAssigned = (): Map<string, TSESTree.Node[]> => (assignments ??= collectAssignments(body, keys));
  const check = (part: TSESTree.Expression): boolean => {
    if (part.type === AST_NODE_TYPES.LogicalExpression && part.operator === '&&') return check(part.left) && check(part.right);
    if (part.type === AST_NODE_TYPES.UnaryExpression && part.operator === '!') return check(part.argument);
    if (part.type === AST_NODE_TYPES.Identifier) return (getAssigned().get(part.name) ?? []).some((value) => isStatusValue(value) || isReadyRead(value));
    if (part.type === AST_NODE_TYPES.BinaryExpression && ['===', '!==', '==', '!='].includes(part.operator)) {
      const [variable, other] = part.left.type === AST_NODE_TYPES.Identifier ? [part.left, part.right] : [part.right, part.left];
      return variable.type === AST_NODE_TYPES.Identifier && isStatusLiteral(other) && getAssigned().has(variable.name);
    }
    return false;
  };
  return check(test);
}

/** `name = value` and `const name = value` in the loop body (not in nested functions), by name. */
function collectAssignments(body: TSESTree.Node, keys: TSESLint.SourceCode.VisitorKeys): Map<string, TSESTree.Node[]> {
  const assigned = new Map<string, TSESTree.Node[]>();
  const add = (name: string, value: TSESTree.Node): void => {
    const values = assigned.get(name);
    if (values) values.push(value);
    else assigned.set(name, [value]);
  };
  walkOwnCode(body, keys, (node) => {
    if (node.type === AST_NODE_TYPES.AssignmentExpression && node.operator === '=' && node.left.type === AST_NODE_TYPES.Identifier) add(node.left.name, node.right);
    if (node.type === AST_NODE_TYPES.VariableDeclarator && node.id.type === AST_NODE_TYPES.Identifier && node.init) add(node.id.name, node.init);
    return true;
  });
  return assigned;
}

/** `result === 'THROTTLED' || result === Results.SERVER_ERROR`: a comparison with a named status. */
function isStatusValue(value: TSESTree.Node): boolean {
  if (value.type === AST_NODE_TYPES.LogicalExpression) return isStatusValue(value.left) || isStatusValue(value.right);
  if (value.type === AST_NODE_TYPES.UnaryExpression && value.operator === '!') return isStatusValue(value.argument);
  return (
    value.type === AST_NODE_TYPES.BinaryExpression &&
    ['===', '!==', '==', '!='].includes(value.operator) &&
    (isStatusLiteral(value.left) || isStatusLiteral(value.right))
  );
}

/** `'ACTIVE'`, `SUCCESS`, `Results.THROTTLED`, `TableStatus.ACTIVE`: a status name, not a number, `null` or a count. */
function isStatusLiteral(node: TSESTree.Node): boolean {
  if (node.type === AST_NODE_TYPES.Literal) return typeof node.value === 'string' && node.value.length > 0;
  if (node.type === AST_NODE_TYPES.Identifier) return /^[A-Z][A-Z0-9_]+$/.test(node.name);
  return (
    node.type === AST_NODE_TYPES.MemberExpression &&
    !node.computed &&
    node.property.type === AST_NODE_TYPES.Identifier &&
    /^[A-Z][A-Za-z0-9_]*$/.test(node.property.name) &&
    node.object.type === AST_NODE_TYPES.Identifier &&
    /^[A-Z]/.test(node.object.name)
  );
}

/** `res.ready`, `(await check()).ok`: a boolean the response carries. */
function isReadyRead(value: TSESTree.Node): boolean {
  let current = value;
  if (current.type === AST_NODE_TYPES.UnaryExpression && current.operator === '!') current = current.argument;
  return current.type === AST_NODE_TYPES.MemberExpression && !current.computed && current.property.type === AST_NODE_TYPES.Identifier && READY_PROPERTY.test(current.property.name);
}

/**
 * `while (true) { const r = await x(); if (r.ok) break; await sleep(ms); }` (or `else { break; }`,
 * or `return r`): the loop leaves on a good result and otherwise goes round without using it.
 * When the code after the check uses the result (`if (!job) break; await handle(job);`) the
 * loop works through results: not a retry.
 */
function leavesOnGoodResult(loop: ResultLoop, keys: TSESLint.SourceCode.VisitorKeys): boolean {
  const statements = loop.body.type === AST_NODE_TYPES.BlockStatement ? loop.body.body : [loop.body];
  const results = new Set<string>();
  for (const [index, statement] of statements.entries()) {
    if (statement.type !== AST_NODE_TYPES.IfStatement) {
      for (const name of findResultNames(statement)) results.add(name);
      continue;
    }
    if (![...collectIdentifierNames(statement.test, keys)].some((name) => results.has(name))) continue;
    const consequentLeaves = alwaysLeaves(statement.consequent, loop);
    const alternateLeaves = statement.alternate !== null && alwaysLeaves(statement.alternate, loop);
    if (consequentLeaves === alternateLeaves) continue;
    const goingRound = [...(consequentLeaves ? (statement.alternate ? [statement.alternate] : []) : [statement.consequent]), ...statements.slice(index + 1)];
    return !goingRound.some((part) => [...collectIdentifierNames(part, keys)].some((name) => results.has(name)));
  }
  return false;
}

/** `const r = await x()`, `r = await x()`: names holding a call's result. */
function findResultNames(statement: TSESTree.Statement): string[] {
  const isCallResult = (value: TSESTree.Node | null | undefined): boolean => {
    const inner = value?.type === AST_NODE_TYPES.AwaitExpression ? value.argument : value;
    return inner?.type === AST_NODE_TYPES.CallExpression;
  };
  if (statement.type === AST_NODE_TYPES.VariableDeclaration) {
    return statement.declarations.flatMap((declarator) => (isCallResult(declarator.init) ? [...collectDeclaredNames(declarator.id)] : []));
  }
  if (
    statement.type === AST_NODE_TYPES.ExpressionStatement &&
    statement.expression.type === AST_NODE_TYPES.AssignmentExpression &&
    statement.expression.left.type === AST_NODE_TYPES.Identifier &&
    isCallResult(statement.expression.right)
  ) {
    return [statement.expression.left.name];
  }
  return [];
}

/**
 * A DynamoDB call of `operation` made before `loop` in the loop's own function: the loop's
 * first round then sends leftovers again. Without one, its first round makes the first send.
 */
export function isSentBeforeLoop(context: AnyRuleContext, loop: TSESTree.Node, operation: string): boolean {
  const owner = getEnclosingFunction(loop);
  return findDynamoDbCalls(context).some(
    (call) => call.operation === operation && call.node.range[1] <= loop.range[0] && getEnclosingFunction(call.node) === owner && (!owner || containsNode(owner, call.node)),
  );
}
