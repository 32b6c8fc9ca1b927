import { ASTUtils, type TSESLint, type TSESTree } from '@typescript-eslint/utils';
import { getParameterSlot } from './call-sites';
import { getPassedValue, type ValueJudge } from './parameter-values';
import { getKeyName, getReturnedExpressions, isFunctionNode, type KeyNameOptions } from '../ast';
import { findNodesAtOffsets } from '../find-nodes-at-offsets';
import { findModuleReferences, findRequireCallsByText, getManifestDependencies, getSourcePath, type TraceMap } from '../modules';
import { type KnownKind, mergeKinds, type MongoValueKind } from './mongo-kinds';
import { getMongoTypeServices } from './mongo-types';
import { getImportedValues } from './imported-values';
import { findOwnerFieldWrites, getBoundFieldValue, getReceiverThisOwner, type ThisOwner } from './this-owners';
import { type AnyRuleContext, createPerFileCache } from '../per-file-cache';


/** Libraries whose presence makes `updateMany(…, { $set })` evidence unreliable. */
const LOOK_ALIKE_MODULES = /^(?:typeorm|sequelize|sequelize-typescript|@prisma\/client|@reduxjs\/toolkit|@mikro-orm\/.*)$/;

const { READ, CALL, CONSTRUCT, ESM } = ASTUtils.ReferenceTracker;

type Seed = MongoValueKind | `type:${MongoValueKind}`;

const mongodbApi = {
  MongoClient: { [READ]: 'type:client', [CONSTRUCT]: 'client', connect: { [CALL]: 'client' } },
  Db: { [READ]: 'type:db' },
  Collection: { [READ]: 'type:collection' },
  ClientSession: { [READ]: 'type:session' },
};
const mongooseApi = {
  model: { [CALL]: 'model' },
  Schema: { [CONSTRUCT]: 'schema' },
  createConnection: { [CALL]: 'connection' },
  connection: { [READ]: 'connection' },
  models: { [READ]: 'modelRegistry' },
  startSession: { [CALL]: 'session' },
  Model: { [READ]: 'type:model' },
  Connection: { [READ]: 'type:connection' },
  ClientSession: { [READ]: 'type:session' },
};
const traceMap = {
  mongodb: { [ESM]: true, ...mongodbApi, default: mongodbApi },
  mongoose: { [ESM]: true, ...mongooseApi, default: mongooseApi },
} as unknown as TraceMap<Seed>;
const MONGO_MODULES = ['mongodb', 'mongoose'];
/** Packages whose databases also answer `db.collection(name)`. */
const OTHER_COLLECTION_MODULES = ['firebase', 'firebase-admin', '@google-cloud/firestore', '@firebase/firestore', 'arangojs', 'couchbase', 'nedb', '@seald-io/nedb', 'tingodb', 'mongo-mock', 'mingo'];

/** Methods that turn one kind of value into another (`client.db()` → db). */
const METHOD_RESULTS: Partial<Record<MongoValueKind, Record<string, MongoValueKind>>> = {
  client: { db: 'db', connect: 'client', startSession: 'session' },
  db: { collection: 'collection', createCollection: 'collection' },
  connection: { collection: 'collection', model: 'model', startSession: 'session', asPromise: 'connection', useDb: 'connection' },
};
/** Properties that lead from one kind to another (`mongoose.connection.db`). */
const PROPERTY_RESULTS: Partial<Record<MongoValueKind, Record<string, MongoValueKind>>> = {
  connection: { db: 'db', client: 'client', models: 'modelRegistry' },
  model: { collection: 'collection', db: 'connection' },
};
/** Callbacks whose first parameter is a session (`client.withSession(async (session) => …)`). */
const SESSION_CALLBACK_METHODS = new Set(['withSession', 'withTransaction', 'transaction']);

export interface MongoValues {
  /** True when the file imports or requires `mongodb` or `mongoose`. */
  readonly importsMongo: boolean;
  /** True when the file imports a library with look-alike methods (Prisma, TypeORM, …). */
  readonly importsLookAlike: boolean;
  /** True when ESLint has type information for the file (typed linting). */
  readonly hasTypes: boolean;
  /** What the expression evaluates to, from imports, annotations and data flow. */
  getKind(node: TSESTree.Node): KnownKind | undefined;
  /** What a field of `this` holds in code whose `this` is `owner`. */
  getFieldKind(owner: ThisOwner, name: string): KnownKind | undefined;
  /** What the expression's TypeScript type says, when ESLint has type information. */
  getTypeKind(node: TSESTree.Node): KnownKind | undefined;
  /**
   * The `new MongoClient(…)` / `MongoClient.connect(…)` expression a client, db or
   * collection value comes from, when a single one can be followed in this file.
   */
  getClientOrigin(node: TSESTree.Node): TSESTree.NewExpression | TSESTree.CallExpression | undefined;
}

/** The file's MongoDB value resolver; built once per file. */
export const getMongoValues = createPerFileCache((context: AnyRuleContext): MongoValues => createResolver(context));

const IN_PROGRESS = Symbol('in progress');

/** Class members and keys: `#name` for private ones; no template keys. */
const STATIC_KEY: KeyNameOptions = { templates: false, privateNames: 'hashed' };

function createResolver(context: AnyRuleContext): MongoValues {
  const sourceCode = context.sourceCode;
  const program = sourceCode.ast as TSESTree.Program;
  const seeds = new Map<TSESTree.Node, Seed>();
  /** Local type names (`Collection`, aliased ones) and namespace names per module. */
  const typeNames = new Map<string, MongoValueKind>();
  const namespaces = new Map<string, 'mongodb' | 'mongoose'>();
  let importsMongo = false;
  let importsLookAlike = false;

  for (const statement of program.body) {
    if (statement.type !== 'ImportDeclaration') continue;
    const source = String(statement.source.value);
    if (LOOK_ALIKE_MODULES.test(source)) importsLookAlike = true;
    if (source !== 'mongodb' && source !== 'mongoose') continue;
    importsMongo = true;
    for (const specifier of statement.specifiers) {
      if (specifier.type !== 'ImportSpecifier') namespaces.set(specifier.local.name, source);
    }
  }
  const globalScope = sourceCode.scopeManager?.globalScope;
  // `require` is often not a declared global in TypeScript files: find each
  // `require('mongodb')` call by text (fast), not from the `require` variable.
  const requires = findRequireCallsByText(context, MONGO_MODULES);
  if (globalScope && (importsMongo || requires.length > 0)) {
    for (const reference of findModuleReferences(context, traceMap, { requireCalls: requires })) {
      importsMongo = true;
      const seed = reference.info;
      if (seed.startsWith('type:')) {
        if (reference.node.type === 'ImportSpecifier') typeNames.set(reference.node.local.name, seed.slice(5) as MongoValueKind);
      } else {
        seeds.set(reference.node, seed);
      }
    }
    if (requires.length > 0) importsMongo = true;
  }
  // Collections, clients and models the project's own modules export (`import { orders } from './db'`).
  for (const imported of getImportedValues(context)) {
    if (imported.value.database !== 'mongodb') continue;
    seeds.set(imported.node, imported.value.kind);
    importsMongo = true;
  }
  if (!importsLookAlike && /\brequire\s*\(\s*['"](?:typeorm|sequelize|@prisma\/client|@reduxjs\/toolkit)['"]/.test(sourceCode.text)) {
    importsLookAlike = true;
  }

  let mongoProject: boolean | undefined;
  /**
   * The nearest `package.json` depends on `mongodb` or `mongoose` and on no other library
   * whose handles have a `collection(name)` method (Firestore, ArangoDB, …): in such a
   * project, `db.collection(name)` on a value from elsewhere is the driver's.
   */
  function dependsOnMongoOnly(): boolean {
    if (mongoProject === undefined) {
      const dependencies = getManifestDependencies(getSourcePath(context));
      mongoProject = dependencies !== undefined && MONGO_MODULES.some((name) => dependencies.has(name)) && !OTHER_COLLECTION_MODULES.some((name) => dependencies.has(name));
    }
    return mongoProject;
  }

  const memo = new Map<TSESTree.Node, KnownKind | undefined | typeof IN_PROGRESS>();
  const judge: ValueJudge<KnownKind> = {
    valueOf: (node) => getKind(node),
    fromRemote: (value) => (value.database === 'mongodb' ? value.kind : 'other'),
    same: (a, b) => a === b,
  };
  const classMembers = new Map<TSESTree.ClassBody, Map<string, TSESTree.Node[]>>();
  const returnedKinds = new Map<TSESTree.Node, KnownKind | undefined>();
  const typeServices = getMongoTypeServices(context);

  function getKind(node: TSESTree.Node): KnownKind | undefined {
    const cached = memo.get(node);
    if (cached === IN_PROGRESS) return undefined;
    if (cached !== undefined || memo.has(node)) return cached;
    memo.set(node, IN_PROGRESS);
    let kind: KnownKind | undefined;
    try {
      kind = computeKind(node);
    } catch {
      kind = undefined;
    }
    memo.set(node, kind);
    return kind;
  }

  function computeKind(node: TSESTree.Node): KnownKind | undefined {
    const seed = seeds.get(node);
    if (seed !== undefined && !seed.startsWith('type:')) return seed as MongoValueKind;
    switch (node.type) {
      case 'AwaitExpression':
      case 'TSNonNullExpression':
      case 'ChainExpression':
      case 'TSSatisfiesExpression':
      case 'TSInstantiationExpression':
        return getKind('argument' in node ? node.argument : node.expression);
      case 'TSAsExpression':
      case 'TSTypeAssertion':
        return getAnnotationKind(node.typeAnnotation) ?? getKind(node.expression);
      case 'LogicalExpression':
        return mergeKinds(getKind(node.left), getKind(node.right));
      case 'ConditionalExpression':
        return mergeKinds(getKind(node.consequent), getKind(node.alternate));
      case 'Identifier':
        return getIdentifierKind(node);
      case 'MemberExpression':
        return getMemberKind(node);
      case 'CallExpression':
        return getCallKind(node);
      case 'ArrayExpression':
      case 'ObjectExpression':
      case 'Literal':
      case 'TemplateLiteral':
      case 'NewExpression':
      case 'ArrowFunctionExpression':
      case 'FunctionExpression':
      case 'ClassExpression':
        return 'other';
      default:
        return undefined;
    }
  }

  function getIdentifierKind(node: TSESTree.Identifier): KnownKind | undefined {
    const variable = ASTUtils.findVariable(sourceCode.getScope(node), node);
    const def = variable?.defs[0];
    if (!variable || !def) return undefined;
    if (def.type === 'Variable') {
      const declarator = def.node;
      if (declarator.id.type !== 'Identifier') return getPatternKind(declarator.id, node.name, declarator.init);
      const annotated = getAnnotationKind(declarator.id.typeAnnotation);
      if (annotated !== undefined) return annotated;
      let kind = declarator.init ? getKind(declarator.init) : undefined;
      for (const reference of variable.references) {
        if (!reference.isWrite() || !reference.writeExpr || reference.writeExpr === declarator.init) continue;
        const written = getKind(reference.writeExpr);
        kind = kind === undefined ? written : mergeKinds(kind, written);
      }
      return kind;
    }
    if (def.type === 'Parameter') {
      if (def.name.type === 'Identifier' && def.name.typeAnnotation) return getAnnotationKind(def.name.typeAnnotation);
      return getCallbackParameterKind(def.node, def.name) ?? getCallSiteKind(variable);
    }
    if (def.type === 'FunctionName' || def.type === 'ClassName' || def.type === 'ImportBinding') return undefined;
    return undefined;
  }

  /** `const { orders } = { orders: db.collection('orders') }` and similar: only literal objects. */
  function getPatternKind(pattern: TSESTree.Node, name: string, init: TSESTree.Expression | null): KnownKind | undefined {
    if (pattern.type !== 'ObjectPattern' || init?.type !== 'ObjectExpression') return undefined;
    for (const property of pattern.properties) {
      if (property.type !== 'Property' || property.value.type !== 'Identifier' || property.value.name !== name) continue;
      const key = getKeyName(property, STATIC_KEY);
      return key === undefined ? undefined : getObjectPropertyKind(init, key);
    }
    return undefined;
  }

  /**
   * A parameter every caller passes the same kind of value: `archive(orders)`, `new Repo(db)`
   * in the file and, for an exported function or class, in the project's other modules.
   * With `property`, the property of an object passed there (`options.jobModel`).
   */
  function getCallSiteKind(variable: TSESLint.Scope.Variable, property?: string): KnownKind | undefined {
    const slot = getParameterSlot(variable);
    return slot && getPassedValue(context, slot, property === undefined ? [] : [property], judge);
  }

  function getCallbackParameterKind(fn: TSESTree.Node, param: TSESTree.Node): KnownKind | undefined {
    if (fn.type !== 'ArrowFunctionExpression' && fn.type !== 'FunctionExpression') return undefined;
    if (fn.params[0] !== param) return undefined;
    const call = fn.parent;
    if (call?.type !== 'CallExpression' || call.callee.type !== 'MemberExpression' || !call.arguments.includes(fn)) return undefined;
    const method = getKeyName(call.callee, STATIC_KEY);
    // `collectionPromise.then((collection) => …)`: kinds do not tell a value from its promise.
    if (method === 'then' && call.arguments[0] === fn) return known(getKind(call.callee.object));
    if (method === undefined || !SESSION_CALLBACK_METHODS.has(method)) return undefined;
    const receiver = getKind(call.callee.object);
    if (receiver === 'client' || receiver === 'session' || receiver === 'connection') return 'session';
    return undefined;
  }

  function getMemberKind(node: TSESTree.MemberExpression): KnownKind | undefined {
    const seed = seeds.get(node);
    if (seed !== undefined) return seed as MongoValueKind;
    const name = getKeyName(node, STATIC_KEY);
    if (name === undefined) return undefined;
    const owner = getReceiverThisOwner(context, node.object);
    if (owner) return getFieldKind(owner, name);
    if (node.object.type === 'ThisExpression') return undefined;
    const objectKind = getKind(node.object);
    if (objectKind === 'modelRegistry') return 'model';
    if (objectKind && objectKind !== 'other') return PROPERTY_RESULTS[objectKind]?.[name];
    if (node.object.type === 'Identifier') {
      const init = getConstInit(node.object);
      if (init?.type === 'ObjectExpression') return getObjectPropertyKind(init, name);
      // `options.jobModel` of a parameter `options`: what callers pass in that property.
      const variable = ASTUtils.findVariable(sourceCode.getScope(node.object), node.object);
      const definition = variable?.defs[0];
      if (variable && definition?.type === 'Parameter' && !(definition.name.type === 'Identifier' && definition.name.typeAnnotation)) return getCallSiteKind(variable, name);
    }
    return undefined;
  }

  function getObjectPropertyKind(object: TSESTree.ObjectExpression, name: string): KnownKind | undefined {
    for (const property of object.properties) {
      if (property.type === 'Property' && getKeyName(property, STATIC_KEY) === name) return getKind(property.value);
    }
    return undefined;
  }

  function getCallKind(node: TSESTree.CallExpression): KnownKind | undefined {
    const callee = node.callee;
    if (callee.type === 'MemberExpression') {
      const name = getKeyName(callee, STATIC_KEY);
      if (name === undefined) return undefined;
      if (callee.object.type === 'ThisExpression') return getClassMethodKind(callee, name);
      // `promise.then((db) => db.collection('x'))`: what the callback returns.
      const callback = node.arguments[0];
      if (name === 'then' && callback && isFunctionNode(callback)) return getReturnedKind(callback);
      const objectKind = getKind(callee.object);
      if (objectKind && objectKind !== 'other') return METHOD_RESULTS[objectKind]?.[name];
      // `connection.model('Job', jobSchema)` on a connection from elsewhere, with a Mongoose schema.
      if (objectKind === undefined && name === 'model' && node.arguments[1] && getKind(node.arguments[1]) === 'schema') return 'model';
      // `someDb.collection('orders')` / `db.collection(name)` where `someDb` comes from another
      // module or an untyped method, in a file that uses MongoDB. (Look-alikes such as
      // Firestore's `collection()` have none of the driver's method names.)
      if (objectKind === undefined && name === 'collection' && (importsMongo || dependsOnMongoOnly()) && isCollectionName(node.arguments)) return 'collection';
      return undefined;
    }
    if (callee.type === 'Identifier') {
      const variable = ASTUtils.findVariable(sourceCode.getScope(callee), callee);
      const def = variable?.defs[0];
      if (!def) return undefined;
      // `getLockCollection(db)`, `const getModel = (c) => c.model(…)`: a function of this file that
      // is never reassigned; its annotation, else what all its returns agree on.
      if (!variable || variable.defs.length !== 1 || variable.references.some((reference) => reference.isWrite() && reference.writeExpr !== (def.type === 'Variable' ? def.node.init : undefined))) {
        return undefined;
      }
      if (def.type === 'FunctionName' && def.node.type === 'FunctionDeclaration') return getAnnotationKind(def.node.returnType, true) ?? getReturnedKind(def.node);
      if (def.type === 'Variable' && def.node.init && (def.node.init.type === 'ArrowFunctionExpression' || def.node.init.type === 'FunctionExpression')) {
        return getAnnotationKind(def.node.init.returnType, true) ?? getReturnedKind(def.node.init);
      }
    }
    return undefined;
  }

  /** What every `return` of `fn` gives, when all agree and are known (`null` aside); once per function. */
  function getReturnedKind(fn: TSESTree.Node): KnownKind | undefined {
    if (returnedKinds.has(fn)) return returnedKinds.get(fn);
    returnedKinds.set(fn, undefined);
    const kind = computeReturnedKind(fn);
    returnedKinds.set(fn, kind);
    return kind;
  }

  function computeReturnedKind(fn: TSESTree.Node): KnownKind | undefined {
    if (!isFunctionNode(fn)) return undefined;
    let kind: KnownKind | undefined;
    for (const returned of getReturnedExpressions(fn)) {
      if (returned.type === 'Literal' && returned.value === null) continue;
      const next = getKind(returned);
      if (next === undefined || (kind !== undefined && next !== kind)) return undefined;
      kind = next;
    }
    return kind;
  }

  /** `this.getCollection()`: what the class's method returns. */
  function getClassMethodKind(callee: TSESTree.MemberExpression, name: string): KnownKind | undefined {
    const body = getEnclosingClassBody(callee);
    const method = body?.body.find(
      (element): element is TSESTree.MethodDefinition => element.type === 'MethodDefinition' && element.kind === 'method' && !element.computed && getKeyName(element, STATIC_KEY) === name,
    );
    if (!method) return undefined;
    return getAnnotationKind(method.value.returnType, true) ?? getReturnedKind(method.value);
  }

  /**
   * What the field `name` of `this` holds: in a class, its annotation or the values the class
   * gives it; for a constructor function, the values it and its prototype's methods give it;
   * for a function another module binds, what that module's class says.
   */
  function getFieldKind(owner: ThisOwner, name: string): KnownKind | undefined {
    if (owner.type === 'exported') {
      const value = getBoundFieldValue(context, owner.fn, name);
      return value && judge.fromRemote(value);
    }
    const sources = owner.type === 'class' ? getClassMembers(owner.body).get(name) : findOwnerFieldWrites(context, owner, name);
    if (!sources) return undefined;
    let kind: KnownKind | undefined;
    for (const source of sources) {
      const next = source.type === 'TSTypeAnnotation' ? getAnnotationKind(source, true) : getKind(source);
      if (source.type === 'TSTypeAnnotation' && next !== undefined) return next;
      kind = kind === undefined ? next : mergeKinds(kind, next);
    }
    return kind;
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
      if (source.type === 'TSTypeAnnotation') list.unshift(source);
      else list.push(source);
      found.set(name, list);
    };
    for (const element of body.body) {
      if (element.type === 'PropertyDefinition' && !element.computed) {
        add(getKeyName(element, STATIC_KEY), element.typeAnnotation);
        add(getKeyName(element, STATIC_KEY), element.value);
      } else if (element.type === 'MethodDefinition' && !element.computed) {
        if (element.kind === 'get') {
          add(getKeyName(element, STATIC_KEY), element.value.returnType);
          for (const returned of isFunctionNode(element.value) ? getReturnedExpressions(element.value) : []) add(getKeyName(element, STATIC_KEY), returned);
        }
        if (element.kind === 'constructor') {
          for (const param of element.value.params) {
            if (param.type === 'TSParameterProperty' && param.parameter.type === 'Identifier') {
              add(param.parameter.name, param.parameter.typeAnnotation);
            }
          }
        }
      }
    }
    // `this.orders = db.collection('orders')` anywhere in the class.
    const pattern = /\bthis\s*\.\s*#?[A-Za-z_$][\w$]*\s*=(?!=)/g;
    const offsets: number[] = [];
    for (const match of sourceCode.text.slice(body.range[0], body.range[1]).matchAll(pattern)) {
      offsets.push(body.range[0] + (match.index ?? 0));
    }
    for (const [offset, deepest] of findNodesAtOffsets(context, offsets)) {
      let node: TSESTree.Node | undefined = deepest;
      while (node && node.type !== 'AssignmentExpression' && node.range[0] === offset) node = node.parent;
      if (node?.type !== 'AssignmentExpression' || node.operator !== '=' || node.left.type !== 'MemberExpression') continue;
      if (node.left.object.type !== 'ThisExpression' || getEnclosingClassBody(node.left) !== body) continue;
      add(getKeyName(node.left, STATIC_KEY), node.right);
    }
    return found;
  }

  function getAnnotationKind(node: TSESTree.Node | undefined, unwrapPromise = false): KnownKind | undefined {
    if (!node) return undefined;
    switch (node.type) {
      case 'TSTypeAnnotation':
        return getAnnotationKind(node.typeAnnotation, unwrapPromise);
      case 'TSTypeReference': {
        const typeName = node.typeName;
        if (typeName.type === 'Identifier') {
          const kind = typeNames.get(typeName.name);
          if (kind) return kind;
          const inner = node.typeArguments?.params[0];
          if (unwrapPromise && typeName.name === 'Promise' && inner) return getAnnotationKind(inner);
          return 'other';
        }
        if (typeName.type === 'TSQualifiedName' && typeName.left.type === 'Identifier') {
          const module = namespaces.get(typeName.left.name);
          if (!module) return 'other';
          const api = (module === 'mongodb' ? mongodbApi : mongooseApi) as Record<string, Record<symbol, string>>;
          const seed = api[typeName.right.name]?.[READ];
          return seed?.startsWith('type:') ? (seed.slice(5) as MongoValueKind) : 'other';
        }
        return 'other';
      }
      case 'TSUnionType': {
        let kind: KnownKind | undefined;
        for (const member of node.types) {
          if (member.type === 'TSUndefinedKeyword' || member.type === 'TSNullKeyword') continue;
          const next = getAnnotationKind(member, unwrapPromise);
          kind = kind === undefined ? next : mergeKinds(kind, next);
        }
        return kind;
      }
      case 'TSAnyKeyword':
      case 'TSUnknownKeyword':
        return undefined;
      default:
        return 'other';
    }
  }

  function getConstInit(node: TSESTree.Identifier): TSESTree.Expression | undefined {
    const variable = ASTUtils.findVariable(sourceCode.getScope(node), node);
    const def = variable?.defs[0];
    if (def?.type !== 'Variable' || def.parent.kind !== 'const' || def.node.id.type !== 'Identifier') return undefined;
    return def.node.init ?? undefined;
  }

  function getTypeKind(node: TSESTree.Node): KnownKind | undefined {
    return typeServices?.getTypeKind(node);
  }

  function getClientOrigin(node: TSESTree.Node, depth = 0): TSESTree.NewExpression | TSESTree.CallExpression | undefined {
    if (depth > 20) return undefined;
    if (seeds.get(node) === 'client' && (node.type === 'NewExpression' || node.type === 'CallExpression')) return node;
    switch (node.type) {
      case 'AwaitExpression':
        return getClientOrigin(node.argument, depth + 1);
      case 'TSNonNullExpression':
      case 'TSAsExpression':
      case 'TSSatisfiesExpression':
      case 'ChainExpression':
        return getClientOrigin(node.expression, depth + 1);
      case 'CallExpression':
        // `client.db()`, `db.collection()`, `client.connect()`
        return node.callee.type === 'MemberExpression' ? getClientOrigin(node.callee.object, depth + 1) : undefined;
      case 'Identifier': {
        const variable = ASTUtils.findVariable(sourceCode.getScope(node), node);
        const def = variable?.defs[0];
        if (def?.type !== 'Variable' || def.node.id.type !== 'Identifier' || !def.node.init) return undefined;
        if (variable?.references.some((reference) => reference.isWrite() && reference.writeExpr !== def.node.init)) return undefined;
        return getClientOrigin(def.node.init, depth + 1);
      }
      case 'MemberExpression': {
        if (node.object.type !== 'ThisExpression') return undefined;
        const name = getKeyName(node, STATIC_KEY);
        const body = getEnclosingClassBody(node);
        const sources = name === undefined || !body ? undefined : getClassMembers(body).get(name)?.filter((source) => source.type !== 'TSTypeAnnotation');
        return sources?.length === 1 && sources[0] ? getClientOrigin(sources[0], depth + 1) : undefined;
      }
      default:
        return undefined;
    }
  }

  return {
    importsMongo,
    importsLookAlike,
    hasTypes: typeServices !== undefined,
    getKind,
    getFieldKind,
    getTypeKind,
    getClientOrigin,
  };
}

/** `require('mongodb')` / `require('mongoose')` calls, found by text first. */
/** A kind that says something (not `other`). */
function known(kind: KnownKind | undefined): KnownKind | undefined {
  return kind === 'other' ? undefined : kind;
}

function getEnclosingClassBody(node: TSESTree.Node): TSESTree.ClassBody | undefined {
  let current = node.parent;
  while (current) {
    if (current.type === 'ClassBody') return current;
    if (current.type === 'FunctionDeclaration') return undefined;
    if (current.type === 'FunctionExpression' && current.parent?.type !== 'MethodDefinition') return undefined;
    current = current.parent;
  }
  return undefined;
}

/** `('orders')`, `(name)`, `(this.options.collection, { … })`: a name first, options maybe. */
function isCollectionName(args: readonly TSESTree.CallExpressionArgument[]): boolean {
  const first = args[0];
  if (!first || args.length > 2) return false;
  return isStringLike(first) || first.type === 'Identifier' || first.type === 'MemberExpression';
}

function isStringLike(node: TSESTree.Node | undefined): boolean {
  return (node?.type === 'Literal' && typeof node.value === 'string') || node?.type === 'TemplateLiteral';
}
