import { AST_NODE_TYPES, type TSESLint, type TSESTree } from '@typescript-eslint/utils';
import type { DynamoDbCall, UnprocessedResult } from '../analysis/clients';
import type { ServiceBackoff } from '../analysis/retry';
import { getBackoffDelayText } from './backoff';
import type { CodeStyle } from './code-style';
import type { FileHelper } from './file-helpers';
import { asStatement } from './failure-reporting';
import { getIndent } from './indentation';
import { asFixList, getInsertBeforeStatementFix } from './insert-statement';

/**
 * Sending a DynamoDB batch until nothing is left unprocessed: a helper added once per
 * file takes a function that sends one batch and the batch's input, sends again what
 * `UnprocessedItems` / `UnprocessedKeys` lists, with capped jittered backoff, and throws
 * after the last attempt. It works the same for SDK v3 commands, the document client and
 * SDK v2 (`.promise()`), since the call site says how to send:
 * `writeAllItems((request) => client.send(new BatchWriteItemCommand(request)), input)`.
 */

export function getUnprocessedItemsHelper(unprocessed: UnprocessedResult, backoff: ServiceBackoff, maxAttempts: number): FileHelper {
  const isWrite = unprocessed.property === 'UnprocessedItems';
  return {
    name: isWrite ? 'writeAllItems' : 'getAllItems',
    parameterCount: 2,
    getDeclaration: (name, style) => (isWrite ? getWriteDeclaration(name, style, backoff, maxAttempts) : getReadDeclaration(name, style, backoff, maxAttempts)),
  };
}

function getSignature(name: string, style: CodeStyle, output: string): string {
  if (!style.typescript) return `async function ${name}(send, input) {`;
  return [
    `async function ${name}<Input extends { RequestItems?: object }, Output extends ${output}>(`,
    '  send: (input: Input) => Promise<Output>,',
    '  input: Input,',
    '): Promise<Output> {',
  ].join('\n');
}

function getRetryTail(backoff: ServiceBackoff, maxAttempts: number, what: string): string[] {
  return [
    `    if (attempt >= ${maxAttempts}) throw new Error(\`DynamoDB left ${what} unprocessed after \${attempt} attempts\`);`,
    '    request = { ...request, RequestItems: unprocessed };',
    `    await new Promise((resolve) => setTimeout(resolve, ${getBackoffDelayText('attempt', backoff)}));`,
    '  }',
    '}',
  ];
}

function getWriteDeclaration(name: string, style: CodeStyle, backoff: ServiceBackoff, maxAttempts: number): string {
  return [
    '/** Sends a DynamoDB batch write again with what it left unprocessed, with backoff, until nothing is left. */',
    getSignature(name, style, '{ UnprocessedItems?: object }'),
    '  let request = input;',
    '  for (let attempt = 1; ; attempt++) {',
    '    const output = await send(request);',
    '    const unprocessed = output.UnprocessedItems;',
    '    if (!unprocessed || Object.keys(unprocessed).length === 0) return output;',
    ...getRetryTail(backoff, maxAttempts, 'writes'),
  ].join('\n');
}

function getReadDeclaration(name: string, style: CodeStyle, backoff: ServiceBackoff, maxAttempts: number): string {
  const responsesType = style.typescript ? ': Record<string, unknown[]>' : '';
  return [
    '/** Sends a DynamoDB batch read again for the keys it left unprocessed, with backoff, and returns every item read. */',
    getSignature(name, style, '{ Responses?: Record<string, unknown[]>; UnprocessedKeys?: object }'),
    '  let request = input;',
    `  const responses${responsesType} = {};`,
    '  for (let attempt = 1; ; attempt++) {',
    '    const output = await send(request);',
    '    for (const [table, items] of Object.entries(output.Responses ?? {})) responses[table] = [...(responses[table] ?? []), ...items];',
    '    const unprocessed = output.UnprocessedKeys;',
    '    if (!unprocessed || Object.keys(unprocessed).length === 0) return { ...output, Responses: responses };',
    ...getRetryTail(backoff, maxAttempts, 'reads'),
  ].join('\n');
}

/** The batch call sent through the file's helper: the edits that make it so. */
export interface UnprocessedItemsCallEdit {
  fixes(fixer: TSESLint.RuleFixer): TSESLint.RuleFix[];
}

/**
 * The batch call written through the helper named `helper`, in place of the call
 * expression that gives the result (the v3 `send` call, the v2 `.promise()` call). An SDK
 * v2 call with a node-style callback, in JavaScript and as a statement of its own, becomes
 * the helper's promise handed to that callback (`.then((output) => done(null, output),
 * done)`); an inline callback is first kept in a `const` on the line before. Undefined for
 * shapes where sending again is not a matter of one expression: a command built
 * elsewhere, an input that is spread, a callback made by a call or that uses `this` (the
 * SDK's response).
 */
export function getUnprocessedItemsCall(
  sourceCode: Readonly<TSESLint.SourceCode>,
  call: DynamoDbCall,
  names: { helper: string; request: string; callback: string },
  style: CodeStyle,
): UnprocessedItemsCallEdit | undefined {
  const input = call.input;
  if (!input || input.type === AST_NODE_TYPES.SpreadElement) return undefined;
  const { helper, request } = names;
  const node = call.node;
  const replace = (replaced: TSESTree.Node, text: string): UnprocessedItemsCallEdit => ({ fixes: (fixer) => [fixer.replaceText(replaced, text)] });
  if (call.callback) return getCallbackEdit(sourceCode, call, names, style);
  if (call.style === 'command' && call.command && call.command.arguments.length === 1 && node.arguments.length === 1) {
    const sent = `${sourceCode.getText(node.callee)}(new ${sourceCode.getText(call.command.callee)}(${request}))`;
    return replace(node, `${helper}((${request}) => ${sent}, ${sourceCode.getText(input)})`);
  }
  if (call.style === 'method' && node.arguments.length === 1) {
    if (call.sdkVersion === 3) return replace(node, `${helper}((${request}) => ${sourceCode.getText(node.callee)}(${request}), ${sourceCode.getText(input)})`);
    // SDK v2: `client.batchWrite(input).promise()`.
    const promiseCall = getPromiseCall(node);
    if (promiseCall) return replace(promiseCall, `${helper}((${request}) => ${sourceCode.getText(node.callee)}(${request}).promise(), ${sourceCode.getText(input)})`);
  }
  return undefined;
}

/** `client.batchWrite(input).promise()` of the call `client.batchWrite(input)`. */
function getPromiseCall(node: TSESTree.CallExpression): TSESTree.CallExpression | undefined {
  const member = node.parent;
  const promiseCall = member?.parent;
  const isPromiseMember =
    member?.type === AST_NODE_TYPES.MemberExpression &&
    member.object === node &&
    !member.computed &&
    member.property.type === AST_NODE_TYPES.Identifier &&
    member.property.name === 'promise';
  return isPromiseMember && promiseCall?.type === AST_NODE_TYPES.CallExpression && promiseCall.callee === member && promiseCall.arguments.length === 0 ? promiseCall : undefined;
}

/** `client.batchWrite(input, (err, data) => …);` as `helper(send, input).then((output) => done(null, output), done);`. */
function getCallbackEdit(
  sourceCode: Readonly<TSESLint.SourceCode>,
  call: DynamoDbCall,
  names: { helper: string; request: string; callback: string },
  style: CodeStyle,
): UnprocessedItemsCallEdit | undefined {
  const { node, callback } = call;
  if (!callback) return undefined;
  const statement = node.parent;
  // TypeScript types the SDK's callback (`AWSError`, not `null`); the request object the call returns would be lost.
  if (style.typescript || call.style !== 'method' || call.sdkVersion !== 2 || node.arguments.length !== 2 || node.arguments[1] !== callback) return undefined;
  if (statement?.type !== AST_NODE_TYPES.ExpressionStatement || statement.expression !== node || !call.input) return undefined;
  const isFunction = callback.type === AST_NODE_TYPES.ArrowFunctionExpression || callback.type === AST_NODE_TYPES.FunctionExpression;
  if (callback.type !== AST_NODE_TYPES.Identifier && !isFunction) return undefined;
  if (callback.type === AST_NODE_TYPES.FunctionExpression && /\bthis\b/.test(sourceCode.getText(callback.body))) return undefined;
  // The function's lines keep their place: the insertion indents each line after the first again.
  const indent = getIndent(sourceCode, statement, 'line');
  const callbackText = sourceCode.getText(callback).split('\n').map((line, index) => (index > 0 && line.startsWith(indent) ? line.slice(indent.length) : line)).join('\n');
  const hoist = isFunction ? getInsertBeforeStatementFix(sourceCode, statement, asStatement(`const ${names.callback} = ${callbackText}`, style)) : null;
  if (isFunction && !hoist) return undefined;
  const done = isFunction ? names.callback : sourceCode.getText(callback);
  const send = `(${names.request}) => ${sourceCode.getText(node.callee)}(${names.request}).promise()`;
  const text = `${names.helper}(${send}, ${sourceCode.getText(call.input)}).then((output) => ${done}(null, output), ${done})`;
  return { fixes: (fixer) => [...asFixList(hoist?.(fixer) ?? null), fixer.replaceText(node, text)] };
}
