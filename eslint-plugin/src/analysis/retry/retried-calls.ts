import { AST_NODE_TYPES, ASTUtils, type TSESLint, type TSESTree } from '@typescript-eslint/utils';
import { type DbCall, findDbCallsWithin, findKnownCalls, findImportedCallSites, findMongoConnectionOpens, findRemoteCalls, getFunctionExportNames, isProbeCall } from '../clients';
import { containsNode, type FunctionNode, getEnclosingFunction, isFunctionNode } from '../ast';
import type { AnyRuleContext } from '../per-file-cache';
import { walkOwnCode } from './code-walk';
import { getCalledFunction, getLocalFunction } from '../called-functions';
import type { RetryScope } from './retry-scope';
import { describePlaces, getSourcePath, type SourcePlace } from '../modules';

/** A database call an attempt makes, and where in the attempt it is made. */
export interface RetriedDbCall {
  call: DbCall;
  /**
   * The node inside the attempt that makes it: the database call itself, or the call of a
   * local function (`await getResult(token)`) or of a function parameter (`await fn()`) that
   * leads to it.
   */
  site: TSESTree.Node;
  /**
   * For a call made by another module's function (`saveOrder(o)` imported from `./orders`):
   * whether it checks on the database rather than does the work (`isProbeCall` there). Its
   * `call.node` is then the site, the call in this file. For a call in a function that a
   * caller in another module passes (`withRetry(() => pool.query(…))`), where that call is:
   * the message names it, as nothing in this file shows which work is retried.
   */
  remote?: { probe: boolean; passedFrom?: SourcePlace };
}

/** How many local functions deep a database call is looked for (`attempt → helper → helper`). */
const MAX_DEPTH = 2;

/**
 * The database calls of a retry's attempt: written in it, in a local function or a method of
 * this file it calls (the DynamoDB document's `getAsyncOperationResult(token)`, `this.save(…)`,
 * `repo.save(…)`), in the function its callers in this file pass for a parameter it calls
 * (`withRetry(() => pool.query(…))`; for an exported helper, also what its callers in the
 * project's other modules pass), or in a function or method of another module of the
 * project (`saveOrder(o)`, `orders.markPaid(id)`), from that module's summary.
 */
export function findRetriedDbCalls(context: AnyRuleContext, scope: RetryScope): RetriedDbCall[] {
  const found: RetriedDbCall[] = findCallsWithin(context, scope.attempt).map((call) => ({ call, site: call.node }));
  const visited = new Set<TSESTree.Node>([scope.node]);
  const owner = getOwnOrEnclosingFunction(scope.node);
  const imported = findImportedCallSites(context);
  walkOwnCode(
    scope.attempt,
    context.sourceCode.visitorKeys,
    (node) => {
      if (node.type !== AST_NODE_TYPES.CallExpression) return true;
      const local = node.callee.type === AST_NODE_TYPES.Identifier ? getLocalFunction(context, node.callee) : getCalledFunction(context, node);
      // `fn()` of a parameter: what the callers pass for it.
      const slot = !local && node.callee.type === AST_NODE_TYPES.Identifier && owner ? getParameterSlot(context, node.callee, owner) : undefined;
      for (const fn of local ? [local] : slot ? findPassedFunctions(context, slot) : []) {
        for (const call of findCallsIn(context, fn, visited, 1)) found.push({ call, site: node });
      }
      for (const passed of slot ? findCallsPassedFromOtherModules(context, slot) : []) {
        const passedFrom = { file: getSourcePath(passed.context), line: passed.node.loc.start.line };
        found.push({ call: { node, database: passed.database, operation: passed.operation, isWrite: passed.isWrite }, site: node, remote: { probe: isProbeCall(passed.context, passed), passedFrom } });
      }
      for (const remote of imported.get(node)?.calls ?? []) {
        found.push({ call: { node, database: remote.database, operation: remote.operation, isWrite: remote.isWrite }, site: node, remote: { probe: remote.probe } });
      }
      return true;
    },
    true,
  );
  return found.sort((a, b) => a.site.range[0] - b.site.range[0]);
}

/** Database calls inside `container`, connection opens included (a connection retry is a retry). */
function findCallsWithin(context: AnyRuleContext, container: TSESTree.Node): DbCall[] {
  const [start, end] = container.range;
  const opens = findMongoConnectionOpens(context).filter((call) => call.node.range[0] >= start && call.node.range[1] <= end);
  const calls = findDbCallsWithin(context, container);
  return opens.length === 0 ? calls : [...calls, ...opens].sort((a, b) => a.node.range[0] - b.node.range[0]);
}

/** The functions the callers in this file pass for a parameter (its slot) of a function around the retry. */
function findPassedFunctions(context: AnyRuleContext, slot: ParameterSlot): FunctionNode[] {
  return findArgumentsPassed(context, slot.fn, slot.index).flatMap((argument) => {
    if (isFunctionNode(argument)) return [argument];
    const fn = argument.type === AST_NODE_TYPES.Identifier ? getLocalFunction(context, argument) : undefined;
    return fn ? [fn] : [];
  });
}

/**
 * For a parameter of an exported helper around the retry (`export async function
 * withRetry(fn)` … `await fn()`), the database calls of the functions its callers in the
 * project's other modules pass for it (`withRetry(() => pool.query(…))` in `orders.js`), each
 * with the context of its module: they stand for the call of the parameter in this file.
 */
function findCallsPassedFromOtherModules(context: AnyRuleContext, slot: ParameterSlot): Array<DbCall & { context: AnyRuleContext }> {
  const exportNames = getFunctionExportNames(context, slot.fn);
  const found: Array<DbCall & { context: AnyRuleContext }> = [];
  for (const remote of exportNames.length > 0 ? (findRemoteCalls(context, exportNames) ?? []) : []) {
    const argument = remote.call.arguments[slot.index];
    if (argument && isFunctionNode(argument)) for (const call of findDbCallsWithin(remote.context, argument.body)) found.push({ ...call, context: remote.context });
  }
  return found;
}

/** A parameter of a function: the function and the parameter's position. */
interface ParameterSlot {
  fn: FunctionNode;
  index: number;
}

/**
 * The parameter `callee` names, of the function around the retry or of one further out (a
 * compiled `async` method runs its body in an inner generator).
 */
function getParameterSlot(context: AnyRuleContext, callee: TSESTree.Identifier, owner: FunctionNode): ParameterSlot | undefined {
  const variable = ASTUtils.findVariable(context.sourceCode.getScope(callee) as TSESLint.Scope.Scope, callee);
  const definition = variable?.defs.length === 1 ? variable.defs[0] : undefined;
  if (definition?.type !== 'Parameter' || !isFunctionNode(definition.node) || !containsNode(definition.node, owner)) return undefined;
  const index = definition.node.params.findIndex((param) => getParamName(param) === callee.name);
  return index < 0 ? undefined : { fn: definition.node, index };
}

/** Database calls in `fn`, and in the local functions it calls, a few levels deep. */
function findCallsIn(context: AnyRuleContext, fn: FunctionNode, visited: Set<TSESTree.Node>, depth: number): DbCall[] {
  if (visited.has(fn)) return [];
  visited.add(fn);
  const calls = findCallsWithin(context, fn.body);
  if (depth >= MAX_DEPTH) return calls;
  walkOwnCode(fn.body, context.sourceCode.visitorKeys, (node) => {
    if (node.type === AST_NODE_TYPES.CallExpression) {
      const helper = getCalledFunction(context, node);
      if (helper) calls.push(...findCallsIn(context, helper, visited, depth + 1));
    }
    return true;
  });
  return calls;
}

/**
 * The arguments passed at `index` by the calls of `fn` in this file: every call of a
 * function by its name (whatever else the file does with it), or the known calls of a
 * method (for an exported class, its own `this.name(…)` calls).
 */
function findArgumentsPassed(context: AnyRuleContext, fn: FunctionNode, index: number): TSESTree.Node[] {
  const passed: TSESTree.Node[] = [];
  for (const call of fn.parent?.type === AST_NODE_TYPES.MethodDefinition ? findKnownCalls(context, fn) : findCallsByName(context, fn)) {
    if (call.type !== AST_NODE_TYPES.CallExpression || containsNode(fn, call)) continue;
    const argument = call.arguments[index];
    if (argument && argument.type !== AST_NODE_TYPES.SpreadElement) passed.push(argument);
  }
  return passed;
}

/** The calls of a function variable by its name (`withRetry(…)`). */
function findCallsByName(context: AnyRuleContext, fn: FunctionNode): TSESTree.CallExpression[] {
  const nameNode = fn.id ?? (fn.parent?.type === AST_NODE_TYPES.VariableDeclarator ? fn.parent.id : undefined);
  if (nameNode?.type !== AST_NODE_TYPES.Identifier) return [];
  const variable = ASTUtils.findVariable(context.sourceCode.getScope(nameNode) as TSESLint.Scope.Scope, nameNode);
  const calls: TSESTree.CallExpression[] = [];
  for (const reference of variable?.references ?? []) {
    const identifier = reference.identifier as TSESTree.Node;
    const call = identifier.parent;
    if (call?.type === AST_NODE_TYPES.CallExpression && call.callee === identifier) calls.push(call);
  }
  return calls;
}

function getParamName(param: TSESTree.Parameter): string | undefined {
  if (param.type === AST_NODE_TYPES.Identifier) return param.name;
  if (param.type === AST_NODE_TYPES.AssignmentPattern && param.left.type === AST_NODE_TYPES.Identifier) return param.left.name;
  return undefined;
}

/** `node` itself when it is a function, else the function holding it. */
function getOwnOrEnclosingFunction(node: TSESTree.Node): FunctionNode | undefined {
  return isFunctionNode(node) ? node : getEnclosingFunction(node);
}

/**
 * ` (passed in at ../orders.js:4)` after the retried operation's name, when the work comes
 * from callers in other modules (a retry helper's `fn()`): where each call of `all` that
 * makes the same operation as `retried` is passed in; else nothing.
 */
export function describePassedFrom(context: AnyRuleContext, retried: RetriedDbCall, all: readonly RetriedDbCall[]): string {
  if (!retried.remote?.passedFrom) return '';
  const { database, operation } = retried.call;
  const places = all.flatMap(({ call, remote }) => (remote?.passedFrom && call.database === database && call.operation === operation ? [remote.passedFrom] : []));
  return ` (passed in at ${describePlaces(getSourcePath(context), places)})`;
}
