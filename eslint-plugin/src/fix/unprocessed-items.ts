import { AST_NODE_TYPES, type TSESLint, type TSESTree } from '@typescript-eslint/utils';
import type { DynamoDbCall, UnprocessedResult } from '../analysis/clients';
import type { ServiceBackoff } from '../analysis/retry';
import { getBackoffDelayText } from './backoff';
import type { CodeStyle } from './code-style';
import type { FileHelper } from './file-helpers';

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

/**
 * The batch call written through the helper named `helper`, in place of the call
 * expression that gives the result (the v3 `send` call, the v2 `.promise()` call), and
 * that expression. Undefined for shapes where sending again is not a matter of one
 * expression: a callback, a command built elsewhere, an input that is spread.
 */
export function getUnprocessedItemsCall(
  sourceCode: Readonly<TSESLint.SourceCode>,
  call: DynamoDbCall,
  helper: string,
  request: string,
): { replaced: TSESTree.Node; text: string } | undefined {
  const input = call.input;
  if (!input || call.callback || input.type === AST_NODE_TYPES.SpreadElement) return undefined;
  const node = call.node;
  if (call.style === 'command' && call.command && call.command.arguments.length === 1 && node.arguments.length === 1) {
    const sent = `${sourceCode.getText(node.callee)}(new ${sourceCode.getText(call.command.callee)}(${request}))`;
    return { replaced: node, text: `${helper}((${request}) => ${sent}, ${sourceCode.getText(input)})` };
  }
  if (call.style === 'method' && node.arguments.length === 1) {
    if (call.sdkVersion === 3) return { replaced: node, text: `${helper}((${request}) => ${sourceCode.getText(node.callee)}(${request}), ${sourceCode.getText(input)})` };
    // SDK v2: `client.batchWrite(input).promise()`.
    const member = node.parent;
    const promiseCall = member?.parent;
    if (
      member?.type === AST_NODE_TYPES.MemberExpression &&
      member.object === node &&
      !member.computed &&
      member.property.type === AST_NODE_TYPES.Identifier &&
      member.property.name === 'promise' &&
      promiseCall?.type === AST_NODE_TYPES.CallExpression &&
      promiseCall.callee === member &&
      promiseCall.arguments.length === 0
    ) {
      return { replaced: promiseCall, text: `${helper}((${request}) => ${sourceCode.getText(node.callee)}(${request}).promise(), ${sourceCode.getText(input)})` };
    }
  }
  return undefined;
}
