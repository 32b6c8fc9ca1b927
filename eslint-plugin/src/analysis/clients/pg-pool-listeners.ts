import { ASTUtils, type TSESTree } from '@typescript-eslint/utils';
import type { AnyRuleContext } from '../per-file-cache';
import { getMethodCall } from './value-bindings';

/** EventEmitter methods that attach a listener (a `pg` Pool is an EventEmitter). */
const LISTENER_METHODS = new Set(['on', 'once', 'addListener', 'prependListener', 'prependOnceListener']);

/** `reference.on('error', …)` (or a listener whose event name is not known: it may be 'error'). */
export function isErrorListenerCall(context: AnyRuleContext, reference: TSESTree.Node): boolean {
  const method = getMethodCall(reference);
  if (!method || !LISTENER_METHODS.has(method.name)) return false;
  const event = method.call.arguments[0];
  if (!event) return false;
  const value = ASTUtils.getStaticValue(event, context.sourceCode.getScope(event));
  return !value || value.value === 'error';
}
