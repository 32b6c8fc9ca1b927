import { AST_NODE_TYPES, type TSESLint, type TSESTree } from '@typescript-eslint/utils';
import type { Database } from '../analysis/clients';
import { getFileScope, isFunctionNode } from '../analysis/ast';
import { isPlainSleepHelper, PLAIN_WAIT_NAME, type ServiceBackoff, walkOwnCode } from '../analysis/retry';
import { getBackoffDelayText } from './backoff';
import type { FileHelper } from './file-helpers';

/**
 * A function that runs a database call again on transient errors, added once per file. It
 * takes the call as a function (`retryOnTransientMongoError(() => coll.deleteMany(filter))`)
 * and resolves to its result, so a call can be wrapped where it stands — awaited in an
 * expression, returned, chained with `.then` — without moving code around it.
 */

const HELPER_NAMES: Record<Database, string> = {
  dynamodb: 'retryOnTransientDynamoDbError',
  postgres: 'retryOnTransientPgError',
  mongodb: 'retryOnTransientMongoError',
};

const SERVICE_NAMES: Record<Database, string> = { dynamodb: 'DynamoDB', postgres: 'PostgreSQL', mongodb: 'MongoDB' };

export interface TransientRetry {
  database: Database;
  /** The name of the function that tells a transient error (see `getTransientErrorHelper`). */
  isTransient: string;
  maxAttempts: number;
  backoff: ServiceBackoff;
  /** A visible `sleep(ms)`-like function to wait with; else a `setTimeout` promise. */
  sleep: string | undefined;
}

export function getTransientRetryHelper(retry: TransientRetry): FileHelper {
  return { name: HELPER_NAMES[retry.database], parameterCount: 1, getDeclaration: (name, style) => getDeclaration(retry, name, style.typescript) };
}

function getDeclaration(retry: TransientRetry, name: string, typescript: boolean): string {
  const delay = getBackoffDelayText('attempt', retry.backoff);
  const wait = retry.sleep ? `await ${retry.sleep}(${delay});` : `await new Promise((resolve) => setTimeout(resolve, ${delay}));`;
  // `PromiseLike`: a Mongoose query is a thenable, not a promise.
  const signature = typescript ? `async function ${name}<T>(call: () => PromiseLike<T>): Promise<T> {` : `async function ${name}(call) {`;
  return [
    `/** Runs \`call\` again on transient ${SERVICE_NAMES[retry.database]} errors: up to ${retry.maxAttempts} attempts, with capped, jittered exponential backoff. */`,
    signature,
    '  for (let attempt = 1; ; attempt++) {',
    '    try {',
    '      return await call();',
    '    } catch (error) {',
    `      if (attempt >= ${retry.maxAttempts} || !${retry.isTransient}(error)) throw error;`,
    `      ${wait}`,
    '    }',
    '  }',
    '}',
  ].join('\n');
}

/**
 * Whether `call` can be moved into `() => …` and run again as it is written: it awaits or
 * yields nothing (an arrow cannot), assigns nothing (a rerun would do it again) and takes
 * no callback (its result would not be the promise the helper waits for).
 */
export function canRunAgainInArrow(call: TSESTree.CallExpression, keys: TSESLint.SourceCode.VisitorKeys): boolean {
  if (call.arguments.some((argument) => isFunctionNode(argument))) return false;
  let movable = true;
  walkOwnCode(call, keys, (node) => {
    if (
      node.type === AST_NODE_TYPES.AwaitExpression ||
      node.type === AST_NODE_TYPES.YieldExpression ||
      node.type === AST_NODE_TYPES.AssignmentExpression ||
      node.type === AST_NODE_TYPES.UpdateExpression
    ) {
      movable = false;
    }
    return movable;
  });
  return movable;
}

/**
 * A `sleep(ms)` function declared at the file's top level, which a helper added after the
 * imports can call: a function declaration (hoisted; a `const sleep = …` further down is not
 * yet set while the module's first statements run).
 */
export function findTopLevelSleepFunction(sourceCode: Readonly<TSESLint.SourceCode>): string | undefined {
  const fileScope = getFileScope(sourceCode);
  if (!fileScope) return undefined;
  for (const variable of fileScope.variables) {
    const node = variable.defs[0]?.node as TSESTree.Node | undefined;
    if (PLAIN_WAIT_NAME.test(variable.name) && node?.type === AST_NODE_TYPES.FunctionDeclaration && node.params.length === 1 && isPlainSleepHelper(node)) {
      return variable.name;
    }
  }
  return undefined;
}
