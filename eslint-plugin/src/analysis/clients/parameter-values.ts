import { AST_NODE_TYPES, type TSESLint, type TSESTree } from '@typescript-eslint/utils';
import { getKeyName, isFunctionNode, unwrapExpression } from '../ast';
import type { AnyRuleContext } from '../per-file-cache';
import type { DbValue } from './db-value';
import { findVariable, getArgumentsInSlot, getParameterSlot, getRemoteSlotValues, getSlotCallers, type ParameterSlot } from './call-sites';
import { findThisExpressions } from '../find-nodes-at-offsets';

/**
 * What a parameter holds, for every database: the value every caller passes into it, in
 * the file and, for an exported function or class, in the project's other modules. The
 * MongoDB, pg and DynamoDB analyses each judge an argument with their own `ValueJudge`;
 * the walk through callers, object literals, constructor fields and the module index is
 * this one.
 */

/** How one database's analysis reads a value. */
export interface ValueJudge<T> {
  /** The value of an expression of this file; undefined when unknown. */
  valueOf(node: TSESTree.Node): T | undefined;
  /** What a value another module passes means here; undefined when it is none of this analysis' values. */
  fromRemote(value: DbValue): T | undefined;
  same(a: T, b: T): boolean;
}

/** A parameter, and the properties read below it (`options.destination.client` → `['destination', 'client']`). */
export interface ParameterPath {
  slot: ParameterSlot;
  path: readonly string[];
}

/** How many functions deep a value is followed through parameters passed on (`copy(options)` → `putItems(options)`). */
const MAX_HOPS = 4;
/** An argument that is the parameter asked about (a recursive call): it adds no value of its own. */
const SAME = Symbol('same parameter');

/**
 * The value every caller passes into `slot` (then along `path` inside it): undefined when
 * a caller passes something unknown or other, or when the function is used other than by
 * calls and exports.
 */
export function getPassedValue<T>(context: AnyRuleContext, slot: ParameterSlot, path: readonly string[], judge: ValueJudge<T>): T | undefined {
  let answers = answersByJudge.get(judge) as Map<string, T | undefined> | undefined;
  if (!answers) answersByJudge.set(judge, (answers = new Map()));
  const key = [slot.fn.range[0], slot.index, slot.property ?? '', ...path].join('\n');
  if (answers.has(key)) return answers.get(key);
  const value = passedValue(context, slot, path, judge, 0, new Set());
  answers.set(key, value);
  return value;
}

/** Answers per judge (one per analysis of a file): several receivers read the same parameter. */
const answersByJudge = new WeakMap<object, Map<string, unknown>>();

function passedValue<T>(
  context: AnyRuleContext,
  slot: ParameterSlot,
  path: readonly string[],
  judge: ValueJudge<T>,
  hops: number,
  visiting: Set<TSESLint.Scope.Variable>,
): T | undefined {
  if (hops > MAX_HOPS || visiting.has(slot.variable)) return undefined;
  const callers = getSlotCallers(context, slot);
  if (!callers) return undefined;
  const fullPath = slot.property === undefined ? path : [slot.property, ...path];
  const passed = getArgumentsInSlot(callers.calls, { index: slot.index, property: undefined });
  if (!passed) return undefined;
  let value: T | undefined;
  const agree = (next: T | undefined): boolean => {
    if (next === undefined || (value !== undefined && !judge.same(value, next))) return false;
    value = next;
    return true;
  };
  visiting.add(slot.variable);
  try {
    for (const argument of passed) {
      const found = resolvePassed(context, argument, fullPath, judge, hops, visiting);
      if (found !== SAME && !agree(found)) return undefined;
    }
    if (callers.exportNames.length > 0) {
      // The module index answers for the argument itself or one property of an object literal.
      if (fullPath.length > 1) return undefined;
      const remote = getRemoteSlotValues(context, { ...slot, property: fullPath[0] }, callers.exportNames);
      if (!remote) return undefined;
      for (const found of remote) if (!agree(judge.fromRemote(found))) return undefined;
    }
  } finally {
    visiting.delete(slot.variable);
  }
  return value;
}

/**
 * The value of `path` inside an argument: through object literals (also held in a
 * variable written once), parameters the caller passes on, and defaults
 * (`options.client || new Client()`: the code's own value).
 */
function resolvePassed<T>(
  context: AnyRuleContext,
  node: TSESTree.Node,
  path: readonly string[],
  judge: ValueJudge<T>,
  hops: number,
  visiting: Set<TSESLint.Scope.Variable>,
): T | undefined | typeof SAME {
  let current = unwrapExpression(node);
  let index = 0;
  // An object literal written in the call itself keeps its properties until the call; one held in a variable may not.
  let held = false;
  for (let steps = 0; steps < 20; steps++) {
    if (index === path.length) {
      const value = judge.valueOf(current);
      if (value !== undefined) return value;
      if (current.type === AST_NODE_TYPES.LogicalExpression || current.type === AST_NODE_TYPES.ConditionalExpression) {
        return resolveAlternatives(context, current, judge, hops, visiting);
      }
    }
    if (current.type === AST_NODE_TYPES.Identifier) {
      const variable = findVariable(context, current);
      const definition = variable?.defs.length === 1 ? variable.defs[0] : undefined;
      if (!variable || !definition) return undefined;
      if (definition.type === 'Parameter') {
        if (visiting.has(variable)) return SAME;
        const slot = getParameterSlot(variable);
        return slot && !hasTypeAnnotation(variable) ? passedValue(context, slot, path.slice(index), judge, hops + 1, visiting) : undefined;
      }
      const init = getSingleValue(variable);
      if (!init) return undefined;
      current = unwrapExpression(init);
      held = true;
      continue;
    }
    if (index < path.length && current.type === AST_NODE_TYPES.ObjectExpression) {
      const key = path[index] as string;
      const property = findProperty(current, key);
      if (!property || (held && isPropertyWritten(context, key))) return undefined;
      current = unwrapExpression(property.value);
      index++;
      continue;
    }
    return undefined;
  }
  return undefined;
}

/** `a || b`, `a ?? b`: `b` when `a` is unknown (a default); `c ? a : b`: when both agree. */
function resolveAlternatives<T>(
  context: AnyRuleContext,
  node: TSESTree.LogicalExpression | TSESTree.ConditionalExpression,
  judge: ValueJudge<T>,
  hops: number,
  visiting: Set<TSESLint.Scope.Variable>,
): T | undefined {
  const known = (found: T | undefined | typeof SAME): T | undefined => (found === SAME ? undefined : found);
  if (node.type === AST_NODE_TYPES.ConditionalExpression) {
    const consequent = known(resolvePassed(context, node.consequent, [], judge, hops, visiting));
    const alternate = known(resolvePassed(context, node.alternate, [], judge, hops, visiting));
    return consequent !== undefined && alternate !== undefined && judge.same(consequent, alternate) ? consequent : undefined;
  }
  if (node.operator === '&&') return undefined;
  const fallback = known(resolvePassed(context, node.right, [], judge, hops, visiting));
  if (fallback === undefined) return undefined;
  const given = known(resolvePassed(context, node.left, [], judge, hops, visiting));
  return given === undefined || judge.same(given, fallback) ? fallback : undefined;
}

function findProperty(object: TSESTree.ObjectExpression, key: string): TSESTree.Property | undefined {
  let found: TSESTree.Property | undefined;
  for (const property of object.properties) {
    // A spread after the property may replace it.
    if (property.type === AST_NODE_TYPES.SpreadElement) found = undefined;
    else if (!property.computed && getKeyName(property) === key) found = property;
  }
  return found;
}

const writtenProperties = new WeakMap<object, Map<string, boolean>>();

/** `x.key = …` anywhere in the file: an object literal's property may not keep its value. */
function isPropertyWritten(context: AnyRuleContext, key: string): boolean {
  let known = writtenProperties.get(context.sourceCode.ast);
  if (!known) writtenProperties.set(context.sourceCode.ast, (known = new Map()));
  let written = known.get(key);
  if (written === undefined) {
    const escaped = key.replace(/[$]/g, '\\$');
    written = new RegExp(`\\.\\s*${escaped}\\s*(?:=(?!=)|\\?\\?=|\\|\\|=)|\\[\\s*['"\`]${escaped}['"\`]\\s*\\]\\s*=(?!=)`).test(context.sourceCode.text);
    known.set(key, written);
  }
  return written;
}

/** The one value a variable is given: its initialiser, when it is never assigned again. */
function getSingleValue(variable: TSESLint.Scope.Variable): TSESTree.Expression | undefined {
  const definition = variable.defs[0];
  if (definition?.type !== 'Variable' || definition.node.id.type !== AST_NODE_TYPES.Identifier || !definition.node.init) return undefined;
  const init = definition.node.init;
  return variable.references.every((reference) => !reference.isWrite() || reference.writeExpr === init) ? init : undefined;
}

/**
 * `(client: Knex)`: a named type says what the parameter is (the drivers' own types are
 * read elsewhere); its callers are not asked. `any`, `unknown` and object type literals say nothing.
 */
function hasTypeAnnotation(variable: TSESLint.Scope.Variable): boolean {
  const name = variable.defs[0]?.name;
  const annotation = name?.type === AST_NODE_TYPES.Identifier ? name.typeAnnotation?.typeAnnotation : undefined;
  return annotation !== undefined && annotation.type !== AST_NODE_TYPES.TSAnyKeyword && annotation.type !== AST_NODE_TYPES.TSUnknownKeyword && annotation.type !== AST_NODE_TYPES.TSTypeLiteral;
}

/** A cheap first test: an identifier, or a member chain rooted at one or at `this` (what getReceiverParameter can follow). */
export function mayComeFromParameter(node: TSESTree.Node): boolean {
  const current = unwrapExpression(node);
  if (current.type === AST_NODE_TYPES.MemberExpression) return mayComeFromParameter(current.object) || current.object.type === AST_NODE_TYPES.ThisExpression;
  return current.type === AST_NODE_TYPES.Identifier;
}

/**
 * The parameter a receiver comes from: `client` (a parameter, or destructured from one),
 * `options.client`, `this.client` set once from a constructor parameter, a `const` holding
 * one of these. Undefined for anything else.
 */
export function getReceiverParameter(context: AnyRuleContext, receiver: TSESTree.Node): ParameterPath | undefined {
  const path: string[] = [];
  let current = unwrapExpression(receiver);
  for (let steps = 0; steps < 10; steps++) {
    if (current.type === AST_NODE_TYPES.Identifier) {
      const variable = findVariable(context, current);
      const definition = variable?.defs.length === 1 ? variable.defs[0] : undefined;
      if (!variable || !definition) return undefined;
      if (definition.type === 'Parameter') {
        const slot = hasTypeAnnotation(variable) ? undefined : getParameterSlot(variable);
        return slot && { slot, path };
      }
      const init = getSingleValue(variable);
      if (!init) return undefined;
      current = unwrapExpression(init);
      continue;
    }
    if (current.type !== AST_NODE_TYPES.MemberExpression) return undefined;
    const name = getKeyName(current, { templates: false, privateNames: 'hashed' });
    if (name === undefined) return undefined;
    if (current.object.type === AST_NODE_TYPES.ThisExpression) {
      const source = getConstructorFieldSource(context, current, name);
      if (!source) return undefined;
      current = unwrapExpression(source);
      continue;
    }
    path.unshift(name);
    current = unwrapExpression(current.object);
  }
  return undefined;
}

const classFields = new WeakMap<TSESTree.ClassBody, Map<string, TSESTree.Node[]>>();

/**
 * What `this.<name>` is in its class when the class gives it one value, in its
 * constructor: `this.client = client`, `constructor(private client)`. Undefined when
 * another method, a field or a nested function assigns it too.
 */
function getConstructorFieldSource(context: AnyRuleContext, member: TSESTree.MemberExpression, name: string): TSESTree.Node | undefined {
  const method = getEnclosingMethod(member);
  const classBody = method?.parent;
  if (classBody?.type !== AST_NODE_TYPES.ClassBody) return undefined;
  const sources = getClassFieldSources(context, classBody).get(name);
  return sources?.length === 1 ? sources[0] : undefined;
}

/** Per class: the values given to each `this.<name>` (`undefined`-valued entries mark writes outside the constructor). */
function getClassFieldSources(context: AnyRuleContext, classBody: TSESTree.ClassBody): Map<string, TSESTree.Node[]> {
  const cached = classFields.get(classBody);
  if (cached) return cached;
  const found = new Map<string, TSESTree.Node[]>();
  const add = (key: string | undefined, source: TSESTree.Node): void => {
    if (key !== undefined) found.set(key, [...(found.get(key) ?? []), source]);
  };
  for (const element of classBody.body) {
    if (element.type === AST_NODE_TYPES.PropertyDefinition && !element.static) add(getKeyName(element, { privateNames: 'hashed' }), element);
    if (element.type !== AST_NODE_TYPES.MethodDefinition || element.kind !== 'constructor') continue;
    for (const parameter of element.value.params) {
      if (parameter.type === AST_NODE_TYPES.TSParameterProperty && parameter.parameter.type === AST_NODE_TYPES.Identifier) add(parameter.parameter.name, parameter.parameter);
    }
  }
  // Writes `this.x = …` (any operator): found from the class's `this` expressions.
  for (const thisNode of findThisExpressions(context, classBody)) {
    const target = thisNode.parent;
    const node = target?.parent;
    if (target?.type !== AST_NODE_TYPES.MemberExpression || target.object !== thisNode || node?.type !== AST_NODE_TYPES.AssignmentExpression || node.left !== target) continue;
    const key = getKeyName(target, { templates: false, privateNames: 'hashed' });
    const method = getEnclosingMethod(node);
    if (method?.parent !== classBody) continue;
    // Only a plain assignment in the constructor gives the field its value; any other write makes it unknown.
    add(key, method.kind === 'constructor' && node.operator === '=' ? node.right : node);
  }
  // A field written more than once, or not by the constructor, has no single source.
  for (const [key, sources] of found) {
    if (sources.length !== 1 || sources[0]?.type === AST_NODE_TYPES.AssignmentExpression || sources[0]?.type === AST_NODE_TYPES.PropertyDefinition) found.set(key, []);
  }
  classFields.set(classBody, found);
  return found;
}

/** The method whose `this` a node sees (arrow functions keep the method's `this`). */
function getEnclosingMethod(node: TSESTree.Node): TSESTree.MethodDefinition | undefined {
  for (let current = node.parent; current; current = current.parent) {
    if (current.type === AST_NODE_TYPES.ArrowFunctionExpression) continue;
    if (isFunctionNode(current)) return current.parent?.type === AST_NODE_TYPES.MethodDefinition ? current.parent : undefined;
    if (current.type === AST_NODE_TYPES.ClassBody || current.type === AST_NODE_TYPES.PropertyDefinition) return undefined;
  }
  return undefined;
}
