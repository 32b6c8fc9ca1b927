import { ASTUtils, type TSESTree } from '@typescript-eslint/utils';
import { findMongoCalls, type MongoCall } from './mongo-calls';
import { findNodesAtOffsets } from '../find-nodes-at-offsets';
import { getMongoValues } from './mongo-values';
import { type AnyRuleContext, createPerFileCache } from '../per-file-cache';
import { getPropertyKeyName } from './update-operators';

/** A document literal passed to `insertOne`, `insertMany` or a `bulkWrite` `insertOne`, without `_id`. */
export interface InsertWithoutId {
  call: MongoCall;
  /** The document as written in the call (an object literal, or a variable holding one). */
  document: TSESTree.Expression;
  /** The object literal that builds the document (the same node, or a `const`'s initializer). */
  literal: TSESTree.ObjectExpression;
  /** `forceServerObjectId: true` on the call, or on the client (created in this file) that the collection comes from. */
  forceServerObjectId: boolean;
}

/**
 * Driver inserts whose document literal has no `_id`. Mongoose models are left out:
 * Mongoose gives every new document an `_id` before it is sent. A spread of an
 * object whose keys are unknown may carry `_id`, so such documents are left out too.
 */
export const findInsertsWithoutId = createPerFileCache((context: AnyRuleContext): readonly InsertWithoutId[] => {
  const inserts: InsertWithoutId[] = [];
  let clientsForcingServerId: ReadonlySet<TSESTree.Node> | undefined;
  for (const call of findMongoCalls(context)) {
    if (call.library !== 'mongodb') continue;
    const documents = getInsertedDocuments(context, call);
    if (documents.length === 0) continue;
    const options = call.node.arguments[1];
    for (const document of documents) {
      const literal = resolveObjectLiteral(context, document);
      if (!literal || getIdPresence(context, literal, 0) !== 'absent') continue;
      clientsForcingServerId ??= findClientsForcingServerId(context);
      const origin = clientsForcingServerId.size > 0 ? getMongoValues(context).getClientOrigin(call.receiver) : undefined;
      const forceServerObjectId =
        (origin !== undefined && clientsForcingServerId.has(origin)) || (options?.type === 'ObjectExpression' && hasTrueProperty(options, 'forceServerObjectId'));
      inserts.push({ call, document, literal, forceServerObjectId });
    }
  }
  return inserts;
});

function getInsertedDocuments(context: AnyRuleContext, call: MongoCall): TSESTree.Expression[] {
  const first = call.node.arguments[0];
  if (!first || first.type === 'SpreadElement') return [];
  switch (call.operation) {
    case 'insertOne':
      return getBranches(first);
    case 'insertMany':
      return getListedElements(context, first);
    case 'bulkWrite': {
      const documents: TSESTree.Expression[] = [];
      for (const operation of getListedElements(context, first)) {
        if (operation?.type !== 'ObjectExpression') continue;
        const insert = findProperty(operation, 'insertOne')?.value;
        const document = insert?.type === 'ObjectExpression' ? findProperty(insert, 'document')?.value : undefined;
        if (document && isExpression(document)) documents.push(document);
      }
      return documents;
    }
    default:
      return [];
  }
}

/** Elements of an array literal, or the object a `list.map((x) => ({ … }))` callback returns. */
function getListedElements(context: AnyRuleContext, node: TSESTree.Expression): TSESTree.Expression[] {
  if (node.type === 'ArrayExpression') return node.elements.filter(isExpression);
  if (node.type === 'Identifier') {
    const list = resolveListVariable(context, node);
    return list ? getListedElements(context, list) : [];
  }
  if (node.type !== 'CallExpression' || node.callee.type !== 'MemberExpression' || node.callee.computed) return [];
  if (node.callee.property.type !== 'Identifier' || node.callee.property.name !== 'map') return [];
  const callback = node.arguments[0];
  if (callback?.type !== 'ArrowFunctionExpression' && callback?.type !== 'FunctionExpression') return [];
  if (callback.body.type === 'ObjectExpression') return [callback.body];
  if (callback.body.type !== 'BlockStatement') return [];
  // `{ …; return { … }; }` with no other `return` anywhere in the callback.
  const last = callback.body.body[callback.body.body.length - 1];
  if (last?.type !== 'ReturnStatement' || last.argument?.type !== 'ObjectExpression') return [];
  const returns = context.sourceCode.getTokens(callback.body).filter((token) => token.type === 'Keyword' && token.value === 'return');
  return returns.length === 1 ? [last.argument] : [];
}

/**
 * `cond ? { … } : { … }`: each document the call may insert, one per branch (nested
 * conditionals too); any other expression is itself.
 */
function getBranches(node: TSESTree.Expression): TSESTree.Expression[] {
  const branches: TSESTree.Expression[] = [];
  const pending: TSESTree.Expression[] = [node];
  for (let next = pending.pop(); next; next = pending.pop()) {
    if (next.type === 'ConditionalExpression') pending.push(next.alternate, next.consequent);
    else branches.push(next);
  }
  return branches;
}

function isExpression(node: TSESTree.Node | null): node is TSESTree.Expression {
  return node !== null && node.type !== 'SpreadElement' && node.type !== 'AssignmentPattern' && node.type !== 'ObjectPattern' && node.type !== 'ArrayPattern' && node.type !== 'RestElement' && node.type !== 'TSEmptyBodyFunctionExpression';
}

function findProperty(object: TSESTree.ObjectExpression, name: string): TSESTree.Property | undefined {
  return object.properties.find((property): property is TSESTree.Property => property.type === 'Property' && getPropertyKeyName(property) === name);
}

function hasTrueProperty(object: TSESTree.ObjectExpression, name: string): boolean {
  const value = findProperty(object, name)?.value;
  return value?.type === 'Literal' && value.value === true;
}

/** An object literal, or a `const` initialised with one (`const order = { … }; insertOne(order)`). */
function resolveObjectLiteral(context: AnyRuleContext, node: TSESTree.Node): TSESTree.ObjectExpression | undefined {
  let current: TSESTree.Node = node;
  while (current.type === 'TSAsExpression' || current.type === 'TSSatisfiesExpression' || current.type === 'TSNonNullExpression') current = current.expression;
  if (current.type === 'ObjectExpression') return current;
  if (current.type !== 'Identifier') return undefined;
  const variable = ASTUtils.findVariable(context.sourceCode.getScope(current), current);
  const def = variable?.defs[0];
  if (!variable || def?.type !== 'Variable' || def.parent.kind !== 'const' || def.node.id.type !== 'Identifier' || !def.node.init) return undefined;
  // A document whose `_id` other code may set before the insert (`order._id = …`, `order[key] = …`,
  // `Object.assign(order, …)`) is not judged; `entry.message = …` cannot give it one.
  if (variable.references.some((reference) => mayAssignId(reference.identifier))) return undefined;
  return def.node.init.type === 'ObjectExpression' ? def.node.init : undefined;
}

/**
 * `const docs = [{ … }, { … }]` or `const docs = items.map((x) => ({ … }))`, then
 * `insertMany(docs)`: the initializer, when nothing adds to or changes the array
 * (`docs.push(…)`, `docs[0] = …`).
 */
function resolveListVariable(context: AnyRuleContext, identifier: TSESTree.Identifier): TSESTree.ArrayExpression | TSESTree.CallExpression | undefined {
  const variable = ASTUtils.findVariable(context.sourceCode.getScope(identifier), identifier);
  const def = variable?.defs[0];
  const init = def?.type === 'Variable' && def.parent.kind === 'const' && def.node.id.type === 'Identifier' ? def.node.init : null;
  if (!variable || (init?.type !== 'ArrayExpression' && init?.type !== 'CallExpression')) return undefined;
  const onlyPassed = variable.references.every((reference) => {
    const parent = reference.identifier.parent;
    if (reference.init) return true;
    // Read as a call argument (the insert itself, a log line) is fine; any member use may change it.
    return parent?.type === 'CallExpression' && parent.callee !== reference.identifier;
  });
  return onlyPassed ? init : undefined;
}

/** `doc._id = …`, `doc[key] = …`, `Object.assign(doc, …)`: a use of `doc` that may give it an `_id`. */
function mayAssignId(reference: TSESTree.Node): boolean {
  const parent = reference.parent;
  if (parent?.type === 'CallExpression' && parent.arguments[0] === reference) {
    const callee = parent.callee;
    return callee.type === 'MemberExpression' && callee.object.type === 'Identifier' && callee.object.name === 'Object';
  }
  if (parent?.type !== 'MemberExpression' || parent.object !== reference) return false;
  const assignment = parent.parent;
  if (assignment?.type !== 'AssignmentExpression' || assignment.left !== parent) return false;
  return parent.computed || parent.property.type !== 'Identifier' || parent.property.name === '_id';
}

const MAX_SPREAD_DEPTH = 3;

function getIdPresence(context: AnyRuleContext, object: TSESTree.ObjectExpression, depth: number): 'present' | 'absent' | 'unknown' {
  let unknown = false;
  for (const property of object.properties) {
    if (property.type === 'Property') {
      const key = getPropertyKeyName(property);
      if (key === '_id') return 'present';
      if (key === undefined) unknown = true;
    } else {
      const spread = depth < MAX_SPREAD_DEPTH ? resolveObjectLiteral(context, property.argument) : undefined;
      const inner = spread ? getIdPresence(context, spread, depth + 1) : 'unknown';
      if (inner === 'present') return 'present';
      if (inner === 'unknown') unknown = true;
    }
  }
  return unknown ? 'unknown' : 'absent';
}

/** `new MongoClient(uri, { forceServerObjectId: true })` (or `MongoClient.connect`) calls of the file. */
function findClientsForcingServerId(context: AnyRuleContext): ReadonlySet<TSESTree.Node> {
  const text = context.sourceCode.text;
  const offsets: number[] = [];
  const clients = new Set<TSESTree.Node>();
  for (const match of text.matchAll(/\bforceServerObjectId\b/g)) offsets.push(match.index ?? 0);
  if (offsets.length === 0) return clients;
  const values = getMongoValues(context);
  for (const node of findNodesAtOffsets(context, offsets).values()) {
    const property = node.parent;
    if (property?.type !== 'Property' || property.key !== node || property.value.type !== 'Literal' || property.value.value !== true) continue;
    const object = property.parent;
    if (object?.type !== 'ObjectExpression') continue;
    for (const use of getUses(context, object)) {
      const call = use.parent;
      if ((call?.type === 'NewExpression' || call?.type === 'CallExpression') && call.arguments[1] === use && values.getKind(call) === 'client') clients.add(call);
    }
  }
  return clients;
}

/** The object itself, and the reads of a `const` that holds it. */
function getUses(context: AnyRuleContext, object: TSESTree.ObjectExpression): TSESTree.Node[] {
  const declarator = object.parent;
  if (declarator?.type !== 'VariableDeclarator' || declarator.id.type !== 'Identifier') return [object];
  const variable = ASTUtils.findVariable(context.sourceCode.getScope(declarator.id), declarator.id);
  return variable ? variable.references.filter((reference) => reference.isRead()).map((reference) => reference.identifier) : [];
}
