import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { findInsertsWithoutId, type InsertWithoutId } from '../analysis/clients';
import { getEnclosingListedStatement, getObjectIdAccess, getUsedNamesInFile, insertFirstProperty, insertLine, pickNumberedName } from '../fix';
import { createPerFileCache } from '../analysis/per-file-cache';
import { findEnclosingRetryScopes, type RetryScope } from '../analysis/retry';
import { createRule } from '../util/create-rule';

type MessageId = 'missingId' | 'missingIdServerGenerated' | 'missingIdRebuiltPerAttempt' | 'addObjectId' | 'addObjectIdBeforeRetry';

export default createRule<[], MessageId>({
  name: 'mongo-require-insert-id',
  meta: {
    type: 'problem',
    docs: {
      description: 'Require an explicit `_id` on documents inserted into MongoDB / Amazon DocumentDB.',
      database: 'MongoDB',
    },
    hasSuggestions: true,
    messages: {
      missingId:
        'MongoDB `{{method}}` inserts a document without `_id`: DocumentDB retries only inserts that carry one, and an insert your code repeats creates a second document. Set `_id: new ObjectId()`.',
      missingIdServerGenerated:
        'MongoDB `{{method}}` inserts without `_id` and `forceServerObjectId: true` is set: DocumentDB cannot retry the insert, and a repeat creates a second document. Set `_id: new ObjectId()`.',
      missingIdRebuiltPerAttempt:
        'MongoDB `{{method}}` inserts a document built inside the retry, so each attempt gets a new `_id`: after a lost reply the retry inserts a second document. Create the `_id` once, before the retry.',
      addObjectId: 'Add `_id: new ObjectId()` to the document.',
      addObjectIdBeforeRetry: 'Create `const {{name}} = new ObjectId()` before the retry and use it as the `_id`.',
    },
    schema: [],
    defaultOptions: [],
  },
  defaultOptions: [],
  create(context) {
    return {
      'Program:exit'() {
        for (const insert of findInsertsWithoutId(context)) report(context, insert);
      },
    };
  },
});

type Context = Readonly<TSESLint.RuleContext<MessageId, []>>;

/** How to write `new ObjectId()` in this file: the same for every finding, so looked up once per file. */
const getFileObjectIdAccess = createPerFileCache((context) => getObjectIdAccess(context.sourceCode));

function report(context: Context, insert: InsertWithoutId): void {
  const retry = findEnclosingRetryScopes(context, insert.literal)[0];
  const data = { method: insert.call.operation };
  if (retry) {
    const hoisted = getHoistedIdFix(context, insert, retry);
    context.report({
      node: insert.document,
      messageId: 'missingIdRebuiltPerAttempt',
      data,
      suggest: hoisted ? [{ messageId: 'addObjectIdBeforeRetry', data: { name: hoisted.name }, fix: hoisted.fix }] : [],
    });
    return;
  }
  const access = getFileObjectIdAccess(context);
  context.report({
    node: insert.document,
    messageId: insert.forceServerObjectId ? 'missingIdServerGenerated' : 'missingId',
    data,
    suggest: access
      ? [
          {
            messageId: 'addObjectId',
            fix: (fixer) => [...access.fixes(fixer), insertFirstProperty(context.sourceCode, fixer, insert.literal, `_id: new ${access.expression}()`, 'line')],
          },
        ]
      : [],
  });
}

/**
 * `const id = new ObjectId();` just above the retry, `_id: id` in the document: every
 * attempt then writes the same document. Only for retries whose attempt is a block
 * inside the statement we can write above (loops, `.catch` retries, library calls);
 * a recursive retry would need the id passed along, which is the user's call.
 */
function getHoistedIdFix(context: Context, insert: InsertWithoutId, retry: RetryScope): { name: string; fix: TSESLint.ReportFixFunction } | undefined {
  if (retry.kind === 'recursion' || !isBuiltOncePerAttempt(insert.literal, retry.attempt)) return undefined;
  const sourceCode = context.sourceCode;
  const statement = getEnclosingListedStatement(retry.node);
  // Not before `export = …`.
  if (!statement || !/(Statement|Declaration)$/.test(statement.type)) return undefined;
  const usedNames = getUsedNamesInFile(context);
  const name = pickNumberedName('id', (candidate) => usedNames.has(candidate));
  const access = getFileObjectIdAccess(context);
  if (!access) return undefined;
  return {
    name,
    fix: (fixer) => [
      ...access.fixes(fixer),
      insertLine(sourceCode, fixer, 'before', statement, `const ${name} = new ${access.expression}();`, 'line'),
      insertFirstProperty(sourceCode, fixer, insert.literal, `_id: ${name}`, 'line'),
    ],
  };
}

/** False when a callback or loop between the document and the attempt builds it several times (`items.map(…)`). */
function isBuiltOncePerAttempt(literal: TSESTree.Node, attempt: TSESTree.Node): boolean {
  for (let current = literal.parent; current && current !== attempt; current = current.parent) {
    if (/Function|^(?:For|ForIn|ForOf|While|DoWhile)Statement$/.test(current.type)) return false;
  }
  return true;
}
