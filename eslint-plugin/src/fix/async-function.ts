import { AST_NODE_TYPES, type TSESLint, type TSESTree } from '@typescript-eslint/utils';
import { type FunctionNode, getEnclosingFunction } from '../analysis/ast';

type SourceCode = Readonly<TSESLint.SourceCode>;

/** Methods that register an event listener: the emitter ignores what the listener returns. */
const LISTENER_METHODS = new Set(['on', 'once', 'addListener', 'prependListener', 'prependOnceListener']);

/**
 * Where `async ` goes to make a function async: before `function`, or before an arrow's
 * parameters. Undefined when that would not type-check (a return type other than a promise).
 */
export function getAsyncInsertPoint(sourceCode: SourceCode, fn: FunctionNode): number | undefined {
  const returnType = fn.returnType?.typeAnnotation;
  if (returnType && !(returnType.type === AST_NODE_TYPES.TSTypeReference && returnType.typeName.type === AST_NODE_TYPES.Identifier && returnType.typeName.name === 'Promise')) return undefined;
  return sourceCode.getFirstToken(fn)?.range[0];
}

/**
 * For a statement directly in an event listener that is not `async`
 * (`emitter.on('event', (x) => { … })`): the edit that makes the listener `async`, so code
 * put in the statement's place may `await`. Safe because the emitter drops what a listener
 * returns, a promise as well as `undefined`. Null for any other function.
 */
export function getAsyncListenerFix(sourceCode: SourceCode, statement: TSESTree.Statement): ((fixer: TSESLint.RuleFixer) => TSESLint.RuleFix) | null {
  const listener = getEnclosingFunction(statement);
  if (!listener || listener.async || listener.generator || listener.type === AST_NODE_TYPES.FunctionDeclaration) return null;
  if (listener.body.type !== AST_NODE_TYPES.BlockStatement || statement.parent !== listener.body) return null;
  const registration = listener.parent;
  if (registration?.type !== AST_NODE_TYPES.CallExpression || registration.arguments.at(-1) !== listener || registration.arguments.length !== 2) return null;
  const callee = registration.callee;
  if (callee.type !== AST_NODE_TYPES.MemberExpression || callee.computed || callee.property.type !== AST_NODE_TYPES.Identifier || !LISTENER_METHODS.has(callee.property.name)) return null;
  // `this` inside a `function` listener is the emitter; `async` keeps it.
  const at = getAsyncInsertPoint(sourceCode, listener);
  return at === undefined ? null : (fixer) => fixer.insertTextBeforeRange([at, at], 'async ');
}
