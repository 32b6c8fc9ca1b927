import { AST_NODE_TYPES, type TSESLint, type TSESTree } from '@typescript-eslint/utils';
import { getKeyName, isFunctionNode } from '../ast';
import { getMethodCall, getOutermostSameValue } from './value-bindings';
import type { AnyRuleContext } from '../per-file-cache';

/**
 * Does code read one property of a call's result (`UnprocessedItems` of a
 * BatchWriteItem)? Follows `await`, `.then`, node-style callbacks, variables,
 * destructuring and `return`. The answer is three-valued so that rules stay silent
 * when the result goes somewhere this file cannot see.
 */
export type PropertyUse =
  /** The property is read, or the whole result is returned to the caller. */
  | 'read'
  /** The result is discarded, or kept and never read for that property. */
  | 'ignored'
  /** The result is passed on (a call argument, an object, a spread…): not known. */
  | 'unknown';

type Node = TSESTree.Node;

/** Any read wins; otherwise any unknown; otherwise ignored (also for no uses at all). */
function combine(uses: PropertyUse[]): PropertyUse {
  if (uses.includes('read')) return 'read';
  if (uses.includes('unknown')) return 'unknown';
  return 'ignored';
}

const MAX_DEPTH = 12;

/**
 * `Boolean(r)`, `String(r)`, `console.log(r)`: calls that only convert or print their
 * argument. Printing shows every field, so it counts only when one property is asked about.
 */
function isOpaqueConsumer(callee: Node, printing: boolean): boolean {
  if (callee.type === AST_NODE_TYPES.Identifier) return ['Boolean', 'String', 'Number'].includes(callee.name);
  return (
    printing &&
    callee.type === AST_NODE_TYPES.MemberExpression &&
    callee.object.type === AST_NODE_TYPES.Identifier &&
    callee.object.name === 'console'
  );
}

class PropertyUseFinder {
  private readonly visitedVariables = new Set<TSESLint.Scope.Variable>();
  /** Every property read from the result (with `property` undefined: the fields the code needs). */
  readonly keysRead = new Set<string>();

  /** `property` undefined: collect every key read; the whole result escaping then counts as `read`. */
  constructor(
    private readonly context: AnyRuleContext,
    private readonly property: string | undefined,
  ) {}

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
        return this.ofReturned(parent, depth);
      case AST_NODE_TYPES.ArrowFunctionExpression:
        return parent.body === outer ? this.ofReturnedFrom(parent, depth) : 'unknown';
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
        return parent.arguments.includes(outer as TSESTree.CallExpressionArgument) && isOpaqueConsumer(parent.callee, this.property !== undefined)
          ? 'ignored'
          : 'unknown';
      case AST_NODE_TYPES.MemberExpression: {
        if (parent.object !== outer) return 'unknown';
        const key = getKeyName(parent);
        if (key === undefined) return 'unknown';
        this.keysRead.add(key);
        // `doc.save()`, `doc.toObject()`: a method of the whole document.
        if (this.property === undefined && getOutermostSameValue(parent).parent?.type === AST_NODE_TYPES.CallExpression) return 'unknown';
        return key === this.property ? 'read' : 'ignored';
      }
      case AST_NODE_TYPES.VariableDeclarator:
        if (parent.init !== outer) return 'unknown';
        return this.ofPattern(parent.id, depth);
      case AST_NODE_TYPES.AssignmentExpression:
        if (parent.right !== outer || parent.operator !== '=') return 'unknown';
        return this.ofPattern(parent.left, depth);
      case AST_NODE_TYPES.ReturnStatement:
        return this.ofReturned(parent, depth);
      case AST_NODE_TYPES.ArrowFunctionExpression:
        return parent.body === outer ? this.ofReturnedFrom(parent, depth) : 'unknown';
      case AST_NODE_TYPES.AwaitExpression:
        return this.ofValue(parent, depth + 1);
      case AST_NODE_TYPES.LogicalExpression:
      case AST_NODE_TYPES.ConditionalExpression:
        return parent.type === AST_NODE_TYPES.ConditionalExpression && parent.test === outer ? 'ignored' : this.ofValue(parent, depth + 1);
      default:
        return 'unknown';
    }
  }

  /** A node-style callback `(err, data) => …` or a `.then(data => …)` handler: its parameter at `index` is the result. */
  ofCallbackParameter(callback: Node | undefined, index: number, depth: number): PropertyUse {
    if (!callback) return 'unknown';
    if (callback.type !== AST_NODE_TYPES.ArrowFunctionExpression && callback.type !== AST_NODE_TYPES.FunctionExpression) {
      return 'unknown';
    }
    if (callback.params.some((parameter) => parameter.type === AST_NODE_TYPES.RestElement)) return 'unknown';
    const parameter = callback.params[index];
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
          if (key !== this.property) continue;
          const target = property.value.type === AST_NODE_TYPES.AssignmentPattern ? property.value.left : property.value;
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
    if (this.visitedVariables.has(variable)) return 'ignored';
    this.visitedVariables.add(variable);
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
  private ofReturned(statement: TSESTree.ReturnStatement, depth: number): PropertyUse {
    for (let node: Node | undefined = statement.parent; node; node = node.parent) {
      if (isFunctionNode(node)) {
        return this.ofReturnedFrom(node, depth);
      }
    }
    return 'read';
  }

  /**
   * A function returns the result (or its promise): the caller decides, so it counts
   * as read — except for the one shape where the caller visibly drops it:
   * `await Promise.all(items.map((item) => send(…)))` as a statement.
   */
  private ofReturnedFrom(fn: Node, depth: number): PropertyUse {
    const map = fn.parent;
    if (map?.type !== AST_NODE_TYPES.CallExpression || map.arguments[0] !== fn) return 'read';
    const callee = map.callee;
    if (callee.type !== AST_NODE_TYPES.MemberExpression || getKeyName(callee) !== 'map') return 'read';
    const all = getOutermostSameValue(map).parent;
    if (all?.type !== AST_NODE_TYPES.CallExpression || all.arguments[0] !== getOutermostSameValue(map)) return 'read';
    if (all.callee.type !== AST_NODE_TYPES.MemberExpression || all.callee.object.type !== AST_NODE_TYPES.Identifier) return 'read';
    if (all.callee.object.name !== 'Promise' || !['all', 'allSettled'].includes(getKeyName(all.callee) ?? '')) return 'read';
    const awaited = getOutermostSameValue(all).parent;
    const statement = awaited?.type === AST_NODE_TYPES.AwaitExpression ? getOutermostSameValue(awaited).parent : awaited;
    void depth;
    return statement?.type === AST_NODE_TYPES.ExpressionStatement ? 'ignored' : 'read';
  }
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

/** How the result that `promise` resolves to is used for `property`. */
export function getPromisedPropertyUse(context: AnyRuleContext, promise: Node, property: string): PropertyUse {
  return new PropertyUseFinder(context, property).ofPromise(promise);
}

/** How the result a node-style callback receives as its parameter `index` is used for `property`. */
export function getCallbackPropertyUse(context: AnyRuleContext, callback: Node, index: number, property: string): PropertyUse {
  return new PropertyUseFinder(context, property).ofCallbackParameter(callback, index, 0);
}
