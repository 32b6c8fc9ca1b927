import { AST_NODE_TYPES, ASTUtils, type TSESLint, type TSESTree } from '@typescript-eslint/utils';
import type { AnyRuleContext } from './per-file-cache';
import { getFunctionName, walkOwnCode } from './retry-ast';
import { containsNode, isFunctionNode, type FunctionNode } from './ast';
import { evaluate, getMathFunction, isMultiplying } from './retry-delay-value';
import { getLibraryDelayFacts } from './retry-library-delay';
import {
  BACKOFF_HELPER_NAME,
  containsPromise,
  getCalleeName,
  getWaitNode,
  isAwaitedOrReturned,
  isPlainSleepHelper,
  isStored,
  NOT_WAIT_NAME,
  PLAIN_WAIT_NAME,
  WAIT_NAME,
} from './retry-wait-calls';
import { ATTEMPT_NAME, collectIdentifierNames, getIncrementedName, type RetryScope } from './retry-scopes';

/**
 * What a retry does between attempts. Every fact is `undefined` when the code does
 * not say (a delay read from a variable we cannot follow, options passed as a variable):
 * rules report only on `false`.
 */
export interface RetryDelayFacts {
  /** Some wait happens before the next attempt. */
  waits: boolean | undefined;
  /** The waiting call: `await sleep(ms)`, `new Promise(r => setTimeout(r, ms))`, `setTimeout(() => retry(), ms)`. */
  wait?: TSESTree.Node;
  /** The milliseconds expression as written at the wait, when there is one. */
  delay?: TSESTree.Expression;
  /** How the wait changes with the attempt. */
  growth: 'none' | 'linear' | 'exponential' | undefined;
  /** The growth stops at a maximum (`Math.min(cap, …)`, a clamp, a library's `maxTimeout`). */
  capped: boolean | undefined;
  /** The wait has a random part (`Math.random()`, a library's `randomize`/`jitter`). */
  jittered: boolean | undefined;
  /** The number of attempts is limited. */
  bounded: boolean | undefined;
  /** The longest single wait in milliseconds, when it can be computed. */
  maxDelayMs?: number;
  /** The attempt variable counts down (`retriesLeft--`): `2 ** it` would shrink, so no suggestion builds on it. */
  attemptCountsDown?: boolean;
  /** For libraries: the option each fact comes from, for reports and suggestions. */
  library?: import('./retry-library-delay').LibraryDelayDetails;
}

interface Shape {
  growth: 'none' | 'linear' | 'exponential';
  capped: boolean;
  jittered: boolean;
  /** Some part could not be followed (an unknown call, an array lookup). */
  unknown: boolean;
}

const CONSTANT: Shape = { growth: 'none', capped: false, jittered: false, unknown: false };
const UNKNOWN: Shape = { growth: 'none', capped: false, jittered: false, unknown: true };
const GROWTH_ORDER = { none: 0, linear: 1, exponential: 2 } as const;

export function getRetryDelayFacts(context: AnyRuleContext, scope: RetryScope): RetryDelayFacts {
  if (scope.kind === 'library') return getLibraryDelayFacts(context, scope);
  const analysis = new DelayAnalysis(context, scope);
  return analysis.run();
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
  return new DelayAnalysis(context, scope).describe(expression);
}

class DelayAnalysis {
  private readonly keys: TSESLint.SourceCode.VisitorKeys;
  /** Variables that change from one attempt to the next: counters and delays updated in the attempt. */
  private readonly counters = new Set<string>();
  /** Counters that go down (`retriesLeft--`): a delay built on them shrinks. */
  private readonly countingDown = new Set<string>();

  constructor(
    private readonly context: AnyRuleContext,
    private readonly scope: RetryScope,
  ) {
    this.keys = context.sourceCode.visitorKeys;
    if (scope.attemptVariable) this.counters.add(scope.attemptVariable);
    const counted = scope.kind === 'loop' ? scope.node : scope.attempt;
    walkOwnCode(counted, this.keys, (node) => {
      const name = getIncrementedName(node);
      if (name) this.counters.add(name);
      if (
        (node.type === AST_NODE_TYPES.UpdateExpression && node.operator === '--' && node.argument.type === AST_NODE_TYPES.Identifier) ||
        (node.type === AST_NODE_TYPES.AssignmentExpression && node.operator === '-=' && node.left.type === AST_NODE_TYPES.Identifier)
      ) {
        this.countingDown.add(node.type === AST_NODE_TYPES.UpdateExpression ? (node.argument as TSESTree.Identifier).name : (node.left as TSESTree.Identifier).name);
      }
      return true;
    });
  }

  run(): RetryDelayFacts {
    const facts = this.collectFacts();
    if (this.scope.attemptVariable && this.countingDown.has(this.scope.attemptVariable)) facts.attemptCountsDown = true;
    return facts;
  }

  private collectFacts(): RetryDelayFacts {
    const bounded = this.isBounded();
    const found = this.findWait();
    if (!found) {
      return { waits: false, growth: 'none', capped: false, jittered: false, bounded };
    }
    if (!found.delay) {
      // `await sleep()` / `await backoff()` with nothing to read: the helper decides.
      return { waits: true, wait: found.wait, growth: undefined, capped: undefined, jittered: undefined, bounded };
    }
    const shape = this.getShape(found.delay, new Map(), 0);
    const facts: RetryDelayFacts = {
      waits: true,
      wait: found.wait,
      delay: found.delay,
      growth: shape.unknown && shape.growth === 'none' ? undefined : shape.growth,
      capped: shape.capped ? true : shape.unknown ? undefined : false,
      jittered: shape.jittered ? true : shape.unknown ? undefined : false,
      bounded,
    };
    const maxDelayMs = this.getLargestDelay(found.delay);
    if (maxDelayMs !== undefined) facts.maxDelayMs = maxDelayMs;
    return facts;
  }

  describe(expression: TSESTree.Expression): Pick<RetryDelayFacts, 'growth' | 'capped' | 'jittered'> {
    const shape = this.getShape(expression, new Map(), 0);
    return {
      growth: shape.unknown && shape.growth === 'none' ? undefined : shape.growth,
      capped: shape.capped ? true : shape.unknown ? undefined : false,
      jittered: shape.jittered ? true : shape.unknown ? undefined : false,
    };
  }

  // -------------------------------------------------------------------------
  // Finding the wait

  private findWait(): { wait: TSESTree.Node; delay?: TSESTree.Expression } | undefined {
    let found: { wait: TSESTree.Node; delay?: TSESTree.Expression } | undefined;
    const roots: TSESTree.Node[] = [this.scope.attempt];
    if (this.scope.kind === 'catch-retry') roots.splice(0, 1, ...this.scope.handlers);
    for (const root of roots) {
      walkOwnCode(
        root,
        this.keys,
        (node) => {
          if (found) return false;
          if (isFunctionNode(node) && node !== root && !this.isCallbackOfAttempt(node)) return false;
          const wait = this.getWait(node);
          if (wait) found = wait;
          return !found;
        },
        true,
      );
    }
    return found;
  }

  /** `setTimeout(connect, ms)`, `setTimeout(() => connect(), ms)`: the timer starts the next attempt. */
  private isRetriedFrom(callback: TSESTree.Node | undefined): boolean {
    if (!callback || this.scope.kind !== 'recursion' || !isFunctionNode(this.scope.node)) return false;
    const name = getFunctionName(this.scope.node);
    if (!name) return false;
    if (callback.type === AST_NODE_TYPES.Identifier) return callback.name === name;
    if (!isFunctionNode(callback)) return false;
    let found = false;
    walkOwnCode(
      callback.body,
      this.keys,
      (node) => {
        if (node.type === AST_NODE_TYPES.CallExpression && getCalleeName(node.callee) === name) found = true;
        return !found;
      },
      true,
    );
    return found;
  }

  /** Callbacks that run as part of the attempt: promise executors, timers, `.then`/`.catch`. */
  private isCallbackOfAttempt(fn: FunctionNode): boolean {
    if (this.scope.handlers.includes(fn)) return true;
    const parent = fn.parent;
    if (parent?.type === AST_NODE_TYPES.NewExpression) return true;
    if (parent?.type !== AST_NODE_TYPES.CallExpression || !parent.arguments.includes(fn as TSESTree.CallExpressionArgument)) return false;
    const name = getCalleeName(parent.callee);
    return name === 'setTimeout' || name === 'then' || name === 'catch' || name === 'finally';
  }

  private getWait(node: TSESTree.Node): { wait: TSESTree.Node; delay?: TSESTree.Expression } | undefined {
    if (node.type !== AST_NODE_TYPES.CallExpression) return undefined;
    const name = getCalleeName(node.callee);
    if (!name) return undefined;
    const [first, second] = node.arguments;
    if (name === 'setTimeout') {
      // setTimeout(fn, ms) — a timer, or `timers/promises` setTimeout(ms) that is awaited.
      if (second && second.type !== AST_NODE_TYPES.SpreadElement) {
        // A timer counts when it holds the next attempt back: inside a promise that is awaited,
        // or calling the retry again. A watchdog (`setTimeout(() => process.exit(1), 20000)`) does not.
        const waitNode = getWaitNode(node);
        if (waitNode !== node || this.isRetriedFrom(first)) return { wait: waitNode, delay: second };
        return undefined;
      }
      if (first && first.type !== AST_NODE_TYPES.SpreadElement && !isFunctionNode(first) && isAwaitedOrReturned(node)) {
        return { wait: node, delay: first };
      }
      return undefined;
    }
    if (name === 'wait' && node.callee.type === AST_NODE_TYPES.MemberExpression) {
      // scheduler.wait(ms)
      if (first && first.type !== AST_NODE_TYPES.SpreadElement) return { wait: node, delay: first };
    }
    if (!WAIT_NAME.test(name) || NOT_WAIT_NAME.test(name)) return undefined;
    // `const pause = delay(ms); …; await pause;` — stored and awaited later: only for plain wait verbs.
    if (!isAwaitedOrReturned(node) && !(PLAIN_WAIT_NAME.test(name) && isStored(node))) return undefined;
    const helper = this.resolveLocalFunction(node.callee);
    if (helper) return this.getHelperWait(node, helper);
    // An imported backoff helper fed the attempt (`await backoff(attempt)`) computes its own delay.
    if (first && BACKOFF_HELPER_NAME.test(name)) return { wait: node, delay: node };
    if (first && first.type !== AST_NODE_TYPES.SpreadElement) return { wait: node, delay: first };
    return { wait: node };
  }

  /**
   * A local `sleep(ms)` / `backoff(attempt)` helper: its own wait, with its parameters read
   * as the call's arguments. `delay` is then the call itself, analysed through the helper.
   */
  private getHelperWait(call: TSESTree.CallExpression, helper: FunctionNode): { wait: TSESTree.Node; delay?: TSESTree.Expression } {
    const first = call.arguments[0];
    // A plain `sleep(ms)` helper waits exactly its argument: read the argument itself.
    if (first && first.type !== AST_NODE_TYPES.SpreadElement && isPlainSleepHelper(helper)) return { wait: call, delay: first };
    if (helper.params.length > 0 && first && first.type !== AST_NODE_TYPES.SpreadElement) return { wait: call, delay: call };
    if (helper.params.length === 0) return { wait: call, delay: call };
    return { wait: call };
  }

  private resolveLocalFunction(callee: TSESTree.Node): FunctionNode | undefined {
    if (callee.type !== AST_NODE_TYPES.Identifier) return undefined;
    const variable = ASTUtils.findVariable(this.context.sourceCode.getScope(callee) as TSESLint.Scope.Scope, callee);
    const definition = variable?.defs[0];
    if (!definition) return undefined;
    if (isFunctionNode(definition.node)) return definition.node;
    if (definition.node.type === AST_NODE_TYPES.VariableDeclarator && definition.node.init && isFunctionNode(definition.node.init)) {
      return definition.node.init;
    }
    return undefined;
  }

  // -------------------------------------------------------------------------
  // Shape of a delay expression

  /** `params` maps a helper's parameter names to the caller's arguments. */
  private getShape(expression: TSESTree.Node, params: ReadonlyMap<string, TSESTree.Node>, depth: number): Shape {
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
        // `DELAYS[attempt]`: a schedule; `config.retryDelay`: a setting. Constant only when nothing varies.
        const inner = merge(recurse(expression.object), expression.computed ? recurse(expression.property) : CONSTANT);
        return inner.growth === 'none' && !inner.jittered ? { ...inner, unknown: inner.unknown } : { ...inner, unknown: true };
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
      const hasFixedBound = shapes.some((shape) => shape.growth === 'none' && !shape.unknown);
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
    const helper = this.resolveLocalFunction(call.callee);
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
    if (argShapes.growth !== 'none') return { ...argShapes, growth: 'exponential', unknown: true, capped: false };
    return { ...argShapes, unknown: true };
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
    if (this.countingDown.has(identifier.name)) return UNKNOWN;
    if (this.counters.has(identifier.name)) return { ...CONSTANT, growth: 'linear' };
    const variable = ASTUtils.findVariable(this.context.sourceCode.getScope(identifier) as TSESLint.Scope.Scope, identifier);
    if (!variable || variable.defs.length === 0) return UNKNOWN;
    const definition = variable.defs[0];
    if (!definition) return UNKNOWN;
    if (definition.type === 'Parameter') {
      return ATTEMPT_NAME.test(identifier.name) ? { ...CONSTANT, growth: 'linear' } : this.getParameterShape(identifier.name);
    }
    if (definition.node.type !== AST_NODE_TYPES.VariableDeclarator) return UNKNOWN;
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
          shape = { ...shape, unknown: true };
        }
      } else if (assignment?.type === AST_NODE_TYPES.UpdateExpression) {
        shape = { ...shape, growth: GROWTH_ORDER[shape.growth] > 1 ? shape.growth : 'linear' };
      }
    }
    if (this.hasClampAssignment(identifier.name)) shape = { ...shape, capped: true };
    return shape;
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

  // -------------------------------------------------------------------------
  // Bound on the number of attempts

  private isBounded(): boolean | undefined {
    const { scope, keys } = this;
    const isCounter = (name: string): boolean => this.counters.has(name) || ATTEMPT_NAME.test(name);
    /** `this.retries`: a counter kept on the object. */
    const isCounterField = (node: TSESTree.Node): boolean =>
      node.type === AST_NODE_TYPES.MemberExpression &&
      node.object.type === AST_NODE_TYPES.ThisExpression &&
      !node.computed &&
      node.property.type === AST_NODE_TYPES.Identifier &&
      ATTEMPT_NAME.test(node.property.name);
    const comparesCounter = (node: TSESTree.Node): boolean => {
      let found = false;
      walkOwnCode(node, keys, (child) => {
        if (
          child.type === AST_NODE_TYPES.BinaryExpression &&
          ['<', '<=', '>', '>=', '===', '==', '!==', '!='].includes(child.operator) &&
          ([...collectIdentifierNames(child, keys)].some(isCounter) || [child.left, child.right].some(isCounterField))
        ) {
          found = true;
        }
        // `if (!retriesLeft)`, `while (retries--)`
        if (child.type === AST_NODE_TYPES.UnaryExpression && child.operator === '!' && child.argument.type === AST_NODE_TYPES.Identifier && isCounter(child.argument.name)) {
          found = true;
        }
        if (child.type === AST_NODE_TYPES.UpdateExpression && child.argument.type === AST_NODE_TYPES.Identifier && isCounter(child.argument.name) && child.operator === '--') {
          found = true;
        }
        return !found;
      }, true);
      return found;
    };
    if (scope.kind === 'catch-retry') {
      // A `.catch` that calls the same thing again retries once; a named retry helper decides for itself.
      return undefined;
    }
    if (scope.kind === 'loop') {
      const loop = scope.node;
      if (loop.type === AST_NODE_TYPES.ForOfStatement) return true;
      const test =
        loop.type === AST_NODE_TYPES.ForStatement || loop.type === AST_NODE_TYPES.WhileStatement || loop.type === AST_NODE_TYPES.DoWhileStatement
          ? loop.test
          : null;
      if (test && comparesCounter(test)) return true;
      if (this.hasGuardedExit(scope.attempt, comparesCounter)) return true;
      // A condition we cannot read as a counter (`while (shouldRetry(err))`) may still bound it.
      if (test && !isAlwaysTrue(test) && !isFlagTest(test)) return undefined;
      return false;
    }
    // Recursion: a comparison of the counter that guards the self-call or a throw.
    return comparesCounter(scope.attempt) ? true : scope.attemptVariable ? undefined : false;
  }

  /** `if (attempt >= MAX) throw err;` (or return/break) anywhere in the attempt. */
  private hasGuardedExit(root: TSESTree.Node, comparesCounter: (node: TSESTree.Node) => boolean): boolean {
    let found = false;
    walkOwnCode(root, this.keys, (node) => {
      if (node.type === AST_NODE_TYPES.IfStatement && comparesCounter(node.test)) {
        // `if (attempt >= MAX) throw err;`, `if (attempt < MAX) { … } else throw err;`, or
        // `if (retryable && attempt < MAX) continue; throw err;`: going round only under the limit.
        if (leavesSomewhere(node.consequent) || (node.alternate && leavesSomewhere(node.alternate))) found = true;
        else if (isContinue(node.consequent) && isFollowedByExit(node)) found = true;
      }
      if (
        node.type === AST_NODE_TYPES.ConditionalExpression &&
        comparesCounter(node.test)
      ) {
        found = true;
      }
      return !found;
    });
    return found;
  }

  // -------------------------------------------------------------------------
  // Largest wait

  /** The longest wait, evaluating the delay at the loop's last attempt with Math.random() = 1. */
  private getLargestDelay(delay: TSESTree.Expression): number | undefined {
    const last = this.getLastAttemptNumber();
    if (last === undefined || !this.scope.attemptVariable) return undefined;
    const value = evaluate(delay, { [this.scope.attemptVariable]: last }, this.context, 0);
    return value !== undefined && Number.isFinite(value) ? value : undefined;
  }

  private getLastAttemptNumber(): number | undefined {
    const loop = this.scope.node;
    const counter = this.scope.attemptVariable;
    if (!counter) return undefined;
    const test =
      loop.type === AST_NODE_TYPES.ForStatement || loop.type === AST_NODE_TYPES.WhileStatement || loop.type === AST_NODE_TYPES.DoWhileStatement
        ? loop.test
        : undefined;
    let last: number | undefined;
    if (!test) return this.getLastAttemptFromGuard(counter);
    walkOwnCode(test, this.keys, (node) => {
      if (node.type !== AST_NODE_TYPES.BinaryExpression || last !== undefined) return last === undefined;
      const left = node.left.type === AST_NODE_TYPES.UpdateExpression ? node.left.argument : node.left;
      if (left.type !== AST_NODE_TYPES.Identifier || left.name !== counter) return true;
      const bound = ASTUtils.getStaticValue(node.right, this.context.sourceCode.getScope(node) as TSESLint.Scope.Scope);
      if (!bound || typeof bound.value !== 'number') return true;
      if (node.operator === '<') last = bound.value - 1;
      if (node.operator === '<=') last = bound.value;
      return last === undefined;
    });
    return last ?? this.getLastAttemptFromGuard(counter);
  }

  /** `if (attempt >= 5) throw err;` / `if (++attempts > 5) throw err;`: the counter's largest value before a wait. */
  private getLastAttemptFromGuard(counter: string): number | undefined {
    let last: number | undefined;
    walkOwnCode(this.scope.attempt, this.keys, (node) => {
      if (last !== undefined) return false;
      if (node.type !== AST_NODE_TYPES.IfStatement || node.test.type !== AST_NODE_TYPES.BinaryExpression || !leavesSomewhere(node.consequent)) {
        return true;
      }
      const test = node.test;
      const left = test.left.type === AST_NODE_TYPES.UpdateExpression ? test.left.argument : test.left;
      if (left.type !== AST_NODE_TYPES.Identifier || left.name !== counter) return true;
      const bound = ASTUtils.getStaticValue(test.right, this.context.sourceCode.getScope(test) as TSESLint.Scope.Scope);
      if (!bound || typeof bound.value !== 'number') return true;
      if (test.operator === '>') last = bound.value;
      else if (test.operator === '>=' || test.operator === '===' || test.operator === '==') last = bound.value - 1;
      return last === undefined;
    });
    return last;
  }
}

// ---------------------------------------------------------------------------
// Helpers

export { evaluateDelay } from './retry-delay-value';
export { getCalleeName } from './retry-wait-calls';

function merge(a: Shape, b: Shape): Shape {
  return {
    growth: GROWTH_ORDER[a.growth] >= GROWTH_ORDER[b.growth] ? a.growth : b.growth,
    capped: a.capped || b.capped,
    jittered: a.jittered || b.jittered,
    unknown: a.unknown || b.unknown,
  };
}


function isAlwaysTrue(test: TSESTree.Expression): boolean {
  return (test.type === AST_NODE_TYPES.Literal && Boolean(test.value)) || (test.type === AST_NODE_TYPES.UnaryExpression && test.operator === '!' && test.argument.type === AST_NODE_TYPES.Literal && !test.argument.value);
}

/** `while (!done)`, `while (retry)`: a flag, not a count. */
function isFlagTest(test: TSESTree.Expression): boolean {
  if (test.type === AST_NODE_TYPES.Identifier) return true;
  if (test.type === AST_NODE_TYPES.UnaryExpression && test.operator === '!') return isFlagTest(test.argument);
  if (test.type === AST_NODE_TYPES.LogicalExpression) return isFlagTest(test.left) && isFlagTest(test.right);
  return false;
}

function isContinue(statement: TSESTree.Statement): boolean {
  if (statement.type === AST_NODE_TYPES.ContinueStatement) return true;
  return statement.type === AST_NODE_TYPES.BlockStatement && statement.body.length > 0 && isContinue(statement.body[statement.body.length - 1] as TSESTree.Statement);
}

/** The statement right after `node` in its block leaves (`if (…) continue; throw err;`). */
function isFollowedByExit(node: TSESTree.Statement): boolean {
  const parent = node.parent;
  if (parent?.type !== AST_NODE_TYPES.BlockStatement) return false;
  const next = parent.body[parent.body.indexOf(node) + 1];
  return next !== undefined && leavesSomewhere(next) && next.type !== AST_NODE_TYPES.IfStatement;
}

function leavesSomewhere(statement: TSESTree.Statement): boolean {
  if (
    statement.type === AST_NODE_TYPES.ThrowStatement ||
    statement.type === AST_NODE_TYPES.ReturnStatement ||
    statement.type === AST_NODE_TYPES.BreakStatement
  ) {
    return true;
  }
  if (statement.type === AST_NODE_TYPES.BlockStatement) return statement.body.some(leavesSomewhere);
  if (statement.type === AST_NODE_TYPES.IfStatement) return leavesSomewhere(statement.consequent);
  return false;
}

