import { AST_NODE_TYPES, ASTUtils, type TSESLint, type TSESTree } from '@typescript-eslint/utils';
import { getKeyName, getReturnedExpressions, isFunctionNode, type FunctionNode } from '../ast';
import { getCalledFunction } from '../called-functions';
import { getFunctionCallers } from './call-sites';
import { getMethodCall, getOutermostSameValue } from './value-bindings';
import type { AnyRuleContext } from '../per-file-cache';

/**
 * Does code read one property of a call's result (`UnprocessedItems` of a
 * BatchWriteItem)? Follows `await`, `.then`, node-style callbacks (also named ones and
 * those a factory makes), variables, destructuring, `Promise.all(items.map(…))`, and
 * `return` to the callers of the function in the file and in the project's other modules.
 * The answer is three-valued so that rules stay silent when the result goes somewhere
 * this analysis cannot see.
 */
export type PropertyUse =
  /** The property is read, or the whole result reaches code that may read it. */
  | 'read'
  /** The result is discarded, printed, or kept and never read for that property. */
  | 'ignored'
  /** The result is passed on (a call argument, an object, a spread…): not known. */
  | 'unknown';

export interface PropertyUseReport {
  use: PropertyUse;
  /** Where the linted file reads the property: `result.UnprocessedItems`, or the variable `{ UnprocessedItems }` binds. */
  reads: TSESTree.Node[];
  /**
   * With `ignored`: the calls, in this file or in other modules, of the functions that
   * return the result, whose callers drop it. Empty when the linted code drops it itself.
   */
  droppedBy: DroppingCall[];
}

/** A call that receives a returned result and drops it: its module's file and its line. */
export interface DroppingCall {
  file: string;
  line: number;
}

type Node = TSESTree.Node;

/** A call of an exported function in another module of the project, with that module's context. */
export interface RemoteCall {
  context: AnyRuleContext;
  call: TSESTree.CallExpression | TSESTree.NewExpression;
}

/**
 * The calls other modules of the project make of the exports named `exportNames` of the
 * linted file (test files aside); undefined when one uses the export otherwise (passes it
 * on, stores it) or the modules cannot be read.
 */
export type RemoteCallLookup = (context: AnyRuleContext, exportNames: readonly string[]) => RemoteCall[] | undefined;

let lookUpRemoteCalls: RemoteCallLookup = () => undefined;

/** Set by the module index (module-exports.ts), which reads the other modules. */
export function setRemoteCallLookup(lookup: RemoteCallLookup): void {
  lookUpRemoteCalls = lookup;
}

/** The calls other modules of the project make of the linted file's exports `exportNames` (see `RemoteCallLookup`). */
export function findRemoteCalls(context: AnyRuleContext, exportNames: readonly string[]): RemoteCall[] | undefined {
  return exportNames.length === 0 ? [] : lookUpRemoteCalls(context, exportNames);
}

/** Any read wins; otherwise any unknown; otherwise ignored (also for no uses at all). */
function combine(uses: PropertyUse[]): PropertyUse {
  if (uses.includes('read')) return 'read';
  if (uses.includes('unknown')) return 'unknown';
  return 'ignored';
}

const MAX_DEPTH = 12;
const PRINTING_METHODS = new Set(['log', 'info', 'debug', 'warn', 'error', 'trace']);
const LOGGER_NAME = /^(?:console|log|logger)$/i;

/**
 * `Boolean(r)`, `String(r)`, `console.log(r)`, `logger.info(r)`: calls that only convert or
 * print their argument. Printing shows every field, so it counts only when one property is
 * asked about (`printing` false: the fields the code needs are asked).
 */
function isOpaqueConsumer(callee: Node, printing = true): boolean {
  if (callee.type === AST_NODE_TYPES.Identifier) return ['Boolean', 'String', 'Number'].includes(callee.name);
  if (callee.type !== AST_NODE_TYPES.MemberExpression) return false;
  const object = callee.object;
  const objectName =
    object.type === AST_NODE_TYPES.Identifier ? object.name : object.type === AST_NODE_TYPES.MemberExpression && object.object.type === AST_NODE_TYPES.ThisExpression ? getKeyName(object) : undefined;
  if (objectName === 'console') return printing;
  return printing && objectName !== undefined && LOGGER_NAME.test(objectName) && PRINTING_METHODS.has(getKeyName(callee) ?? '');
}

/** `assert(r, '…')`, `assert.ok(r)`: its first argument is only tested for being truthy. */
function isTruthinessAssertion(callee: Node): boolean {
  if (callee.type === AST_NODE_TYPES.Identifier) return callee.name === 'assert';
  return callee.type === AST_NODE_TYPES.MemberExpression && callee.object.type === AST_NODE_TYPES.Identifier && callee.object.name === 'assert' && getKeyName(callee) === 'ok';
}

/** `Array.isArray(r)`: asks what the result is, never reads inside it. */
function isArrayTest(callee: Node): boolean {
  return callee.type === AST_NODE_TYPES.MemberExpression && callee.object.type === AST_NODE_TYPES.Identifier && callee.object.name === 'Array' && getKeyName(callee) === 'isArray';
}

/**
 * `if (Array.isArray(x)) x = x[0];` with `element` the `x[0]`: it runs only when `x` holds
 * an array, which neither a driver's result nor a document is (at its top level), so what
 * it takes out is not part of the result.
 */
function isArrayOnlyReassignment(context: AnyRuleContext, element: TSESTree.MemberExpression): boolean {
  const object = element.object;
  const assignment = getOutermostSameValue(element).parent;
  if (object.type !== AST_NODE_TYPES.Identifier || assignment?.type !== AST_NODE_TYPES.AssignmentExpression || assignment.operator !== '=' || assignment.left.type !== AST_NODE_TYPES.Identifier) return false;
  const variable = findVariableOf(context, object);
  if (!variable || findVariableOf(context, assignment.left) !== variable) return false;
  let statement: Node | undefined = assignment.parent;
  if (statement?.type !== AST_NODE_TYPES.ExpressionStatement) return false;
  if (statement.parent?.type === AST_NODE_TYPES.BlockStatement) statement = statement.parent;
  const guard = statement.parent;
  if (guard?.type !== AST_NODE_TYPES.IfStatement || guard.consequent !== statement || guard.test.type !== AST_NODE_TYPES.CallExpression) return false;
  const tested = guard.test.arguments[0];
  return isArrayTest(guard.test.callee) && tested?.type === AST_NODE_TYPES.Identifier && findVariableOf(context, tested) === variable;
}

/**
 * A call of functions this file declares, and where its arguments start: `f(…)`,
 * `f.call(thisArg, …)` or `f.apply(thisArg, [ … ])` of the local function named `f` (every
 * function the name is given), or a method of a class of the file (`this.toObject(doc)`).
 */
interface LocalFunctionCall {
  functions: FunctionNode[];
  /** The argument list, without `thisArg`. */
  args: TSESTree.Node[];
}

function getLocalFunctionCall(context: AnyRuleContext, call: TSESTree.CallExpression): LocalFunctionCall | undefined {
  const named = (callee: TSESTree.Identifier, args: TSESTree.Node[]): LocalFunctionCall | undefined => {
    const functions = resolveLocalFunctions(context, callee);
    return functions && { functions, args };
  };
  const callee = call.callee;
  if (callee.type === AST_NODE_TYPES.Identifier) return named(callee, call.arguments);
  if (callee.type !== AST_NODE_TYPES.MemberExpression || callee.computed) return undefined;
  const method = getKeyName(callee);
  if (callee.object.type === AST_NODE_TYPES.Identifier && method === 'call') return named(callee.object, call.arguments.slice(1));
  const list = call.arguments[1];
  if (callee.object.type === AST_NODE_TYPES.Identifier && method === 'apply' && call.arguments.length === 2 && list?.type === AST_NODE_TYPES.ArrayExpression) {
    return list.elements.includes(null) ? undefined : named(callee.object, list.elements as TSESTree.Node[]);
  }
  const called = getCalledFunction(context, call);
  return called && { functions: [called], args: call.arguments };
}

/** A function that reads its `arguments` may take the result from there rather than from its parameter. */
function readsArgumentsObject(context: AnyRuleContext, fn: FunctionNode): boolean {
  if (fn.type === AST_NODE_TYPES.ArrowFunctionExpression) return false;
  const scope = context.sourceCode.scopeManager?.acquire(fn);
  const argumentsVariable = scope?.set.get('arguments');
  return !scope || (argumentsVariable?.references.length ?? 0) > 0;
}

/** `JSON.stringify(r)`, `util.inspect(r)`: calls that turn the result into text for printing. */
function isTextConversion(callee: Node): boolean {
  if (callee.type !== AST_NODE_TYPES.MemberExpression || callee.object.type !== AST_NODE_TYPES.Identifier) return false;
  const method = getKeyName(callee);
  return (callee.object.name === 'JSON' && method === 'stringify') || (callee.object.name === 'util' && method === 'inspect');
}

/** `Promise.all(…)` / `Promise.allSettled(…)` with `node` as its argument. */
function isPromiseAllOf(call: Node | undefined, node: Node): call is TSESTree.CallExpression {
  if (call?.type !== AST_NODE_TYPES.CallExpression || call.arguments[0] !== node) return false;
  const callee = call.callee;
  return (
    callee.type === AST_NODE_TYPES.MemberExpression &&
    callee.object.type === AST_NODE_TYPES.Identifier &&
    callee.object.name === 'Promise' &&
    ['all', 'allSettled'].includes(getKeyName(callee) ?? '')
  );
}

function findVariableOf(context: AnyRuleContext, identifier: TSESTree.Identifier): TSESLint.Scope.Variable | undefined {
  try {
    return ASTUtils.findVariable(context.sourceCode.getScope(identifier), identifier) ?? undefined;
  } catch {
    return undefined;
  }
}

/**
 * The local functions a callee names: a function declaration, or a variable every write
 * of which is a function (`const f = () => …`, `let handler = null; handler = (data) => …`).
 */
function resolveLocalFunctions(context: AnyRuleContext, identifier: TSESTree.Identifier): FunctionNode[] | undefined {
  const variable = findVariableOf(context, identifier);
  if (!variable || variable.defs.length !== 1) return undefined;
  const definition = variable.defs[0]!;
  if (definition.type === 'FunctionName' && definition.node.type === AST_NODE_TYPES.FunctionDeclaration) return [definition.node];
  if (definition.type !== 'Variable') return undefined;
  const functions: FunctionNode[] = [];
  for (const reference of variable.references) {
    if (!reference.isWrite()) continue;
    const written = reference.writeExpr;
    if (!written) continue;
    if (written.type === AST_NODE_TYPES.Literal && written.value === null) continue;
    if (!isFunctionNode(written)) return undefined;
    functions.push(written);
  }
  return functions.length > 0 ? functions : undefined;
}

/**
 * A result that wraps the document under one key (`{ value, ok, lastErrorObject }` of
 * MongoDB's includeResultMetadata): the fields read from the document, and one finder per
 * module that follows it.
 */
interface WrappedDocument {
  key: string;
  fields: Set<string>;
  finders: Map<AnyRuleContext, PropertyUseFinder>;
}

/** Shared by the finders of one question: functions whose callers are being followed, to stop on recursion. */
interface Visits {
  functions: Set<Node>;
  variables: Set<TSESLint.Scope.Variable>;
  /** Calls of a returning function whose result the caller drops (see `PropertyUseReport.droppedBy`). */
  droppedBy?: DroppingCall[];
}

class PropertyUseFinder {
  /** Reads of the property found in the linted file. */
  readonly reads: Node[] = [];

  /**
   * `property` undefined: collect every key read (into `keysRead`); the whole result
   * escaping then counts as `read`. `wrapped`: the result holds the document under a key,
   * whose reads are followed as the document's.
   */
  constructor(
    private readonly context: AnyRuleContext,
    private readonly property: string | undefined,
    private readonly visits: Visits = { functions: new Set(), variables: new Set() },
    private readonly local = true,
    private readonly wrapped?: WrappedDocument,
    /** Every property read from the result (with `property` undefined: the fields the code needs). */
    readonly keysRead = new Set<string>(),
  ) {}

  /** The finder of the wrapped document in this module (its own visits: the same variable may hold either). */
  private documentFinder(wrapped: WrappedDocument): PropertyUseFinder {
    let finder = wrapped.finders.get(this.context);
    if (!finder) {
      finder = new PropertyUseFinder(this.context, undefined, undefined, this.local, undefined, wrapped.fields);
      wrapped.finders.set(this.context, finder);
    }
    return finder;
  }

  /** `promise` evaluates to a promise of the result. */
  ofPromise(promise: Node, depth = 0): PropertyUse {
    if (depth > MAX_DEPTH) return 'unknown';
    const outer = getOutermostSameValue(promise);
    const parent = outer.parent;
    if (!parent) return 'unknown';
    switch (parent.type) {
      case AST_NODE_TYPES.AwaitExpression:
        return this.ofValue(parent, depth + 1);
      case AST_NODE_TYPES.ExpressionStatement:
        return 'ignored';
      case AST_NODE_TYPES.UnaryExpression:
        return parent.operator === 'void' ? 'ignored' : 'unknown';
      case AST_NODE_TYPES.ReturnStatement:
        return this.ofReturned(parent, depth, 'promise');
      case AST_NODE_TYPES.ArrowFunctionExpression:
        return parent.body === outer ? this.ofReturnedFrom(parent, depth, 'promise') : 'unknown';
      case AST_NODE_TYPES.VariableDeclarator:
        if (parent.init !== outer || parent.id.type !== AST_NODE_TYPES.Identifier) return 'unknown';
        return this.ofVariable(parent.id, (reference) => this.ofPromise(reference, depth + 1));
      default:
    }
    const method = getMethodCall(outer);
    if (!method) return 'unknown';
    if (method.name === 'then') return this.ofCallbackParameter(method.call.arguments[0], 0, depth);
    if (method.name === 'catch' || method.name === 'finally') return this.ofPromise(method.call, depth + 1);
    // A Mongoose query run as a promise (`Model.findOneAndUpdate(…).lean().exec()`).
    if (this.property === undefined && (method.name === 'exec' || method.name === 'lean') && method.call.arguments.length === 0) {
      return this.ofPromise(method.call, depth + 1);
    }
    return 'unknown';
  }

  /** `value` evaluates to the result itself. */
  ofValue(value: Node, depth = 0): PropertyUse {
    if (depth > MAX_DEPTH) return 'unknown';
    const outer = getOutermostSameValue(value);
    const parent = outer.parent;
    if (!parent) return 'unknown';
    switch (parent.type) {
      case AST_NODE_TYPES.ExpressionStatement:
        return 'ignored';
      case AST_NODE_TYPES.UnaryExpression:
        // `void r`, `!r`, `typeof r` look at the result, never inside it.
        return parent.operator === 'void' || parent.operator === '!' || parent.operator === 'typeof' ? 'ignored' : 'unknown';
      case AST_NODE_TYPES.CallExpression:
        if (!parent.arguments.includes(outer as TSESTree.CallExpressionArgument)) return 'unknown';
        if (isOpaqueConsumer(parent.callee, this.property !== undefined) || isArrayTest(parent.callee)) return 'ignored';
        if (this.property === undefined) return this.ofLocalArgument(parent, outer, depth);
        return isTextConversion(parent.callee) ? this.ofText(parent, depth + 1) : 'unknown';
      case AST_NODE_TYPES.ArrayExpression: {
        // `f.apply(this, [a, r])`: the argument list of a local function.
        const call = parent.parent;
        if (this.property !== undefined || call?.type !== AST_NODE_TYPES.CallExpression || call.arguments[1] !== parent) return 'unknown';
        return this.ofLocalArgument(call, outer, depth);
      }
      case AST_NODE_TYPES.IfStatement:
      case AST_NODE_TYPES.WhileStatement:
      case AST_NODE_TYPES.DoWhileStatement:
      case AST_NODE_TYPES.ForStatement:
        // `if (r)`: only whether it is there.
        return parent.test === outer ? 'ignored' : 'unknown';
      case AST_NODE_TYPES.MemberExpression: {
        if (parent.object !== outer) return 'unknown';
        if (parent.computed && isArrayOnlyReassignment(this.context, parent)) return 'ignored';
        const key = getKeyName(parent);
        if (key === undefined) return 'unknown';
        this.keysRead.add(key);
        if (this.wrapped && key === this.wrapped.key) return this.documentFinder(this.wrapped).ofValue(parent, depth + 1);
        // `doc.save()`, `doc.toObject()`: a method of the whole document (`use(doc.name)` reads a field).
        const member = getOutermostSameValue(parent);
        if (this.property === undefined && member.parent?.type === AST_NODE_TYPES.CallExpression && member.parent.callee === member) return 'unknown';
        if (key !== this.property) return 'ignored';
        if (this.local) this.reads.push(parent);
        return 'read';
      }
      case AST_NODE_TYPES.VariableDeclarator:
        if (parent.init !== outer) return 'unknown';
        return this.ofPattern(parent.id, depth);
      case AST_NODE_TYPES.AssignmentExpression:
        if (parent.right !== outer || parent.operator !== '=') return 'unknown';
        return this.ofPattern(parent.left, depth);
      case AST_NODE_TYPES.ReturnStatement:
        return this.ofReturned(parent, depth, 'value');
      case AST_NODE_TYPES.ArrowFunctionExpression:
        return parent.body === outer ? this.ofReturnedFrom(parent, depth, 'value') : 'unknown';
      case AST_NODE_TYPES.AwaitExpression:
        return this.ofValue(parent, depth + 1);
      case AST_NODE_TYPES.LogicalExpression:
      case AST_NODE_TYPES.ConditionalExpression:
        return parent.type === AST_NODE_TYPES.ConditionalExpression && parent.test === outer ? 'ignored' : this.ofValue(parent, depth + 1);
      default:
        return 'unknown';
    }
  }

  /**
   * The result passed to a call, when the fields it needs are asked: `assert(r, '…')` tests
   * it is there; a local function (`computeJobObj(r)`) reads what its parameter is used for.
   */
  private ofLocalArgument(call: TSESTree.CallExpression, argument: Node, depth: number): PropertyUse {
    if (call.arguments[0] === argument && isTruthinessAssertion(call.callee)) return 'ignored';
    const local = getLocalFunctionCall(this.context, call);
    // Not found among the arguments: it is the `this` of `f.call(r)`.
    const index = local ? local.args.indexOf(argument) : -1;
    if (!local || index < 0 || local.args.slice(0, index).some((earlier) => earlier.type === AST_NODE_TYPES.SpreadElement)) return 'unknown';
    if (local.functions.some((fn) => readsArgumentsObject(this.context, fn))) return 'unknown';
    return combine(local.functions.map((fn) => this.ofHandler(fn, index, depth + 1)));
  }

  /** Text made from the result (`JSON.stringify(r)`): printed or dropped is ignored; anything else is not known. */
  private ofText(text: Node, depth: number): PropertyUse {
    if (depth > MAX_DEPTH) return 'unknown';
    const outer = getOutermostSameValue(text);
    const parent = outer.parent;
    if (parent?.type === AST_NODE_TYPES.ExpressionStatement) return 'ignored';
    if (parent?.type === AST_NODE_TYPES.TemplateLiteral || (parent?.type === AST_NODE_TYPES.BinaryExpression && parent.operator === '+')) return this.ofText(parent, depth + 1);
    if (parent?.type === AST_NODE_TYPES.CallExpression && parent.arguments.includes(outer as TSESTree.CallExpressionArgument) && isOpaqueConsumer(parent.callee)) return 'ignored';
    return 'unknown';
  }

  /**
   * A node-style callback `(err, data) => …` or a `.then(data => …)` handler: its parameter
   * at `index` is the result. Also a named local function, or the function a local
   * factory returns (`batchWrite(params, onDone(params))`).
   */
  ofCallbackParameter(callback: Node | undefined, index: number, depth: number): PropertyUse {
    if (!callback || depth > MAX_DEPTH) return 'unknown';
    const handlers = this.resolveHandlers(callback);
    if (!handlers) return 'unknown';
    return combine(handlers.map((handler) => this.ofHandler(handler, index, depth)));
  }

  private resolveHandlers(callback: Node): FunctionNode[] | undefined {
    if (callback.type === AST_NODE_TYPES.ArrowFunctionExpression || callback.type === AST_NODE_TYPES.FunctionExpression) return [callback];
    if (callback.type === AST_NODE_TYPES.Identifier) return resolveLocalFunctions(this.context, callback);
    if (callback.type !== AST_NODE_TYPES.CallExpression || callback.callee.type !== AST_NODE_TYPES.Identifier) return undefined;
    // A factory: every function it returns is a handler.
    const factories = resolveLocalFunctions(this.context, callback.callee);
    if (!factories) return undefined;
    const made: FunctionNode[] = [];
    for (const returned of factories.flatMap((factory) => getReturnedExpressions(factory))) {
      const handler = returned.type === AST_NODE_TYPES.Identifier ? resolveLocalFunctions(this.context, returned) : isFunctionNode(returned) ? [returned] : undefined;
      if (!handler) return undefined;
      made.push(...handler);
    }
    return made.length > 0 ? made : undefined;
  }

  private ofHandler(handler: FunctionNode, index: number, depth: number): PropertyUse {
    if (handler.params.some((parameter) => parameter.type === AST_NODE_TYPES.RestElement)) return 'unknown';
    // TypeScript's `function f(this: Owner, doc)` lists `this` first; no caller passes it there.
    const first = handler.params[0];
    const parameters = first?.type === AST_NODE_TYPES.Identifier && first.name === 'this' ? handler.params.slice(1) : handler.params;
    const parameter = parameters[index];
    if (!parameter) return 'ignored';
    return this.ofPattern(parameter, depth);
  }

  /** The result is bound to `pattern` (an identifier, `{ UnprocessedItems }`, a default…). */
  private ofPattern(pattern: Node, depth: number): PropertyUse {
    switch (pattern.type) {
      case AST_NODE_TYPES.Identifier:
        return this.ofVariable(pattern, (reference) => this.ofValue(reference, depth + 1));
      case AST_NODE_TYPES.AssignmentPattern:
        return this.ofPattern(pattern.left, depth);
      case AST_NODE_TYPES.ObjectPattern: {
        for (const property of pattern.properties) {
          if (property.type === AST_NODE_TYPES.RestElement) return this.ofPattern(property.argument, depth);
          const key = getKeyName(property);
          if (key === undefined && this.property === undefined) return 'unknown';
          if (key !== undefined) this.keysRead.add(key);
          if (this.wrapped && key === this.wrapped.key) {
            const use = this.documentFinder(this.wrapped).ofPattern(property.value, depth + 1);
            if (use !== 'ignored') return use;
            continue;
          }
          if (key !== this.property) continue;
          const target = property.value.type === AST_NODE_TYPES.AssignmentPattern ? property.value.left : property.value;
          if (this.local) this.reads.push(target);
          if (target.type !== AST_NODE_TYPES.Identifier) return 'read';
          return this.ofVariable(target, () => 'read');
        }
        return 'ignored';
      }
      default:
        return 'unknown';
    }
  }

  /** Every read of the variable `identifier` declares or names, judged by `judge`; never read → ignored. */
  private ofVariable(identifier: TSESTree.Identifier, judge: (reference: Node) => PropertyUse): PropertyUse {
    const variable = this.findVariable(identifier);
    if (!variable) return 'unknown';
    if (this.visits.variables.has(variable)) return 'ignored';
    this.visits.variables.add(variable);
    const reads = variable.references.filter((reference) => reference.isRead()).map((reference) => reference.identifier);
    return combine(reads.map(judge));
  }

  private findVariable(identifier: TSESTree.Identifier): TSESLint.Scope.Variable | undefined {
    const declared = this.context.sourceCode
      .getDeclaredVariables(identifier.parent)
      .find((variable) => variable.identifiers.includes(identifier));
    if (declared) return declared;
    let scope: TSESLint.Scope.Scope | null = this.context.sourceCode.getScope(identifier);
    for (; scope; scope = scope.upper) {
      const found = scope.set.get(identifier.name);
      if (found) return found;
    }
    return undefined;
  }

  /** `return <result>` inside a function. */
  private ofReturned(statement: TSESTree.ReturnStatement, depth: number, returned: 'value' | 'promise'): PropertyUse {
    for (let node: Node | undefined = statement.parent; node; node = node.parent) {
      if (isFunctionNode(node)) return this.ofReturnedFrom(node, depth, returned);
    }
    return 'read';
  }

  /**
   * A function returns the result (or its promise): what its callers do with it decides.
   * Followed to `Promise.all(items.map(fn))` and to the calls of a named local function
   * (in the file and, when exported, in the project's other modules). A function that is
   * used otherwise (passed on, stored), or that nobody in the project calls (a package's
   * API), hands the result to code this analysis cannot see: that counts as read.
   */
  private ofReturnedFrom(fn: FunctionNode, depth: number, returned: 'value' | 'promise'): PropertyUse {
    const promised = returned === 'promise' || fn.async;
    const mapCall = getMapCallOf(fn);
    if (mapCall) {
      const all = getOutermostSameValue(mapCall);
      if (isPromiseAllOf(all.parent, all)) return this.ofResultArray(all.parent, depth + 1);
      return 'read';
    }
    if (this.visits.functions.has(fn)) return 'ignored';
    this.visits.functions.add(fn);
    const callers = getFunctionCallers(this.context, fn);
    if (!callers) return 'read';
    const uses = callers.calls.map((call) => this.noteDropped(this.context, call, promised ? this.ofPromise(call, depth + 1) : this.ofValue(call, depth + 1)));
    if (callers.exportNames.length > 0) {
      const remote = lookUpRemoteCalls(this.context, callers.exportNames);
      if (!remote) return 'read';
      for (const { context, call } of remote) {
        const finder = new PropertyUseFinder(context, this.property, { functions: this.visits.functions, variables: new Set(), droppedBy: this.visits.droppedBy }, false, this.wrapped, this.keysRead);
        uses.push(this.noteDropped(context, call, promised ? finder.ofPromise(call, depth + 1) : finder.ofValue(call, depth + 1)));
      }
    }
    // Called by nobody in the project: whoever calls it may read the result.
    if (uses.length === 0) return 'read';
    return combine(uses);
  }

  /** Keeps a caller that drops the returned result, for the report to name. */
  private noteDropped(context: AnyRuleContext, call: TSESTree.CallExpression | TSESTree.NewExpression, use: PropertyUse): PropertyUse {
    if (use === 'ignored') this.visits.droppedBy?.push({ file: context.physicalFilename ?? context.filename, line: call.loc.start.line });
    return use;
  }

  /**
   * `Promise.all(…)` of the results: dropped when the array is never read (a statement,
   * or a variable nobody reads); read anywhere, its items may be looked at.
   */
  private ofResultArray(all: TSESTree.CallExpression, depth: number): PropertyUse {
    if (depth > MAX_DEPTH) return 'unknown';
    let outer = getOutermostSameValue(all);
    if (outer.parent?.type === AST_NODE_TYPES.AwaitExpression) outer = getOutermostSameValue(outer.parent);
    const parent = outer.parent;
    if (parent?.type === AST_NODE_TYPES.ExpressionStatement) return 'ignored';
    if (parent?.type === AST_NODE_TYPES.VariableDeclarator && parent.init === outer && parent.id.type === AST_NODE_TYPES.Identifier) {
      const variable = this.findVariable(parent.id);
      return variable?.references.some((reference) => reference.isRead()) === false ? 'ignored' : 'read';
    }
    return 'read';
  }
}

/** `items.map(fn)`: the map call `fn` is the callback of. */
function getMapCallOf(fn: FunctionNode): TSESTree.CallExpression | undefined {
  const map = fn.parent;
  if (map?.type !== AST_NODE_TYPES.CallExpression || map.arguments[0] !== fn) return undefined;
  return map.callee.type === AST_NODE_TYPES.MemberExpression && getKeyName(map.callee) === 'map' ? map : undefined;
}

/**
 * The fields code reads from the result that `promise` resolves to (`r.status`,
 * `const { seq } = r`), or undefined when the whole result may be used: returned, passed
 * on, printed, stored elsewhere, or a method of it called.
 */
export function getPromisedFieldReads(context: AnyRuleContext, promise: Node): ReadonlySet<string> | undefined {
  const finder = new PropertyUseFinder(context, undefined);
  return finder.ofPromise(promise) === 'ignored' ? finder.keysRead : undefined;
}

/**
 * The fields code reads from the document the result of `promise` holds under
 * `documentKey` (`r.value.status` with MongoDB's includeResultMetadata), or undefined when
 * the document or the whole result may be used whole. The result's own fields (`ok`) need
 * nothing of the document.
 */
export function getPromisedWrappedFieldReads(context: AnyRuleContext, promise: Node, documentKey: string): ReadonlySet<string> | undefined {
  const wrapped: WrappedDocument = { key: documentKey, fields: new Set(), finders: new Map() };
  const finder = new PropertyUseFinder(context, undefined, undefined, true, wrapped);
  return finder.ofPromise(promise) === 'ignored' ? wrapped.fields : undefined;
}

/** How the result that `promise` resolves to is used for `property`. */
export function getPromisedPropertyUse(context: AnyRuleContext, promise: Node, property: string): PropertyUseReport {
  const droppedBy: DroppingCall[] = [];
  const finder = new PropertyUseFinder(context, property, { functions: new Set(), variables: new Set(), droppedBy });
  const use = finder.ofPromise(promise);
  return { use, reads: finder.reads, droppedBy: use === 'ignored' ? droppedBy : [] };
}

/** How the result a node-style callback receives as its parameter `index` is used for `property`. */
export function getCallbackPropertyUse(context: AnyRuleContext, callback: Node, index: number, property: string): PropertyUseReport {
  const droppedBy: DroppingCall[] = [];
  const finder = new PropertyUseFinder(context, property, { functions: new Set(), variables: new Set(), droppedBy });
  const use = finder.ofCallbackParameter(callback, index, 0);
  return { use, reads: finder.reads, droppedBy: use === 'ignored' ? droppedBy : [] };
}
