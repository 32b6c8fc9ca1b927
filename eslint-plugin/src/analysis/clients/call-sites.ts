import { AST_NODE_TYPES, ASTUtils, type TSESLint, type TSESTree } from '@typescript-eslint/utils';
import { getKeyName, isFunctionNode, type FunctionNode } from '../ast';
import { findThisExpressions } from '../find-nodes-at-offsets';
import type { AnyRuleContext } from '../per-file-cache';
import { findGlobalIdentifiers, getCommonJsExportName, getDefaultMemberExportName, getDefaultMemberName, WHOLE_MODULE } from '../modules';
import type { DbValue } from './db-value';

/**
 * Parameters by what their callers pass: `withTransaction(client, work)` after
 * `const client = await pool.connect()`, `execute({ client: ddb, command })`,
 * `new Repo(docClient)`. Only functions whose every use in the file is a call (or a
 * `new`) count: a function passed on, exported or stored may be called from anywhere.
 */

/** Where a parameter sits: the function, its position, and the property of a destructured object. */
export interface ParameterSlot {
  fn: FunctionNode;
  index: number;
  /** `({ client }) => …`: the property name. */
  property: string | undefined;
  /** The parameter's own variable. */
  variable: TSESLint.Scope.Variable;
}

/** The slot of a parameter variable (a plain or destructured-property parameter). */
export function getParameterSlot(variable: TSESLint.Scope.Variable): ParameterSlot | undefined {
  const definition = variable.defs[0];
  if (definition?.type !== 'Parameter' || !isFunctionNode(definition.node)) return undefined;
  const fn = definition.node;
  for (const [index, parameter] of fn.params.entries()) {
    const param = parameter.type === AST_NODE_TYPES.TSParameterProperty ? parameter.parameter : parameter;
    if (param.type === AST_NODE_TYPES.Identifier && param.name === variable.name) return { fn, index, property: undefined, variable };
    if (param.type === AST_NODE_TYPES.AssignmentPattern && param.left.type === AST_NODE_TYPES.Identifier && param.left.name === variable.name) {
      return { fn, index, property: undefined, variable };
    }
    if (param.type !== AST_NODE_TYPES.ObjectPattern) continue;
    for (const property of param.properties) {
      if (property.type !== AST_NODE_TYPES.Property) continue;
      const value = property.value.type === AST_NODE_TYPES.AssignmentPattern ? property.value.left : property.value;
      if (value.type === AST_NODE_TYPES.Identifier && value.name === variable.name) {
        const key = getKeyName(property);
        return key === undefined ? undefined : { fn, index, property: key, variable };
      }
    }
  }
  return undefined;
}

/**
 * What every call of the slot's function passes into the slot, or undefined when a use
 * of the function is not a call of it, a call passes nothing there or spreads its
 * arguments, or the function has no call in the file.
 */
export function getSlotArguments(context: AnyRuleContext, slot: ParameterSlot): TSESTree.Node[] | undefined {
  const callers = getSlotCallers(context, slot);
  if (!callers || callers.exportNames.length > 0 || callers.calls.length === 0) return undefined;
  return getArgumentsInSlot(callers.calls, slot);
}

/** The file's own calls of the slot's function, and the names other modules may import it by. */
export interface SlotCallers {
  calls: Array<TSESTree.CallExpression | TSESTree.NewExpression>;
  /** Export names (`default`, `WHOLE_MODULE` for `module.exports = fn`); empty when not exported. */
  exportNames: string[];
  /**
   * Only the class's own calls (`this.setUp(collection)`) are known: the method belongs to a
   * class that other modules may make instances of and call.
   */
  onlyOwnCalls?: true;
}

/**
 * Undefined when the function is used in the file other than by calls and exports. A
 * method of an exported class counts its class's own calls when it has some: a parameter
 * that the class itself fills with a collection (`this.setAutoRemove(collection)`) is meant
 * for one, though code elsewhere could call the method too.
 */
export function getSlotCallers(context: AnyRuleContext, slot: ParameterSlot): SlotCallers | undefined {
  const callers = getCalls(context, slot.fn);
  return callers?.onlyOwnCalls && callers.calls.length === 0 ? undefined : callers;
}

/** What each call passes into the slot; undefined when one passes nothing there or spreads its arguments. */
export function getArgumentsInSlot(calls: ReadonlyArray<TSESTree.CallExpression | TSESTree.NewExpression>, slot: Pick<ParameterSlot, 'index' | 'property'>): TSESTree.Node[] | undefined {
  const found: TSESTree.Node[] = [];
  for (const call of calls) {
    if (call.arguments.slice(0, slot.index + 1).some((argument) => argument.type === AST_NODE_TYPES.SpreadElement)) return undefined;
    const argument = call.arguments[slot.index];
    if (!argument) return undefined;
    if (slot.property === undefined) {
      found.push(argument);
      continue;
    }
    if (argument.type !== AST_NODE_TYPES.ObjectExpression) return undefined;
    const property = argument.properties.find(
      (candidate): candidate is TSESTree.Property => candidate.type === AST_NODE_TYPES.Property && getKeyName(candidate) === slot.property,
    );
    if (!property) return undefined;
    found.push(property.value);
  }
  return found;
}

/** Every call (or `new`) of `fn` in the file, and its export names; undefined when `fn` is used otherwise too. */
export function getFunctionCallers(context: AnyRuleContext, fn: FunctionNode): SlotCallers | undefined {
  const callers = getCalls(context, fn);
  return callers?.onlyOwnCalls ? undefined : callers;
}

/**
 * The names under which the file exports `fn`: `getFunctionCallers`' export names, told
 * without finding a method's calls (a class's method is never exported by name).
 */
export function getFunctionExportNames(context: AnyRuleContext, fn: FunctionNode): readonly string[] {
  if (isMethod(fn)) return [];
  return getFunctionCallers(context, fn)?.exportNames ?? [];
}

function isMethod(fn: FunctionNode): fn is FunctionNode & { parent: TSESTree.MethodDefinition } {
  return fn.parent?.type === AST_NODE_TYPES.MethodDefinition && fn.parent.kind === 'method';
}

/**
 * The calls of `fn` this file makes, as far as they are known: those of a function variable,
 * or of a method (for an exported class, the class's own `this.run(…)` calls). Empty when
 * `fn` is used other than by calls.
 */
export function findKnownCalls(context: AnyRuleContext, fn: FunctionNode): ReadonlyArray<TSESTree.CallExpression | TSESTree.NewExpression> {
  return getCalls(context, fn)?.calls ?? [];
}

/** Callers per function, for the parse the function belongs to (every parameter of a function asks the same). */
const callsOf = new WeakMap<FunctionNode, SlotCallers | null>();

function getCalls(context: AnyRuleContext, fn: FunctionNode): SlotCallers | undefined {
  const cached = callsOf.get(fn);
  if (cached !== undefined) return cached ?? undefined;
  const found = findCalls(context, fn);
  callsOf.set(fn, found ?? null);
  return found;
}

function findCalls(context: AnyRuleContext, fn: FunctionNode): SlotCallers | undefined {
  if (isMethod(fn)) return getMethodCalls(context, fn.parent);
  const found = getFunctionVariable(context, fn);
  if (!found) return getDirectExportCalls(context, fn);
  const { variable, declaration } = found;
  const calls: Array<TSESTree.CallExpression | TSESTree.NewExpression> = [];
  const exportNames = getDeclarationExportNames(declaration);
  for (const reference of variable.references) {
    if (reference.init) continue;
    const identifier = reference.identifier as TSESTree.Node;
    const parent = identifier.parent;
    if ((parent?.type === AST_NODE_TYPES.CallExpression || parent?.type === AST_NODE_TYPES.NewExpression) && parent.callee === identifier) {
      calls.push(parent);
      continue;
    }
    if (isStaticMemberUse(identifier)) continue;
    const exported = getReferenceExportName(identifier);
    if (exported === undefined) return undefined;
    exportNames.push(exported);
  }
  return { calls, exportNames };
}

/**
 * A function written straight into an export (`exports.save = async (orders) => …`,
 * `module.exports = { save: async (orders) => … }`, `export default { async save(orders) { … } }`):
 * other modules call it by that name, and the file itself only through `exports.save(…)` /
 * `module.exports.save(…)`, or `this.save(…)` inside the exported object. Undefined when the
 * file reads the export otherwise (it may be called from anywhere then).
 */
function getDirectExportCalls(context: AnyRuleContext, fn: FunctionNode): SlotCallers | undefined {
  const name = getExportNameWrittenInto(fn);
  if (name === undefined) return undefined;
  const calls: TSESTree.CallExpression[] = [];
  const globalScope = context.sourceCode.scopeManager?.globalScope;
  const key = getDefaultMemberName(name) ?? name;
  const isDefaultMember = key !== name;
  if (name !== WHOLE_MODULE && !isDefaultMember && globalScope) {
    // From the file's `exports` and `module` (a few references), not a text search for the name:
    // adding each export's name to the member-name search would rebuild it for every file.
    for (const holder of [...findGlobalIdentifiers(globalScope, 'exports'), ...findGlobalIdentifiers(globalScope, 'module')]) {
      const member = holder.name === 'module' ? holder.parent?.parent : holder.parent;
      if (member?.type !== AST_NODE_TYPES.MemberExpression || getCommonJsExportName(member) !== name) continue;
      const use = member.parent;
      if (use?.type === AST_NODE_TYPES.AssignmentExpression && use.left === member) continue;
      if (use?.type !== AST_NODE_TYPES.CallExpression || use.callee !== member) return undefined;
      calls.push(use);
    }
  }
  const exportNames = [name];
  const property = fn.parent;
  if (property?.type === AST_NODE_TYPES.Property) {
    // The exported object's other methods calling it: `this.save(…)`.
    const ownCalls = findMemberCalls(findThisExpressions(context, property.parent), key);
    if (!ownCalls) return undefined;
    calls.push(...ownCalls);
    // `module.exports = { save }` is also `store.save` to a module that imports it as a default (`import store from …`).
    if (!isDefaultMember) exportNames.push(getDefaultMemberExportName(name));
  }
  return { calls, exportNames };
}

/** The calls `<receiver>.<name>(…)` on the receivers; undefined when one of them reads `.<name>` other than to call it. */
function findMemberCalls(receivers: readonly TSESTree.Node[], name: string): TSESTree.CallExpression[] | undefined {
  const calls: TSESTree.CallExpression[] = [];
  for (const receiver of receivers) {
    const member = receiver.parent;
    if (member?.type !== AST_NODE_TYPES.MemberExpression || member.object !== receiver || getKeyName(member) !== name) continue;
    const call = member.parent;
    if (call?.type !== AST_NODE_TYPES.CallExpression || call.callee !== member) return undefined;
    calls.push(call);
  }
  return calls;
}

/**
 * Every call of a method of a class the module keeps to itself: `this.run(…)` in the class,
 * `store.run(…)` on a `const store = new Store(…)`. For a class that is exported, or named
 * other than by `new`, only its own `this.run(…)` calls (`onlyOwnCalls`). Undefined when
 * the method is read other than to call it (it could be called from anywhere then).
 */
function getMethodCalls(context: AnyRuleContext, method: TSESTree.MethodDefinition): SlotCallers | undefined {
  const name = getKeyName(method, { computed: false });
  const owner = method.parent.parent;
  if (name === undefined || method.static) return undefined;
  const receivers: TSESTree.Node[] = [];
  const instances = owner.type === AST_NODE_TYPES.ClassDeclaration ? findInstanceReads(context, owner) : undefined;
  if (instances) receivers.push(...instances);
  receivers.push(...findThisExpressions(context, owner.body));
  const calls = findMemberCalls(receivers, name);
  if (!calls) return undefined;
  return instances ? { calls, exportNames: [] } : { calls, exportNames: [], onlyOwnCalls: true };
}

/**
 * The reads of every instance of a class the module keeps to itself, each made by
 * `const store = new Store(…)`; undefined when the class is exported or named otherwise.
 */
function findInstanceReads(context: AnyRuleContext, owner: TSESTree.ClassDeclaration): TSESTree.Node[] | undefined {
  const variable = owner.id && context.sourceCode.getDeclaredVariables(owner).find((candidate) => candidate.name === owner.id?.name);
  if (!variable || getDeclarationExportNames(owner).length > 0) return undefined;
  const reads: TSESTree.Node[] = [];
  for (const reference of variable.references) {
    const identifier = reference.identifier as TSESTree.Node;
    const creation = identifier.parent;
    if (reference.init || isStaticMemberUse(identifier)) continue;
    if (creation?.type !== AST_NODE_TYPES.NewExpression || creation.callee !== identifier) return undefined;
    const declarator = creation.parent;
    if (declarator?.type !== AST_NODE_TYPES.VariableDeclarator || declarator.init !== creation || declarator.id.type !== AST_NODE_TYPES.Identifier) return undefined;
    const instance = context.sourceCode.getDeclaredVariables(declarator)[0];
    if (!instance || declarator.parent.kind !== 'const') return undefined;
    for (const read of instance.references) if (!read.init) reads.push(read.identifier as TSESTree.Node);
  }
  return reads;
}

/**
 * `Store.caseInsensitiveCollation()`, `Store.name`: a use of a function or class that
 * neither calls it nor hands it on (`f.call(…)`, `f.bind(…)` and prototypes do).
 */
export function isStaticMemberUse(node: TSESTree.Node): boolean {
  const parent = node.parent;
  if (parent?.type !== AST_NODE_TYPES.MemberExpression || parent.object !== node) return false;
  const name = getKeyName(parent);
  return name !== undefined && !['call', 'apply', 'bind', 'prototype'].includes(name);
}

/** `export function f`, `export const f = …`, `export default class …`: the names it is exported by. */
function getDeclarationExportNames(declaration: TSESTree.Node): string[] {
  const statement = declaration.type === AST_NODE_TYPES.VariableDeclarator ? declaration.parent : declaration;
  const parent = statement?.parent;
  if (parent?.type === AST_NODE_TYPES.ExportDefaultDeclaration) return ['default'];
  if (parent?.type !== AST_NODE_TYPES.ExportNamedDeclaration) return [];
  const id = declaration.type === AST_NODE_TYPES.VariableDeclarator || declaration.type === AST_NODE_TYPES.FunctionDeclaration || declaration.type === AST_NODE_TYPES.ClassDeclaration ? declaration.id : null;
  return id?.type === AST_NODE_TYPES.Identifier ? [id.name] : [];
}

/** `export { f }`, `export default f`, `module.exports = f`, `module.exports = { f }`, `exports.f = f`: the export name. */
function getReferenceExportName(identifier: TSESTree.Node): string | undefined {
  const parent = identifier.parent;
  if (parent?.type === AST_NODE_TYPES.ExportSpecifier && parent.local === identifier) {
    return parent.exported.type === AST_NODE_TYPES.Identifier ? parent.exported.name : parent.exported.value;
  }
  if (parent?.type === AST_NODE_TYPES.ExportDefaultDeclaration) return 'default';
  return getExportNameWrittenInto(identifier);
}

/**
 * `exports.f = value`, `module.exports = value`, `module.exports = { f: value }`,
 * `export default { f: value }`, `exports.default = { f: value }`: the name of the export `value` is written into.
 */
function getExportNameWrittenInto(value: TSESTree.Node): string | undefined {
  const parent = value.parent;
  if (parent?.type === AST_NODE_TYPES.AssignmentExpression && parent.right === value) return getCommonJsExportName(parent.left);
  if (parent?.type !== AST_NODE_TYPES.Property || parent.value !== value || parent.parent.type !== AST_NODE_TYPES.ObjectExpression) return undefined;
  const object = parent.parent;
  const holder = object.parent;
  const key = getKeyName(parent);
  if (key === undefined) return undefined;
  if (holder?.type === AST_NODE_TYPES.ExportDefaultDeclaration) return getDefaultMemberExportName(key);
  if (holder?.type !== AST_NODE_TYPES.AssignmentExpression || holder.right !== object) return undefined;
  const exported = getCommonJsExportName(holder.left);
  // `exports.default = { … }`: TypeScript's and Babel's output for `export default { … }`.
  if (exported === 'default') return getDefaultMemberExportName(key);
  return exported === WHOLE_MODULE ? key : undefined;
}

/** The variable naming `fn` (its own name, its `const`, or its class's name for constructors) and its declaration. */
function getFunctionVariable(context: AnyRuleContext, fn: FunctionNode): { variable: TSESLint.Scope.Variable; declaration: TSESTree.Node } | undefined {
  let declaration: TSESTree.Node | undefined;
  let name: string | undefined;
  const parent = fn.parent;
  if (fn.type === AST_NODE_TYPES.FunctionDeclaration) {
    declaration = fn;
    name = fn.id?.name;
  } else if (parent?.type === AST_NODE_TYPES.VariableDeclarator && parent.id.type === AST_NODE_TYPES.Identifier) {
    declaration = parent;
    name = parent.id.name;
  } else if (parent?.type === AST_NODE_TYPES.MethodDefinition && parent.kind === 'constructor') {
    const owner = parent.parent.parent;
    if (owner.type === AST_NODE_TYPES.ClassDeclaration && owner.id) {
      declaration = owner;
      name = owner.id.name;
    }
  }
  if (!declaration || name === undefined) return undefined;
  // A class declares its name twice (outside and inside its body): the outer one is first.
  const variable = context.sourceCode.getDeclaredVariables(declaration).find((candidate) => candidate.name === name && candidate.defs[0]?.type !== 'Parameter');
  return variable && { variable, declaration };
}

/** The variable an identifier names; undefined when scope analysis cannot tell. */
export function findVariable(context: AnyRuleContext, identifier: TSESTree.Identifier): TSESLint.Scope.Variable | undefined {
  try {
    return ASTUtils.findVariable(context.sourceCode.getScope(identifier), identifier) ?? undefined;
  } catch {
    return undefined;
  }
}

export type RemoteSlotLookup = (context: AnyRuleContext, slot: ParameterSlot, exportNames: readonly string[]) => DbValue[] | undefined;

let lookUpRemoteSlot: RemoteSlotLookup = () => undefined;

/** Set by the module index (module-exports.ts), which reads the other modules; see imported-values.ts for why at load time. */
export function setRemoteSlotLookup(lookup: RemoteSlotLookup): void {
  lookUpRemoteSlot = lookup;
}

/**
 * What the callers in other modules of the project pass into the slot of an exported
 * function or class; undefined when one passes something unknown or the export is used
 * there other than by calls (test files aside).
 */
export function getRemoteSlotValues(context: AnyRuleContext, slot: ParameterSlot, exportNames: readonly string[]): DbValue[] | undefined {
  return lookUpRemoteSlot(context, slot, exportNames);
}
