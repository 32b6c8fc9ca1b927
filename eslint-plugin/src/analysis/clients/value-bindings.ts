import { AST_NODE_TYPES, ASTUtils, type TSESLint, type TSESTree } from '@typescript-eslint/utils';
import { getKeyName, getReturnedExpressions, isFunctionNode, unwrapExpression } from '../ast';
import type { AnyRuleContext } from '../per-file-cache';
import { findThisExpressions } from '../find-nodes-at-offsets';

/**
 * Following a client object from where it is made (`new Pool()`, `new DynamoDBClient()`,
 * a parameter typed `DynamoDBDocumentClient`) to every place that reads it: the
 * variable's references, or `this.<field>` inside the class that stores it.
 */

type Node = TSESTree.Node;

/** Where a value is stored so that it can be read back. */
export type ValueBinding = (
  | { kind: 'variable'; name: string; variable: TSESLint.Scope.Variable }
  | { kind: 'member'; name: string; classBody: TSESTree.ClassBody }
) & {
  /** The statement that declares or assigns it (a class field for `x = value` in a class body). */
  statement: Node;
  /** Assigned only when empty (`x ??= value`, `x ||= value`). */
  conditional?: boolean;
};

const TRANSPARENT = new Set<string>([
  AST_NODE_TYPES.TSAsExpression,
  AST_NODE_TYPES.TSNonNullExpression,
  AST_NODE_TYPES.TSSatisfiesExpression,
  AST_NODE_TYPES.TSTypeAssertion,
  AST_NODE_TYPES.ChainExpression,
]);

/** The outermost node around `node` that has the same value (`x as T`, `x!`, `a?.b`). */
export function getOutermostSameValue(node: Node): Node {
  let current = node;
  while (current.parent && TRANSPARENT.has(current.parent.type)) current = current.parent;
  return current;
}

/**
 * The outermost node whose value is `node` or another choice of the code: the default in
 * `options.client || new Client()` / `?? new Client()`, either branch of
 * `url ? new Pool({ connectionString: url }) : new Pool()`. Where that goes, `node` goes.
 */
export function getOutermostChosenValue(node: Node): Node {
  let current = getOutermostSameValue(node);
  for (;;) {
    const parent = current.parent;
    const isDefault = parent?.type === AST_NODE_TYPES.LogicalExpression && parent.right === current && (parent.operator === '||' || parent.operator === '??');
    const isBranch = parent?.type === AST_NODE_TYPES.ConditionalExpression && parent.test !== current;
    if (!parent || (!isDefault && !isBranch)) return current;
    current = getOutermostSameValue(parent);
  }
}

/**
 * `node` where it stands as a callee: itself, or the `(0, node)` around it that TypeScript
 * and Babel write for a call of an imported function (`(0, orders_1.save)(order)`), so that
 * the call does not get the module as `this`.
 */
export function getCalleeForm(node: Node): Node {
  const outer = getOutermostSameValue(node);
  const parent = outer.parent;
  if (parent?.type !== AST_NODE_TYPES.SequenceExpression || parent.expressions.length !== 2 || parent.expressions[1] !== outer) return outer;
  const first = parent.expressions[0];
  return first?.type === AST_NODE_TYPES.Literal && first.value === 0 ? parent : outer;
}

/** When `node` is the object of a call `node.<name>(...)`, that call and the method name. */
export function getMethodCall(node: Node): { call: TSESTree.CallExpression; name: string } | undefined {
  const found = getMemberCall(node);
  const name = found && getKeyName(found.member);
  return found && name !== undefined ? { call: found.call, name } : undefined;
}

/** When `node` is the object of a call `node.m(...)` or `node[k](...)`, that call and its member expression. */
export function getMemberCall(node: Node): { call: TSESTree.CallExpression; member: TSESTree.MemberExpression } | undefined {
  const outer = getOutermostSameValue(node);
  const member = outer.parent;
  if (member?.type !== AST_NODE_TYPES.MemberExpression || member.object !== outer) return undefined;
  const callee = getOutermostSameValue(member);
  const call = callee.parent;
  if (call?.type !== AST_NODE_TYPES.CallExpression || call.callee !== callee) return undefined;
  return { call, member };
}

function findEnclosingClassBody(node: Node): TSESTree.ClassBody | undefined {
  for (let current = node.parent; current; current = current.parent) {
    if (current.type === AST_NODE_TYPES.ClassBody) return current;
  }
  return undefined;
}

function findEnclosingStatement(node: Node): Node {
  let current = node;
  while (current.parent && !isStatementContainer(current.parent)) current = current.parent;
  return current;
}

function isStatementContainer(node: Node): boolean {
  return (
    node.type === AST_NODE_TYPES.Program ||
    node.type === AST_NODE_TYPES.BlockStatement ||
    node.type === AST_NODE_TYPES.StaticBlock ||
    node.type === AST_NODE_TYPES.SwitchCase ||
    node.type === AST_NODE_TYPES.ClassBody
  );
}

function getVariable(context: AnyRuleContext, identifier: TSESTree.Identifier): TSESLint.Scope.Variable | undefined {
  try {
    return ASTUtils.findVariable(context.sourceCode.getScope(identifier), identifier) ?? undefined;
  } catch {
    return undefined;
  }
}

/**
 * Where the value of `producer` is stored: `const x = producer`, `x = producer`,
 * `this.x = producer`, a class field `x = producer`. Undefined when it is not stored
 * (passed on, returned, destructured).
 */
export function getValueBinding(context: AnyRuleContext, producer: Node): ValueBinding | undefined {
  let node = getOutermostSameValue(producer);
  // `const pool = new Pool().on('error', …)`: `on` returns the emitter itself.
  const chained = getMethodCall(node);
  if (chained && (chained.name === 'on' || chained.name === 'once')) node = getOutermostSameValue(chained.call);
  // `options.client || new Client()`, `url ? new Pool(a) : new Pool()`: kept where the choice goes.
  node = getOutermostChosenValue(node);
  const parent = node.parent;
  if (!parent) return undefined;
  if (parent.type === AST_NODE_TYPES.ReturnStatement) return getGetterBinding(parent);
  if (parent.type === AST_NODE_TYPES.VariableDeclarator && parent.init === node) {
    if (parent.id.type !== AST_NODE_TYPES.Identifier) return undefined;
    const variable = getVariable(context, parent.id);
    return variable && { kind: 'variable', name: parent.id.name, variable, statement: findEnclosingStatement(parent) };
  }
  // `x = value`, and the lazy-singleton forms `x ??= value` / `x ||= value`.
  if (
    parent.type === AST_NODE_TYPES.AssignmentExpression &&
    parent.right === node &&
    (parent.operator === '=' || parent.operator === '??=' || parent.operator === '||=')
  ) {
    const binding = getBindingOfTarget(context, parent.left, findEnclosingStatement(parent));
    return binding && { ...binding, conditional: parent.operator !== '=' };
  }
  if (parent.type === AST_NODE_TYPES.PropertyDefinition && parent.value === node && !parent.static) {
    const name = getKeyName(parent);
    const classBody = parent.parent;
    return name === undefined || classBody.type !== AST_NODE_TYPES.ClassBody
      ? undefined
      : { kind: 'member', name, classBody, statement: parent };
  }
  return undefined;
}

/**
 * `get client() { … return this._client; }`: the getter's only return makes `this.client`
 * the same value (the lazy getter: `this._client ??= new Client()` before it).
 */
function getGetterBinding(statement: TSESTree.ReturnStatement): ValueBinding | undefined {
  let fn: Node | undefined = statement.parent;
  while (fn && !isFunctionNode(fn)) fn = fn.parent;
  const getter = fn?.parent;
  if (!fn || !isFunctionNode(fn) || getter?.type !== AST_NODE_TYPES.MethodDefinition || getter.kind !== 'get' || getter.static) return undefined;
  const name = getKeyName(getter);
  if (name === undefined || getReturnedExpressions(fn).length !== 1) return undefined;
  return { kind: 'member', name, classBody: getter.parent, statement: getter };
}

function getBindingOfTarget(context: AnyRuleContext, target: Node, statement: Node): ValueBinding | undefined {
  if (target.type === AST_NODE_TYPES.Identifier) {
    const variable = getVariable(context, target);
    return variable && { kind: 'variable', name: target.name, variable, statement };
  }
  if (target.type === AST_NODE_TYPES.MemberExpression && target.object.type === AST_NODE_TYPES.ThisExpression) {
    const name = getKeyName(target);
    const classBody = findEnclosingClassBody(target);
    return name === undefined || !classBody ? undefined : { kind: 'member', name, classBody, statement };
  }
  return undefined;
}

/** Every expression that reads the binding: identifiers, or `this.<name>` in its class. */
export function findBindingReads(context: AnyRuleContext, binding: ValueBinding): readonly Node[] {
  if (binding.kind === 'variable') {
    return binding.variable.references.filter((reference) => reference.isRead()).map((reference) => reference.identifier);
  }
  return getThisMemberReads(context, binding.classBody).get(binding.name) ?? [];
}

/** Per class body, its `this.<name>` reads by name: found in one search, as a class has many fields. */
const thisMemberReads = new WeakMap<Node, ReadonlyMap<string, Node[]>>();

function getThisMemberReads(context: AnyRuleContext, classBody: Node): ReadonlyMap<string, Node[]> {
  let reads = thisMemberReads.get(classBody);
  if (reads) return reads;
  const found = new Map<string, Node[]>();
  for (const thisNode of findThisExpressions(context, classBody)) {
    const node = thisNode.parent;
    if (node?.type !== AST_NODE_TYPES.MemberExpression || node.object !== thisNode || isAssignmentTarget(node)) continue;
    const name = getKeyName(node);
    if (name === undefined) continue;
    const list = found.get(name);
    if (list) list.push(node);
    else found.set(name, [node]);
  }
  thisMemberReads.set(classBody, (reads = found));
  return reads;
}

function isAssignmentTarget(node: Node): boolean {
  const parent = node.parent;
  return parent?.type === AST_NODE_TYPES.AssignmentExpression && parent.left === node && parent.operator === '=';
}

/**
 * Every expression that evaluates to the value `producer` makes: `producer` itself
 * and the reads of where it is stored, following `const b = a` aliases.
 */
export function findInstanceReferences(context: AnyRuleContext, producer: Node): Node[] {
  const found: Node[] = [producer];
  const seen = new Set<Node>();
  const queue: ValueBinding[] = [];
  const first = getValueBinding(context, producer);
  if (first) queue.push(first);
  for (let binding = queue.shift(); binding; binding = queue.shift()) {
    for (const read of findBindingReads(context, binding)) {
      if (seen.has(read)) continue;
      seen.add(read);
      found.push(read);
      const alias = getValueBinding(context, read);
      if (alias && found.length < 500) queue.push(alias);
    }
  }
  return found;
}

/** The object literal `node` is, or that a `const` it names was initialised with. */
export function resolveObjectLiteral(context: AnyRuleContext, node: TSESTree.Node): TSESTree.ObjectExpression | undefined {
  const expression = unwrapExpression(node);
  if (expression.type === AST_NODE_TYPES.ObjectExpression) return expression;
  if (expression.type !== AST_NODE_TYPES.Identifier) return undefined;
  const variable = ASTUtils.findVariable(context.sourceCode.getScope(expression), expression);
  const definition = variable?.defs.length === 1 ? variable.defs[0] : undefined;
  if (definition?.node.type !== AST_NODE_TYPES.VariableDeclarator) return undefined;
  if (definition.parent?.type !== AST_NODE_TYPES.VariableDeclaration || definition.parent.kind !== 'const') return undefined;
  const init = definition.node.init && unwrapExpression(definition.node.init);
  return init?.type === AST_NODE_TYPES.ObjectExpression ? init : undefined;
}
