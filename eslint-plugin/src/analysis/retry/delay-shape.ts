import { AST_NODE_TYPES, ASTUtils, type TSESLint, type TSESTree } from '@typescript-eslint/utils';
import type { AnyRuleContext } from '../per-file-cache';
import { getLocalFunction } from '../called-functions';
import { getFunctionName } from './local-functions';
import { collectIdentifierNames, getWriteTarget, walkOwnCode } from './code-walk';
import { containsNode, type FunctionNode, isFunctionNode } from '../ast';
import { getMathFunction, isMultiplying } from './delay-arithmetic';
import { containsPromise, getCalleeName } from './wait-calls';
import { ATTEMPT_NAME, type AttemptCounters, collectAttemptCounters } from './attempt-counters';
import type { RetryScope } from './retry-scope';
import type { RetryDelayFacts } from './delay-facts';

/** How a delay changes with the attempt: `undefined` where the code does not say. */
export interface DelayShapeFacts {
  growth: 'none' | 'linear' | 'exponential' | undefined;
  capped: boolean | undefined;
  jittered: boolean | undefined;
  /** Part of the delay is a setting (`this.retryDelayMs * 2 ** attempt`): its size is not known, its shape is. */
  fromSettings?: boolean;
}

interface Shape {
  growth: 'none' | 'linear' | 'exponential';
  capped: boolean;
  jittered: boolean;
  /** Some part could not be followed (an unknown call, an array lookup, a setting). */
  unknown: boolean;
  /** Some unknown part may change from attempt to attempt (anything but a setting): it could be random. */
  varies: boolean;
  /** Some part is a setting read the same way on every attempt (`this.retryDelayMs`, `options.delay`). */
  setting: boolean;
}

const CONSTANT: Shape = { growth: 'none', capped: false, jittered: false, unknown: false, varies: false, setting: false };
const UNKNOWN: Shape = { growth: 'none', capped: false, jittered: false, unknown: true, varies: true, setting: false };
/** `this.retryDelayMs`: fixed for every attempt, of a size the code does not show. */
const SETTING: Shape = { growth: 'none', capped: false, jittered: false, unknown: true, varies: false, setting: true };
const GROWTH_ORDER = { none: 0, linear: 1, exponential: 2 } as const;

/** Growth, cap and jitter of the delay `expression` inside `scope`, whose attempt-to-attempt variables are `counters`. */
export function getDelayShapeFacts(
  context: AnyRuleContext,
  scope: RetryScope,
  counters: AttemptCounters,
  expression: TSESTree.Expression,
): DelayShapeFacts {
  const shape = new DelayShapeReader(context, scope, counters).getShape(expression, new Map(), 0);
  return {
    growth: shape.unknown && shape.growth === 'none' ? undefined : shape.growth,
    capped: shape.capped ? true : shape.unknown ? undefined : false,
    // A setting is the same on every attempt: without `Math.random()` the wait has no random part.
    jittered: shape.jittered ? true : shape.varies ? undefined : false,
    ...(shape.setting ? { fromSettings: true } : {}),
  };
}

class DelayShapeReader {
  private readonly keys: TSESLint.SourceCode.VisitorKeys;

  constructor(
    private readonly context: AnyRuleContext,
    private readonly scope: RetryScope,
    private readonly counters: AttemptCounters,
  ) {
    this.keys = context.sourceCode.visitorKeys;
  }

  /** `params` maps a helper's parameter names to the caller's arguments. */
  getShape(expression: TSESTree.Node, params: ReadonlyMap<string, TSESTree.Node>, depth: number): Shape {
    if (depth > 8) return UNKNOWN;
    const recurse = (node: TSESTree.Node): Shape => this.getShape(node, params, depth + 1);
    switch (expression.type) {
      case AST_NODE_TYPES.Literal:
        return CONSTANT;
      case AST_NODE_TYPES.TemplateLiteral:
        return UNKNOWN;
      case AST_NODE_TYPES.TSAsExpression:
      case AST_NODE_TYPES.TSNonNullExpression:
      case AST_NODE_TYPES.TSSatisfiesExpression:
        return recurse(expression.expression);
      case AST_NODE_TYPES.UnaryExpression:
        return recurse(expression.argument);
      case AST_NODE_TYPES.Identifier:
        return this.getIdentifierShape(expression, params, depth);
      case AST_NODE_TYPES.BinaryExpression: {
        if (expression.left.type === AST_NODE_TYPES.PrivateIdentifier) return UNKNOWN;
        const left = recurse(expression.left);
        const right = recurse(expression.right);
        const merged = merge(left, right);
        if ((expression.operator === '**' || expression.operator === '<<') && right.growth !== 'none') {
          return { ...merged, growth: 'exponential' };
        }
        if (expression.operator === '*' && left.growth !== 'none' && right.growth !== 'none') {
          return { ...merged, growth: 'exponential' };
        }
        return merged;
      }
      case AST_NODE_TYPES.ConditionalExpression: {
        const branches = merge(recurse(expression.consequent), recurse(expression.alternate));
        // `delay > MAX ? MAX : delay`: a clamp.
        const isClamp =
          expression.test.type === AST_NODE_TYPES.BinaryExpression &&
          ['<', '<=', '>', '>='].includes(expression.test.operator) &&
          (recurse(expression.consequent).growth === 'none' || recurse(expression.alternate).growth === 'none');
        return { ...merge(branches, recurse(expression.test)), growth: branches.growth, capped: branches.capped || isClamp };
      }
      case AST_NODE_TYPES.AwaitExpression:
        return recurse(expression.argument);
      case AST_NODE_TYPES.CallExpression:
        return this.getCallShape(expression, params, depth);
      case AST_NODE_TYPES.MemberExpression: {
        if (this.isSetting(expression)) return SETTING;
        // `DELAYS[attempt]`: a schedule; `config.retryDelay`: a setting. Constant only when nothing varies.
        const inner = merge(recurse(expression.object), expression.computed ? recurse(expression.property) : CONSTANT);
        return inner.growth === 'none' && !inner.jittered ? { ...inner, unknown: inner.unknown } : { ...inner, unknown: true, varies: true };
      }
      default:
        return UNKNOWN;
    }
  }

  private getCallShape(call: TSESTree.CallExpression, params: ReadonlyMap<string, TSESTree.Node>, depth: number): Shape {
    const recurse = (node: TSESTree.Node): Shape => this.getShape(node, params, depth + 1);
    const args = call.arguments.filter((arg): arg is TSESTree.Expression => arg.type !== AST_NODE_TYPES.SpreadElement);
    const mathName = getMathFunction(call.callee);
    if (mathName === 'random') return { ...CONSTANT, jittered: true };
    if (mathName === 'pow') {
      const [base, exponent] = args.map(recurse);
      if (!base || !exponent) return UNKNOWN;
      return exponent.growth !== 'none' ? { ...merge(base, exponent), growth: 'exponential' } : merge(base, exponent);
    }
    if (mathName === 'min') {
      const shapes = args.map(recurse);
      const merged = shapes.reduce(merge, CONSTANT);
      // `Math.min(30000, …)`, `Math.min(this.maxDelayMs, …)`: a bound that stays the same from attempt to attempt.
      const hasFixedBound = shapes.some((shape) => shape.growth === 'none' && !shape.varies);
      return { ...merged, capped: merged.capped || (hasFixedBound && merged.growth !== 'none') };
    }
    if (mathName && ['max', 'floor', 'ceil', 'round', 'trunc', 'abs'].includes(mathName)) {
      return args.map(recurse).reduce(merge, CONSTANT);
    }
    const name = getCalleeName(call.callee);
    if (name && /random|jitter/i.test(name)) {
      // `randomInt(0, cap)`, `jitter(delay)`, `_.random(…)`: a random part around its arguments.
      return { ...args.map(recurse).reduce(merge, CONSTANT), jittered: true };
    }
    const helper = getLocalFunction(this.context, call.callee);
    if (helper) {
      const mapped = new Map<string, TSESTree.Node>();
      helper.params.forEach((param, index) => {
        const arg = call.arguments[index];
        if (param.type === AST_NODE_TYPES.Identifier && arg) mapped.set(param.name, arg);
        if (param.type === AST_NODE_TYPES.AssignmentPattern && param.left.type === AST_NODE_TYPES.Identifier) {
          mapped.set(param.left.name, arg ?? param.right);
        }
      });
      const result = this.getHelperResultShape(helper, mapped, depth);
      if (result) return result;
    }
    // An unknown helper, judged by its argument: fed the attempt counter it grows.
    const argShapes = args.map(recurse).reduce(merge, CONSTANT);
    if (argShapes.growth !== 'none') return { ...argShapes, growth: 'exponential', unknown: true, varies: true, capped: false };
    return { ...argShapes, unknown: true, varies: true };
  }

  /** What a local helper returns, or (for a sleep helper) how long it waits. */
  private getHelperResultShape(helper: FunctionNode, params: ReadonlyMap<string, TSESTree.Node>, depth: number): Shape | undefined {
    if (helper.body.type !== AST_NODE_TYPES.BlockStatement) return this.getHelperExpressionShape(helper.body, params, depth);
    let shape: Shape | undefined;
    walkOwnCode(
      helper.body,
      this.keys,
      (node) => {
        if (shape) return false;
        if (isFunctionNode(node) && node.parent?.type !== AST_NODE_TYPES.NewExpression) {
          return node.parent?.type === AST_NODE_TYPES.CallExpression;
        }
        if (node.type === AST_NODE_TYPES.CallExpression && getCalleeName(node.callee) === 'setTimeout' && node.arguments[1]) {
          shape = this.getHelperExpressionShape(node.arguments[1], params, depth);
        } else if (node.type === AST_NODE_TYPES.ReturnStatement && node.argument && !containsPromise(node.argument)) {
          shape = this.getHelperExpressionShape(node.argument, params, depth);
        }
        return !shape;
      },
      true,
    );
    return shape;
  }

  private getHelperExpressionShape(expression: TSESTree.Node, params: ReadonlyMap<string, TSESTree.Node>, depth: number): Shape {
    if (containsPromise(expression)) {
      let inner: TSESTree.Node | undefined;
      walkOwnCode(
        expression,
        this.keys,
        (node) => {
          if (node.type === AST_NODE_TYPES.CallExpression && getCalleeName(node.callee) === 'setTimeout' && node.arguments[1]) {
            inner = node.arguments[1];
          }
          return !inner;
        },
        true,
      );
      return inner ? this.getShape(inner, params, depth + 1) : UNKNOWN;
    }
    return this.getShape(expression, params, depth + 1);
  }

  private getIdentifierShape(identifier: TSESTree.Identifier, params: ReadonlyMap<string, TSESTree.Node>, depth: number): Shape {
    const mapped = params.get(identifier.name);
    if (mapped) return this.getShape(mapped, new Map(), depth + 1);
    if (identifier.name === 'Infinity' || identifier.name === 'undefined') return CONSTANT;
    if (this.counters.countingDown.has(identifier.name)) return UNKNOWN;
    if (this.counters.counters.has(identifier.name)) return { ...CONSTANT, growth: 'linear' };
    const variable = ASTUtils.findVariable(this.context.sourceCode.getScope(identifier) as TSESLint.Scope.Scope, identifier);
    if (!variable || variable.defs.length === 0) return UNKNOWN;
    const definition = variable.defs[0];
    if (!definition) return UNKNOWN;
    if (definition.type === 'Parameter') {
      return ATTEMPT_NAME.test(identifier.name) ? { ...CONSTANT, growth: 'linear' } : this.getParameterShape(identifier.name);
    }
    if (definition.node.type !== AST_NODE_TYPES.VariableDeclarator) return UNKNOWN;
    // `for (const delay of backoff())`: each value comes from an iterator the code does not show.
    if (isIterationVariable(definition.node)) return UNKNOWN;
    // Assignments inside the retry make it change from attempt to attempt: `delay *= 2`.
    const writes = variable.references.filter((reference) => reference.isWrite() && reference.identifier !== definition.name);
    const insideWrites = writes.filter((reference) => containsNode(this.scope.node, reference.identifier as TSESTree.Node));
    const init = definition.node.init;
    const initShape = init ? this.getShape(init, new Map(), depth + 1) : CONSTANT;
    if (insideWrites.length === 0) {
      // Declared inside the attempt: its value is computed each time. Outside: fixed for every attempt.
      if (init && containsNode(this.scope.attempt, definition.node)) return initShape;
      // A local of a helper being read with its caller's arguments (`const w = 3 ** n * 100; return w;`).
      if (init && params.size > 0 && !containsNode(this.scope.node, definition.node) && writes.length === 0) {
        return this.getShape(init, params, depth + 1);
      }
      return writes.length === 0 ? { ...initShape, jittered: false, growth: 'none' } : UNKNOWN;
    }
    let shape: Shape = { ...initShape, growth: initShape.growth };
    for (const write of insideWrites) {
      const assignment = write.identifier.parent;
      if (assignment?.type === AST_NODE_TYPES.AssignmentExpression) {
        if (assignment.operator === '*=' || assignment.operator === '<<=' || assignment.operator === '**=') {
          shape = { ...merge(shape, this.getShape(assignment.right, new Map(), depth + 1)), growth: 'exponential' };
        } else if (assignment.operator === '+=') {
          shape = merge({ ...shape, growth: GROWTH_ORDER[shape.growth] > 1 ? shape.growth : 'linear' }, this.getShape(assignment.right, new Map(), depth + 1));
        } else if (assignment.operator === '=') {
          const right = this.getShape(assignment.right, new Map(), depth + 1);
          const selfGrowth = collectIdentifierNames(assignment.right, this.keys).has(identifier.name) && isMultiplying(assignment.right);
          shape = { ...merge(shape, right), growth: selfGrowth ? 'exponential' : merge(shape, right).growth, capped: right.capped || shape.capped };
        } else {
          shape = { ...shape, unknown: true, varies: true };
        }
      } else if (assignment?.type === AST_NODE_TYPES.UpdateExpression) {
        shape = { ...shape, growth: GROWTH_ORDER[shape.growth] > 1 ? shape.growth : 'linear' };
      }
    }
    if (this.hasClampAssignment(identifier.name)) shape = { ...shape, capped: true };
    return shape;
  }

  /**
   * `this.retryDelayMs`, `options.backoff.base`: a property read by name from `this` or from a
   * variable, which nothing in the retry assigns (`this.delay *= 2` would make it vary).
   */
  private isSetting(member: TSESTree.MemberExpression): boolean {
    let root: TSESTree.Node = member;
    while (root.type === AST_NODE_TYPES.MemberExpression) {
      if (root.computed || root.property.type !== AST_NODE_TYPES.Identifier) return false;
      root = root.object;
    }
    if (root.type === AST_NODE_TYPES.Identifier) {
      if (this.counters.counters.has(root.name) || this.counters.countingDown.has(root.name)) return false;
      const variable = ASTUtils.findVariable(this.context.sourceCode.getScope(root) as TSESLint.Scope.Scope, root);
      if (!variable || variable.references.some((reference) => reference.isWrite() && containsNode(this.scope.node, reference.identifier as TSESTree.Node))) return false;
    } else if (root.type !== AST_NODE_TYPES.ThisExpression) {
      return false;
    }
    const text = this.context.sourceCode.getText(member);
    let assigned = false;
    walkOwnCode(this.scope.node, this.keys, (node) => {
      const target = getWriteTarget(node);
      if (target?.type === AST_NODE_TYPES.MemberExpression && this.context.sourceCode.getText(target) === text) assigned = true;
      return !assigned;
    });
    return !assigned;
  }

  /** A recursive retry passing `delay * 2` for its `delay` parameter. */
  private getParameterShape(name: string): Shape {
    if (this.scope.kind !== 'recursion' || !isFunctionNode(this.scope.node)) return UNKNOWN;
    const fn = this.scope.node;
    const index = fn.params.findIndex((param) =>
      param.type === AST_NODE_TYPES.Identifier ? param.name === name : param.type === AST_NODE_TYPES.AssignmentPattern && param.left.type === AST_NODE_TYPES.Identifier && param.left.name === name,
    );
    const fnName = getFunctionName(fn);
    if (index < 0 || !fnName) return UNKNOWN;
    let shape: Shape | undefined;
    walkOwnCode(
      fn.body,
      this.keys,
      (node) => {
        if (node.type === AST_NODE_TYPES.CallExpression && getCalleeName(node.callee) === fnName) {
          const arg = node.arguments[index];
          if (arg && arg.type !== AST_NODE_TYPES.SpreadElement) {
            const argShape = collectIdentifierNames(arg, this.keys).has(name) && isMultiplying(arg) ? { ...CONSTANT, growth: 'exponential' as const } : UNKNOWN;
            shape = shape ? merge(shape, argShape) : argShape;
            if (getMathFunction(arg.type === AST_NODE_TYPES.CallExpression ? arg.callee : arg) === 'min') shape = { ...shape, capped: true };
          }
        }
        return true;
      },
      true,
    );
    return shape ?? UNKNOWN;
  }

  /** `if (delay > MAX) delay = MAX;` inside the retry. */
  private hasClampAssignment(name: string): boolean {
    let found = false;
    walkOwnCode(this.scope.node, this.keys, (node) => {
      if (
        node.type === AST_NODE_TYPES.IfStatement &&
        node.test.type === AST_NODE_TYPES.BinaryExpression &&
        ['<', '<=', '>', '>='].includes(node.test.operator) &&
        collectIdentifierNames(node.test, this.keys).has(name)
      ) {
        walkOwnCode(node.consequent, this.keys, (inner) => {
          if (inner.type === AST_NODE_TYPES.AssignmentExpression && inner.left.type === AST_NODE_TYPES.Identifier && inner.left.name === name) {
            found = true;
          }
          return !found;
        });
      }
      return !found;
    });
    return found;
  }
}

/** The variable of `for (const x of …)` / `for (const x in …)`: set by the iteration, not by an initializer. */
function isIterationVariable(declarator: TSESTree.VariableDeclarator): boolean {
  const loop = declarator.parent.parent;
  return (loop?.type === AST_NODE_TYPES.ForOfStatement || loop?.type === AST_NODE_TYPES.ForInStatement) && loop.left === declarator.parent;
}

function merge(a: Shape, b: Shape): Shape {
  return {
    growth: GROWTH_ORDER[a.growth] >= GROWTH_ORDER[b.growth] ? a.growth : b.growth,
    capped: a.capped || b.capped,
    jittered: a.jittered || b.jittered,
    unknown: a.unknown || b.unknown,
    varies: a.varies || b.varies,
    setting: a.setting || b.setting,
  };
}

/**
 * Growth, cap and jitter of one delay expression, read as a retry scope would read it
 * (used for a library's delay callback such as `ConfiguredRetryStrategy`'s).
 */
export function getDelayExpressionFacts(
  context: AnyRuleContext,
  scope: RetryScope,
  expression: TSESTree.Expression,
): Pick<RetryDelayFacts, 'growth' | 'capped' | 'jittered'> {
  return getDelayShapeFacts(context, scope, collectAttemptCounters(context, scope), expression);
}
