import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { CALL, CONSTRUCT, findGlobalIdentifiers, findGlobalReferences, findModuleReferences, type TraceMap } from '../modules';
import { type AnyRuleContext, createPerFileCache } from '../per-file-cache';

/**
 * Calls that make a fresh unique value — the usual idempotency keys and ids: `randomUUID()`,
 * `uuid()` / `v4()`, `nanoid()`, `ulid()`, `cuid()` / `createId()`, `new ObjectId()`, and
 * `Date.now()` (a key only when it is named like one). Found by following the imports
 * (and the `crypto` / `Date` globals), never by name alone.
 */
export interface KeyCreation {
  node: TSESTree.CallExpression | TSESTree.NewExpression;
  /** How the messages name it: `randomUUID()`, `uuid.v4()`, `new ObjectId()`, `Date.now()`. */
  label: string;
  /** `Date.now()`: unique only by accident; counts as a key only when named like one. */
  isTimestamp: boolean;
}

const call = { [CALL]: true };
const construct = { [CONSTRUCT]: true, [CALL]: true };

const TRACE_MAP: TraceMap<boolean> = {
  crypto: { randomUUID: call },
  'node:crypto': { randomUUID: call },
  uuid: { v1: call, v4: call, v6: call, v7: call },
  nanoid: { nanoid: call },
  ulid: { ulid: call },
  cuid: { ...call, default: call },
  '@paralleldrive/cuid2': { createId: call },
  mongodb: { ObjectId: construct },
  bson: { ObjectId: construct },
  mongoose: { Types: { ObjectId: construct }, default: { Types: { ObjectId: construct } } },
};

const GLOBAL_MAP: TraceMap<boolean> = {
  Date: { now: { [CALL]: true } },
};

const MODULES = Object.keys(TRACE_MAP);

/** Every key creation of the file, in source order; computed once per file. */
export const findKeyCreations = createPerFileCache((context: AnyRuleContext): readonly KeyCreation[] => {
  const sourceCode = context.sourceCode;
  const found: KeyCreation[] = [];
  const text = sourceCode.text;
  if (MODULES.some((name) => text.includes(name))) {
    for (const reference of findModuleReferences(context, TRACE_MAP)) {
      const node = reference.node;
      if (node.type !== 'CallExpression' && node.type !== 'NewExpression') continue;
      // `new ObjectId(hex)` converts an existing id; only `new ObjectId()` makes a new one.
      if (reference.path.includes('ObjectId') && node.arguments.length > 0) continue;
      found.push({ node, label: getLabel(sourceCode.getText(node.callee), node), isTimestamp: false });
    }
  }
  const globalScope = sourceCode.scopeManager?.globalScope;
  if (globalScope && text.includes('Date.now')) {
    for (const reference of findGlobalReferences(context, GLOBAL_MAP)) {
      const node = reference.node;
      if (node.type !== 'CallExpression') continue;
      found.push({ node, label: getLabel(sourceCode.getText(node.callee), node), isTimestamp: reference.info });
    }
  }
  if (globalScope && text.includes('crypto.randomUUID')) found.push(...findGlobalRandomUuidCalls(globalScope, sourceCode.getText.bind(sourceCode)));
  return found.sort((a, b) => a.node.range[0] - b.node.range[0]);
});

/**
 * `crypto.randomUUID()` on the global `crypto` (Node 19+, browsers), which ESLint knows
 * only when the config declares it: unresolved `crypto` references count too.
 */
function findGlobalRandomUuidCalls(globalScope: TSESLint.Scope.Scope, getText: (node: TSESTree.Node) => string): KeyCreation[] {
  const found: KeyCreation[] = [];
  for (const identifier of findGlobalIdentifiers(globalScope, 'crypto')) {
    const member = identifier.parent;
    if (member?.type !== 'MemberExpression' || member.object !== identifier || member.computed) continue;
    if (member.property.type !== 'Identifier' || member.property.name !== 'randomUUID') continue;
    const call = member.parent;
    if (call?.type !== 'CallExpression' || call.callee !== member) continue;
    found.push({ node: call, label: getLabel(getText(call.callee), call), isTimestamp: false });
  }
  return found;
}

function getLabel(callee: string, node: TSESTree.CallExpression | TSESTree.NewExpression): string {
  const short = callee.length > 40 ? `${callee.slice(0, 37)}…` : callee;
  return node.type === 'NewExpression' ? `new ${short}()` : `${short}()`;
}

/** A name that says the value identifies a request or a record: `id`, `_id`, `orderId`, `requestKey`, `token`. */
export function isKeyLikeName(name: string): boolean {
  return /^_?id$|[a-z0-9]Id$|ID$|key$|Key$|token|Token|idempot|Idempot|nonce|Nonce/.test(name);
}
