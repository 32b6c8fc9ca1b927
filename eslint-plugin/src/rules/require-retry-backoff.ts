import { AST_NODE_TYPES, type TSESLint, type TSESTree } from '@typescript-eslint/utils';
import { type Database, getUnprocessedResult, isPassedToDynamoDbClient } from '../analysis/clients';
import { getDatabaseLabel } from '../analysis/errors';
import { checkDatabaseRetryScopes, describePassedFrom, findOwnCalls, findRetriedDbCalls, getFunctionName, isSentBeforeLoop, getRetryDelayFacts, type RetryDelayFacts, type RetryScope, SERVICE_BACKOFF, SUGGESTED_MAX_ATTEMPTS } from '../analysis/retry';
import { containsNode, isFunctionNode, isInAsyncFunction, isLoopNode, visitNodes } from '../analysis/ast';
import {
  appendProperty,
  type AttemptLimitEdit,
  getAttemptLimitFix,
  getBackoffDelayText,
  getCodeStyle,
  getInsertBeforeStatementFix,
  getLeftoverLoopFix,
  getLeftoverRecursionFix,
  getLeftoverResendFix,
  getRecursionLimitFix,
  getTimerRetryLimitFix,
  getWaitStatement,
  type RecursionLimitEdit,
  insertLine,
  replaceBlock,
} from '../fix';
import { createRule } from '../util/create-rule';
import { quoteCode } from '../util/quote-code';
import { getLoopHeadLoc } from '../util/loop-head';

type MessageId =
  | 'unbounded'
  | 'noWait'
  | 'constantDelay'
  | 'uncappedDelay'
  | 'noJitter'
  | 'useBackoff'
  | 'limitAttempts'
  | 'limitRecursion'
  | 'waitBeforeResend'
  | 'waitBeforeLimitedResend'
  | 'limitTimerRetry'
  | 'countTimerRetry'
  | 'limitTimerRetryEvent'
  | 'countTimerRetryEvent'
  | 'setOption'
  | 'addJitter';

interface ServiceDelay {
  baseDelayMs?: number;
  maxDelayMs?: number;
}

type Options = [
  {
    requireJitter?: boolean;
    dynamodb?: ServiceDelay;
    postgres?: ServiceDelay;
    mongodb?: ServiceDelay;
  },
];

const DEFAULT_OPTIONS: Options = [
  {
    requireJitter: true,
    dynamodb: { ...SERVICE_BACKOFF.dynamodb },
    postgres: { ...SERVICE_BACKOFF.postgres },
    mongodb: { ...SERVICE_BACKOFF.mongodb },
  },
];

const serviceSchema = (name: string) => ({
  type: 'object' as const,
  description: `Backoff values suggested for ${name} retries.`,
  properties: {
    baseDelayMs: { type: 'number' as const, minimum: 1, description: `Wait before the first ${name} retry, in milliseconds (doubled for each further retry).` },
    maxDelayMs: { type: 'number' as const, minimum: 1, description: `Longest wait between ${name} retries, in milliseconds.` },
  },
  additionalProperties: false,
});

export default createRule<Options, MessageId>({
  name: 'require-retry-backoff',
  meta: {
    type: 'problem',
    docs: {
      description: 'Require capped, jittered exponential backoff and a bounded attempt count in database retries.',
      database: 'any',
    },
    hasSuggestions: true,
    messages: {
      unbounded:
        '{{subject}} of {{database}} `{{operation}}`{{origin}} has no limit on its attempts{{detail}}: it retries forever while {{database}} is down. Stop after a few attempts.',
      noWait:
        '{{subject}} of {{database}} `{{operation}}`{{origin}} tries again at once{{detail}}, adding load to a failing database. Wait {{backoff}} before each retry.',
      constantDelay:
        '{{subject}} of {{database}} `{{operation}}`{{origin}} waits the same time before every attempt{{detail}}, so it never backs off. Wait {{backoff}} instead.',
      uncappedDelay:
        '{{subject}} of {{database}} `{{operation}}`{{origin}} grows its wait with no cap{{detail}}, so one retry can wait for minutes. Cap the wait at {{maxDelay}}.',
      noJitter:
        '{{subject}} of {{database}} `{{operation}}`{{origin}} waits without jitter{{detail}}, so clients that failed together retry together. Make each wait random (full jitter).',
      useBackoff: 'Wait a random time up to min({{maxDelayMs}} ms, {{baseDelayMs}} ms × 2 ** {{variable}}) before the next attempt.',
      limitAttempts:
        'Count the attempts, rethrow the error after {{maxAttempts}}, and wait a random time up to min({{maxDelayMs}} ms, {{baseDelayMs}} ms × 2 ** {{variable}}) between them.',
      limitRecursion: 'Count the attempts in a new `{{variable}}` parameter (1 by default) and rethrow the error after {{maxAttempts}}.',
      limitTimerRetry: 'Stop after {{maxAttempts}} attempts: once `{{counter}}` reaches {{maxAttempts}}, pass an error to `{{callback}}` instead of setting the timer.',
      countTimerRetry:
        'Count the attempts in a new `{{counter}}` parameter (1 by default) and stop after {{maxAttempts}}: pass an error to `{{callback}}` instead of setting the timer.',
      limitTimerRetryEvent:
        'Stop after {{maxAttempts}} attempts: once `{{counter}}` reaches {{maxAttempts}}, emit an `error` event on `{{emitter}}` instead of setting the timer.',
      countTimerRetryEvent:
        'Count the attempts in a new `{{counter}}` parameter (1 by default) and stop after {{maxAttempts}}: emit an `error` event on `{{emitter}}` instead of setting the timer.',
      waitBeforeResend:
        'Wait a random time up to min({{maxDelayMs}} ms, {{baseDelayMs}} ms × 2 ** attempt) before each re-send of `{{property}}`, and throw once {{maxAttempts}} responses in a row leave some.',
      waitBeforeLimitedResend: 'Wait a random time up to min({{maxDelayMs}} ms, {{baseDelayMs}} ms × 2 ** attempt) before each re-send of `{{property}}` (the loop already limits its rounds).',
      setOption: 'Set `{{option}}` in the {{library}} options.',
      addJitter: 'Make the wait random: multiply it by `Math.random()` (full jitter), keeping how it grows and any cap it has.',
    },
    schema: [
      {
        type: 'object',
        properties: {
          requireJitter: { type: 'boolean', description: 'Report retries whose wait has no random part.' },
          dynamodb: serviceSchema('DynamoDB'),
          postgres: serviceSchema('PostgreSQL'),
          mongodb: serviceSchema('MongoDB'),
        },
        additionalProperties: false,
      },
    ],
    defaultOptions: DEFAULT_OPTIONS,
  },
  defaultOptions: DEFAULT_OPTIONS,
  create(context, [options]) {
    return checkDatabaseRetryScopes(context, () => createScopeCheck(context, options));
  },
});

/** The checks of one file, made only when it has something to check (most files have not). */
function createScopeCheck(context: Readonly<TSESLint.RuleContext<MessageId, Options>>, options: Options[0]): (scope: RetryScope) => void {
  const sourceCode = context.sourceCode;

  function getServiceDelay(database: Database): Required<ServiceDelay> {
    const defaults = DEFAULT_OPTIONS[0][database] as Required<ServiceDelay>;
    const given = options[database] ?? {};
    return { baseDelayMs: given.baseDelayMs ?? defaults.baseDelayMs, maxDelayMs: given.maxDelayMs ?? defaults.maxDelayMs };
  }

  /** Capped exponential backoff with full jitter, with the database's base and cap (the rule's options). */
  function describeBackoff({ baseDelayMs, maxDelayMs }: Required<ServiceDelay>): string {
    return `a random time up to min(${formatMs(maxDelayMs)}, ${formatMs(baseDelayMs)} × 2^attempt)`;
  }

  /** The database this retry talks to, and the first call, or undefined when it reaches none. */
  function getRetriedCall(scope: RetryScope): { database: Database; operation: string; origin: string } | undefined {
    if (scope.libraryFunction === 'ConfiguredRetryStrategy') {
      return isPassedToDynamoDbClient(context, scope.node) ? { database: 'dynamodb', operation: 'send', origin: '' } : undefined;
    }
    // Calls made while handling a failure (logging it to a table, say) are not the retried work.
    const retriedCalls = findRetriedDbCalls(context, scope).filter(({ site }) => !scope.handlers.some((handler) => containsNode(handler, site)));
    const [retried] = retriedCalls;
    return retried ? { database: retried.call.database, operation: retried.call.operation, origin: describePassedFrom(context, retried, retriedCalls) } : undefined;
  }

  function check(scope: RetryScope): void {
    const retried = getRetriedCall(scope);
    if (!retried) return;
    const facts = getRetryDelayFacts(context, scope);
    const { database, operation, origin } = retried;
    const service = getServiceDelay(database);
    const base = {
      subject: scope.kind === 'library' && scope.library ? `This \`${scope.library}\` retry` : 'This retry',
      database: getDatabaseLabel(database),
      operation,
      origin,
      backoff: describeBackoff(service),
      maxDelay: formatMs(service.maxDelayMs),
    };
    const details = facts.library;
    const resendSuggestion = getLeftoverResendSuggestion(scope, facts, service, operation);

    if (facts.bounded === false) {
      const property = details?.boundProperty;
      context.report({
        loc: property ? property.loc : getHeadLoc(scope),
        messageId: 'unbounded',
        data: { ...base, detail: property ? ` (\`${quoteCode(sourceCode.getText(property))}\`)` : getDefaultDetail(scope, 'bound') },
        suggest: property ? [] : resendSuggestion ?? orElse(getAttemptLimitSuggestion(scope, facts, service), () => getTimerLimitSuggestion(scope, retried)),
      });
    }

    if (facts.waits === false) {
      const property = details?.waitProperty;
      context.report({
        loc: property ? property.loc : getHeadLoc(scope),
        messageId: 'noWait',
        data: { ...base, detail: property ? ` (\`${quoteCode(sourceCode.getText(property))}\`)` : getDefaultDetail(scope, 'wait') },
        suggest: resendSuggestion ?? getBackoffSuggestion(scope, facts, service, 'insert'),
      });
      return;
    }
    if (facts.waits !== true) return;

    // With one retry at most there is one wait: nothing to grow.
    if (facts.growth === 'none' && !(facts.maxAttempts !== undefined && facts.maxAttempts <= 2)) {
      const property = details?.growthProperty;
      context.report({
        loc: property ? property.loc : getDelayLoc(scope, facts),
        messageId: 'constantDelay',
        data: { ...base, detail: property ? ` (\`${quoteCode(sourceCode.getText(property))}\`)` : '' },
        suggest: property ? setOptionSuggestion(scope, property, '2') : resendSuggestion ?? getBackoffSuggestion(scope, facts, service, 'replace'),
      });
      // A hand-written delay gets one report (its suggestion rewrites the whole delay); a library's
      // options each get their own, as each has its own fix.
      if (!property) return;
    }

    if (
      facts.growth === 'exponential' &&
      facts.capped === false &&
      (facts.maxDelayMs === undefined || facts.maxDelayMs > service.maxDelayMs)
    ) {
      const reasons = [
        facts.maxDelayMs !== undefined ? `up to ${formatMs(facts.maxDelayMs)}` : '',
        details ? getDefaultText(scope, 'cap') : '',
      ].filter(Boolean);
      context.report({
        loc: details ? getLibraryLoc(scope) : getDelayLoc(scope, facts),
        messageId: 'uncappedDelay',
        data: { ...base, detail: reasons.length > 0 ? ` (${reasons.join('; ')})` : '' },
        suggest: details?.capKey ? addOptionSuggestion(scope, details.capKey, String(service.maxDelayMs)) : details ? [] : resendSuggestion ?? getBackoffSuggestion(scope, facts, service, 'replace'),
      });
      if (!details) return;
    }

    if (options.requireJitter !== false && facts.jittered === false) {
      const property = details?.jitterProperty;
      const fix = details?.jitterFix;
      context.report({
        loc: property ? property.loc : details ? getLibraryLoc(scope) : getDelayLoc(scope, facts),
        messageId: 'noJitter',
        data: { ...base, detail: property ? ` (\`${quoteCode(sourceCode.getText(property))}\`)` : getDefaultDetail(scope, 'jitter') },
        suggest: fix
          ? property && property.value.type !== AST_NODE_TYPES.AssignmentPattern
            ? setOptionSuggestion(scope, property, fix.value)
            : addOptionSuggestion(scope, fix.key, fix.value)
          : details
            ? []
            : resendSuggestion ?? getJitterSuggestion(scope, facts, service),
      });
    }
  }

  /** Why a library's default removes a property: "(p-retry's default `randomize` is false)". */
  function getDefaultDetail(scope: RetryScope, what: 'bound' | 'wait' | 'cap' | 'jitter'): string {
    const text = getDefaultText(scope, what);
    return text ? ` (${text})` : '';
  }

  function getDefaultText(scope: RetryScope, what: 'bound' | 'wait' | 'cap' | 'jitter'): string {
    if (scope.kind !== 'library') return '';
    const library = scope.library;
    const defaults: Record<string, Partial<Record<typeof what, string>>> = {
      'p-retry': { cap: '`maxTimeout` defaults to Infinity', jitter: '`randomize` defaults to false' },
      'promise-retry': { cap: '`maxTimeout` defaults to Infinity', jitter: '`randomize` defaults to false' },
      retry: { cap: '`maxTimeout` defaults to Infinity', jitter: '`randomize` defaults to false' },
      'async-retry': { cap: '`maxTimeout` defaults to Infinity' },
      'exponential-backoff': { cap: '`maxDelay` defaults to Infinity', jitter: "`jitter` defaults to 'none'" },
      cockatiel: { bound: '`maxAttempts` defaults to Infinity', wait: 'no `backoff`' },
      async: { wait: '`interval` defaults to 0' },
    };
    return (library ? defaults[library]?.[what] : undefined) ?? '';
  }

  // -----------------------------------------------------------------------
  // Suggestions

  function getBackoffSuggestion(
    scope: RetryScope,
    facts: RetryDelayFacts,
    service: Required<ServiceDelay>,
    mode: 'insert' | 'replace',
  ): TSESLint.SuggestionReportDescriptor<MessageId>[] {
    const variable = scope.attemptVariable;
    if (!variable) return getAttemptLimitSuggestion(scope, facts, service, true);
    if (!variable || facts.attemptCountsDown || (scope.kind !== 'loop' && scope.kind !== 'recursion')) return [];
    const delayText = getBackoffDelayText(variable, service);
    const data = { maxDelayMs: String(service.maxDelayMs), baseDelayMs: String(service.baseDelayMs), variable };
    if (mode === 'replace') {
      const delay = getReplaceableDelay(scope, facts);
      if (!delay) return [];
      return [{ messageId: 'useBackoff', data, fix: (fixer) => fixer.replaceText(delay, delayText) }];
    }
    const [handler] = scope.handlers;
    if (scope.handlers.length !== 1 || handler?.type !== AST_NODE_TYPES.CatchClause) return [];
    if (!isInAsyncFunction(handler)) return [];
    const statement = getWaitStatement(sourceCode, handler, delayText);
    const block = handler.body;
    const body = block.body;
    if (body.length === 0) {
      if (sourceCode.getCommentsInside(block).length > 0) return [];
      return [{ messageId: 'useBackoff', data, fix: (fixer) => replaceBlock(sourceCode, fixer, block, statement, handler) }];
    }
    const last = body.at(-1) as TSESTree.Statement;
    // A catch ending in `throw` goes round only through an earlier `continue`: the wait goes right
    // before it when there is exactly one.
    if (last.type === AST_NODE_TYPES.ThrowStatement) {
      const fix = getWaitBeforeContinueFix(block, statement);
      return fix ? [{ messageId: 'useBackoff', data, fix }] : [];
    }
    const beforeLast = last.type === AST_NODE_TYPES.ContinueStatement || last.type === AST_NODE_TYPES.ReturnStatement;
    if (beforeLast) {
      return [{ messageId: 'useBackoff', data, fix: (fixer) => insertLine(sourceCode, fixer, 'before', last, statement, 'line') }];
    }
    // `retry = isRetryable(e);` with `while (retry && …)`: wait only when the loop goes round.
    const checkedFlag = getCheckedFlagName(last, scope.node);
    if (checkedFlag === null) return [];
    const waitText = checkedFlag ? `if (${checkedFlag}) ${statement}` : statement;
    return [{ messageId: 'useBackoff', data, fix: (fixer) => insertLine(sourceCode, fixer, 'after', last, waitText, 'line') }];
  }

  /**
   * For a DynamoDB batch whose leftovers are sent again at once: a result handler that sends
   * them through itself (`send(params).then(handle)` inside `handle`), a function that calls
   * itself with them, or a loop. One edit for both rules' findings: a count of the responses
   * in a row with leftovers, a limit (unless the loop has one), and a wait before each re-send.
   */
  function getLeftoverResendSuggestion(
    scope: RetryScope,
    facts: RetryDelayFacts,
    service: Required<ServiceDelay>,
    operation: string,
  ): TSESLint.SuggestionReportDescriptor<MessageId>[] | undefined {
    const unprocessed = getUnprocessedResult(operation);
    const node = scope.node;
    if (!unprocessed || !scope.decidedByResult || facts.bounded === undefined) return undefined;
    // A wait that is there but does not back off gets its delay replaced, when no counter of the loop's own can grow it.
    const delay = waitsWithoutBackoff(facts) && !scope.attemptVariable ? getReplaceableDelay(scope, facts) : undefined;
    if (facts.waits !== false && !delay) return undefined;
    const limited = facts.bounded;
    const edit = { unprocessed, backoff: service, maxAttempts: SUGGESTED_MAX_ATTEMPTS, style: getCodeStyle(context) };
    let fix: TSESLint.ReportFixFunction | null = null;
    if (scope.kind === 'recursion' && isFunctionNode(node) && !limited && !delay) {
      const calls = findOwnCalls(sourceCode, node);
      fix = getLeftoverResendFix(sourceCode, { ...edit, handler: node }) ?? (calls ? getLeftoverRecursionFix(sourceCode, { ...edit, fn: node, ...calls }) : null);
    } else if (scope.kind === 'loop') {
      fix = getLeftoverLoopFix(sourceCode, { ...edit, loop: node, limited, firstSendInLoop: !isSentBeforeLoop(context, node, operation), delay });
    }
    if (!fix) return undefined;
    const data = { property: unprocessed.property, maxAttempts: String(SUGGESTED_MAX_ATTEMPTS), maxDelayMs: String(service.maxDelayMs), baseDelayMs: String(service.baseDelayMs) };
    return [{ messageId: limited ? 'waitBeforeLimitedResend' : 'waitBeforeResend', data, fix }];
  }

  /**
   * For a function that calls itself from a timer and counts its attempts without a limit: the
   * limit before the timer, the error to the function's own error-first callback or, without
   * one, as an `'error'` event where the code already emits them.
   */
  function getTimerLimitSuggestion(scope: RetryScope, retried: { database: Database; operation: string }): TSESLint.SuggestionReportDescriptor<MessageId>[] {
    const fn = scope.node;
    if (scope.kind !== 'recursion' || !isFunctionNode(fn)) return [];
    const what = `${getDatabaseLabel(retried.database)} ${retried.operation}`;
    const limit = getTimerRetryLimitFix(sourceCode, { fn, maxAttempts: SUGGESTED_MAX_ATTEMPTS, what, style: getCodeStyle(context), calls: findOwnCalls(sourceCode, fn) });
    if (!limit) return [];
    const maxAttempts = String(SUGGESTED_MAX_ATTEMPTS);
    if (limit.report.kind === 'event') {
      const data = { maxAttempts, counter: limit.counter, emitter: limit.report.target };
      return [{ messageId: limit.addsParameter ? 'countTimerRetryEvent' : 'limitTimerRetryEvent', data, fix: limit.fix }];
    }
    const data = { maxAttempts, counter: limit.counter, callback: limit.report.target };
    return [{ messageId: limit.addsParameter ? 'countTimerRetry' : 'limitTimerRetry', data, fix: limit.fix }];
  }

  /**
   * For a wait that grows and is capped but has no random part: the backoff rewritten from the
   * attempt counter when there is one; else, for a retry with no counter of its own (a timer
   * that calls the retry again) or a wait built on the code's settings (`this.retryDelayMs`),
   * the wait as written multiplied by `Math.random()`.
   */
  function getJitterSuggestion(scope: RetryScope, facts: RetryDelayFacts, service: Required<ServiceDelay>): TSESLint.SuggestionReportDescriptor<MessageId>[] {
    // A wait built on the code's own settings keeps them: only the random part is added.
    const backoff = facts.fromSettings ? [] : getBackoffSuggestion(scope, facts, service, 'replace');
    if (backoff.length > 0 || (scope.attemptVariable && !facts.fromSettings)) return backoff;
    const delay = getReplaceableDelay(scope, facts);
    if (!delay) return [];
    const text = sourceCode.getText(delay);
    const factor = isMultiplicationOperand(delay) ? text : `(${text})`;
    return [{ messageId: 'addJitter', fix: (fixer) => fixer.replaceText(delay, `Math.random() * ${factor}`) }];
  }

  /**
   * For a loop with one `catch` and no limit or no counter: count the attempts, rethrow after the
   * last, and wait with backoff (replacing the wait there is, or adding one at the end of the catch).
   */
  function getAttemptLimitSuggestion(
    scope: RetryScope,
    facts: RetryDelayFacts,
    service: Required<ServiceDelay>,
    waitRequired = false,
  ): TSESLint.SuggestionReportDescriptor<MessageId>[] {
    if (scope.kind === 'recursion') return getRecursionLimitSuggestion(scope, facts, service, waitRequired);
    const [handler] = scope.handlers;
    if (scope.kind !== 'loop' || scope.handlers.length !== 1 || handler?.type !== AST_NODE_TYPES.CatchClause || !isInAsyncFunction(handler)) return [];
    if (facts.attemptCountsDown) return [];
    const counter = scope.attemptVariable;
    const delay = getReplaceableDelay(scope, facts);
    let wait: AttemptLimitEdit['wait'];
    if (facts.waits === false) {
      wait = { insert: (attempt) => getWaitStatement(sourceCode, handler, getBackoffDelayText(attempt, service)) };
    } else if (delay) {
      wait = { replace: delay, delay: (attempt) => getBackoffDelayText(attempt, service) };
    } else {
      return [];
    }
    const fix = getAttemptLimitFix(sourceCode, { loop: scope.node, handler, maxAttempts: SUGGESTED_MAX_ATTEMPTS, counter, wait });
    if (!fix) return [];
    const data = { maxAttempts: String(SUGGESTED_MAX_ATTEMPTS), maxDelayMs: String(service.maxDelayMs), baseDelayMs: String(service.baseDelayMs), variable: counter ?? 'attempt' };
    return [{ messageId: 'limitAttempts', data, fix }];
  }

  /**
   * For a function that calls itself to retry, with no counter: an attempt parameter and a limit,
   * and the wait with backoff from it when the wait is missing or does not back off (required
   * when that is the finding).
   */
  function getRecursionLimitSuggestion(
    scope: RetryScope,
    facts: RetryDelayFacts,
    service: Required<ServiceDelay>,
    waitRequired: boolean,
  ): TSESLint.SuggestionReportDescriptor<MessageId>[] {
    const fn = scope.node;
    if (scope.attemptVariable || facts.attemptCountsDown || !isFunctionNode(fn)) return [];
    const calls = findOwnCalls(sourceCode, fn);
    if (!calls) return [];
    const delay = getReplaceableDelay(scope, facts);
    const delayText = (attempt: string): string => getBackoffDelayText(attempt, service);
    let wait: RecursionLimitEdit['wait'];
    if (facts.waits === false) wait = { insert: (attempt) => getWaitStatement(sourceCode, fn, delayText(attempt)) };
    else if (delay && waitsWithoutBackoff(facts)) wait = { replace: delay, delay: delayText };
    if (waitRequired && !wait) return [];
    const edit = { fn, ...calls, handlers: scope.handlers, maxAttempts: SUGGESTED_MAX_ATTEMPTS };
    const withWait = wait ? getRecursionLimitFix(sourceCode, { ...edit, wait }) : null;
    const limit = withWait ?? (waitRequired ? null : getRecursionLimitFix(sourceCode, edit));
    if (!limit) return [];
    const maxAttempts = String(SUGGESTED_MAX_ATTEMPTS);
    if (!withWait) return [{ messageId: 'limitRecursion', data: { variable: limit.attempt, maxAttempts }, fix: limit.fix }];
    const data = { maxAttempts, maxDelayMs: String(service.maxDelayMs), baseDelayMs: String(service.baseDelayMs), variable: limit.attempt };
    return [{ messageId: 'limitAttempts', data, fix: limit.fix }];
  }

  /**
   * The delay expression of the retry's wait, when an edit can replace it: written inside the
   * retry (not a call, whose own code decides), with no comment inside that would be lost.
   */
  function getReplaceableDelay(scope: RetryScope, facts: RetryDelayFacts): TSESTree.Expression | undefined {
    const delay = facts.delay;
    if (!delay || delay.type === AST_NODE_TYPES.CallExpression || !containsNode(scope.node, delay)) return undefined;
    return sourceCode.getCommentsInside(delay).length === 0 ? delay : undefined;
  }

  /**
   * For a last catch statement `flag = <expression>` (not a literal) where the loop condition
   * reads `flag` in an `&&` chain: the flag's name; null when the flag is read another way
   * (no single place for the wait); undefined when the statement is not such an assignment.
   */
  function getCheckedFlagName(last: TSESTree.Statement, loop: TSESTree.Node): string | null | undefined {
    if (last.type !== AST_NODE_TYPES.ExpressionStatement) return undefined;
    const assignment = last.expression;
    if (assignment.type !== AST_NODE_TYPES.AssignmentExpression || assignment.left.type !== AST_NODE_TYPES.Identifier) return undefined;
    if (assignment.right.type === AST_NODE_TYPES.Literal) return undefined;
    const test = loop.type === AST_NODE_TYPES.DoWhileStatement || loop.type === AST_NODE_TYPES.WhileStatement || loop.type === AST_NODE_TYPES.ForStatement ? loop.test : null;
    if (!test) return undefined;
    const name = assignment.left.name;
    const readsInAndChain = (node: TSESTree.Expression): boolean =>
      (node.type === AST_NODE_TYPES.Identifier && node.name === name) ||
      (node.type === AST_NODE_TYPES.LogicalExpression && node.operator === '&&' && (readsInAndChain(node.left) || readsInAndChain(node.right)));
    if (readsInAndChain(test)) return name;
    let read = false;
    visitNodes(test, { skipTypeAnnotations: true }, (node) => {
      if (node.type === AST_NODE_TYPES.Identifier && node.name === name) read = true;
      return !read;
    });
    return read ? null : undefined;
  }

  /**
   * Inserts `statement` before the only `continue` of the catch body (`if (retryable) continue;`
   * becomes `if (retryable) { <wait> continue; }`). Null when there is no single such place.
   */
  function getWaitBeforeContinueFix(block: TSESTree.BlockStatement, statement: string): TSESLint.ReportFixFunction | null {
    const continues: TSESTree.ContinueStatement[] = [];
    let labeled = false;
    visitNodes(block, { skipTypeAnnotations: true }, (node) => {
      if (node !== block && (isFunctionNode(node) || isLoopNode(node))) return false;
      if (node.type === AST_NODE_TYPES.ContinueStatement) {
        if (node.label) labeled = true;
        else continues.push(node);
      }
      return true;
    });
    const [target] = continues;
    if (labeled || continues.length !== 1 || !target) return null;
    return getInsertBeforeStatementFix(sourceCode, target, statement);
  }

  function setOptionSuggestion(scope: RetryScope, property: TSESTree.Property, value: string): TSESLint.SuggestionReportDescriptor<MessageId>[] {
    const key = sourceCode.getText(property.key);
    return [
      {
        messageId: 'setOption',
        data: { option: `${key}: ${value}`, library: scope.library ?? 'library' },
        fix: (fixer) => fixer.replaceText(property.value, value),
      },
    ];
  }

  function addOptionSuggestion(scope: RetryScope, key: string, value: string): TSESLint.SuggestionReportDescriptor<MessageId>[] {
    const data = { option: `${key}: ${value}`, library: scope.library ?? 'library' };
    const existing = scope.options?.properties.find(
      (property) => property.type === AST_NODE_TYPES.Property && !property.computed && property.key.type === AST_NODE_TYPES.Identifier && property.key.name === key,
    );
    if (existing?.type === AST_NODE_TYPES.Property) return setOptionSuggestion(scope, existing, value);
    const objectLiteral = scope.options;
    if (objectLiteral) return [{ messageId: 'setOption', data, fix: (fixer) => appendProperty(sourceCode, fixer, objectLiteral, `${key}: ${value}`) }];
    if (scope.optionsUnknown) return [];
    // No options argument at all: add one after the callback (callback-first libraries only).
    const call = scope.node;
    if (call.type !== AST_NODE_TYPES.CallExpression || call.arguments.length !== 1) return [];
    if (!['p-retry', 'async-retry', 'promise-retry', 'exponential-backoff'].includes(scope.library ?? '')) return [];
    const callback = call.arguments[0] as TSESTree.Node;
    return [{ messageId: 'setOption', data, fix: (fixer) => fixer.insertTextAfter(callback, `, { ${key}: ${value} }`) }];
  }

  // -----------------------------------------------------------------------
  // Locations

  /** `for (…)`, `while (…)`, the function's name, `.catch`, or the library call's callee. */
  function getHeadLoc(scope: RetryScope): TSESTree.SourceLocation {
    const node = scope.node;
    const loopHead = getLoopHeadLoc(sourceCode, node);
    if (loopHead) return loopHead;
    if (isFunctionNode(node)) return getFunctionNameLoc(node);
    return getLibraryLoc(scope);
  }

  function getFunctionNameLoc(fn: TSESTree.Node): TSESTree.SourceLocation {
    if (!isFunctionNode(fn)) return fn.loc;
    if (fn.id) return fn.id.loc;
    const parent = fn.parent;
    if (getFunctionName(fn) && parent) {
      if (parent.type === AST_NODE_TYPES.VariableDeclarator) return parent.id.loc;
      if (parent.type === AST_NODE_TYPES.Property || parent.type === AST_NODE_TYPES.MethodDefinition || parent.type === AST_NODE_TYPES.PropertyDefinition) {
        return parent.key.loc;
      }
    }
    const first = sourceCode.getFirstToken(fn);
    return first ? first.loc : fn.loc;
  }

  function getLibraryLoc(scope: RetryScope): TSESTree.SourceLocation {
    const node = scope.node;
    if (node.type === AST_NODE_TYPES.CallExpression || node.type === AST_NODE_TYPES.NewExpression) {
      if (node.callee.type === AST_NODE_TYPES.MemberExpression && scope.kind === 'catch-retry') return node.callee.property.loc;
      return node.type === AST_NODE_TYPES.NewExpression ? { start: node.loc.start, end: node.callee.loc.end } : node.callee.loc;
    }
    return node.loc;
  }

  function getDelayLoc(scope: RetryScope, facts: RetryDelayFacts): TSESTree.SourceLocation {
    if (facts.delay && containsNode(scope.node, facts.delay)) return facts.delay.loc;
    if (facts.wait) return facts.wait.loc;
    return getHeadLoc(scope);
  }

  return check;
}

/** `suggestions`, or when there are none, those `fallback` gives. */
/** The retry waits, but its wait does not grow, has no cap or is not random. */
function waitsWithoutBackoff(facts: RetryDelayFacts): boolean {
  return facts.waits === true && (facts.growth === 'none' || facts.capped === false || facts.jittered === false);
}

function orElse<T>(suggestions: T[], fallback: () => T[]): T[] {
  return suggestions.length > 0 ? suggestions : fallback();
}

/** A name, a member, a call or a literal: written after `Math.random() *` without parentheses. */
function isMultiplicationOperand(node: TSESTree.Expression): boolean {
  return (
    node.type === AST_NODE_TYPES.Identifier ||
    node.type === AST_NODE_TYPES.MemberExpression ||
    node.type === AST_NODE_TYPES.CallExpression ||
    node.type === AST_NODE_TYPES.Literal
  );
}

function formatMs(ms: number): string {
  if (ms >= 1000 && ms % 1000 === 0) return `${ms / 1000} s`;
  if (ms >= 1000) return `${(ms / 1000).toFixed(1)} s`;
  return `${ms} ms`;
}
