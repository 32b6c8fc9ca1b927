import type { TSESTree } from '@typescript-eslint/utils';
import type { DbCall } from './db-call';
import { findComputedMemberCalls, findMemberCallsNamed } from '../find-nodes-at-offsets';
import { getCalledMethodNames } from './possible-strings';
import { getMongoValues } from './mongo-values';
import { mayHaveDbValuesBeyondParameters } from './db-values';
import type { KnownKind } from './mongo-kinds';
import { type AnyRuleContext, createPerFileCache } from '../per-file-cache';
import { getPropertyKeyName, hasOnlyUpdateOperators } from './update-operators';
import { getKeyName } from '../ast';

/** A call on a MongoDB driver collection or a Mongoose model. */
export interface MongoCall extends DbCall {
  node: TSESTree.CallExpression;
  database: 'mongodb';
  /** The collection or model the method is called on. */
  receiver: TSESTree.Expression;
  /** `mongodb` for driver collections, `mongoose` for models (which add `_id` and cast updates themselves). */
  library: 'mongodb' | 'mongoose';
  /** How the receiver was recognised: its TypeScript type, the import it flows from, or the shape of the call. */
  evidence: 'type' | 'import' | 'structure';
}

const WRITE = true;
const READ = false;

/** Driver `Collection` methods (https://mongodb.github.io/node-mongodb-native/) and whether they write. */
const COLLECTION_OPERATIONS: Record<string, boolean> = {
  insertOne: WRITE,
  insertMany: WRITE,
  updateOne: WRITE,
  updateMany: WRITE,
  replaceOne: WRITE,
  deleteOne: WRITE,
  deleteMany: WRITE,
  bulkWrite: WRITE,
  findOneAndUpdate: WRITE,
  findOneAndDelete: WRITE,
  findOneAndReplace: WRITE,
  createIndex: WRITE,
  createIndexes: WRITE,
  dropIndex: WRITE,
  dropIndexes: WRITE,
  drop: WRITE,
  rename: WRITE,
  find: READ,
  findOne: READ,
  aggregate: READ,
  countDocuments: READ,
  estimatedDocumentCount: READ,
  distinct: READ,
  watch: READ,
};

/** Mongoose `Model` statics (https://mongoosejs.com/docs/api/model.html) and whether they write. */
const MODEL_OPERATIONS: Record<string, boolean> = {
  create: WRITE,
  insertOne: WRITE,
  insertMany: WRITE,
  updateOne: WRITE,
  updateMany: WRITE,
  replaceOne: WRITE,
  deleteOne: WRITE,
  deleteMany: WRITE,
  bulkWrite: WRITE,
  bulkSave: WRITE,
  findOneAndUpdate: WRITE,
  findOneAndDelete: WRITE,
  findOneAndReplace: WRITE,
  findByIdAndUpdate: WRITE,
  findByIdAndDelete: WRITE,
  createIndexes: WRITE,
  syncIndexes: WRITE,
  find: READ,
  findOne: READ,
  findById: READ,
  exists: READ,
  aggregate: READ,
  countDocuments: READ,
  estimatedDocumentCount: READ,
  distinct: READ,
  watch: READ,
};

const OPERATION_NAMES = [...new Set([...Object.keys(COLLECTION_OPERATIONS), ...Object.keys(MODEL_OPERATIONS)])];
/**
 * In a file that imports no MongoDB package, a collection or model can still come from a
 * parameter or a field its callers fill: these names are rare outside database code, so
 * their receivers are worth following (`find`, `create`, `aggregate`… are everywhere).
 */
const DISTINCTIVE_OPERATION_NAMES = OPERATION_NAMES.filter(
  (name) => !['find', 'findOne', 'findById', 'aggregate', 'distinct', 'watch', 'create', 'exists', 'drop', 'rename'].includes(name),
);

/** Every MongoDB / Mongoose call of the file, in source order; computed once per file. */
const findMongoCallsOnce = createPerFileCache((context: AnyRuleContext): readonly MongoCall[] => {
  // A file with no MongoDB value beyond parameters is asked only about the distinctive names:
  // with none of them and no computed call, it has no call, and no resolver is built.
  const distinctive = mayHaveDbValuesBeyondParameters(context) ? undefined : findMemberCallsNamed(context, DISTINCTIVE_OPERATION_NAMES);
  if (distinctive?.length === 0 && findComputedMemberCalls(context).length === 0) return [];
  const values = getMongoValues(context);
  const names = values.importsMongo || values.hasTypes ? OPERATION_NAMES : DISTINCTIVE_OPERATION_NAMES;
  const candidates = [...(distinctive ?? findMemberCallsNamed(context, names)), ...findComputedCalls(context, values, names)];
  if (candidates.length === 0) return [];
  const calls: MongoCall[] = [];
  for (const { call, receiver, name } of candidates) {
    const found = classifyReceiver(values, call, receiver, name);
    if (!found) continue;
    const library = found.kind === 'model' ? 'mongoose' : 'mongodb';
    const operations = library === 'mongoose' ? MODEL_OPERATIONS : COLLECTION_OPERATIONS;
    const isWrite = operations[name];
    if (isWrite === undefined) continue;
    calls.push({ node: call, database: 'mongodb', operation: name, isWrite, receiver, library, evidence: found.evidence });
  }
  return calls;
});

/** `collection[method](filter)` where `method` can be one operation name only (a `const`, what every caller passes). */
function findComputedCalls(
  context: AnyRuleContext,
  values: ReturnType<typeof getMongoValues>,
  names: readonly string[],
): Array<{ call: TSESTree.CallExpression; receiver: TSESTree.Expression; name: string }> {
  const found: Array<{ call: TSESTree.CallExpression; receiver: TSESTree.Expression; name: string }> = [];
  for (const { call, member } of findComputedMemberCalls(context)) {
    // The receiver is known first (cheap, kept per node); what the name can be is asked only then (`handlers[i](…)` is everywhere).
    const kind = values.getTypeKind(member.object) ?? values.getKind(member.object);
    if (kind === undefined || kind === 'other') continue;
    const method = getCalledMethodNames(context, member.object);
    const name = method?.names.length === 1 ? method.names[0] : undefined;
    if (name !== undefined && names.includes(name)) found.push({ call, receiver: member.object, name });
  }
  return found;
}

/** Calls on MongoDB driver collections and Mongoose models, found from types, imports, or strong structure. */
export function findMongoCalls(context: AnyRuleContext): MongoCall[] {
  return [...findMongoCallsOnce(context)];
}

/** Narrows a `DbCall` from `findDbCalls` to a MongoDB call with its receiver and library. */
export function isMongoCall(call: DbCall): call is MongoCall {
  return call.database === 'mongodb' && 'receiver' in call;
}

function classifyReceiver(
  values: ReturnType<typeof getMongoValues>,
  call: TSESTree.CallExpression,
  receiver: TSESTree.Expression,
  name: string,
): { kind: 'collection' | 'model'; evidence: MongoCall['evidence'] } | undefined {
  const typeKind = values.getTypeKind(receiver);
  if (typeKind !== undefined) return asCallable(typeKind, 'type');
  const kind = values.getKind(receiver);
  if (kind !== undefined) return asCallable(kind, 'import');
  // `Model.where({ name }).updateMany(update)`: a Mongoose query built on a known model.
  const model = QUERY_OPERATIONS.has(name) ? getQueryModel(receiver) : undefined;
  if (model !== undefined) {
    const modelKind = values.getTypeKind(model) ?? values.getKind(model);
    if (modelKind === 'model') return { kind: 'model', evidence: values.getTypeKind(model) === undefined ? 'import' : 'type' };
  }
  // No type, no import trail: only arguments no other library takes, or a receiver its
  // code names a MongoDB collection (a library handed one by its user), are strong enough.
  if (!values.importsLookAlike && (hasMongoArguments(call, name) || isNamedMongoCollection(receiver))) return { kind: 'collection', evidence: 'structure' };
  return undefined;
}

/** `mongoCollection`, `this._mongoCollection`, `opts.mongodbColl`: the receiver's own name says what it holds. */
const MONGO_COLLECTION_NAME = /^_?mongo(?:db)?_?coll(?:ection)?$/i;

function isNamedMongoCollection(receiver: TSESTree.Expression): boolean {
  const name = receiver.type === 'Identifier' ? receiver.name : receiver.type === 'MemberExpression' ? getKeyName(receiver, { computed: false, privateNames: 'none' }) : undefined;
  return name !== undefined && MONGO_COLLECTION_NAME.test(name);
}

/**
 * Options that only the MongoDB driver and Mongoose take on `findOneAnd…`: a library that
 * receives its collection from its user (and names no MongoDB package) still writes them.
 */
const FIND_AND_MODIFY_OPTION_KEYS = new Set(['returnDocument', 'includeResultMetadata']);

/** An update document made of `$` operators, or find-and-modify options of the driver's own. */
function hasMongoArguments(call: TSESTree.CallExpression, name: string): boolean {
  const [filter, second, third] = call.arguments;
  if ((name === 'updateOne' || name === 'updateMany' || name === 'findOneAndUpdate') && isFilterLike(filter) && hasOnlyUpdateOperators(second)) return true;
  if (name !== 'findOneAndUpdate' && name !== 'findOneAndReplace' && name !== 'findOneAndDelete') return false;
  const options = name === 'findOneAndDelete' ? second : third;
  return isFilterLike(filter) && options?.type === 'ObjectExpression' && options.properties.some((property) => property.type === 'Property' && FIND_AND_MODIFY_OPTION_KEYS.has(getPropertyKeyName(property) ?? ''));
}

/** Mongoose `Query` methods that narrow a query and return it (https://mongoosejs.com/docs/api/query.html). */
const QUERY_BUILDERS = new Set(['where', 'equals', 'in', 'nin', 'gt', 'gte', 'lt', 'lte', 'ne', 'or', 'and', 'nor', 'elemMatch', 'exists', 'regex', 'size', 'all', 'mod', 'session', 'setOptions', 'collation', 'hint', 'comment', 'maxTimeMS', 'read', 'writeConcern', 'w', 'j', 'wtimeout']);
/** `Query` methods that run one of the model's operations on the conditions built so far. */
const QUERY_OPERATIONS = new Set(['updateOne', 'updateMany', 'replaceOne', 'deleteOne', 'deleteMany', 'findOneAndUpdate', 'findOneAndDelete', 'findOneAndReplace', 'find', 'findOne', 'countDocuments', 'distinct']);

/** `Model.where(…).gt(…)`: a Mongoose query built by query-building calls on something. */
export function isQueryChain(receiver: TSESTree.Expression): boolean {
  return getQueryModel(receiver) !== undefined;
}

/** The model at the root of `Model.where(…).gt(…)`: only query-building calls between them. */
function getQueryModel(receiver: TSESTree.Expression): TSESTree.Expression | undefined {
  let current: TSESTree.Expression = receiver;
  let builders = 0;
  while (current.type === 'CallExpression' && current.callee.type === 'MemberExpression' && !current.callee.computed && current.callee.property.type === 'Identifier' && QUERY_BUILDERS.has(current.callee.property.name)) {
    current = current.callee.object;
    builders++;
  }
  return builders > 0 ? current : undefined;
}

function asCallable(kind: KnownKind, evidence: MongoCall['evidence']): { kind: 'collection' | 'model'; evidence: MongoCall['evidence'] } | undefined {
  return kind === 'collection' || kind === 'model' ? { kind, evidence } : undefined;
}

function isFilterLike(node: TSESTree.Node | undefined): boolean {
  return node !== undefined && node.type !== 'ArrayExpression' && node.type !== 'Literal' && node.type !== 'SpreadElement';
}
