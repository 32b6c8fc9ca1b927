import { AST_NODE_TYPES, type TSESLint, type TSESTree } from '@typescript-eslint/utils';
import { containsNode, getKeyName, isFunctionNode } from '../analysis/ast';
import {
  createsRecords,
  type DbCall,
  type DynamoDbCall,
  findDbCalls,
  findDbCallsWithin,
  getDynamoDbOperationNode,
  getNonIdempotentStatement,
  getOpenTransaction,
  getPostgresReportNode,
  getSqlText,
  type PostgresCall,
  resolveObjectLiteral,
} from '../analysis/clients';
import { classifyRetryScope, type ErrorClassification, getDatabaseLabel, retriesOutcomeUnknownErrors } from '../analysis/errors';
import { checkDatabaseRetryScopes, findDatabaseRetryScopes, findKeyCreations, isKeyLikeName, type KeyCreation, type RetryScope } from '../analysis/retry';
import {
  getEnclosingListedStatement,
  getHelperGuardFix,
  getListedStatement,
  getNotAppliedPgErrorHelper,
  getStatementRemovalRange,
  getUuidGenerator,
  insertFirstProperty,
  insertLine,
  isComputableBefore,
  isNameTakenAround,
  isNameTakenAt,
  isStatementListItem,
  pickFreeName,
  withSemicolon,
} from '../fix';
import { createRule } from '../util/create-rule';
import { quoteCode } from '../util/quote-code';

type MessageId = 'keyCreatedPerAttempt' | 'missingClientRequestToken' | 'nonIdempotentPgWrite' | 'hoistKey' | 'addClientRequestToken' | 'retryOnlyNotApplied';

export default createRule<[], MessageId>({
  name: 'require-idempotent-retry',
  meta: {
    type: 'problem',
    docs: { description: 'Require retried database writes to be idempotent.', database: 'any' },
    hasSuggestions: true,
    messages: {
      keyCreatedPerAttempt:
        '`{{generator}}` runs in every attempt of this retry of {{database}} `{{operation}}`: after a lost reply, the retry writes again under a new key. Create the key once, before the retry.',
      missingClientRequestToken:
        'Without a `ClientRequestToken`, each attempt of this retry is a new DynamoDB transaction: after a lost reply, the retry applies the writes twice. Pass one token, created before the retry.',
      nonIdempotentPgWrite:
        'A dropped connection may hide that PostgreSQL `{{statement}}` committed, so this retry may write twice. Key it by an id made before the retry, under a unique constraint.',
      hoistKey: 'Create the key once, before the retry (`{{declaration}}`).',
      addClientRequestToken: 'Pass a `ClientRequestToken` created once, before the retry.',
      retryOnlyNotApplied:
        'Retry only errors after which PostgreSQL applied nothing (deadlock, serialization failure…); rethrow the rest, a lost connection too, with `{{helper}}(…)`{{added}}.',
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

  function check(scope: RetryScope): void {
    if (scope.kind === 'catch-retry') return;
    if (scope.kind === 'library' && !isFunctionNode(scope.attempt)) return;
    const calls = findDbCallsWithin(context, scope.attempt);
    if (calls.length === 0) return;
    const writes = calls.filter((call) => call.isWrite);
    checkKeys(scope, writes);
    for (const call of writes) {
      if (call.database === 'dynamodb' && call.operation === 'TransactWriteItems') checkClientRequestToken(scope, call as DynamoDbCall);
    }
    const postgresWrites = writes.filter((call): call is PostgresCall => call.database === 'postgres');
    // A keyed insert (`ON CONFLICT`) in the same attempt makes the whole transaction idempotent.
    if (postgresWrites.some((call) => call.statement?.hasOnConflict)) return;
    const allPostgres = findDbCalls(context).filter((call): call is PostgresCall => call.database === 'postgres');
    for (const call of postgresWrites) {
      // Inside a transaction opened before the retry, the statement is not committed on its
      // own: pg-require-whole-transaction-retry reports that retry.
      if (getOpenTransaction(call, scope.node, allPostgres)) continue;
      // One report per retry: the first write that is not idempotent stands for the transaction.
      if (checkPostgresWrite(scope, call)) break;
    }
  }

  // -------------------------------------------------------------------------
  // Keys created inside the retry

  function checkKeys(scope: RetryScope, writes: DbCall[]): void {
    if (writes.length === 0) return;
    for (const creation of findKeyCreations(context)) {
      if (!containsNode(scope.attempt, creation.node) || reported.has(creation.node)) continue;
      const target = getKeyTarget(creation, scope, writes);
      if (!target) continue;
      reported.add(creation.node);
      const suggestion = getHoistSuggestion(scope, creation, target.declarator);
      context.report({
        node: creation.node,
        messageId: 'keyCreatedPerAttempt',
        data: { generator: quoteCode(creation.label), database: getDatabaseLabel(target.call.database), operation: target.call.operation },
        suggest: suggestion ? [suggestion] : [],
      });
    }
  }

  /**
   * The write the new key reaches: the key is written in the call, or stored in a
   * variable (or an object held by one) declared in the attempt and passed to it.
   */
  function getKeyTarget(
    creation: KeyCreation,
    scope: RetryScope,
    writes: DbCall[],
  ): { call: DbCall; declarator: TSESTree.VariableDeclarator | undefined } | undefined {
    const holder = getHoldingName(creation.node);
    if (creation.isTimestamp && (holder === undefined || !isKeyLikeName(holder))) return undefined;
    const direct = writes.find((call) => isWrittenBy(call, creation.node));
    if (direct) return { call: direct, declarator: undefined };
    const declarator = getEnclosingDeclarator(creation.node);
    if (!declarator || !containsNode(scope.attempt, declarator)) return undefined;
    const reached = findWriteReachedBy(declarator, writes, 2);
    return reached ? { call: reached, declarator } : undefined;
  }

  /** The write that reads the variable `declarator` declares (following one more `const x = { … }`). */
  function findWriteReachedBy(declarator: TSESTree.VariableDeclarator, writes: DbCall[], depth: number): DbCall | undefined {
    for (const variable of sourceCode.getDeclaredVariables(declarator)) {
      for (const reference of variable.references) {
        const identifier = reference.identifier as TSESTree.Node;
        if (reference.init) continue;
        const write = writes.find((call) => isWrittenBy(call, identifier));
        if (write) return write;
        if (depth > 1) {
          const next = getEnclosingDeclarator(identifier);
          if (next && next !== declarator) {
            const reached = findWriteReachedBy(next, writes, depth - 1);
            if (reached) return reached;
          }
        }
      }
    }
    return undefined;
  }

  /**
   * `node` (the key, or a variable holding it) is written by `call` as part of a new
   * record: an insert or put, a transaction, or the key / filter of an upsert-able
   * update. A fresh value in a plain `SET`/`$set` is harmless on retry.
   */
  function isWrittenBy(call: DbCall, node: TSESTree.Node): boolean {
    if (!containsNode(call.node, node) && !isInInput(call, node)) return false;
    if (createsRecords(call)) return true;
    switch (call.database) {
      case 'dynamodb':
        return call.operation === 'UpdateItem' && isUnderProperty(node, 'Key', call.node);
      case 'mongodb': {
        const filter = call.node.type === AST_NODE_TYPES.CallExpression ? call.node.arguments[0] : undefined;
        return filter !== undefined && containsNode(filter, node);
      }
      case 'postgres':
        return false;
    }
  }

  function isInInput(call: DbCall, node: TSESTree.Node): boolean {
    const input = (call as Partial<DynamoDbCall>).input;
    if (!input) return false;
    const object = resolveObjectLiteral(context, input);
    return object !== undefined && containsNode(object, node);
  }

  function getHoistSuggestion(
    scope: RetryScope,
    creation: KeyCreation,
    declarator: TSESTree.VariableDeclarator | undefined,
  ): TSESLint.SuggestionReportDescriptor<MessageId> | undefined {
    if (isInNestedFunction(creation.node, scope.attempt)) return undefined;
    if (!isComputableBefore(sourceCode, creation.node, scope.attempt)) return undefined;
    const anchor = getInsertionAnchor(scope);
    if (!anchor) return undefined;
    const declaration = declarator?.parent;
    // `const requestId = randomUUID();` as its own statement in the attempt: move it.
    if (
      declarator &&
      declarator.init === creation.node &&
      declarator.id.type === AST_NODE_TYPES.Identifier &&
      declaration?.type === AST_NODE_TYPES.VariableDeclaration &&
      declaration.declarations.length === 1 &&
      isStatementListItem(declaration) &&
      !isNameTakenAt(sourceCode, declarator.id.name, anchor, declarator)
    ) {
      const text = withSemicolon(sourceCode.getText(declaration));
      return {
        messageId: 'hoistKey',
        data: { declaration: quoteCode(text) },
        fix: (fixer) => [insertLine(sourceCode, fixer, 'before', anchor, text, 'leading'), fixer.removeRange(getStatementRemovalRange(sourceCode, declaration))],
      };
    }
    // The key is written in place (`{ id: randomUUID() }`): name it before the retry.
    const name = pickFreeName(getNameCandidates(creation.node), isNameTakenAround(sourceCode, anchor, creation.node));
    if (!name) return undefined;
    const text = `const ${name} = ${sourceCode.getText(creation.node)};`;
    const property = creation.node.parent;
    const replaceProperty =
      property?.type === AST_NODE_TYPES.Property &&
      property.value === creation.node &&
      !property.computed &&
      property.kind === 'init' &&
      !property.method &&
      property.key.type === AST_NODE_TYPES.Identifier &&
      property.key.name === name &&
      property.parent?.type === AST_NODE_TYPES.ObjectExpression;
    return {
      messageId: 'hoistKey',
      data: { declaration: quoteCode(text) },
      fix: (fixer) => [
        insertLine(sourceCode, fixer, 'before', anchor, text, 'leading'),
        replaceProperty ? fixer.replaceText(property, name) : fixer.replaceText(creation.node, name),
      ],
    };
  }

  // -------------------------------------------------------------------------
  // DynamoDB TransactWriteItems

  function checkClientRequestToken(scope: RetryScope, call: DynamoDbCall): void {
    if (!call.input) return;
    const input = resolveObjectLiteral(context, call.input);
    // A spread or a computed key may carry the token: the rule cannot tell.
    if (!input || input.properties.some((property) => property.type === AST_NODE_TYPES.SpreadElement || property.computed)) return;
    if (input.properties.some((property) => property.type === AST_NODE_TYPES.Property && getKeyName(property, { computed: false }) === 'ClientRequestToken')) return;
    // Retrying only after `TransactionCanceledException` (or another error after which the
    // transaction applied nothing, as a whole) writes once, token or not: an optimistic
    // retry that reads again and builds a new request each time.
    const classification = classifyRetryScope(scope, call.node);
    if (classification && !retriesOutcomeUnknownErrors(classification, 'dynamodb')) return;
    // Both SDKs fill a missing token into a copy of the input (v3 in its serializer, v2 in
    // BUILD_IDEMPOTENCY_TOKENS), so even an input object made once gets a new token per call.
    const inAttempt = containsNode(scope.attempt, input);
    const reportNode = getDynamoDbOperationNode(call);
    if (reported.has(reportNode)) return;
    reported.add(reportNode);
    const suggestion = getTokenSuggestion(scope, input, inAttempt);
    context.report({ node: reportNode, messageId: 'missingClientRequestToken', suggest: suggestion ? [suggestion] : [] });
  }

  function getTokenSuggestion(
    scope: RetryScope,
    input: TSESTree.ObjectExpression,
    inAttempt: boolean,
  ): TSESLint.SuggestionReportDescriptor<MessageId> | undefined {
    const generator = getUuidGenerator(sourceCode, input);
    if (!generator) return undefined;
    if (!inAttempt) {
      // The input object is made once, before the retry: the token can live in it.
      return {
        messageId: 'addClientRequestToken',
        fix: (fixer) => insertFirstProperty(sourceCode, fixer, input, `ClientRequestToken: ${generator}`, 'leading'),
      };
    }
    if (isInNestedFunction(input, scope.attempt)) return undefined;
    const anchor = getInsertionAnchor(scope);
    if (!anchor) return undefined;
    const name = pickFreeName(['clientRequestToken', 'requestToken', 'idempotencyToken'], isNameTakenAround(sourceCode, anchor, input));
    if (!name) return undefined;
    return {
      messageId: 'addClientRequestToken',
      fix: (fixer) => [
        insertLine(sourceCode, fixer, 'before', anchor, `const ${name} = ${generator};`, 'leading'),
        insertFirstProperty(sourceCode, fixer, input, `ClientRequestToken: ${name}`, 'leading'),
      ],
    };
  }

  // -------------------------------------------------------------------------
  // PostgreSQL INSERT / relative UPDATE

  function checkPostgresWrite(scope: RetryScope, call: PostgresCall): boolean {
    const statement = call.statement;
    if (!statement || !statement.isWrite || statement.hasOnConflict) return false;
    const text = getSqlText(context, call.node.type === AST_NODE_TYPES.TaggedTemplateExpression ? call.node : call.node.arguments[0] ?? call.node);
    if (text === undefined) return false;
    const label = getNonIdempotentStatement(text);
    if (!label) return false;
    const classification = classifyRetryScope(scope, call.node);
    if (classification) {
      if (classification.alreadyDoneValues.length > 0) return false;
      // Retrying only errors the server reports for the statement (40001, 23505…): nothing was applied.
      if (!retriesOutcomeUnknownErrors(classification, 'postgres')) return false;
    }
    if (handlesUniqueViolation(call.node, scope.attempt)) return false;
    const node = getPostgresReportNode(call);
    if (reported.has(node)) return false;
    reported.add(node);
    // Inside another retry too, narrowing this one would leave the write retried by the other.
    const retriedElsewhere = findDatabaseRetryScopes(context).some((other) => other !== scope && containsNode(other.attempt, call.node));
    const suggest = retriedElsewhere ? [] : getRetryOnlyNotAppliedSuggestion(scope, classification);
    context.report({ node, messageId: 'nonIdempotentPgWrite', data: { statement: label }, suggest });
    return true;
  }

  /**
   * The safe retry without a key: rethrow every error but those after which the server
   * did not apply the statement, before the next attempt. Fewer retries (a lost
   * connection is no longer retried), never a second write.
   */
  function getRetryOnlyNotAppliedSuggestion(scope: RetryScope, classification: ErrorClassification | undefined): TSESLint.SuggestionReportDescriptor<MessageId>[] {
    const guard = classification && getHelperGuardFix(context, classification.decision, scope, getNotAppliedPgErrorHelper());
    if (!guard) return [];
    const added = guard.helper.added ? ', a function added to this file' : '';
    return [{ messageId: 'retryOnlyNotApplied', data: { helper: guard.helper.name, added }, fix: guard.fix }];
  }

  /** A `catch` between the call and the retry that names 23505 / unique_violation. */
  function handlesUniqueViolation(node: TSESTree.Node, attempt: TSESTree.Node): boolean {
    for (let current = node.parent; current && current !== attempt.parent; current = current.parent) {
      if (current.type === AST_NODE_TYPES.TryStatement && current.handler && containsNode(current.block, node)) {
        if (/23505|unique_violation|UniqueViolation/.test(sourceCode.getText(current.handler))) return true;
      }
    }
    return false;
  }

  return check;
}

/** `node` sits inside a property named `name` of an object literal, below `root`. */
function isUnderProperty(node: TSESTree.Node, name: string, root: TSESTree.Node): boolean {
  for (let current = node.parent; current && current !== root; current = current.parent) {
    if (current.type === AST_NODE_TYPES.Property && getKeyName(current, { computed: false }) === name) return true;
  }
  return false;
}

/** The name the key's value is stored under: the property key or the variable. */
function getHoldingName(node: TSESTree.Node): string | undefined {
  const parent = node.parent;
  if (parent?.type === AST_NODE_TYPES.Property && parent.value === node) return getKeyName(parent, { computed: false });
  if (parent?.type === AST_NODE_TYPES.VariableDeclarator && parent.id.type === AST_NODE_TYPES.Identifier) return parent.id.name;
  if (parent?.type === AST_NODE_TYPES.AssignmentExpression && parent.left.type === AST_NODE_TYPES.Identifier) return parent.left.name;
  return undefined;
}

function getNameCandidates(node: TSESTree.Node): string[] {
  const holder = getHoldingName(node);
  const fromHolder =
    holder && /^[A-Za-z_$][\w$]*$/.test(holder) ? [holder.charAt(0).toLowerCase() + holder.slice(1)] : [];
  return [...fromHolder, 'idempotencyKey', 'requestId'];
}

/** The declarator whose initializer holds `node` through object/array literals (`const item = { id: randomUUID() }`). */
function getEnclosingDeclarator(node: TSESTree.Node): TSESTree.VariableDeclarator | undefined {
  let current: TSESTree.Node = node;
  for (let parent = node.parent; parent; current = parent, parent = parent.parent) {
    switch (parent.type) {
      case AST_NODE_TYPES.VariableDeclarator:
        return parent.init === current && parent.id.type === AST_NODE_TYPES.Identifier ? parent : undefined;
      case AST_NODE_TYPES.Property:
        if (parent.value !== current) return undefined;
        break;
      case AST_NODE_TYPES.ObjectExpression:
      case AST_NODE_TYPES.ArrayExpression:
      case AST_NODE_TYPES.TemplateLiteral:
      case AST_NODE_TYPES.TSAsExpression:
      case AST_NODE_TYPES.TSSatisfiesExpression:
        break;
      default:
        return undefined;
    }
  }
  return undefined;
}

/** `node` sits in a function nested inside the attempt (it may run once per item, not once per attempt). */
function isInNestedFunction(node: TSESTree.Node, attempt: TSESTree.Node): boolean {
  for (let current = node.parent; current && current !== attempt; current = current.parent) {
    if (isFunctionNode(current)) return true;
  }
  return false;
}

/**
 * The statement before which a declaration runs once, before the retry: the loop
 * statement (or its label), or the statement holding a retry library's call. Undefined
 * for recursion and `.catch` retries, and when the retry is not a statement of a block.
 */
function getInsertionAnchor(scope: RetryScope): TSESTree.Node | undefined {
  if (scope.kind === 'loop') return getListedStatement(scope.node);
  if (scope.kind === 'library') return getEnclosingListedStatement(scope.node);
  return undefined;
}
