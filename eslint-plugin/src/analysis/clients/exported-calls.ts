import { AST_NODE_TYPES, ASTUtils, type TSESTree } from '@typescript-eslint/utils';
import { containsNode, type FunctionNode, getKeyName, isFunctionNode, visitNodes } from '../ast';
import type { Database, DbCall } from './db-call';
import { findMongoConnectionOpens } from './mongo-connection-opens';
import { isProbeCall } from './probe-calls';
import type { AnyRuleContext } from '../per-file-cache';

/**
 * What calling a module's exports does, database-wise: the database calls an exported
 * function makes (`export async function saveOrder(o) { await pool.query(…) }`), or those of
 * each method of an exported class or instance (`export class Orders { async markPaid() … }`,
 * `module.exports = new Orders()`). Kept as plain data in the module's summary, so a retry in
 * another module around `saveOrder(o)` or `orders.markPaid(id)` is known to retry them.
 */

/** A database call made by a function of another module. */
export interface RemoteDbCall {
  database: Database;
  operation: string;
  isWrite: boolean;
  /** A connection, a probe or session set-up (`isProbeCall`): retried on any error by design. */
  probe: boolean;
}

export type ExportedCalls =
  /** A function: calling it makes these calls. */
  | { kind: 'function'; calls: readonly RemoteDbCall[] }
  /** A class (`new X()` makes an instance) or an instance: its methods' calls, by name. */
  | { kind: 'class' | 'instance'; methods: ReadonlyMap<string, readonly RemoteDbCall[]> };

/** How many local functions deep a function's calls are looked for (`saveOrder → insert → pool.query`). */
const MAX_DEPTH = 2;

/**
 * What the exported expression `node` (a function, a class, an instance, or a name of one)
 * does when called; `fileCalls` are the module's database calls (`findDbCalls`).
 */
export function getExportedCalls(context: AnyRuleContext, node: TSESTree.Node, fileCalls: readonly DbCall[]): ExportedCalls | undefined {
  const target = resolveLocal(context, node);
  if (!target) return undefined;
  const reader: CallReader = { context, fileCalls };
  if (isFunctionNode(target)) {
    const calls = getFunctionCalls(reader, target, undefined, new Set(), 1);
    return calls.length > 0 ? { kind: 'function', calls } : undefined;
  }
  if (target.type === AST_NODE_TYPES.ClassDeclaration || target.type === AST_NODE_TYPES.ClassExpression) {
    return getClassCalls(reader, target.body, 'class');
  }
  if (target.type === AST_NODE_TYPES.NewExpression) {
    const made = resolveLocal(context, target.callee);
    if (made?.type === AST_NODE_TYPES.ClassDeclaration || made?.type === AST_NODE_TYPES.ClassExpression) return getClassCalls(reader, made.body, 'instance');
  }
  return undefined;
}

interface CallReader {
  context: AnyRuleContext;
  fileCalls: readonly DbCall[];
}

/** A name's function, class or `new` expression in this module; the node itself otherwise. */
function resolveLocal(context: AnyRuleContext, node: TSESTree.Node, depth = 0): TSESTree.Node | undefined {
  if (node.type !== AST_NODE_TYPES.Identifier) return node;
  if (depth > 2) return undefined;
  let variable: ReturnType<typeof ASTUtils.findVariable>;
  try {
    variable = ASTUtils.findVariable(context.sourceCode.getScope(node), node);
  } catch {
    return undefined;
  }
  const definition = variable?.defs.length === 1 ? variable.defs[0] : undefined;
  if (!definition) return undefined;
  if (definition.type === 'FunctionName' || definition.type === 'ClassName') return definition.node;
  if (definition.type !== 'Variable' || definition.parent.kind !== 'const' || !definition.node.init) return undefined;
  return resolveLocal(context, definition.node.init, depth + 1);
}

function getClassCalls(reader: CallReader, body: TSESTree.ClassBody, kind: 'class' | 'instance'): ExportedCalls | undefined {
  const methods = new Map<string, readonly RemoteDbCall[]>();
  for (const member of body.body) {
    if (member.type !== AST_NODE_TYPES.MethodDefinition || member.kind !== 'method' || member.static) continue;
    const name = getKeyName(member);
    if (name === undefined) continue;
    if (!isFunctionNode(member.value)) continue;
    const calls = getFunctionCalls(reader, member.value, body, new Set(), 1);
    if (calls.length > 0) methods.set(name, calls);
  }
  return methods.size > 0 ? { kind, methods } : undefined;
}

/** The database calls of `fn`, and of the local functions and same-class methods it calls, a few levels deep. */
function getFunctionCalls(reader: CallReader, fn: FunctionNode, classBody: TSESTree.ClassBody | undefined, visited: Set<TSESTree.Node>, depth: number): RemoteDbCall[] {
  if (visited.has(fn)) return [];
  visited.add(fn);
  const context = reader.context;
  const [start, end] = fn.body.range;
  const within = (call: DbCall): boolean => call.node.range[0] >= start && call.node.range[1] <= end;
  const found = [...reader.fileCalls.filter(within), ...findMongoConnectionOpens(context).filter(within)].map((call) => toRemote(context, call));
  if (depth >= MAX_DEPTH) return found;
  visitNodes(fn.body, { skipTypeAnnotations: true }, (node) => {
    if (node.type !== AST_NODE_TYPES.CallExpression) return;
    const helper = getHelper(context, node, classBody);
    if (helper && !containsNode(fn, helper)) found.push(...getFunctionCalls(reader, helper, classBody, visited, depth + 1));
  });
  return found;
}

/** `helper(…)` of a function of the module, or `this.method(…)` of the class. */
function getHelper(context: AnyRuleContext, call: TSESTree.CallExpression, classBody: TSESTree.ClassBody | undefined): FunctionNode | undefined {
  const callee = call.callee;
  if (callee.type === AST_NODE_TYPES.Identifier) {
    const target = resolveLocal(context, callee);
    return target && isFunctionNode(target) ? target : undefined;
  }
  if (!classBody || callee.type !== AST_NODE_TYPES.MemberExpression || callee.object.type !== AST_NODE_TYPES.ThisExpression) return undefined;
  const name = getKeyName(callee);
  const methods = classBody.body.filter(
    (member): member is TSESTree.MethodDefinition => member.type === AST_NODE_TYPES.MethodDefinition && member.kind === 'method' && !member.static && getKeyName(member) === name,
  );
  const value = methods.length === 1 ? methods[0]?.value : undefined;
  return value && isFunctionNode(value) ? value : undefined;
}

function toRemote(context: AnyRuleContext, call: DbCall): RemoteDbCall {
  return { database: call.database, operation: call.operation, isWrite: call.isWrite, probe: isProbeCall(context, call) };
}
