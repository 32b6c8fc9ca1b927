import type { DynamoDbCall } from './dynamodb-calls';
import { getMethodCall } from './value-bindings';
import type { AnyRuleContext } from '../per-file-cache';
import { getCallbackPropertyUse, getPromisedPropertyUse, type PropertyUse } from './result-usage';

/**
 * DynamoDB batch operations return what they did not process (when throttled, for
 * example) in their result instead of failing.
 */

export interface UnprocessedResult {
  /** The result property that lists it. */
  property: 'UnprocessedItems' | 'UnprocessedKeys';
  /** What it lists. */
  items: 'writes' | 'reads';
}

const UNPROCESSED: Record<string, UnprocessedResult> = {
  BatchWriteItem: { property: 'UnprocessedItems', items: 'writes' },
  BatchGetItem: { property: 'UnprocessedKeys', items: 'reads' },
};

/** Where a batch operation's result lists what it did not process; undefined for other operations. */
export function getUnprocessedResult(operation: string): UnprocessedResult | undefined {
  return UNPROCESSED[operation];
}

/** How the call's result is used for `property`, following the way the SDK delivers it. */
export function getDynamoDbResultPropertyUse(context: AnyRuleContext, call: DynamoDbCall, property: string): PropertyUse {
  const node = call.node;
  if (call.callback) return getCallbackPropertyUse(context, call.callback, 1, property);
  if (call.sdkVersion === 3) return getPromisedPropertyUse(context, node, property);
  // SDK v2 returns an AWS.Request: `.promise()`, or `.send(callback)`.
  const method = getMethodCall(node);
  if (method?.name === 'promise') return getPromisedPropertyUse(context, method.call, property);
  const callback = method?.name === 'send' ? method.call.arguments[0] : undefined;
  if (callback) return getCallbackPropertyUse(context, callback, 1, property);
  return 'unknown';
}
