import { AST_NODE_TYPES, ASTUtils, type TSESLint, type TSESTree } from '@typescript-eslint/utils';
import { getParameterSlot } from './call-sites';
import { getPassedValue, getReceiverParameter, type ValueJudge } from './parameter-values';
import { type FunctionNode, getKeyName, getReturnedExpressions, isFunctionNode, isNullOrUndefined, type KeyNameOptions } from '../ast';
import { findNodesAtOffsets } from '../find-nodes-at-offsets';
import { findImportedTypeReferences, findModuleReferences, findRequireCallsByText, findRequireCallsWhere, getManifestDependencies, getSourcePath, hasModuleImport } from '../modules';
import type { Database } from './db-call';
import { type DbValue, isSameDbValue } from './db-value';
import { type DbVocabulary, getValueKey } from './db-vocabulary';
import { DYNAMODB_VOCABULARY, findSdkCopyDocumentClients, getForwardingObjectValue } from './dynamodb-vocabulary';
import { getImportedValues, mayReadImportedDbValues } from './imported-values';
import { POSTGRES_VOCABULARY } from './pg-vocabulary';
import { LOOK_ALIKE_MODULES, MONGO_VOCABULARY, OTHER_COLLECTION_MODULES } from './mongo-vocabulary';
import { type DeclaredType, getClientTypeChecker } from './client-types';
import { findOwnerFieldWrites, getBoundFieldValue, getReceiverThisOwner, type ThisOwner } from './this-owners';
import { type AnyRuleContext, createPerFileCache } from '../per-file-cache';

/**
 * What an expression is, database-wise: one backward, memoised walk from an expression to
 * where its value comes from (an import of a driver, an annotation, a parameter every
 * caller fills alike, a field, a function's returns, another module's export), for every
 * database. Each database's libraries are described by a vocabulary (`*-vocabulary.ts`).
 */

/** A database value, `other` (known not to be one: an array, another library's type), or `undefined` (no idea). */
export type ResolvedValue = DbValue | 'other';

const VOCABULARIES: Readonly<Partial<Record<Database, DbVocabulary>>> = { mongodb: MONGO_VOCABULARY, dynamodb: DYNAMODB_VOCABULARY, postgres: POSTGRES_VOCABULARY };

/** Every vocabulary's declared types by package: one type classification for all databases. */
const DECLARED_TYPES: Readonly<Record<string, Readonly<Record<string, DbValue>>>> = (() => {
  const merged: Record<string, Record<string, DbValue>> = {};
  for (const vocabulary of Object.values(VOCABULARIES)) {
    for (const [module, types] of Object.entries(vocabulary.declaredTypes)) merged[module] = { ...merged[module], ...types };
  }
  return merged;
})();
const DECLARING_MODULES = Object.keys(DECLARED_TYPES);
/** Every vocabulary's type names by module. */
const TYPE_NAMES: Readonly<Record<string, Readonly<Record<string, DbValue>>>> = Object.assign({}, ...Object.values(VOCABULARIES).map((vocabulary) => vocabulary.typeNames));

export interface DbValues {
  /** True when the file imports or requires `mongodb` or `mongoose`, or gets a MongoDB value from another module. */
  readonly importsMongo: boolean;
  /** The databases whose libraries the file imports, or whose values it gets from the project's other modules. */
  readonly databases: ReadonlySet<Database>;
  /** True when the file imports a library with look-alike methods (Prisma, TypeORM, …). */
  readonly importsLookAlike: boolean;
  /** True when ESLint has type information for the file (typed linting). */
  readonly hasTypes: boolean;
  /** What the expression evaluates to, from imports, annotations and data flow. */
  getValue(node: TSESTree.Node): ResolvedValue | undefined;
  /**
   * The properties of an object the code builds (`{ client }`, `state` with `state.client = …`, `initState()`), and what each
   * holds; what a call of a method returns is under the method's name followed by `()`.
   */
  getObjectProperties(node: TSESTree.Node): ReadonlyMap<string, ResolvedValue | undefined> | undefined;
  /** What a field of `this` holds in code whose `this` is `owner`. */
  getFieldValue(owner: ThisOwner, name: string): ResolvedValue | undefined;
  /** What the expression's TypeScript type says, when ESLint has type information. */
  getTypeValue(node: TSESTree.Node): ResolvedValue | undefined;
  /** The package and name of the expression's declared type, when ESLint has type information and a database package declares it. */
  getDeclaredType(node: TSESTree.Node): DeclaredType | undefined;
  /**
   * Where the value was made, when a single place can be followed in this file: a seed
   * `accept` takes (`new MongoClient(…)`, `new Client()`), a connection method awaited
   * (`await pool.connect()`, `await sql.reserve()`), or a parameter (its declaration: the
   * value callers give it, `sql.begin(async (tx) => …)`'s `tx`). Values with the same
   * origin are one object (pg: one connection).
   */
  getOrigin(node: TSESTree.Node, accept?: (value: DbValue) => boolean): TSESTree.Node | undefined;
}

/** The file's value resolver; built once per file. */
export const getDbValues = createPerFileCache((context: AnyRuleContext): DbValues => createResolver(context));

/** Every vocabulary's packages. */
const DRIVER_MODULES = Object.values(VOCABULARIES).flatMap((vocabulary) => vocabulary.modules);

/**
 * Whether the resolver can know a database value other than through a parameter or a field:
 * the file's text names a driver's package, it makes a client of an SDK copy, it may read a
 * value from another module of the project, or ESLint has its types. When not, the
 * resolver's `databases` is empty and `hasTypes` false, so a finder whose candidate calls
 * are none can answer without building the resolver, as in most files of a project.
 */
export const mayHaveDbValuesBeyondParameters = createPerFileCache(
  (context: AnyRuleContext): boolean =>
    importsOrRequires(context, DRIVER_MODULES) ||
    getClientTypeChecker(context, DECLARING_MODULES) !== undefined ||
    findSdkCopyDocumentClients(context).length > 0 ||
    mayReadImportedDbValues(context),
);

/** The file's resolver when it may hold a database value beyond parameters; else undefined, and none is built. */
export function getSeededDbValues(context: AnyRuleContext): DbValues | undefined {
  return mayHaveDbValuesBeyondParameters(context) ? getDbValues(context) : undefined;
}

/** `import … from 'pg'` or `require('pg')` of one of `modules`, as the resolver seeds them. */
function importsOrRequires(context: AnyRuleContext, modules: readonly string[]): boolean {
  // Neither names a module its text does not quote (one search of the text, shared with the other drivers' checks).
  if (!hasModuleImport(context, modules)) return false;
  const program = context.sourceCode.ast as TSESTree.Program;
  const imports = program.body.some((statement) => statement.type === AST_NODE_TYPES.ImportDeclaration && modules.includes(String(statement.source.value)));
  return imports || findRequireCallsByText(context, modules).length > 0;
}

/** The same value, `other` alike. */
function isSame(a: ResolvedValue, b: ResolvedValue): boolean {
  return a === 'other' || b === 'other' ? a === b : isSameDbValue(a, b);
}

/** The value both say, the one that is known, or `undefined` when they disagree. */
function merge(a: ResolvedValue | undefined, b: ResolvedValue | undefined): ResolvedValue | undefined {
  if (a === undefined) return b;
  if (b === undefined) return a;
  return isSame(a, b) ? a : undefined;
}

/** A value that says something (not `other`). */
function known(value: ResolvedValue | undefined): DbValue | undefined {
  return value === 'other' ? undefined : value;
}

function isMongo(value: ResolvedValue | undefined, kind: string): boolean {
  return value !== undefined && value !== 'other' && value.database === 'mongodb' && value.kind === kind;
}

const IN_PROGRESS = Symbol('in progress');

/** Class members and keys: `#name` for private ones; no template keys. */
const STATIC_KEY: KeyNameOptions = { templates: false, privateNames: 'hashed' };

/** The function a definition names: a function declaration, or a `const` / `let` set to a function expression. */
function getDefinedFunction(def: TSESLint.Scope.Definition): TSESTree.FunctionDeclaration | TSESTree.ArrowFunctionExpression | TSESTree.FunctionExpression | undefined {
  if (def.type === 'FunctionName' && def.node.type === AST_NODE_TYPES.FunctionDeclaration) return def.node;
  const init = def.type === 'Variable' ? def.node.init : undefined;
  return init && (init.type === AST_NODE_TYPES.ArrowFunctionExpression || init.type === AST_NODE_TYPES.FunctionExpression) ? init : undefined;
}

/** `x = value` (a plain assignment): the value; undefined for `x += …`, a loop's `for (x of …)`, a pattern. */
function getAssignedValue(identifier: TSESTree.Node): TSESTree.Expression | undefined {
  const assignment = identifier.parent;
  return assignment?.type === AST_NODE_TYPES.AssignmentExpression && assignment.operator === '=' && assignment.left === identifier ? assignment.right : undefined;
}

/**
 * Where an object's properties are known (`getObjectProperties`), what a call of its method
 * `name` returns is kept under this key: no property name can end in `()`.
 */
function getMethodKey(name: string): string {
  return `${name}()`;
}

function createResolver(context: AnyRuleContext): DbValues {
  const sourceCode = context.sourceCode;
  const program = sourceCode.ast as TSESTree.Program;
  const seeds = new Map<TSESTree.Node, DbValue>();
  /** Type references that name a database type (`Collection`, `mongoose.Model`, `AWS.DynamoDB.DocumentClient`). */
  const typeReferences = new Map<TSESTree.Node, DbValue>();
  const databases = new Set<Database>();
  let importsLookAlike = false;
  const typeChecker = getClientTypeChecker(context, DECLARING_MODULES);

  const importedModules = new Set<string>();
  for (const statement of program.body) {
    if (statement.type !== AST_NODE_TYPES.ImportDeclaration) continue;
    const source = String(statement.source.value);
    if (LOOK_ALIKE_MODULES.test(source)) importsLookAlike = true;
    importedModules.add(source);
  }
  if (!importsLookAlike && findRequireCallsWhere(context, (module) => LOOK_ALIKE_MODULES.test(module)).length > 0) importsLookAlike = true;
  const globalScope = sourceCode.scopeManager?.globalScope;
  const typedModules: string[] = [];
  for (const [database, vocabulary] of Object.entries(VOCABULARIES) as Array<[Database, DbVocabulary]>) {
    const imported = vocabulary.modules.some((name) => importedModules.has(name));
    // `require` is often not a declared global in TypeScript files: find each
    // `require('mongodb')` call by text (fast), not from the `require` variable.
    const requires = findRequireCallsByText(context, vocabulary.modules);
    if (!globalScope || (!imported && requires.length === 0)) continue;
    databases.add(database);
    for (const reference of findModuleReferences(context, vocabulary.seeds, { requireCalls: requires })) seeds.set(reference.node, reference.info);
    if (imported) typedModules.push(...Object.keys(vocabulary.typeNames));
  }
  for (const { node, value } of findSdkCopyDocumentClients(context)) {
    if (seeds.has(node)) continue;
    seeds.set(node, value);
    databases.add(value.database);
  }
  // `Collection`, `mongoose.Model`, `AWS.DynamoDB.DocumentClient`: what the types named in annotations are.
  for (const { reference, path, module } of findImportedTypeReferences(context, typedModules)) {
    const value = TYPE_NAMES[module]?.[path.join('.')];
    if (value) typeReferences.set(reference, value);
  }
  /** Calls of other modules' functions that return objects holding database values: `initState(options)` → `{ client }`. */
  const importedObjects = new Map<TSESTree.Node, ReadonlyMap<string, DbValue>>();
  // Values the project's own modules export (`import { orders } from './db'`).
  for (const imported of getImportedValues(context)) {
    if ('properties' in imported) {
      importedObjects.set(imported.node, imported.properties);
      for (const value of imported.properties.values()) if (VOCABULARIES[value.database]) databases.add(value.database);
      continue;
    }
    const database = imported.value.database;
    if (!VOCABULARIES[database]) continue;
    // With types, the module index's word is checked: a value typed as something else is not a client.
    if (database !== 'mongodb' && typeChecker?.isOtherType(imported.node)) continue;
    seeds.set(imported.node, imported.value);
    databases.add(database);
  }
  const importsMongo = databases.has('mongodb');

  let mongoProject: boolean | undefined;
  /**
   * The nearest `package.json` depends on `mongodb` or `mongoose` and on no other library
   * whose handles have a `collection(name)` method (Firestore, ArangoDB, …): in such a
   * project, `db.collection(name)` on a value from elsewhere is the driver's.
   */
  function dependsOnMongoOnly(): boolean {
    if (mongoProject === undefined) {
      const dependencies = getManifestDependencies(getSourcePath(context));
      mongoProject = dependencies !== undefined && MONGO_VOCABULARY.modules.some((name) => dependencies.has(name)) && !OTHER_COLLECTION_MODULES.some((name) => dependencies.has(name));
    }
    return mongoProject;
  }

  const memo = new Map<TSESTree.Node, ResolvedValue | undefined | typeof IN_PROGRESS>();
  const judge: ValueJudge<ResolvedValue> = {
    valueOf: (node) => getValue(node),
    fromRemote: (value) => value,
    same: isSame,
  };
  const classMembers = new Map<TSESTree.ClassBody, Map<string, TSESTree.Node[]>>();
  const returnedValues = new Map<TSESTree.Node, ResolvedValue | undefined>();

  function getValue(node: TSESTree.Node): ResolvedValue | undefined {
    const cached = memo.get(node);
    if (cached === IN_PROGRESS) return undefined;
    if (cached !== undefined || memo.has(node)) return cached;
    memo.set(node, IN_PROGRESS);
    let value: ResolvedValue | undefined;
    try {
      value = computeValue(node);
    } catch {
      value = undefined;
    }
    memo.set(node, value);
    return value;
  }

  function computeValue(node: TSESTree.Node): ResolvedValue | undefined {
    const seed = seeds.get(node);
    if (seed !== undefined) return seed;
    switch (node.type) {
      case AST_NODE_TYPES.AwaitExpression:
      case AST_NODE_TYPES.TSNonNullExpression:
      case AST_NODE_TYPES.ChainExpression:
      case AST_NODE_TYPES.TSSatisfiesExpression:
      case AST_NODE_TYPES.TSInstantiationExpression:
        return getValue('argument' in node ? node.argument : node.expression);
      case AST_NODE_TYPES.TSAsExpression:
      case AST_NODE_TYPES.TSTypeAssertion:
        return getAnnotationValue(node.typeAnnotation) ?? getValue(node.expression);
      case AST_NODE_TYPES.LogicalExpression:
        return merge(getHeldValue(node.left), getHeldValue(node.right));
      case AST_NODE_TYPES.ConditionalExpression:
        return merge(getHeldValue(node.consequent), getHeldValue(node.alternate));
      case AST_NODE_TYPES.Identifier:
        return getIdentifierValue(node);
      case AST_NODE_TYPES.MemberExpression:
        return getMemberValue(node);
      case AST_NODE_TYPES.CallExpression:
        return getCallValue(node);
      // `x = value`, and the lazy-singleton forms `x ??= value` / `x ||= value`.
      case AST_NODE_TYPES.AssignmentExpression:
        if (node.operator === '=') return getValue(node.right);
        return node.operator === '??=' || node.operator === '||=' ? merge(getValue(node.left), getValue(node.right)) : undefined;
      case AST_NODE_TYPES.ObjectExpression:
        return getForwardingObjectValue(node, getValue) ?? 'other';
      case AST_NODE_TYPES.ArrayExpression:
      case AST_NODE_TYPES.Literal:
      case AST_NODE_TYPES.TemplateLiteral:
      case AST_NODE_TYPES.NewExpression:
      case AST_NODE_TYPES.ArrowFunctionExpression:
      case AST_NODE_TYPES.FunctionExpression:
      case AST_NODE_TYPES.ClassExpression:
        return 'other';
      default:
        return undefined;
    }
  }

  /**
   * What a binding or a branch holds, for merging with the others: `null` and `undefined`
   * hold nothing (`let orders = null` until `connect()` sets it, `cond ? client : null`).
   */
  function getHeldValue(node: TSESTree.Node): ResolvedValue | undefined {
    return isNullOrUndefined(node) ? undefined : getValue(node);
  }

  function getIdentifierValue(node: TSESTree.Identifier): ResolvedValue | undefined {
    const variable = ASTUtils.findVariable(sourceCode.getScope(node), node);
    const def = variable?.defs[0];
    if (!variable || !def) return undefined;
    if (def.type === 'Variable') {
      const declarator = def.node;
      if (declarator.id.type !== AST_NODE_TYPES.Identifier) return getPatternValue(declarator.id, node.name, declarator.init);
      const annotated = getAnnotationValue(declarator.id.typeAnnotation);
      if (annotated !== undefined) return annotated;
      let value = declarator.init ? getHeldValue(declarator.init) : undefined;
      for (const reference of variable.references) {
        if (!reference.isWrite() || !reference.writeExpr || reference.writeExpr === declarator.init) continue;
        const written = getHeldValue(reference.writeExpr);
        value = value === undefined ? written : merge(value, written);
      }
      return value;
    }
    if (def.type === 'Parameter') {
      // A named type says what the parameter is; `any`, `unknown` and object type literals say nothing, and callers are asked.
      if (def.name.type === AST_NODE_TYPES.Identifier && def.name.typeAnnotation && !saysNothing(def.name.typeAnnotation)) return getAnnotationValue(def.name.typeAnnotation);
      return getCallbackParameterValue(def.node, def.name) ?? getCallSiteValue(variable);
    }
    return undefined;
  }

  /** `const { orders } = { orders: db.collection('orders') }`, `const { client } = initState(options)`: objects the code builds. */
  function getPatternValue(pattern: TSESTree.Node, name: string, init: TSESTree.Expression | null, toKey = (key: string) => key): ResolvedValue | undefined {
    if (pattern.type !== AST_NODE_TYPES.ObjectPattern || !init) return undefined;
    for (const property of pattern.properties) {
      if (property.type !== AST_NODE_TYPES.Property || property.value.type !== AST_NODE_TYPES.Identifier || property.value.name !== name) continue;
      const key = getKeyName(property, STATIC_KEY);
      return key === undefined ? undefined : getObjectProperties(init)?.get(toKey(key));
    }
    return undefined;
  }

  /**
   * A parameter every caller passes the same value: `archive(orders)`, `new Repo(db)`
   * in the file and, for an exported function or class, in the project's other modules.
   * With `property`, the property of an object passed there (`options.jobModel`).
   */
  function getCallSiteValue(variable: TSESLint.Scope.Variable, property?: string): ResolvedValue | undefined {
    const slot = getParameterSlot(variable);
    return slot && getPassedValue(context, slot, property === undefined ? [] : [property], judge);
  }

  /** `client.withSession(async (session) => …)`, `promise.then((collection) => …)`. */
  function getCallbackParameterValue(fn: TSESTree.Node, param: TSESTree.Node): ResolvedValue | undefined {
    if (fn.type !== AST_NODE_TYPES.ArrowFunctionExpression && fn.type !== AST_NODE_TYPES.FunctionExpression) return undefined;
    const call = fn.parent;
    if (call?.type !== AST_NODE_TYPES.CallExpression || call.callee.type !== AST_NODE_TYPES.MemberExpression || !call.arguments.includes(fn)) return undefined;
    const method = getKeyName(call.callee, STATIC_KEY);
    if (method === undefined) return undefined;
    const parameterIndex = fn.params.indexOf(param as TSESTree.Parameter);
    // `collectionPromise.then((collection) => …)`: values do not tell a value from its promise.
    if (method === 'then') return parameterIndex === 0 && call.arguments[0] === fn ? known(getValue(call.callee.object)) : undefined;
    const receiver = known(getValue(call.callee.object));
    const callback = receiver && getVocabulary(receiver)?.callbackParameters[getValueKey(receiver)]?.[method];
    if (!callback || callback.parameter !== parameterIndex) return undefined;
    const position = callback.argument === 'first' ? 0 : callback.argument === 'last' ? call.arguments.length - 1 : call.arguments.indexOf(fn);
    return call.arguments[position] === fn ? callback.value : undefined;
  }

  function getMemberValue(node: TSESTree.MemberExpression): ResolvedValue | undefined {
    const name = getKeyName(node, STATIC_KEY);
    if (name === undefined) return undefined;
    const owner = getReceiverThisOwner(context, node.object);
    if (owner) return getFieldValue(owner, name);
    if (node.object.type === AST_NODE_TYPES.ThisExpression) return undefined;
    const objectValue = getValue(node.object);
    if (objectValue !== undefined && objectValue !== 'other') {
      const vocabulary = getVocabulary(objectValue);
      const key = getValueKey(objectValue);
      return vocabulary?.anyPropertyResults[key] ?? vocabulary?.propertyResults[key]?.[name];
    }
    const property = getObjectProperties(node.object)?.get(name);
    if (property !== undefined) return property;
    // `options.jobModel`, `this.options.documents` of a parameter `options`: what callers pass in that property.
    const source = getReceiverParameter(context, node);
    return source && source.path.length > 0 ? getPassedValue(context, source.slot, source.path, judge) : undefined;
  }

  const objectProperties = new Map<TSESTree.Node, ReadonlyMap<string, ResolvedValue | undefined> | typeof IN_PROGRESS | undefined>();

  /**
   * The properties of an object the code builds, and what each holds: an object literal, a
   * `const` it initialises with the properties written on it later (`state.client = …`), a
   * function of this file that returns one, or another module's function that does
   * (`initState(options)`). Undefined for any other expression.
   */
  function getObjectProperties(node: TSESTree.Node): ReadonlyMap<string, ResolvedValue | undefined> | undefined {
    const imported = importedObjects.get(node);
    if (imported) return imported;
    const cached = objectProperties.get(node);
    if (cached === IN_PROGRESS) return undefined;
    if (cached !== undefined || objectProperties.has(node)) return cached;
    objectProperties.set(node, IN_PROGRESS);
    let found: Map<string, ResolvedValue | undefined> | undefined;
    try {
      found = new Map();
      // An empty map for an object with no known property yet: `const deps = {}` gets its `deps.client = …` later.
      if (!addObjectProperties(node, found)) found = undefined;
    } catch {
      found = undefined;
    }
    objectProperties.set(node, found);
    return found;
  }

  /** Adds the properties `node` is known to have to `found`; false when `node` is not an object the code builds. */
  function addObjectProperties(node: TSESTree.Node, found: Map<string, ResolvedValue | undefined>): boolean {
    const add = (name: string | undefined, value: ResolvedValue | undefined): void => {
      if (name !== undefined) found.set(name, merge(found.get(name), value));
    };
    const addAll = (properties: ReadonlyMap<string, ResolvedValue | undefined> | undefined): boolean => {
      for (const [name, value] of properties ?? []) add(name, value);
      return properties !== undefined;
    };
    switch (node.type) {
      case AST_NODE_TYPES.ObjectExpression:
        for (const property of node.properties) {
          if (property.type !== AST_NODE_TYPES.Property) {
            addAll(getObjectProperties(property.argument));
            continue;
          }
          const name = getKeyName(property, STATIC_KEY);
          add(name, getValue(property.value));
          // `getCollection: (name) => db.collection(name)`: what a call of the method gives.
          if (name !== undefined && isFunctionNode(property.value)) add(getMethodKey(name), getReturnedValue(property.value));
        }
        return true;
      case AST_NODE_TYPES.AwaitExpression:
        return addAll(getObjectProperties(node.argument));
      case AST_NODE_TYPES.TSAsExpression:
      case AST_NODE_TYPES.TSNonNullExpression:
      case AST_NODE_TYPES.TSSatisfiesExpression:
        return addAll(getObjectProperties(node.expression));
      case AST_NODE_TYPES.CallExpression:
      case AST_NODE_TYPES.NewExpression: {
        // `new make()` of a function that returns an object gives that object, as `make()` does.
        const fn = node.callee.type === AST_NODE_TYPES.Identifier ? getNeverReassignedFunction(node.callee) : undefined;
        if (!fn || (node.type === AST_NODE_TYPES.NewExpression && fn.type === AST_NODE_TYPES.ArrowFunctionExpression)) return false;
        let known = false;
        for (const returned of getReturnedExpressions(fn)) {
          if (returned.type === AST_NODE_TYPES.Literal && returned.value === null) continue;
          known = addAll(getObjectProperties(returned)) || known;
        }
        return known;
      }
      case AST_NODE_TYPES.Identifier: {
        const variable = ASTUtils.findVariable(sourceCode.getScope(node), node);
        const def = variable?.defs.length === 1 ? variable.defs[0] : undefined;
        if (def?.type !== 'Variable' || def.node.id.type !== AST_NODE_TYPES.Identifier) return false;
        const assigned = variable!.references.filter((reference) => reference.isWrite() && !reference.init);
        // A `let` / `var` holds its first object only while nothing assigns it another; one declared
        // empty, the one object it is ever given (`let connection; try { connection = await connect(); } …`).
        const held = def.node.init ?? (assigned.length === 1 ? getAssignedValue(assigned[0]!.identifier) : undefined);
        if (!held || (def.node.init && def.parent.kind !== 'const' && assigned.length > 0)) return false;
        if (!addAll(getObjectProperties(held))) return false;
        // `state.client = new AWS.DynamoDB.DocumentClient()` after `const state = { … }`.
        for (const reference of variable?.references ?? []) {
          const member = reference.identifier.parent;
          const assignment = member?.parent;
          if (member?.type !== AST_NODE_TYPES.MemberExpression || member.object !== reference.identifier) continue;
          if (assignment?.type !== AST_NODE_TYPES.AssignmentExpression || assignment.left !== member || assignment.operator !== '=') continue;
          add(getKeyName(member, STATIC_KEY), getValue(assignment.right));
        }
        return true;
      }
      case AST_NODE_TYPES.MemberExpression: {
        // `this.#cl = { incoming, will }` in one method, `this.#cl.incoming` in another: a field that holds an object the code builds.
        const name = getKeyName(node, STATIC_KEY);
        const owner = name === undefined ? undefined : getReceiverThisOwner(context, node.object);
        if (name === undefined || !owner || owner.type === 'exported') return false;
        const sources = owner.type === 'class' ? getClassMembers(owner.body).get(name) : findOwnerFieldWrites(context, owner, name);
        let known = false;
        for (const source of sources ?? []) {
          // Its type, and the `null` it starts or ends with, say nothing of its properties.
          if (source.type === AST_NODE_TYPES.TSTypeAnnotation || isNullOrUndefined(source)) continue;
          if (!addAll(getObjectProperties(source))) return false;
          known = true;
        }
        return known;
      }
      default:
        return false;
    }
  }

  function getCallValue(node: TSESTree.CallExpression): ResolvedValue | undefined {
    const callee = node.callee;
    if (callee.type === AST_NODE_TYPES.MemberExpression) {
      const name = getKeyName(callee, STATIC_KEY);
      if (name === undefined) return undefined;
      if (callee.object.type === AST_NODE_TYPES.ThisExpression) return getClassMethodValue(callee, name);
      // `promise.then((db) => db.collection('x'))`: what the callback returns.
      const callback = node.arguments[0];
      if (name === 'then' && callback && isFunctionNode(callback)) return getReturnedValue(callback);
      const objectValue = getValue(callee.object);
      if (objectValue !== undefined && objectValue !== 'other') return getVocabulary(objectValue)?.methodResults[getValueKey(objectValue)]?.[name];
      // `connection.getCollection('orders')` on an object the code builds (here or in the module that returns it).
      const returned = getObjectProperties(callee.object)?.get(getMethodKey(name));
      if (returned !== undefined) return returned;
      if (objectValue !== undefined) return undefined;
      // `connection.model('Job', jobSchema)` on a connection from elsewhere, with a Mongoose schema.
      if (name === 'model' && node.arguments[1] && isMongo(getValue(node.arguments[1]), 'schema')) return { database: 'mongodb', kind: 'model' };
      // `someDb.collection('orders')` / `db.collection(name)` where `someDb` comes from another
      // module or an untyped method, in a file that uses MongoDB. (Look-alikes such as
      // Firestore's `collection()` have none of the driver's method names.)
      if (name === 'collection' && (importsMongo || dependsOnMongoOnly()) && isCollectionName(node.arguments)) return { database: 'mongodb', kind: 'collection' };
      return undefined;
    }
    // `getLockCollection(db)`, `const getModel = (c) => c.model(…)`: its annotation, else what all its returns agree on.
    if (callee.type !== AST_NODE_TYPES.Identifier) return undefined;
    const def = getNeverReassignedDefinition(callee);
    const fn = def && getDefinedFunction(def);
    if (fn) return getAnnotationValue(fn.returnType, true) ?? getReturnedValue(fn);
    // `const { getCollection } = connection`, then `getCollection('orders')`.
    return def?.type === 'Variable' ? getPatternValue(def.node.id, callee.name, def.node.init, getMethodKey) : undefined;
  }

  /** The function of this file a name calls, when the name is bound once and never reassigned. */
  function getNeverReassignedFunction(callee: TSESTree.Identifier): TSESTree.FunctionDeclaration | TSESTree.ArrowFunctionExpression | TSESTree.FunctionExpression | undefined {
    const def = getNeverReassignedDefinition(callee);
    return def && getDefinedFunction(def);
  }

  /** The one definition of a name that nothing assigns anything else. */
  function getNeverReassignedDefinition(name: TSESTree.Identifier): TSESLint.Scope.Definition | undefined {
    const variable = ASTUtils.findVariable(sourceCode.getScope(name), name);
    const def = variable?.defs[0];
    if (!variable || !def || variable.defs.length !== 1) return undefined;
    if (variable.references.some((reference) => reference.isWrite() && reference.writeExpr !== (def.type === 'Variable' ? def.node.init : undefined))) return undefined;
    return def;
  }

  /** What every `return` of `fn` gives, when all agree and are known (`null` aside); once per function. */
  function getReturnedValue(fn: TSESTree.Node): ResolvedValue | undefined {
    if (returnedValues.has(fn)) return returnedValues.get(fn);
    returnedValues.set(fn, undefined);
    const value = computeReturnedValue(fn);
    returnedValues.set(fn, value);
    return value;
  }

  function computeReturnedValue(fn: TSESTree.Node): ResolvedValue | undefined {
    if (!isFunctionNode(fn)) return undefined;
    let value: ResolvedValue | undefined;
    let passesParameterOn = false;
    for (const returned of getReturnedExpressions(fn)) {
      if (returned.type === AST_NODE_TYPES.Literal && returned.value === null) continue;
      const next = getValue(returned);
      if (next === undefined && isOwnParameter(fn, returned)) {
        passesParameterOn = true;
        continue;
      }
      if (next === undefined || (value !== undefined && !isSame(next, value))) return undefined;
      value = next;
    }
    // `getDb(db)` that makes a client from what it is given or returns it as it is: the
    // parameter is then that client too (a function only passing its parameter on says nothing).
    return passesParameterOn && value === undefined ? undefined : value;
  }

  /** `returned` is a parameter of `fn` itself, never assigned (returned as the caller gave it). */
  function isOwnParameter(fn: FunctionNode, returned: TSESTree.Node): boolean {
    if (returned.type !== AST_NODE_TYPES.Identifier) return false;
    const variable = ASTUtils.findVariable(sourceCode.getScope(returned), returned);
    const def = variable?.defs[0];
    return def?.type === 'Parameter' && def.node === fn && variable!.defs.length === 1 && variable!.references.every((reference) => !reference.isWrite());
  }

  /** `this.getCollection()`: what the class's method returns. */
  function getClassMethodValue(callee: TSESTree.MemberExpression, name: string): ResolvedValue | undefined {
    const body = getEnclosingClassBody(callee);
    const method = body?.body.find(
      (element): element is TSESTree.MethodDefinition => element.type === AST_NODE_TYPES.MethodDefinition && element.kind === 'method' && !element.computed && getKeyName(element, STATIC_KEY) === name,
    );
    if (!method) return undefined;
    return getAnnotationValue(method.value.returnType, true) ?? getReturnedValue(method.value);
  }

  /**
   * What the field `name` of `this` holds: in a class, its annotation or the values the class
   * gives it; for a constructor function, the values it and its prototype's methods give it;
   * for a function another module binds, what that module's class says.
   */
  function getFieldValue(owner: ThisOwner, name: string): ResolvedValue | undefined {
    if (owner.type === 'exported') return getBoundFieldValue(context, owner.fn, name);
    const sources = owner.type === 'class' ? getClassMembers(owner.body).get(name) : findOwnerFieldWrites(context, owner, name);
    if (!sources) return undefined;
    let value: ResolvedValue | undefined;
    for (const source of sources) {
      const next = source.type === AST_NODE_TYPES.TSTypeAnnotation ? getAnnotationValue(source, true) : getHeldValue(source);
      if (source.type === AST_NODE_TYPES.TSTypeAnnotation && next !== undefined) return next;
      value = value === undefined ? next : merge(value, next);
    }
    return value;
  }

  /** Per class: the annotations and assigned values of each `this.<name>`. */
  function getClassMembers(body: TSESTree.ClassBody): Map<string, TSESTree.Node[]> {
    let members = classMembers.get(body);
    if (members) return members;
    const found = new Map<string, TSESTree.Node[]>();
    members = found;
    classMembers.set(body, members);
    const add = (name: string | undefined, source: TSESTree.Node | null | undefined): void => {
      if (name === undefined || !source) return;
      const list = found.get(name) ?? [];
      // Annotations first: they win over inferred values.
      if (source.type === AST_NODE_TYPES.TSTypeAnnotation) list.unshift(source);
      else list.push(source);
      found.set(name, list);
    };
    for (const element of body.body) {
      if (element.type === AST_NODE_TYPES.PropertyDefinition && !element.computed) {
        add(getKeyName(element, STATIC_KEY), element.typeAnnotation);
        add(getKeyName(element, STATIC_KEY), element.value);
      } else if (element.type === AST_NODE_TYPES.MethodDefinition && !element.computed) {
        if (element.kind === 'get') {
          add(getKeyName(element, STATIC_KEY), element.value.returnType);
          for (const returned of isFunctionNode(element.value) ? getReturnedExpressions(element.value) : []) add(getKeyName(element, STATIC_KEY), returned);
        }
        if (element.kind === 'constructor') {
          for (const param of element.value.params) {
            if (param.type === AST_NODE_TYPES.TSParameterProperty && param.parameter.type === AST_NODE_TYPES.Identifier) {
              // `constructor(private readonly client)`: what the callers pass, unless a named type says what it is.
              const annotation = param.parameter.typeAnnotation;
              add(param.parameter.name, annotation && !saysNothing(annotation) ? annotation : param.parameter);
            }
          }
        }
      }
    }
    // `this.orders = db.collection('orders')` anywhere in the class.
    const pattern = /\bthis\s*\.\s*#?[A-Za-z_$][\w$]*\s*(?:\?\?|\|\|)?=(?!=)/g;
    const offsets: number[] = [];
    for (const match of sourceCode.text.slice(body.range[0], body.range[1]).matchAll(pattern)) {
      offsets.push(body.range[0] + (match.index ?? 0));
    }
    for (const [offset, deepest] of findNodesAtOffsets(context, offsets)) {
      let node: TSESTree.Node | undefined = deepest;
      while (node && node.type !== AST_NODE_TYPES.AssignmentExpression && node.range[0] === offset) node = node.parent;
      if (node?.type !== AST_NODE_TYPES.AssignmentExpression || !['=', '??=', '||='].includes(node.operator) || node.left.type !== AST_NODE_TYPES.MemberExpression) continue;
      if (node.left.object.type !== AST_NODE_TYPES.ThisExpression || getEnclosingClassBody(node.left) !== body) continue;
      add(getKeyName(node.left, STATIC_KEY), node.right);
    }
    return found;
  }

  function getAnnotationValue(node: TSESTree.Node | undefined, unwrapPromise = false): ResolvedValue | undefined {
    if (!node) return undefined;
    switch (node.type) {
      case AST_NODE_TYPES.TSTypeAnnotation:
        return getAnnotationValue(node.typeAnnotation, unwrapPromise);
      case AST_NODE_TYPES.TSTypeReference: {
        const value = typeReferences.get(node);
        if (value) return value;
        const inner = node.typeArguments?.params[0];
        if (unwrapPromise && node.typeName.type === AST_NODE_TYPES.Identifier && node.typeName.name === 'Promise' && inner) return getAnnotationValue(inner);
        return 'other';
      }
      case AST_NODE_TYPES.TSUnionType: {
        let value: ResolvedValue | undefined;
        for (const member of node.types) {
          if (member.type === AST_NODE_TYPES.TSUndefinedKeyword || member.type === AST_NODE_TYPES.TSNullKeyword) continue;
          const next = getAnnotationValue(member, unwrapPromise);
          value = value === undefined ? next : merge(value, next);
        }
        return value;
      }
      case AST_NODE_TYPES.TSAnyKeyword:
      case AST_NODE_TYPES.TSUnknownKeyword:
        return undefined;
      default:
        return 'other';
    }
  }

  function getTypeValue(node: TSESTree.Node): ResolvedValue | undefined {
    if (!typeChecker) return undefined;
    const declared = typeChecker.getDeclaredType(node);
    if (declared) return DECLARED_TYPES[declared.module]?.[declared.name] ?? 'other';
    return typeChecker.isOtherType(node) ? 'other' : undefined;
  }

  function getOrigin(node: TSESTree.Node, accept: (value: DbValue) => boolean = () => true, depth = 0): TSESTree.Node | undefined {
    if (depth > 20) return undefined;
    const seed = seeds.get(node);
    if (seed && accept(seed) && (node.type === AST_NODE_TYPES.NewExpression || node.type === AST_NODE_TYPES.CallExpression)) return node;
    switch (node.type) {
      case AST_NODE_TYPES.AwaitExpression:
        return isConnectionCall(node.argument) ? node : getOrigin(node.argument, accept, depth + 1);
      case AST_NODE_TYPES.TSNonNullExpression:
      case AST_NODE_TYPES.TSAsExpression:
      case AST_NODE_TYPES.TSSatisfiesExpression:
      case AST_NODE_TYPES.ChainExpression:
        return getOrigin(node.expression, accept, depth + 1);
      case AST_NODE_TYPES.CallExpression:
        // `client.db()`, `db.collection()`, `client.connect()`
        return node.callee.type === AST_NODE_TYPES.MemberExpression ? getOrigin(node.callee.object, accept, depth + 1) : undefined;
      case AST_NODE_TYPES.Identifier: {
        const variable = ASTUtils.findVariable(sourceCode.getScope(node), node);
        const def = variable?.defs.length === 1 ? variable.defs[0] : undefined;
        if (def?.type === 'Parameter') return def.name;
        if (def?.type !== 'Variable' || def.node.id.type !== AST_NODE_TYPES.Identifier || !def.node.init) return undefined;
        if (variable?.references.some((reference) => reference.isWrite() && reference.writeExpr !== def.node.init)) return undefined;
        return getOrigin(def.node.init, accept, depth + 1);
      }
      case AST_NODE_TYPES.MemberExpression: {
        if (node.object.type !== AST_NODE_TYPES.ThisExpression) return undefined;
        const name = getKeyName(node, STATIC_KEY);
        const body = getEnclosingClassBody(node);
        const sources = name === undefined || !body ? undefined : getClassMembers(body).get(name)?.filter((source) => source.type !== AST_NODE_TYPES.TSTypeAnnotation);
        return sources?.length === 1 && sources[0] ? getOrigin(sources[0], accept, depth + 1) : undefined;
      }
      default:
        return undefined;
    }
  }

  /** `pool.connect()`, `sql.reserve()`: a method whose awaited result is a connection of its own. */
  function isConnectionCall(node: TSESTree.Node): boolean {
    if (node.type !== AST_NODE_TYPES.CallExpression || node.callee.type !== AST_NODE_TYPES.MemberExpression) return false;
    const name = getKeyName(node.callee, STATIC_KEY);
    const receiver = known(getValue(node.callee.object));
    return name !== undefined && receiver !== undefined && (getVocabulary(receiver)?.connectionMethods?.[getValueKey(receiver)]?.includes(name) ?? false);
  }

  return {
    importsMongo,
    databases,
    importsLookAlike,
    hasTypes: typeChecker !== undefined,
    getValue,
    getObjectProperties,
    getFieldValue,
    getTypeValue,
    getDeclaredType: (node) => typeChecker?.getDeclaredType(node),
    getOrigin,
  };
}

/** `any`, `unknown`, `{ … }`: an annotation that does not say what a value is. */
function saysNothing(annotation: TSESTree.TSTypeAnnotation): boolean {
  const type = annotation.typeAnnotation;
  return type.type === AST_NODE_TYPES.TSAnyKeyword || type.type === AST_NODE_TYPES.TSUnknownKeyword || type.type === AST_NODE_TYPES.TSTypeLiteral;
}

function getVocabulary(value: DbValue): DbVocabulary | undefined {
  return VOCABULARIES[value.database];
}

function getEnclosingClassBody(node: TSESTree.Node): TSESTree.ClassBody | undefined {
  let current = node.parent;
  while (current) {
    if (current.type === AST_NODE_TYPES.ClassBody) return current;
    if (current.type === AST_NODE_TYPES.FunctionDeclaration) return undefined;
    if (current.type === AST_NODE_TYPES.FunctionExpression && current.parent?.type !== AST_NODE_TYPES.MethodDefinition) return undefined;
    current = current.parent;
  }
  return undefined;
}

/** `('orders')`, `(name)`, `(this.options.collection, { … })`: a name first, options maybe. */
function isCollectionName(args: readonly TSESTree.CallExpressionArgument[]): boolean {
  const first = args[0];
  if (!first || args.length > 2) return false;
  return isStringLike(first) || first.type === AST_NODE_TYPES.Identifier || first.type === AST_NODE_TYPES.MemberExpression;
}

function isStringLike(node: TSESTree.Node | undefined): boolean {
  return (node?.type === AST_NODE_TYPES.Literal && typeof node.value === 'string') || node?.type === AST_NODE_TYPES.TemplateLiteral;
}

/**
 * What an expression is, database-wise, whatever the database: the one question the
 * module index asks of another module's exports. Undefined when unknown or not a database value.
 */
export function getDbValue(context: AnyRuleContext, node: TSESTree.Node): DbValue | undefined {
  return known(getDbValues(context).getValue(node));
}
