import { AST_NODE_TYPES, type TSESLint, type TSESTree } from '@typescript-eslint/utils';
import { getKeyName } from '../ast';
import { findNodesAtOffsets, isNameChar, skipName, skipSpaces } from '../find-nodes-at-offsets';
import { type AnyRuleContext, createPerFileCache } from '../per-file-cache';
import { findVariable } from './call-sites';
import type { DbValue } from './db-value';

/**
 * What `this` is in a piece of code, as far as one file can tell: an instance of a class
 * of the file, of a constructor function (`function Queue(db) { this.col = … }` with
 * `Queue.prototype.m = function () { this.col… }`), or whatever a function exported for
 * another module to bind is bound to (`exports.cancel = async function () { this._collection… }`,
 * bound by `fn.bind(this)` in a class elsewhere). `self = this` aliases count as `this`.
 */
export type ThisOwner =
  | { type: 'class'; body: TSESTree.ClassBody }
  | { type: 'constructor'; fn: TSESTree.FunctionDeclaration | TSESTree.FunctionExpression }
  | { type: 'exported'; fn: TSESTree.FunctionDeclaration | TSESTree.FunctionExpression };

type PlainFunction = TSESTree.FunctionDeclaration | TSESTree.FunctionExpression;

/** The owner of the `this` a node sees (arrow functions keep their parent's). */
export function getThisOwner(context: AnyRuleContext, node: TSESTree.Node): ThisOwner | undefined {
  let current = node.parent;
  while (current) {
    if (current.type === AST_NODE_TYPES.ClassBody) return { type: 'class', body: current };
    if (current.type === AST_NODE_TYPES.FunctionDeclaration || current.type === AST_NODE_TYPES.FunctionExpression) {
      if (current.parent?.type === AST_NODE_TYPES.MethodDefinition) {
        current = current.parent;
        continue;
      }
      return getCachedFunctionOwner(context, current);
    }
    current = current.parent;
  }
  return undefined;
}

/** `self` of `const self = this` (never reassigned): the `this` it holds. */
export function getThisAlias(context: AnyRuleContext, identifier: TSESTree.Identifier): TSESTree.ThisExpression | undefined {
  const variable = findVariable(context, identifier);
  const definition = variable?.defs.length === 1 ? variable.defs[0] : undefined;
  if (definition?.type !== 'Variable' || definition.node.id.type !== AST_NODE_TYPES.Identifier || definition.node.init?.type !== AST_NODE_TYPES.ThisExpression) return undefined;
  const init = definition.node.init;
  return variable?.references.every((reference) => !reference.isWrite() || reference.writeExpr === init) ? init : undefined;
}

/** The owner of `this` for `this.x` or `self.x`; undefined for any other object. */
export function getReceiverThisOwner(context: AnyRuleContext, object: TSESTree.Node): ThisOwner | undefined {
  if (object.type === AST_NODE_TYPES.ThisExpression) return getThisOwner(context, object);
  if (object.type !== AST_NODE_TYPES.Identifier) return undefined;
  const alias = getThisAlias(context, object);
  return alias && getThisOwner(context, alias);
}

export function isSameOwner(a: ThisOwner | undefined, b: ThisOwner | undefined): boolean {
  if (!a || !b || a.type !== b.type) return false;
  return a.type === 'class' ? a.body === (b as typeof a).body : a.fn === (b as typeof a).fn;
}

/** Per function, the owner of its `this`: every `this.x` inside asks again. */
const functionOwners = new WeakMap<PlainFunction, ThisOwner | null>();

function getCachedFunctionOwner(context: AnyRuleContext, fn: PlainFunction): ThisOwner | undefined {
  const cached = functionOwners.get(fn);
  if (cached !== undefined) return cached ?? undefined;
  const owner = getFunctionOwner(context, fn);
  // An answer given while another function's binding is being worked out may be cut short by the recursion guard.
  if (ownersInProgress.size === 0) functionOwners.set(fn, owner ?? null);
  return owner;
}

function getFunctionOwner(context: AnyRuleContext, fn: PlainFunction): ThisOwner | undefined {
  const parent = fn.parent;
  // `Queue.prototype.m = function () {…}`
  if (parent?.type === AST_NODE_TYPES.AssignmentExpression && parent.right === fn) {
    const prototypeOf = getPrototypeOwner(parent.left.type === AST_NODE_TYPES.MemberExpression ? parent.left.object : undefined);
    if (prototypeOf) return getConstructorOwner(context, prototypeOf);
  }
  // `Queue.prototype = { m() {…} }`, `Object.assign(Queue.prototype, { m() {…} })`
  if (parent?.type === AST_NODE_TYPES.Property && parent.value === fn && parent.parent.type === AST_NODE_TYPES.ObjectExpression) {
    const object = parent.parent;
    const holder = object.parent;
    if (holder?.type === AST_NODE_TYPES.AssignmentExpression && holder.right === object) {
      const prototypeOf = getPrototypeOwner(holder.left);
      if (prototypeOf) return getConstructorOwner(context, prototypeOf);
    }
    if (holder?.type === AST_NODE_TYPES.CallExpression && holder.arguments[1] === object && isObjectAssign(holder.callee)) {
      const prototypeOf = getPrototypeOwner(holder.arguments[0]);
      if (prototypeOf) return getConstructorOwner(context, prototypeOf);
    }
    return undefined;
  }
  const named = getFunctionName(context, fn);
  if (named && isConstructorFunction(named.variable)) return { type: 'constructor', fn };
  const bound = named && getLocalBindingOwner(context, fn, named.variable);
  if (bound) return bound;
  // A module-level function another module binds: `const cancel = async function () {…}; exports.cancel = cancel`.
  if (named && named.statement.parent?.type === AST_NODE_TYPES.Program) return { type: 'exported', fn };
  return undefined;
}

const ownersInProgress = new Set<PlainFunction>();

/** A local function the file uses only as `f.call(this, …)` / `f.apply(this, …)` / `f.bind(this)`: the owner of that `this`, when all agree. */
function getLocalBindingOwner(context: AnyRuleContext, fn: PlainFunction, variable: TSESLint.Scope.Variable): ThisOwner | undefined {
  if (ownersInProgress.has(fn)) return undefined;
  ownersInProgress.add(fn);
  try {
    let owner: ThisOwner | undefined;
    for (const reference of variable.references) {
      if (reference.init) continue;
      const identifier = reference.identifier as TSESTree.Node;
      const member = identifier.parent;
      if (member?.type !== AST_NODE_TYPES.MemberExpression || member.object !== identifier) return undefined;
      const next = getBoundThis(context, member);
      if (!next || (owner && !isSameOwner(owner, next))) return undefined;
      owner = next;
    }
    return owner;
  } finally {
    ownersInProgress.delete(fn);
  }
}

/** `Queue` of `Queue.prototype`. */
function getPrototypeOwner(node: TSESTree.Node | undefined): TSESTree.Identifier | undefined {
  if (node?.type !== AST_NODE_TYPES.MemberExpression || getKeyName(node) !== 'prototype' || node.object.type !== AST_NODE_TYPES.Identifier) return undefined;
  return node.object;
}

function isObjectAssign(callee: TSESTree.Node): boolean {
  return callee.type === AST_NODE_TYPES.MemberExpression && callee.object.type === AST_NODE_TYPES.Identifier && callee.object.name === 'Object' && getKeyName(callee) === 'assign';
}

function getConstructorOwner(context: AnyRuleContext, name: TSESTree.Identifier): ThisOwner | undefined {
  const variable = findVariable(context, name);
  const definition = variable?.defs.length === 1 ? variable.defs[0] : undefined;
  if (!definition) return undefined;
  if (definition.type === 'FunctionName' && definition.node.type === AST_NODE_TYPES.FunctionDeclaration) return { type: 'constructor', fn: definition.node };
  if (definition.type === 'ClassName' && definition.node.type === AST_NODE_TYPES.ClassDeclaration) return { type: 'class', body: definition.node.body };
  const init = definition.type === 'Variable' ? definition.node.init : undefined;
  if (init?.type === AST_NODE_TYPES.FunctionExpression) return { type: 'constructor', fn: init };
  return undefined;
}

/** Per function: the variable naming it (`function F`, `const F = function`, never reassigned) and its statement. */
const functionNames = new WeakMap<PlainFunction, { variable: TSESLint.Scope.Variable; statement: TSESTree.Node } | null>();

function getFunctionName(context: AnyRuleContext, fn: PlainFunction): { variable: TSESLint.Scope.Variable; statement: TSESTree.Node } | undefined {
  const cached = functionNames.get(fn);
  if (cached !== undefined) return cached ?? undefined;
  let found: { variable: TSESLint.Scope.Variable; statement: TSESTree.Node } | null = null;
  if (fn.type === AST_NODE_TYPES.FunctionDeclaration && fn.id) {
    const variable = context.sourceCode.getDeclaredVariables(fn).find((candidate) => candidate.name === fn.id?.name);
    if (variable) found = { variable, statement: fn.parent?.type === AST_NODE_TYPES.ExportNamedDeclaration ? fn.parent : fn };
  } else if (fn.parent?.type === AST_NODE_TYPES.VariableDeclarator && fn.parent.init === fn && fn.parent.id.type === AST_NODE_TYPES.Identifier) {
    const variable = context.sourceCode.getDeclaredVariables(fn.parent)[0];
    const statement = fn.parent.parent;
    if (variable && variable.references.every((reference) => !reference.isWrite() || reference.writeExpr === fn)) {
      found = { variable, statement: statement.parent?.type === AST_NODE_TYPES.ExportNamedDeclaration ? statement.parent : statement };
    }
  }
  functionNames.set(fn, found);
  return found ?? undefined;
}

/** A function that is constructed (`new F(…)`) or has a prototype the file writes (`F.prototype.m = …`). */
function isConstructorFunction(variable: TSESLint.Scope.Variable): boolean {
  return variable.references.some((reference) => {
    const identifier = reference.identifier as TSESTree.Node;
    const parent = identifier.parent;
    if (parent?.type === AST_NODE_TYPES.NewExpression && parent.callee === identifier) return true;
    return parent?.type === AST_NODE_TYPES.MemberExpression && parent.object === identifier && getKeyName(parent) === 'prototype';
  });
}

/** `self = this`, `var self = this`: names that may hold `this` (checked on the tree later). */
const MAX_ALIAS_NAMES = 16;
/** `= this`, found first: a pattern that starts at every name of the file is several times slower. */
const ASSIGNED_THIS = /=\s*this(?![\w$])/g;

/** The names `this` is assigned to (`self = this`; not `a == this`, `a.b = this` or `a += this`). */
function findThisAliasNames(text: string): string[] {
  const names: string[] = [];
  for (const match of text.matchAll(ASSIGNED_THIS)) {
    const before = text[match.index - 1];
    if (before === undefined || '=!<>'.includes(before)) continue;
    const end = skipSpaces(text, match.index - 1, -1) + 1;
    const at = skipName(text, end - 1, -1);
    const name = text.slice(at + 1, end);
    if (/^[A-Za-z_$]/.test(name) && text[at] !== '.') names.push(name);
  }
  return names;
}

/**
 * Where the file may assign to a named property of `this` (or of a name that may hold it),
 * by the property's name as written (`#x` for a private one): one text scan per file. A file
 * asks about a few of its many fields (one question per `this.x` receiver), so the tree is
 * searched only for the offsets of a name asked.
 */
const getPropertyWriteOffsets = createPerFileCache((context: AnyRuleContext): ReadonlyMap<string, number[]> => {
  const text = context.sourceCode.text;
  const holders = new Set(['this']);
  for (const name of findThisAliasNames(text)) holders.add(name);
  const byName = new Map<string, number[]>();
  const add = (offset: number, name: string): void => {
    const list = byName.get(name);
    if (list) list.push(offset);
    else byName.set(name, [offset]);
  };
  if (holders.size > MAX_ALIAS_NAMES) findAnyPropertyWrites(text, add);
  else for (const holder of holders) findPropertyWritesOf(text, holder, add);
  return byName;
});

const propertyWritesAsked = createPerFileCache((): Map<string, readonly TSESTree.AssignmentExpression[]> => new Map());

/** The file's assignments `holder.<name> = …` where the holder may be `this`, in source order. */
function getPropertyWrites(context: AnyRuleContext, name: string): readonly TSESTree.AssignmentExpression[] {
  const asked = propertyWritesAsked(context);
  let writes = asked.get(name);
  if (writes) return writes;
  const offsets = getPropertyWriteOffsets(context).get(name);
  const found: TSESTree.AssignmentExpression[] = [];
  for (const [offset, deepest] of offsets ? findNodesAtOffsets(context, offsets) : []) {
    let node: TSESTree.Node | undefined = deepest;
    while (node && node.type !== AST_NODE_TYPES.AssignmentExpression && node.range[0] === offset) node = node.parent;
    if (node?.type !== AST_NODE_TYPES.AssignmentExpression || node.operator !== '=' || node.left.type !== AST_NODE_TYPES.MemberExpression) continue;
    if (getKeyName(node.left, { templates: false, privateNames: 'hashed' }) === name) found.push(node);
  }
  asked.set(name, (writes = found));
  return writes;
}

/** `holder.x = …` (not `==`, `=>`, nor `a.holder.x = …`): a search for the name, then the rest read from there. */
function findPropertyWritesOf(text: string, holder: string, add: (offset: number, name: string) => void): void {
  const rest = PROPERTY_WRITE_AFTER_NAME;
  for (let offset = text.indexOf(holder); offset >= 0; offset = text.indexOf(holder, offset + 1)) {
    const before = text[offset - 1];
    if (isNameChar(before) || before === '.') continue;
    rest.lastIndex = offset + holder.length;
    const match = rest.exec(text);
    if (match) add(offset, match[1] as string);
  }
}

/**
 * Past a few aliases of `this`, a write into a property of any name, `holder.x =` (an
 * alternation of many names would cost more than it saves): each `=` is found by a plain
 * search, and the member before it read backwards (a pattern tried at every offset is slower).
 */
function findAnyPropertyWrites(text: string, add: (offset: number, name: string) => void): void {
  for (let at = text.indexOf('='); at >= 0; at = text.indexOf('=', at + 1)) {
    const next = text[at + 1];
    if (next === '=' || next === '>') continue;
    const property = findNameBefore(text, at);
    if (property === undefined) continue;
    const start = text[property - 1] === '#' ? property - 1 : property;
    const dot = skipSpaces(text, start - 1, -1);
    if (text[dot] !== '.') continue;
    const holder = findNameBefore(text, dot);
    if (holder !== undefined && text[holder - 1] !== '.') add(holder, text.slice(start, skipSpaces(text, at - 1, -1) + 1));
  }
}

/** Where the name that ends just before `offset` (spaces between allowed) starts; undefined when there is none, or it starts with a digit. */
function findNameBefore(text: string, offset: number): number | undefined {
  const end = skipSpaces(text, offset - 1, -1);
  const start = skipName(text, end, -1) + 1;
  return start <= end && !/\d/.test(text[start] as string) ? start : undefined;
}

/** After the holder's name: `.field =` (also `.#field =`), not `==` or `=>`. */
const PROPERTY_WRITE_AFTER_NAME = /\s*\.\s*(#?[A-Za-z_$][\w$]*)\s*=(?![=>])/y;

/**
 * The values the file writes into the field `name` of instances of `owner`
 * (`this.col = …`, `self.col = …` where `this` / `self` is such an instance).
 */
export function findOwnerFieldWrites(context: AnyRuleContext, owner: ThisOwner, name: string): TSESTree.Expression[] {
  const values: TSESTree.Expression[] = [];
  for (const write of getPropertyWrites(context, name)) {
    const target = write.left as TSESTree.MemberExpression;
    if (isSameOwner(getReceiverThisOwner(context, target.object), owner)) values.push(write.right);
  }
  return values;
}

/**
 * The owner an imported function's read binds it to, in the importing file: `fn.bind(this)`,
 * `fn.call(self, …)`, a class field `name = fn`, `Queue.prototype.m = fn`, or an argument to
 * a method of the class that only binds that parameter to `this` (`this.bindMethod('cancel', fn)`
 * with `bindMethod(name, fn) { … fn.bind(this) … }`). Undefined for any other use.
 */
export function getBindingOwner(context: AnyRuleContext, read: TSESTree.Node): ThisOwner | undefined {
  const parent = read.parent;
  if (parent?.type === AST_NODE_TYPES.MemberExpression && parent.object === read) return getBoundThis(context, parent);
  if (parent?.type === AST_NODE_TYPES.PropertyDefinition && parent.value === read && !parent.static) return { type: 'class', body: parent.parent };
  if (parent?.type === AST_NODE_TYPES.AssignmentExpression && parent.right === read && parent.left.type === AST_NODE_TYPES.MemberExpression) {
    const prototypeOf = getPrototypeOwner(parent.left.object);
    return prototypeOf && getConstructorOwner(context, prototypeOf);
  }
  if (parent?.type !== AST_NODE_TYPES.CallExpression || parent.callee.type !== AST_NODE_TYPES.MemberExpression || parent.callee.object.type !== AST_NODE_TYPES.ThisExpression) return undefined;
  const index = parent.arguments.indexOf(read as TSESTree.CallExpressionArgument);
  const owner = getThisOwner(context, parent.callee.object);
  const name = getKeyName(parent.callee, { computed: false });
  if (index === -1 || owner?.type !== 'class' || name === undefined) return undefined;
  const method = owner.body.body.find(
    (element): element is TSESTree.MethodDefinition => element.type === AST_NODE_TYPES.MethodDefinition && element.kind === 'method' && !element.static && getKeyName(element, { computed: false }) === name,
  );
  const parameter = method?.value.params[index];
  if (!method || parameter?.type !== AST_NODE_TYPES.Identifier) return undefined;
  const variable = context.sourceCode.getDeclaredVariables(method.value).find((candidate) => candidate.name === parameter.name);
  const uses = variable?.references.filter((reference) => !reference.init) ?? [];
  const bindsToOwner = (reference: TSESLint.Scope.Reference): boolean => {
    const member = (reference.identifier as TSESTree.Node).parent;
    return member?.type === AST_NODE_TYPES.MemberExpression && member.object === reference.identifier && isSameOwner(getBoundThis(context, member), owner);
  };
  return uses.length > 0 && uses.every(bindsToOwner) ? owner : undefined;
}

/** The owner of the `this` given by `fn.bind(this)` / `fn.call(this, …)` / `fn.apply(this, …)`, for the member `fn.bind`. */
function getBoundThis(context: AnyRuleContext, member: TSESTree.MemberExpression): ThisOwner | undefined {
  const method = getKeyName(member, { computed: false });
  const call = member.parent;
  if ((method !== 'bind' && method !== 'call' && method !== 'apply') || call?.type !== AST_NODE_TYPES.CallExpression || call.callee !== member) return undefined;
  const bound = call.arguments[0];
  return bound && getReceiverThisOwner(context, bound);
}

export type BoundFieldLookup = (context: AnyRuleContext, fn: PlainFunction, name: string) => DbValue | undefined;

let lookUpBoundField: BoundFieldLookup = () => undefined;

/** Set by the module index (module-exports.ts), which reads the other modules. */
export function setBoundFieldLookup(lookup: BoundFieldLookup): void {
  lookUpBoundField = lookup;
}

/**
 * What the field `name` holds on the `this` an exported function runs with, when every
 * module that imports it binds it to instances of one class: from that class and from the
 * other functions bound to it (`this._collection = this._mdb.collection(name)` in one,
 * `this._collection.deleteMany(query)` in another).
 */
export function getBoundFieldValue(context: AnyRuleContext, fn: PlainFunction, name: string): DbValue | undefined {
  return lookUpBoundField(context, fn, name);
}
