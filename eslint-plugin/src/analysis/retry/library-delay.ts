import { AST_NODE_TYPES, ASTUtils, type TSESLint, type TSESTree } from '@typescript-eslint/utils';
import type { AnyRuleContext } from '../per-file-cache';
import { type FunctionNode, isFunctionNode } from '../ast';
import { evaluateDelay } from './delay-arithmetic';
import { getDelayExpressionFacts } from './delay-shape';
import type { LibraryDelayDetails, RetryDelayFacts } from './delay-facts';
import type { RetryScope } from './retry-scope';

/**
 * Delay facts of retry libraries, from their options and documented defaults:
 * - node-retry family (`retry`, `p-retry`, `promise-retry`, `async-retry`): retries 10,
 *   factor 2, minTimeout 1000, maxTimeout Infinity, randomize false — except async-retry,
 *   whose `randomize` defaults to true.
 * - `exponential-backoff`: numOfAttempts 10, startingDelay 100, timeMultiple 2,
 *   maxDelay Infinity, jitter 'none'.
 * - `cockatiel` `retry()`: maxAttempts Infinity, backoff `ConstantBackoff(0)` (no wait);
 *   `ExponentialBackoff` is capped at 30 s and jittered unless given `noJitterGenerator`.
 * - AWS SDK `ConfiguredRetryStrategy(maxAttempts, delay)`: delay a number (constant,
 *   100 ms by default) or a function of the attempt; no jitter of its own.
 * - async's `retry([opts,] task)`: `times` 5 and `interval` 0 (no wait); `opts` may be the
 *   number of attempts alone; `interval` a number (constant) or a function of the retry
 *   count (1 before the second attempt); no cap or jitter of its own.
 */


type Value = number | boolean | string | null | undefined;

const NODE_RETRY = new Set(['p-retry', 'async-retry', 'promise-retry', 'retry']);

export function getLibraryDelayFacts(context: AnyRuleContext, scope: RetryScope): RetryDelayFacts {
  const library = scope.library ?? '';
  const read = readOptions(context, scope.options);
  const unknownRest = scope.optionsUnknown === true || read.hasSpread;
  /** An option's value: written, else the default (unknown when the options cannot all be read). */
  const get = (key: string, fallback: Value): Value => {
    if (read.values.has(key)) return read.values.get(key);
    return unknownRest ? undefined : fallback;
  };
  const details: LibraryDelayDetails = { properties: read.properties };
  if (scope.options) details.options = scope.options;

  if (NODE_RETRY.has(library)) {
    const retries = num(get('retries', 10));
    const forever = get('forever', false);
    const factor = num(get('factor', 2));
    const minTimeout = num(get('minTimeout', 1000));
    const maxTimeout = num(get('maxTimeout', Infinity));
    const randomize = get('randomize', library === 'async-retry');
    details.jitterFix = { key: 'randomize', value: 'true' };
    details.capKey = 'maxTimeout';
    setIf(details, 'growthProperty', read.properties.get('factor'), factor !== undefined && factor <= 1);
    setIf(details, 'jitterProperty', read.properties.get('randomize'), randomize === false);
    setIf(details, 'boundProperty', read.properties.get('forever') ?? read.properties.get('retries'), forever === true || retries === Infinity);
    setIf(details, 'waitProperty', read.properties.get('minTimeout'), minTimeout === 0);
    const facts: RetryDelayFacts = {
      waits: minTimeout === undefined ? undefined : minTimeout > 0,
      growth: factor === undefined ? undefined : factor > 1 ? 'exponential' : 'none',
      capped: maxTimeout === undefined ? undefined : Number.isFinite(maxTimeout),
      jittered: typeof randomize === 'boolean' ? randomize : undefined,
      bounded: forever === undefined || retries === undefined ? undefined : forever !== true && Number.isFinite(retries),
      library: details,
    };
    if (retries !== undefined && factor !== undefined && minTimeout !== undefined && maxTimeout !== undefined && Number.isFinite(retries)) {
      const largest = Math.min(maxTimeout, minTimeout * factor ** Math.max(0, retries - 1) * (randomize === false ? 1 : 2));
      if (Number.isFinite(largest)) facts.maxDelayMs = largest;
    }
    if (retries === 0) facts.bounded = true;
    return facts;
  }

  if (library === 'exponential-backoff') {
    const attempts = num(get('numOfAttempts', 10));
    const startingDelay = num(get('startingDelay', 100));
    const timeMultiple = num(get('timeMultiple', 2));
    const maxDelay = num(get('maxDelay', Infinity));
    const jitter = get('jitter', 'none');
    details.jitterFix = { key: 'jitter', value: "'full'" };
    details.capKey = 'maxDelay';
    setIf(details, 'growthProperty', read.properties.get('timeMultiple'), timeMultiple !== undefined && timeMultiple <= 1);
    setIf(details, 'jitterProperty', read.properties.get('jitter'), jitter === 'none');
    setIf(details, 'boundProperty', read.properties.get('numOfAttempts'), attempts === Infinity);
    setIf(details, 'waitProperty', read.properties.get('startingDelay'), startingDelay === 0);
    const facts: RetryDelayFacts = {
      waits: startingDelay === undefined ? undefined : startingDelay > 0,
      growth: timeMultiple === undefined ? undefined : timeMultiple > 1 ? 'exponential' : 'none',
      capped: maxDelay === undefined ? undefined : Number.isFinite(maxDelay),
      jittered: typeof jitter === 'string' ? jitter !== 'none' : undefined,
      bounded: attempts === undefined ? undefined : Number.isFinite(attempts),
      library: details,
    };
    if (attempts !== undefined && startingDelay !== undefined && timeMultiple !== undefined && maxDelay !== undefined && Number.isFinite(attempts)) {
      const largest = Math.min(maxDelay, startingDelay * timeMultiple ** Math.max(0, attempts - 1));
      if (Number.isFinite(largest)) facts.maxDelayMs = largest;
    }
    return facts;
  }

  if (library === 'cockatiel') return getCockatielFacts(context, get, read, details);
  if (library === 'async') return getAsyncRetryFacts(context, scope, get, read, details);
  if (library === '@aws-sdk/util-retry' || library === '@smithy/util-retry') return getStrategyFacts(context, scope, details);
  return { waits: undefined, growth: undefined, capped: undefined, jittered: undefined, bounded: undefined, library: details };
}

function getCockatielFacts(
  context: AnyRuleContext,
  get: (key: string, fallback: Value) => Value,
  read: ReadOptions,
  details: LibraryDelayDetails,
): RetryDelayFacts {
  const maxAttempts = num(get('maxAttempts', Infinity));
  setIf(details, 'boundProperty', read.properties.get('maxAttempts'), maxAttempts === Infinity);
  const bounded = maxAttempts === undefined ? undefined : Number.isFinite(maxAttempts);
  const backoffProperty = read.properties.get('backoff');
  if (!backoffProperty) {
    const missing = read.values.has('backoff') || get('backoff', null) === undefined;
    if (missing) return { waits: undefined, growth: undefined, capped: undefined, jittered: undefined, bounded, library: details };
    return { waits: false, growth: 'none', capped: false, jittered: false, bounded, library: details };
  }
  const backoff = backoffProperty.value;
  if (backoff.type !== AST_NODE_TYPES.NewExpression || backoff.callee.type !== AST_NODE_TYPES.Identifier) {
    return { waits: undefined, growth: undefined, capped: undefined, jittered: undefined, bounded, library: details };
  }
  const className = backoff.callee.name;
  if (className === 'ConstantBackoff') {
    const ms = backoff.arguments[0] ? num(staticValue(context, backoff.arguments[0])) : 0;
    return { waits: ms === undefined ? undefined : ms > 0, growth: 'none', capped: true, jittered: false, bounded, library: details };
  }
  if (className === 'ExponentialBackoff') {
    const inner = readOptions(context, backoff.arguments[0]?.type === AST_NODE_TYPES.ObjectExpression ? backoff.arguments[0] : undefined);
    const unknown = inner.hasSpread || (backoff.arguments[0] !== undefined && backoff.arguments[0].type !== AST_NODE_TYPES.ObjectExpression);
    const generator = inner.properties.get('generator')?.value;
    const noJitter = generator?.type === AST_NODE_TYPES.Identifier && generator.name === 'noJitterGenerator';
    const maxDelay = inner.values.has('maxDelay') ? num(inner.values.get('maxDelay')) : unknown ? undefined : 30000;
    const exponent = inner.values.has('exponent') ? num(inner.values.get('exponent')) : unknown ? undefined : 2;
    if (noJitter && inner.properties.get('generator')) details.jitterProperty = inner.properties.get('generator');
    const facts: RetryDelayFacts = {
      waits: true,
      growth: exponent === undefined ? undefined : exponent > 1 ? 'exponential' : 'none',
      capped: maxDelay === undefined ? undefined : Number.isFinite(maxDelay),
      jittered: noJitter ? false : generator === undefined && !unknown ? true : generator !== undefined ? true : undefined,
      bounded,
      library: details,
    };
    if (maxDelay !== undefined && Number.isFinite(maxDelay)) facts.maxDelayMs = maxDelay;
    return facts;
  }
  return { waits: undefined, growth: undefined, capped: undefined, jittered: undefined, bounded, library: details };
}

function getStrategyFacts(context: AnyRuleContext, scope: RetryScope, details: LibraryDelayDetails): RetryDelayFacts {
  const node = scope.node as TSESTree.NewExpression;
  const [attemptsArg, delayArg] = node.arguments;
  const maxAttempts = attemptsArg ? num(staticValue(context, attemptsArg)) : undefined;
  const bounded = maxAttempts === undefined ? undefined : Number.isFinite(maxAttempts);
  if (!delayArg) return { waits: true, growth: 'none', capped: true, jittered: false, bounded, library: details, maxDelayMs: 100 };
  // The SDK passes the retry count; the last wait comes before attempt `maxAttempts`.
  if (isFunctionNode(delayArg)) return getDelayFunctionFacts(context, delayArg, maxAttempts, bounded, details);
  const ms = num(staticValue(context, delayArg));
  if (ms === undefined) return { waits: undefined, growth: undefined, capped: undefined, jittered: undefined, bounded, library: details };
  return { waits: ms > 0, delay: delayArg as TSESTree.Expression, growth: 'none', capped: true, jittered: false, bounded, library: details, maxDelayMs: ms };
}

/** A wait computed by a function of the retry count (`(n) => 100 * 2 ** n`); `lastCount` is the count passed before the last attempt. */
function getDelayFunctionFacts(
  context: AnyRuleContext,
  delay: FunctionNode,
  lastCount: number | undefined,
  bounded: boolean | undefined,
  details: LibraryDelayDetails,
): RetryDelayFacts {
  const param = delay.params[0];
  const body = delay.body.type === AST_NODE_TYPES.BlockStatement ? getReturnedExpression(delay.body) : delay.body;
  if (!body) return { waits: undefined, growth: undefined, capped: undefined, jittered: undefined, bounded, library: details };
  const fnScope: RetryScope = { kind: 'recursion', node: delay, attempt: delay.body, handlers: [] };
  if (param?.type === AST_NODE_TYPES.Identifier) fnScope.attemptVariable = param.name;
  const shape = getDelayExpressionFacts(context, fnScope, body);
  const facts: RetryDelayFacts = { waits: true, delay: body, ...shape, bounded, library: details };
  if (fnScope.attemptVariable && lastCount !== undefined && Number.isFinite(lastCount)) {
    const largest = evaluateDelay(body, { [fnScope.attemptVariable]: lastCount }, context);
    if (largest !== undefined && Number.isFinite(largest)) facts.maxDelayMs = largest;
  }
  return facts;
}

/** async's `retry`: `times` (or the number given in place of the options) and `interval`. */
function getAsyncRetryFacts(
  context: AnyRuleContext,
  scope: RetryScope,
  get: (key: string, fallback: Value) => Value,
  read: ReadOptions,
  details: LibraryDelayDetails,
): RetryDelayFacts {
  const first = scope.node.type === AST_NODE_TYPES.CallExpression ? scope.node.arguments[0] : undefined;
  const timesAlone = first && first.type !== AST_NODE_TYPES.ObjectExpression && !isFunctionNode(first) ? num(staticValue(context, first)) : undefined;
  // async reads `+times || 5`: `times: 0` makes five attempts too.
  const written = timesAlone ?? num(get('times', 5));
  const times = written === 0 ? 5 : written;
  const bounded = times === undefined ? undefined : Number.isFinite(times);
  setIf(details, 'boundProperty', read.properties.get('times'), times === Infinity);
  const intervalProperty = read.properties.get('interval');
  if (timesAlone === undefined && intervalProperty && isFunctionNode(intervalProperty.value)) {
    // async passes the retry count, 1 before the second attempt: `times - 1` before the last.
    return getDelayFunctionFacts(context, intervalProperty.value, times === undefined ? undefined : times - 1, bounded, details);
  }
  const interval = timesAlone === undefined ? num(get('interval', 0)) : 0;
  setIf(details, 'waitProperty', intervalProperty, interval === 0);
  if (interval === undefined) return { waits: undefined, growth: undefined, capped: undefined, jittered: undefined, bounded, library: details };
  const facts: RetryDelayFacts = { waits: interval > 0, growth: 'none', capped: true, jittered: false, bounded, library: details, maxDelayMs: interval };
  if (intervalProperty) facts.delay = intervalProperty.value as TSESTree.Expression;
  return facts;
}

function getReturnedExpression(block: TSESTree.BlockStatement): TSESTree.Expression | undefined {
  const last = block.body.at(-1);
  return last?.type === AST_NODE_TYPES.ReturnStatement && last.argument ? last.argument : undefined;
}

interface ReadOptions {
  properties: Map<string, TSESTree.Property>;
  values: Map<string, Value>;
  hasSpread: boolean;
}

function readOptions(context: AnyRuleContext, options: TSESTree.ObjectExpression | undefined): ReadOptions {
  const result: ReadOptions = { properties: new Map(), values: new Map(), hasSpread: false };
  if (!options) return result;
  for (const property of options.properties) {
    if (property.type !== AST_NODE_TYPES.Property) {
      result.hasSpread = true;
      continue;
    }
    const key = property.computed ? undefined : property.key.type === AST_NODE_TYPES.Identifier ? property.key.name : property.key.type === AST_NODE_TYPES.Literal ? String(property.key.value) : undefined;
    if (key === undefined) {
      result.hasSpread = true;
      continue;
    }
    result.properties.set(key, property);
    result.values.set(key, isFunctionNode(property.value) ? 'function' : staticValue(context, property.value));
  }
  return result;
}

function staticValue(context: AnyRuleContext, node: TSESTree.Node): Value {
  const found = ASTUtils.getStaticValue(node, context.sourceCode.getScope(node) as TSESLint.Scope.Scope);
  if (!found) return undefined;
  const value = found.value;
  return typeof value === 'number' || typeof value === 'boolean' || typeof value === 'string' || value === null ? value : undefined;
}

function num(value: Value): number | undefined {
  return typeof value === 'number' ? value : undefined;
}

function setIf(details: LibraryDelayDetails, key: 'growthProperty' | 'jitterProperty' | 'boundProperty' | 'waitProperty', property: TSESTree.Property | undefined, condition: boolean): void {
  if (condition && property) details[key] = property;
}
