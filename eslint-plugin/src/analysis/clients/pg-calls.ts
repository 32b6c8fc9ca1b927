import { AST_NODE_TYPES, ASTUtils, type TSESTree } from '@typescript-eslint/utils';
import { isFunctionNode, unwrapExpression } from '../ast';
import type { DbCall } from './db-call';
import type { PgRole } from './db-value';
import { type DbValues, getDbValues, getSeededDbValues } from './db-values';
import { findInstanceReferences, getOutermostSameValue, getValueBinding, resolveObjectLiteral, type ValueBinding } from './value-bindings';
import { CONSTRUCT, findModuleReferences, getManifestDependencies, getSourcePath, hasModuleImport, mayUsePackages, type TraceMap } from '../modules';
import { findComputedMemberCalls, findMemberCallsNamed, findNodesAtOffsets, isNameChar, skipSpaces } from '../find-nodes-at-offsets';
import { type AnyRuleContext, createPerFileCache } from '../per-file-cache';
import { getSqlStatement, type SqlStatement } from './sql-statements';
import { getCalledMethodNames } from './possible-strings';
import { getReceiverParameter, mayComeFromParameter } from './parameter-values';
import { POSTGRES_MODULES } from './pg-vocabulary';

/**
 * PostgreSQL calls, found by following the client libraries' imports:
 * - `pg` / `pg-pool`: `new Pool()`, `new Client()`, `pool.query`, `pool.connect()` (its
 *   client, awaited or from the callback), `client.query`, `client.connect`;
 * - `postgres` (postgres.js): the `sql` function `postgres(…)` returns, used as a tag
 *   (`` sql`select …` ``), `sql.unsafe(text)`, `sql.begin(async (sql) => …)` and
 *   `sql.savepoint(…)` (whose callback gets a transaction `sql`), `sql.reserve()`.
 * Values typed `Pool`, `PoolClient`, `Client` (pg) or `Sql`/`TransactionSql` (postgres) count too.
 */

export interface PostgresCall extends DbCall {
  database: 'postgres';
  library: 'pg' | 'postgres';
  /**
   * `query` (pg `query`, a postgres.js tagged template), `unsafe`, `file`, `connect`,
   * `begin` / `savepoint` (postgres.js transaction helpers).
   */
  operation: string;
  /** What the call runs on: a pool, a single connection (pg client, postgres.js transaction or reserved `sql`), or the postgres.js `sql` pool. */
  receiver: 'pool' | 'client' | 'sql';
  /** The pool / client / `sql` expression the call is made on (the tag, for a tagged template). */
  receiverNode: TSESTree.Node;
  /**
   * The connection the call runs on, as the node that produced it (`await pool.connect()`,
   * `new Client()`, the `sql.begin` callback's parameter, a typed parameter…): calls with
   * the same `connection` share one session. Undefined for pool-level calls, which may
   * each use a different connection.
   */
  connection: TSESTree.Node | undefined;
  /** The SQL the call runs, for queries (`kind: 'unknown'` when not statically known). */
  statement: SqlStatement | undefined;
  /** `sql.begin(cb)` / `sql.savepoint(cb)`: the callback that is the transaction. */
  transactionCallback: TSESTree.Node | undefined;
}

/** Where a pg `Pool` is made. */
export interface PgPoolSite {
  node: TSESTree.NewExpression;
  library: 'pg' | 'pg-pool';
  /** The options object literal (resolved through a `const`), when there is one. */
  config: TSESTree.ObjectExpression | undefined;
  /** Where the pool is stored (`const pool = …`, `this.pool = …`), when it is. */
  binding: ValueBinding | undefined;
  /** The construction and every expression that reads the stored pool. */
  references: TSESTree.Node[];
}

/** A single connection's lifetime: `await pool.connect()`, `new Client()`, a `sql.begin` callback. */
export interface PgConnection {
  /** The node that produced it (see `PostgresCall.connection`). */
  node: TSESTree.Node;
  /** `client.release()` calls (pg pool clients). */
  releaseCalls: TSESTree.CallExpression[];
}

export interface PostgresAnalysis {
  calls: PostgresCall[];
  pools: PgPoolSite[];
  connections: PgConnection[];
}

type Role = PgRole;

/** Where pools are made (their sites, with the library that makes them). */
const POOL_TRACE_MAP: TraceMap<'pg' | 'pg-pool'> = {
  pg: { Pool: { [CONSTRUCT]: 'pg' }, native: { Pool: { [CONSTRUCT]: 'pg' } } },
  'pg-pool': { [CONSTRUCT]: 'pg-pool' },
};

/** Methods whose receivers are asked about: pg's and postgres.js' own. */
const METHODS = ['query', 'connect', 'release', 'unsafe', 'begin', 'savepoint', 'reserve', 'file'];

/** The declaration of the variable a receiver names (so its calls share one connection), else the receiver. */
function getConnectionIdentity(context: AnyRuleContext, receiver: TSESTree.Node): TSESTree.Node {
  if (receiver.type !== AST_NODE_TYPES.Identifier) return receiver;
  const variable = ASTUtils.findVariable(context.sourceCode.getScope(receiver), receiver);
  return variable?.defs[0]?.name ?? receiver;
}

interface Instance {
  node: TSESTree.Node;
  role: Role;
  library: 'pg' | 'postgres';
  /** The connection it is (for client / sql-connection roles). */
  connection: TSESTree.Node | undefined;
}

const EMPTY: PostgresAnalysis = { calls: [], pools: [], connections: [] };

/** The file's PostgreSQL calls, pools and connections; computed once per file. */
export const getPostgresAnalysis = createPerFileCache((context: AnyRuleContext): PostgresAnalysis => {
  const importsDriver = hasModuleImport(context, POSTGRES_MODULES);
  // The resolver is built only where it may know a pool beyond parameters, or has a receiver to ask about.
  const seeded = getSeededDbValues(context);
  const usesPostgres = importsDriver || seeded?.databases.has('postgres') === true || seeded?.hasTypes === true;
  const sqlShaped = findSqlShapedQueries(context);
  // Without a driver import, receivers are asked about only where the project can make a pg client, and only those that may come from a parameter (the callers' answers are costly).
  const mayUsePostgres = usesPostgres || mayUsePackages(getSourcePath(context), POSTGRES_MODULES);
  if (!mayUsePostgres && sqlShaped.length === 0) return EMPTY;
  const builder = new AnalysisBuilder(context);
  for (const reference of importsDriver ? findModuleReferences(context, POOL_TRACE_MAP) : []) {
    if (reference.node.type === AST_NODE_TYPES.NewExpression) builder.addPoolSite(reference.node, reference.info);
  }
  if (mayUsePostgres) {
    const receivers: TSESTree.Node[] = [...findMemberCallsNamed(context, METHODS).map(({ receiver }) => receiver), ...findComputedMemberCalls(context).map(({ member }) => member.object)];
    // Only postgres.js is called through a tag (`` sql`…` ``).
    if (usesPostgres || mayUsePackages(getSourcePath(context), ['postgres'])) receivers.push(...findTemplateTags(context));
    for (const receiver of receivers) {
      if (usesPostgres || mayComeFromParameter(receiver)) builder.visit(receiver);
    }
  }
  builder.addSqlShapedQueries(sqlShaped);
  return builder.finish();
});

class AnalysisBuilder {
  private readonly calls = new Map<TSESTree.Node, PostgresCall>();
  private readonly pools: PgPoolSite[] = [];
  private readonly connections = new Map<TSESTree.Node, PgConnection>();
  private readonly sqlTags = new Set<TSESTree.Node>();
  /** Connections of receivers no single origin names, by what they read (`options.client`). */
  private readonly pathConnections = new Map<string, TSESTree.Node>();

  constructor(private readonly context: AnyRuleContext) {}

  private get values(): DbValues {
    return getDbValues(this.context);
  }

  addPoolSite(node: TSESTree.NewExpression, library: 'pg' | 'pg-pool'): void {
    const argument = node.arguments[0];
    this.pools.push({
      node,
      library,
      config: argument ? resolveObjectLiteral(this.context, argument) : undefined,
      binding: getValueBinding(this.context, node),
      references: findInstanceReferences(this.context, node),
    });
  }

  /** A receiver of a pg / postgres.js method or a template tag: its calls, when the value analysis (or its type) says it is a pool, client or `sql`. */
  visit(receiver: TSESTree.Node): void {
    const value = getPostgresValue(this.values, receiver);
    if (!value) return;
    const connection = value.role === 'client' || value.role === 'sql-connection' ? this.getConnection(receiver) : undefined;
    const instance: Instance = { node: receiver, role: value.role, library: value.library, connection };
    if (instance.library === 'postgres') this.visitSql(instance);
    else this.visitPg(instance);
  }

  /** The connection a client receiver is: its origin, else one per parameter path, variable or receiver. */
  private getConnection(receiver: TSESTree.Node): TSESTree.Node {
    const connection = this.values.getOrigin(receiver) ?? this.getPathConnection(receiver) ?? getConnectionIdentity(this.context, receiver);
    if (!this.connections.has(connection)) this.connections.set(connection, { node: connection, releaseCalls: [] });
    return connection;
  }

  /** `options.client`, `this.options.client`: calls on the same parameter path share its connection. */
  private getPathConnection(receiver: TSESTree.Node): TSESTree.Node | undefined {
    const source = getReceiverParameter(this.context, receiver);
    const parameter = source?.slot.variable.defs[0]?.name;
    if (!source || !parameter) return undefined;
    if (source.path.length === 0) return parameter;
    const key = [parameter.range[0], ...source.path].join('.');
    const known = this.pathConnections.get(key);
    if (known) return known;
    this.pathConnections.set(key, receiver);
    return receiver;
  }

  /**
   * `x.query('INSERT …')` on a receiver nothing else identified, in a project whose only
   * SQL driver is PostgreSQL's: a call on a connection of its own (calls on the same
   * receiver share it), which keeps transaction checks quiet rather than wrong.
   */
  addSqlShapedQueries(queries: readonly TSESTree.MemberExpression[]): void {
    for (const member of queries) {
      const receiver = member.object;
      if (this.calls.has(member.parent as TSESTree.Node) || getPostgresValue(this.values, receiver) || isKnownNonPgValue(this.context, receiver) || this.values.getTypeValue(receiver) === 'other') continue;
      const connection = getConnectionIdentity(this.context, receiver);
      if (!this.connections.has(connection)) this.connections.set(connection, { node: connection, releaseCalls: [] });
      this.visitPg({ node: receiver, role: 'client', library: 'pg', connection });
    }
  }

  finish(): PostgresAnalysis {
    // Fragments nested in another query's `${…}` are parts of that query, not queries.
    for (const node of [...this.calls.keys()]) {
      if (node.type === AST_NODE_TYPES.TaggedTemplateExpression && this.isFragment(node)) this.calls.delete(node);
    }
    // A postgres.js transaction writes when a statement inside it does.
    for (const call of this.calls.values()) {
      if (!call.transactionCallback) continue;
      const [start, end] = call.transactionCallback.range;
      call.isWrite = [...this.calls.values()].some(
        (inner) => inner !== call && inner.isWrite && inner.node.range[0] >= start && inner.node.range[1] <= end,
      );
    }
    const byPosition = (a: { node: TSESTree.Node }, b: { node: TSESTree.Node }): number => a.node.range[0] - b.node.range[0];
    return {
      calls: [...this.calls.values()].sort(byPosition),
      pools: this.pools.sort(byPosition),
      connections: [...this.connections.values()].sort(byPosition),
    };
  }

  private addCall(call: Omit<PostgresCall, 'database' | 'isWrite'>): void {
    if (this.calls.has(call.node)) return;
    this.calls.set(call.node, { ...call, database: 'postgres', isWrite: call.statement?.isWrite ?? false });
  }

  private visitPg(instance: Instance): void {
    const method = getCalledMethod(this.context, instance.node);
    if (!method) return;
    const receiver = instance.role === 'pool' ? 'pool' : 'client';
    const base = {
      node: method.call,
      library: 'pg' as const,
      receiver,
      receiverNode: instance.node,
      connection: instance.connection,
      transactionCallback: undefined,
    } as const;
    switch (method.name) {
      case 'query':
        this.addCall({ ...base, operation: 'query', statement: getSqlStatement(this.context, method.call.arguments[0]) });
        return;
      case 'connect':
        this.addCall({ ...base, operation: 'connect', statement: undefined });
        return;
      case 'release':
        if (instance.connection) this.connections.get(instance.connection)?.releaseCalls.push(method.call);
        return;
      default:
    }
  }

  private visitSql(instance: Instance): void {
    const outer = getOutermostSameValue(instance.node);
    const parent = outer.parent;
    const receiver = instance.role === 'sql' ? 'sql' : 'client';
    const base = {
      library: 'postgres' as const,
      receiver,
      receiverNode: instance.node,
      connection: instance.connection,
    } as const;
    if (parent?.type === AST_NODE_TYPES.TaggedTemplateExpression && parent.tag === outer) {
      this.sqlTags.add(parent);
      this.addCall({ ...base, node: parent, operation: 'query', statement: getSqlStatement(this.context, parent), transactionCallback: undefined });
      return;
    }
    const method = getCalledMethod(this.context, instance.node);
    if (!method) return;
    const args = method.call.arguments;
    switch (method.name) {
      case 'unsafe':
        this.addCall({ ...base, node: method.call, operation: 'unsafe', statement: getSqlStatement(this.context, args[0]), transactionCallback: undefined });
        return;
      case 'file':
        this.addCall({ ...base, node: method.call, operation: 'file', statement: getSqlStatement(undefined, undefined), transactionCallback: undefined });
        return;
      case 'begin':
      case 'savepoint': {
        // `sql.begin([options,] async (sql) => …)`: the callback is the last argument.
        const callback = args[args.length - 1];
        const fn = callback && isFunctionNode(callback) ? callback : undefined;
        this.addCall({ ...base, node: method.call, operation: method.name, statement: undefined, transactionCallback: fn });
        return;
      }
      default:
    }
  }

  private isFragment(node: TSESTree.TaggedTemplateExpression): boolean {
    for (let current: TSESTree.Node | undefined = node.parent; current; current = current.parent) {
      if (current.type === AST_NODE_TYPES.TaggedTemplateExpression && this.sqlTags.has(current)) return true;
    }
    return false;
  }
}

/** What pool, client or `sql` a receiver is: from the value analysis, else (typed linting) its type. */
function getPostgresValue(values: DbValues, receiver: TSESTree.Node): { role: PgRole; library: 'pg' | 'postgres' } | undefined {
  const value = values.getValue(receiver);
  if (value !== undefined && value !== 'other') return value.database === 'postgres' ? value : undefined;
  const typed = value === undefined ? values.getTypeValue(receiver) : undefined;
  return typed !== undefined && typed !== 'other' && typed.database === 'postgres' ? typed : undefined;
}

/** `pool.query(…)`, and `pool[method](…)` when `method` can be one name only. */
function getCalledMethod(context: AnyRuleContext, receiver: TSESTree.Node): { call: TSESTree.CallExpression; name: string } | undefined {
  const method = getCalledMethodNames(context, receiver);
  const name = method?.names.length === 1 ? method.names[0] : undefined;
  return method && name !== undefined ? { call: method.call, name } : undefined;
}

/**
 * A receiver the file shows to be something else: a local object, array, instance or
 * function, or an import of another package (`const local = { query() {} }`, `knex`).
 */
function isKnownNonPgValue(context: AnyRuleContext, receiver: TSESTree.Node): boolean {
  if (receiver.type !== AST_NODE_TYPES.Identifier) {
    return (
      receiver.type === AST_NODE_TYPES.ThisExpression ||
      receiver.type === AST_NODE_TYPES.NewExpression ||
      receiver.type === AST_NODE_TYPES.ObjectExpression ||
      receiver.type === AST_NODE_TYPES.ArrayExpression ||
      receiver.type === AST_NODE_TYPES.Literal
    );
  }
  const variable = ASTUtils.findVariable(context.sourceCode.getScope(receiver), receiver);
  const definition = variable?.defs[0];
  if (!definition) return false;
  if (definition.type === 'FunctionName' || definition.type === 'ClassName') return true;
  if (definition.type === 'ImportBinding') {
    const source = definition.parent.type === AST_NODE_TYPES.ImportDeclaration ? String(definition.parent.source.value) : '';
    return !source.startsWith('.') && !(POSTGRES_MODULES as readonly string[]).includes(source);
  }
  if (definition.type !== 'Variable' || !definition.node.init) return false;
  const init = unwrapExpression(definition.node.init);
  return (
    init.type === AST_NODE_TYPES.ObjectExpression ||
    init.type === AST_NODE_TYPES.ArrayExpression ||
    init.type === AST_NODE_TYPES.NewExpression ||
    init.type === AST_NODE_TYPES.Literal ||
    init.type === AST_NODE_TYPES.TemplateLiteral ||
    init.type === AST_NODE_TYPES.ClassExpression ||
    isFunctionNode(init)
  );
}

/** The tags of tagged templates (`` sql`select …` ``), found by the backtick after a name. */
function findTemplateTags(context: AnyRuleContext): TSESTree.Node[] {
  const offsets = findTaggedBackticks(context.sourceCode.text);
  if (offsets.length === 0) return [];
  const tags: TSESTree.Node[] = [];
  for (const deepest of findNodesAtOffsets(context, offsets).values()) {
    // The first quasi starts at the backtick too (its range holds the delimiters).
    const node = deepest.type === AST_NODE_TYPES.TemplateElement ? deepest.parent : deepest;
    const tagged = node?.parent;
    if (node?.type === AST_NODE_TYPES.TemplateLiteral && tagged?.type === AST_NODE_TYPES.TaggedTemplateExpression && tagged.quasi === node) tags.push(tagged.tag);
  }
  return tags;
}

/**
 * Offsets of backticks right after a name (`` sql` ``, `` tag  ` ``): each backtick is found
 * by a plain search, then the text before it is read back (a pattern tried at every
 * offset costs several times more).
 */
function findTaggedBackticks(text: string): number[] {
  const offsets: number[] = [];
  for (let offset = text.indexOf('`'); offset >= 0; offset = text.indexOf('`', offset + 1)) {
    if (isNameChar(text[skipSpaces(text, offset - 1, -1)])) offsets.push(offset);
  }
  return offsets;
}

/** SQL drivers and query layers whose `query(text)` is not node-postgres' (or not only). */
const OTHER_SQL_PACKAGES = [
  'mysql', 'mysql2', 'sqlite3', 'better-sqlite3', 'mssql', 'tedious', 'oracledb', 'sequelize', 'typeorm', 'knex', 'kysely',
  'drizzle-orm', '@prisma/client', '@mikro-orm/core', 'pg-promise', 'slonik', '@databases/pg', 'mariadb', 'sql.js', '@libsql/client',
];

/**
 * `x.query('INSERT …')` calls whose first argument is SQL text, when the nearest
 * `package.json` depends on `pg` or `postgres` and on no other SQL package. The method
 * name alone is no evidence: the SQL text and the project's one driver are.
 */
function findSqlShapedQueries(context: AnyRuleContext): TSESTree.MemberExpression[] {
  if (!context.sourceCode.text.includes('query')) return [];
  const dependencies = getManifestDependencies(getSourcePath(context));
  if (!dependencies || !POSTGRES_MODULES.some((name) => dependencies.has(name))) return [];
  if (OTHER_SQL_PACKAGES.some((name) => dependencies.has(name))) return [];
  return findMemberCallsNamed(context, ['query'])
    .filter(({ call }) => isSqlText(getSqlStatement(context, call.arguments[0])))
    .map(({ member }) => member);
}

/** Text that starts with a SQL keyword (`INSERT …`, `BEGIN`, `CALL p()`), not any word (`query('entries')`). */
function isSqlText(statement: SqlStatement): boolean {
  return statement.kind !== 'unknown' || statement.keyword === 'CALL' || statement.keyword === 'DO';
}

/** Where a pg / postgres.js call is reported: `query` in `client.query(…)`, the tag of `` tx`…` ``. */
export function getPostgresReportNode(call: PostgresCall): TSESTree.Node {
  const node = call.node;
  if (node.type === AST_NODE_TYPES.TaggedTemplateExpression) return node.tag;
  if (node.type === AST_NODE_TYPES.CallExpression && node.callee.type === AST_NODE_TYPES.MemberExpression) return node.callee.property;
  return node;
}

/** PostgreSQL calls of the file, in source order. */
export function findPostgresCalls(context: AnyRuleContext): PostgresCall[] {
  return getPostgresAnalysis(context).calls;
}

/** Where the file makes pg `Pool`s (`pg` and `pg-pool`), in source order. */
export function findPgPools(context: AnyRuleContext): PgPoolSite[] {
  return getPostgresAnalysis(context).pools;
}

/** The single connections the file uses (pool clients, `Client`s, postgres.js transactions). */
export function findPgConnections(context: AnyRuleContext): PgConnection[] {
  return getPostgresAnalysis(context).connections;
}
