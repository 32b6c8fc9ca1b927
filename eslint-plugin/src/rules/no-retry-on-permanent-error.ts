import { AST_NODE_TYPES, ASTUtils, type TSESLint, type TSESTree } from '@typescript-eslint/utils';
import { containsNode, getKeyName, isFunctionNode, visitIdentifiers, visitNodes } from '../analysis/ast';
import { type DbCall, findDbCallsWithin, isProbeCall } from '../analysis/clients';
import { classifyRetryScope, type ErrorClassification, getDatabaseLabel, getPermanentErrorExamples, getTransientErrorExamples, isAlwaysPermanentError, isConflictError } from '../analysis/errors';
import { checkDatabaseRetryScopes, describePassedFrom, findRetriedDbCalls, type RetryScope } from '../analysis/retry';
import { getHelperGuardFix, getTransientErrorHelper } from '../fix';
import { createRule } from '../util/create-rule';

type MessageId = 'retriesEveryError' | 'retriesPermanentError' | 'rethrowPermanentErrors';

/** Names of functions that make what an error said was missing: `createSlot`, `ensureTable`, `recreateIndex`, `setupSchema`. */
const REPAIR_NAME = /^(?:create|recreate|ensure|setup|setUp|init|initialize|install|provision|migrate|repair)(?:$|[A-Z_])/;
/** SQL that makes a missing object (`CREATE TABLE …`, `CREATE EXTENSION …`). */
const CREATE_STATEMENT = /^\s*create\s/i;

export default createRule<[], MessageId>({
  name: 'no-retry-on-permanent-error',
  meta: {
    type: 'problem',
    docs: { description: 'Disallow retrying database errors that cannot succeed on retry.', database: 'any' },
    hasSuggestions: true,
    messages: {
      retriesEveryError:
        'This retry of {{database}} `{{operation}}`{{origin}} also retries errors that no retry fixes ({{examples}}). Retry only {{transient}}.',
      retriesPermanentError:
        'This retry retries {{database}} error `{{value}}`, which fails the same way on every attempt. Rethrow it instead of retrying.',
      rethrowPermanentErrors: 'Rethrow every error but transient {{database}} ones before the next attempt, with `{{helper}}(…)`{{added}}.',
    },
    schema: [],
    defaultOptions: [],
  },
  defaultOptions: [],
  create(context) {
    return checkDatabaseRetryScopes(context, () => createScopeCheck(context));
  },
});

/** The checks of one file, made only when it has something to check (most files have not). */
function createScopeCheck(context: Readonly<TSESLint.RuleContext<MessageId, []>>): (scope: RetryScope) => void {
  const sourceCode = context.sourceCode;
  const reported = new Set<TSESTree.Node>();

  /** The DB call whose failure this scope retries: the first one the decision guards. */
  function check(scope: RetryScope): void {
    if (scope.kind === 'library' && !isFunctionNode(scope.attempt)) return;
    // The calls the attempt makes itself, and those it makes through a function: a local helper,
    // or what the callers pass (`withRetry(() => client.send(…))`), whose failure reaches the
    // attempt where it calls that function.
    const direct = findDbCallsWithin(context, scope.attempt).map((call) => ({ call, site: call.node as TSESTree.Node, remote: undefined }));
    const through = findRetriedDbCalls(context, scope).filter(({ call, site, remote }) => site !== call.node || remote);
    const decided = new Map<TSESTree.Node, { classification: ErrorClassification; call: DbCall; origin: string }>();
    const retriedCalls = [...direct, ...through];
    for (const retried of retriedCalls) {
      const { call, site, remote } = retried;
      // Connecting, probing a connection or waiting for a table is retried on any error by design.
      if (remote ? remote.probe : isProbeCall(context, call)) continue;
      const classification = classifyRetryScope(scope, site);
      if (!classification || decided.has(classification.decision)) continue;
      decided.set(classification.decision, { classification, call, origin: describePassedFrom(context, retried, retriedCalls) });
    }
    for (const { classification, call, origin } of decided.values()) report(classification, call, scope, origin);
  }

  function report(classification: ErrorClassification, call: DbCall, scope: RetryScope, origin: string): void {
    const database = getDatabaseLabel(call.database);
    // Optimistic locking (read, then a conditional write) or a new random code per attempt:
    // a failed condition or a duplicate key may not happen again.
    const changesRequest = isRequestBuiltInAttempt(call, scope.attempt);
    if (classification.retriesEveryError) {
      // MongoDB reads do not hit the errors worth naming; stay quiet rather than guess.
      if (call.database === 'mongodb' && !call.isWrite) return;
      const decision = classification.decision;
      if (reported.has(decision)) return;
      reported.add(decision);
      context.report({
        loc: getDecisionLoc(decision),
        messageId: 'retriesEveryError',
        data: {
          database,
          operation: call.operation,
          origin,
          examples: getPermanentErrorExamples(call.database, call.isWrite && !changesRequest),
          transient: getTransientErrorExamples(call.database),
        },
        suggest: getGuardSuggestion(decision, call, scope),
      });
      return;
    }
    for (const value of classification.retriedValues) {
      if (!isAlwaysPermanentError(value, call.database) || reported.has(value.node)) continue;
      if (changesRequest && isConflictError(value)) continue;
      if (repairsBeforeRetrying(value.node)) continue;
      reported.add(value.node);
      context.report({ node: value.node, messageId: 'retriesPermanentError', data: { database, value: String(value.value) } });
    }
  }

  /** Rethrow what is not transient, with a classification of the call's database (added to the file when missing). */
  function getGuardSuggestion(decision: TSESTree.Node, call: DbCall, scope: RetryScope): TSESLint.SuggestionReportDescriptor<MessageId>[] {
    const guard = getHelperGuardFix(context, decision, scope, getTransientErrorHelper(call.database));
    if (!guard) return [];
    const added = guard.helper.added ? ', a function added to this file' : '';
    return [{ messageId: 'rethrowPermanentErrors', data: { database: getDatabaseLabel(call.database), helper: guard.helper.name, added }, fix: guard.fix }];
  }

  /**
   * The branch taken for the error makes what was missing before the next attempt
   * (`if (err.code === '42704') { await this.createSlot(); return this.getChanges(); }`,
   * `case 'ResourceNotFoundException': await ensureTable(); …`, a `CREATE …` statement):
   * the error is not met again, so the retry is a repair, not a blind retry.
   */
  function repairsBeforeRetrying(check: TSESTree.Node): boolean {
    const branch = getBranchOf(check);
    if (!branch) return false;
    let repairs = false;
    for (const statement of branch) {
      visitNodes(statement, { skipTypeAnnotations: true }, (node) => {
        if (repairs || isFunctionNode(node)) return false;
        if (node.type === AST_NODE_TYPES.CallExpression && isRepairCall(node)) repairs = true;
        return !repairs;
      });
    }
    return repairs;
  }

  /** The statements run when the condition holding `check` is met: an `if`'s consequent, or a `case`'s statements. */
  function getBranchOf(check: TSESTree.Node): readonly TSESTree.Node[] | undefined {
    for (let node: TSESTree.Node | undefined = check; node && !isFunctionNode(node); node = node.parent) {
      const parent: TSESTree.Node | undefined = node.parent;
      if (parent?.type === AST_NODE_TYPES.IfStatement && parent.test === node) {
        // `if (err.code !== '42704') throw err;`: the statements after it run for that error.
        if (!parent.alternate && isThrow(parent.consequent) && parent.parent && 'body' in parent.parent && Array.isArray(parent.parent.body)) {
          const siblings = parent.parent.body as TSESTree.Node[];
          return [parent.consequent, ...siblings.slice(siblings.indexOf(parent) + 1)];
        }
        return [parent.consequent];
      }
      if (parent?.type === AST_NODE_TYPES.SwitchCase && parent.test === node) {
        // Cases that fall through to the next one share its statements.
        const cases = (parent.parent as TSESTree.SwitchStatement).cases;
        const statements: TSESTree.Node[] = [];
        for (const next of cases.slice(cases.indexOf(parent))) {
          statements.push(...next.consequent);
          if (next.consequent.length > 0) break;
        }
        return statements;
      }
    }
    return undefined;
  }

  function isThrow(statement: TSESTree.Statement): boolean {
    if (statement.type === AST_NODE_TYPES.BlockStatement) return statement.body.length === 1 && statement.body[0]!.type === AST_NODE_TYPES.ThrowStatement;
    return statement.type === AST_NODE_TYPES.ThrowStatement;
  }

  /** An awaited call (a repair the retry waits for) that makes something, by its name or its SQL. */
  function isRepairCall(call: TSESTree.CallExpression): boolean {
    if (call.parent?.type !== AST_NODE_TYPES.AwaitExpression && call.parent?.type !== AST_NODE_TYPES.YieldExpression) return false;
    const callee = call.callee;
    const name = callee.type === AST_NODE_TYPES.Identifier ? callee.name : callee.type === AST_NODE_TYPES.MemberExpression ? getKeyName(callee) : undefined;
    if (name !== undefined && REPAIR_NAME.test(name)) return true;
    const first = call.arguments[0];
    const text = first?.type === AST_NODE_TYPES.Literal && typeof first.value === 'string' ? first.value : first?.type === AST_NODE_TYPES.TemplateLiteral ? first.quasis[0]?.value.cooked : undefined;
    return text !== undefined && text !== null && CREATE_STATEMENT.test(text);
  }

  /** The call's arguments read a variable declared or assigned inside the attempt: each attempt may send a new request. */
  function isRequestBuiltInAttempt(call: DbCall, attempt: TSESTree.Node): boolean {
    const node = call.node;
    // The request, not a node-style callback passed with it.
    const roots: TSESTree.Node[] =
      node.type === AST_NODE_TYPES.TaggedTemplateExpression ? [node.quasi] : node.arguments.filter((argument) => !isFunctionNode(argument));
    let built = false;
    for (const root of roots) {
      visitIdentifiers(root, { skipObjectKeys: true }, (identifier) => {
        if (built) return;
        const variable = ASTUtils.findVariable(sourceCode.getScope(identifier) as TSESLint.Scope.Scope, identifier);
        if (!variable) return;
        built =
          variable.defs.some((definition) => containsNode(attempt, definition.name)) ||
          variable.references.some((reference) => reference.isWrite() && containsNode(attempt, reference.identifier as TSESTree.Node));
      });
    }
    return built;
  }

  /** `catch (err)` for a catch clause, `catch` in `.catch(cb)`, `shouldRetry` for a predicate, else the node. */
  function getDecisionLoc(node: TSESTree.Node): TSESTree.SourceLocation {
    if (node.type === AST_NODE_TYPES.CatchClause) {
      const closing = sourceCode.getTokenBefore(node.body);
      return { start: node.loc.start, end: closing && closing.range[0] >= node.range[0] ? closing.loc.end : node.loc.start };
    }
    const parent = node.parent;
    if (isFunctionNode(node)) {
      if (parent?.type === AST_NODE_TYPES.CallExpression && parent.callee.type === AST_NODE_TYPES.MemberExpression) {
        return parent.callee.property.loc;
      }
      if (parent?.type === AST_NODE_TYPES.Property) return parent.key.loc;
      return node.loc;
    }
    // A library call: its callee (`pRetry`, `backOff`, `retry`).
    if (node.type === AST_NODE_TYPES.CallExpression) return node.callee.loc;
    return node.loc;
  }

  return check;
}
