import { AST_NODE_TYPES, ASTUtils, type TSESTree } from '@typescript-eslint/utils';
import { getKeyName, isFunctionNode, unwrapExpression } from '../ast';
import { type ClientTypeChecker, getClientTypeChecker } from './client-types';
import type { DbCall } from './db-call';
import type { PgRole } from './db-value';
import { findAnnotatedBindings, findBindingReads, findInstanceReferences, getMethodCall, getOutermostSameValue, getValueBinding, resolveObjectLiteral, type ValueBinding, visitEveryNode } from './value-bindings';
import { CALL, CONSTRUCT, findImportedTypeAnnotations, findModuleReferences, getManifestDependencies, getSourcePath, hasModuleImport, mayUsePackages, type TraceMap } from '../modules';
import { findMemberCallsNamed, findNodesAtOffsets } from '../find-nodes-at-offsets';
import { type AnyRuleContext, createPerFileCache } from '../per-file-cache';
import { getSqlStatement, type SqlStatement } from './sql-statements';
import { getImportedValues } from './imported-values';
import { getCalledMethodNames } from './possible-strings';
import { findFilledSlots, getSlotArguments, type ParameterSlot } from './call-sites';
import { findParameterCallReceivers, getPassedValue, getReceiverParameter, mayComeFromParameter, type ValueJudge } from './parameter-values';

/**
 * PostgreSQL calls, found by following the client libraries' imports:
 * - `pg` / `pg-pool`: `new Pool()`, `new Client()`, `pool.query`, `pool.connect()` (its
 *   client, awaited or from the callback), `client.query`, `client.connect`;
 * - `postgres` (postgres.js): the `sql` function `postgres(…)` returns, used as a tag
 *   (`` sql`select …` ``), `sql.unsafe(text)`, `sql.begin(async (sql) => …)` and
 *   `sql.savepoint(…)` (whose callback gets a transaction `sql`), `sql.reserve()`.
 * Values typed `Pool`, `PoolClient`, `Client` (pg) or `Sql`/`TransactionSql` (postgres) count too.
 */

export const POSTGRES_MODULES = ['pg', 'pg-pool', 'postgres'] as const;

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
  /** Every expression known to evaluate to a pool, client or `sql`. */
  values: ReadonlyMap<TSESTree.Node, { role: PgRole; library: 'pg' | 'postgres' }>;
  pools: PgPoolSite[];
  connections: PgConnection[];
}

type Role = PgRole;

interface TraceInfo {
  role: Role;
  library: 'pg' | 'pg-pool' | 'postgres';
}

const TRACE_MAP: TraceMap<TraceInfo> = {
  pg: {
    Pool: { [CONSTRUCT]: { role: 'pool', library: 'pg' } },
    Client: { [CONSTRUCT]: { role: 'client', library: 'pg' } },
    native: {
      Pool: { [CONSTRUCT]: { role: 'pool', library: 'pg' } },
      Client: { [CONSTRUCT]: { role: 'client', library: 'pg' } },
    },
  },
  'pg-pool': { [CONSTRUCT]: { role: 'pool', library: 'pg-pool' } },
  postgres: { [CALL]: { role: 'sql', library: 'postgres' } },
};

const ANNOTATION_ROLES: Record<string, Record<string, Role>> = {
  pg: { Pool: 'pool', PoolClient: 'client', Client: 'client', ClientBase: 'client' },
  'pg-pool': { '': 'pool' },
  postgres: { Sql: 'sql', TransactionSql: 'sql-connection', ReservedSql: 'sql-connection' },
};

const TYPE_ROLES: Record<string, Record<string, Role>> = {
  pg: { Pool: 'pool', PoolClient: 'client', Client: 'client', ClientBase: 'client' },
  'pg-pool': { Pool: 'pool' },
  postgres: { Sql: 'sql', TransactionSql: 'sql-connection', ReservedSql: 'sql-connection' },
};

const TYPED_METHODS = new Set(['query', 'connect', 'release', 'unsafe', 'begin', 'savepoint', 'reserve', 'file']);

/** The declaration of the variable a typed receiver names (so its calls share one connection), else the receiver. */
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

const EMPTY: PostgresAnalysis = { calls: [], values: new Map(), pools: [], connections: [] };

/** The file's PostgreSQL calls, pools and connections; computed once per file. */
export const getPostgresAnalysis = createPerFileCache((context: AnyRuleContext): PostgresAnalysis => {
  const types = getClientTypeChecker(context, POSTGRES_MODULES);
  // With types, the module index's word is checked: a value typed as something else is not a client.
  const imported = getImportedValues(context).flatMap(({ node, value }) =>
    value.database === 'postgres' && !types?.isOtherType(node) ? [{ node, ...value }] : [],
  );
  const sqlShaped = findSqlShapedQueries(context);
  // Parameters are asked about only where the project can make a pg client (the callers' answers are costly).
  const parameterReceivers = mayUsePackages(getSourcePath(context), POSTGRES_MODULES) ? findParameterReceivers(context) : [];
  if (!hasModuleImport(context, POSTGRES_MODULES) && !types && imported.length === 0 && sqlShaped.length === 0 && parameterReceivers.length === 0) return EMPTY;
  const builder = new AnalysisBuilder(context);
  // Pools and clients the project's own modules export (`const pool = require('./db')`).
  for (const { node, role, library } of imported) builder.addProducer(node, role, library);
  for (const reference of findModuleReferences(context, TRACE_MAP)) {
    const node = reference.node;
    const { role, library } = reference.info;
    if (node.type !== AST_NODE_TYPES.NewExpression && node.type !== AST_NODE_TYPES.CallExpression) continue;
    if (role === 'pool' && node.type === AST_NODE_TYPES.NewExpression) builder.addPoolSite(node, library === 'pg-pool' ? 'pg-pool' : 'pg');
    builder.addProducer(node, role, library === 'postgres' ? 'postgres' : 'pg');
  }
  for (const annotated of findImportedTypeAnnotations(context, Object.keys(ANNOTATION_ROLES))) {
    const role = ANNOTATION_ROLES[annotated.module]?.[annotated.path.join('.')];
    if (!role) continue;
    const library = annotated.module === 'postgres' ? 'postgres' : 'pg';
    for (const binding of findAnnotatedBindings(context, annotated.annotation)) {
      builder.addBinding(binding, role, library, annotated.annotation);
    }
  }
  builder.drain();
  builder.addParameters();
  builder.addParameterReceivers(parameterReceivers);
  if (types) builder.addTypedReceivers(types);
  builder.addSqlShapedQueries(sqlShaped, types);
  return builder.finish();
});

class AnalysisBuilder {
  private readonly calls = new Map<TSESTree.Node, PostgresCall>();
  private readonly pools: PgPoolSite[] = [];
  private readonly connections = new Map<TSESTree.Node, PgConnection>();
  private readonly seen = new Map<TSESTree.Node, { role: PgRole; library: 'pg' | 'postgres' }>();
  private readonly sqlTags = new Set<TSESTree.Node>();
  private readonly queue: Instance[] = [];

  constructor(private readonly context: AnyRuleContext) {}

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

  addProducer(node: TSESTree.Node, role: Role, library: 'pg' | 'postgres'): void {
    const connection = role === 'client' || role === 'sql-connection' ? node : undefined;
    for (const read of findInstanceReferences(this.context, node)) {
      this.queue.push({ node: read, role, library, connection });
    }
  }

  addBinding(binding: ValueBinding, role: Role, library: 'pg' | 'postgres', producer: TSESTree.Node): void {
    const connection = role === 'client' || role === 'sql-connection' ? producer : undefined;
    for (const read of findBindingReads(binding)) {
      this.queue.push({ node: read, role, library, connection });
      const alias = getValueBinding(this.context, read);
      if (alias) this.addBinding(alias, role, library, producer);
    }
  }

  /** Visits every queued instance (and what visiting them queues). */
  drain(): void {
    for (let instance = this.queue.shift(); instance; instance = this.queue.shift()) {
      if (this.seen.has(instance.node)) continue;
      this.seen.set(instance.node, { role: instance.role, library: instance.library });
      if (instance.connection && !this.connections.has(instance.connection)) {
        this.connections.set(instance.connection, { node: instance.connection, releaseCalls: [] });
      }
      if (instance.library === 'postgres') this.visitSql(instance);
      else this.visitPg(instance);
    }
  }

  /**
   * `x.query('INSERT …')` on a receiver nothing else identified, in a project whose only
   * SQL driver is PostgreSQL's: a call on a connection of its own (calls on the same
   * receiver share it), which keeps transaction checks quiet rather than wrong.
   */
  addSqlShapedQueries(queries: readonly TSESTree.MemberExpression[], types: ClientTypeChecker | undefined): void {
    for (const member of queries) {
      const receiver = member.object;
      if (this.seen.has(receiver) || isKnownNonPgValue(this.context, receiver) || types?.isOtherType(receiver)) continue;
      const connection = getConnectionIdentity(this.context, receiver);
      this.queue.push({ node: receiver, role: 'client', library: 'pg', connection });
      if (!this.connections.has(connection)) this.connections.set(connection, { node: connection, releaseCalls: [] });
    }
    this.drain();
  }

  /**
   * Parameters every caller fills with the same kind of pool or client
   * (`withTransaction(client, work)`, `new Repo(pool)`), a few rounds deep.
   */
  addParameters(): void {
    const filled = new Set<ParameterSlot['variable']>();
    for (let round = 0; round < 3; round++) {
      let added = false;
      for (const node of [...this.seen.keys()]) {
        for (const slot of findFilledSlots(this.context, node)) {
          if (filled.has(slot.variable)) continue;
          const value = this.getSlotValue(slot);
          if (!value) continue;
          filled.add(slot.variable);
          added = true;
          const parameter = slot.variable.defs[0]?.name ?? node;
          const connection = value.role === 'client' || value.role === 'sql-connection' ? parameter : undefined;
          if (connection && !this.connections.has(connection)) this.connections.set(connection, { node: connection, releaseCalls: [] });
          for (const reference of slot.variable.references) {
            if (!reference.isRead()) continue;
            for (const read of findInstanceReferences(this.context, reference.identifier)) {
              this.queue.push({ node: read, role: value.role, library: value.library, connection });
            }
          }
        }
      }
      if (!added) break;
      this.drain();
    }
  }

  /**
   * Receivers that come from a parameter (`client.query(…)`, `this.pool.connect()`,
   * `options.pool[op](…)`, a `sql` tag) whose callers all pass the same kind of pool or
   * client, in this file or, for an exported function or class, in other modules.
   */
  addParameterReceivers(receivers: readonly TSESTree.Node[]): void {
    const judge: ValueJudge<{ role: PgRole; library: 'pg' | 'postgres' }> = {
      valueOf: (node) => this.seen.get(node) ?? this.seen.get(unwrapExpression(node)),
      fromRemote: (value) => (value.database === 'postgres' ? { role: value.role, library: value.library } : undefined),
      same: (a, b) => a.role === b.role && a.library === b.library,
    };
    // Calls on the same parameter (and path) share its connection.
    const connections = new Map<ParameterSlot['variable'], Map<string, TSESTree.Node>>();
    for (const receiver of receivers) {
      if (this.seen.has(receiver)) continue;
      const source = getReceiverParameter(this.context, receiver);
      const value = source && getPassedValue(this.context, source.slot, source.path, judge);
      if (!source || !value) continue;
      let connection: TSESTree.Node | undefined;
      if (value.role === 'client' || value.role === 'sql-connection') {
        const byPath = connections.get(source.slot.variable) ?? new Map<string, TSESTree.Node>();
        connections.set(source.slot.variable, byPath);
        const key = source.path.join('.');
        connection = byPath.get(key) ?? (source.path.length === 0 ? source.slot.variable.defs[0]?.name : undefined) ?? receiver;
        byPath.set(key, connection);
        if (!this.connections.has(connection)) this.connections.set(connection, { node: connection, releaseCalls: [] });
      }
      this.queue.push({ node: receiver, role: value.role, library: value.library, connection });
    }
    this.drain();
  }

  /** The role every caller passes into `slot`, when they agree. */
  private getSlotValue(slot: ParameterSlot): { role: PgRole; library: 'pg' | 'postgres' } | undefined {
    const passed = getSlotArguments(this.context, slot);
    if (!passed) return undefined;
    let value: { role: PgRole; library: 'pg' | 'postgres' } | undefined;
    for (const argument of passed) {
      const next = this.seen.get(argument) ?? this.seen.get(unwrapExpression(argument));
      if (!next || (value && (value.role !== next.role || value.library !== next.library))) return undefined;
      value = next;
    }
    return value;
  }

  /**
   * With typed linting: receivers the imports do not show (`pool` imported from `./db`,
   * a `client` returned by a helper), recognised by their type. Only the receivers of
   * calls with a pg / postgres.js method name, and template tags, are typed.
   */
  addTypedReceivers(types: ClientTypeChecker): void {
    visitEveryNode(this.context.sourceCode.ast, (node) => {
      let receiver: TSESTree.Node | undefined;
      if (node.type === AST_NODE_TYPES.TaggedTemplateExpression) receiver = node.tag;
      else if (node.type === AST_NODE_TYPES.CallExpression) {
        const callee = unwrapExpression(node.callee);
        if (callee.type === AST_NODE_TYPES.MemberExpression && TYPED_METHODS.has(getKeyName(callee) ?? '')) receiver = callee.object;
      }
      if (!receiver || this.seen.has(receiver)) return;
      const declared = types.getDeclaredType(receiver);
      const role = declared && TYPE_ROLES[declared.module]?.[declared.name];
      if (!declared || !role) return;
      const connection = role === 'client' || role === 'sql-connection' ? getConnectionIdentity(this.context, receiver) : undefined;
      this.queue.push({ node: receiver, role, library: declared.module === 'postgres' ? 'postgres' : 'pg', connection });
    });
    this.drain();
  }

  finish(): PostgresAnalysis {
    this.drain();
    // Fragments nested in another query's `${…}` are parts of that query, not queries.
    for (const [node, call] of this.calls) {
      if (node.type === AST_NODE_TYPES.TaggedTemplateExpression && this.isFragment(node)) this.calls.delete(node);
      void call;
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
      values: this.seen,
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
        if (instance.role === 'pool') this.followPoolConnect(method.call);
        return;
      case 'release':
        if (instance.connection) this.connections.get(instance.connection)?.releaseCalls.push(method.call);
        return;
      default:
    }
  }

  /** The client of `pool.connect()`: awaited, from `.then(client => …)`, or the callback's second parameter. */
  private followPoolConnect(call: TSESTree.CallExpression): void {
    const callback = call.arguments[0];
    if (callback && isFunctionNode(callback)) {
      const parameter = callback.params[1];
      if (parameter?.type === AST_NODE_TYPES.Identifier) this.addParameter(callback, parameter, 'client', 'pg');
      return;
    }
    const outer = getOutermostSameValue(call);
    if (outer.parent?.type === AST_NODE_TYPES.AwaitExpression) {
      this.addProducer(outer.parent, 'client', 'pg');
      return;
    }
    const then = getMethodCall(call);
    const thenCallback = then?.name === 'then' ? then.call.arguments[0] : undefined;
    if (thenCallback && isFunctionNode(thenCallback)) {
      const parameter = thenCallback.params[0];
      if (parameter?.type === AST_NODE_TYPES.Identifier) this.addParameter(thenCallback, parameter, 'client', 'pg');
    }
  }

  private addParameter(fn: TSESTree.Node, parameter: TSESTree.Identifier, role: Role, library: 'pg' | 'postgres'): void {
    const variable = this.context.sourceCode.getDeclaredVariables(fn).find((candidate) => candidate.name === parameter.name);
    if (!variable) return;
    for (const reference of variable.references) {
      if (reference.isRead()) this.queue.push({ node: reference.identifier, role, library, connection: parameter });
    }
    if (!this.connections.has(parameter)) this.connections.set(parameter, { node: parameter, releaseCalls: [] });
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
        const parameter = fn?.params[0];
        if (fn && parameter?.type === AST_NODE_TYPES.Identifier) this.addParameter(fn, parameter, 'sql-connection', 'postgres');
        return;
      }
      case 'reserve': {
        const awaited = getOutermostSameValue(method.call).parent;
        if (awaited?.type === AST_NODE_TYPES.AwaitExpression) this.addProducer(awaited, 'sql-connection', 'postgres');
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

/** Methods a receiver that comes from a parameter is asked about (`release` and `file` need a known client first). */
const PARAMETER_METHODS = ['query', 'connect', 'unsafe', 'begin', 'savepoint', 'reserve'];

/** Receivers of pg / postgres.js calls (and `sql` tags) that may come from a parameter. */
function findParameterReceivers(context: AnyRuleContext): TSESTree.Node[] {
  const receivers = findParameterCallReceivers(context, PARAMETER_METHODS);
  // Only postgres.js is called through a tag (`` sql`…` ``); a template's closing backtick matches the text search too.
  if (mayUsePackages(getSourcePath(context), ['postgres'])) receivers.push(...findTemplateTags(context).filter((tag) => mayComeFromParameter(tag)));
  return receivers;
}

/** The tags of tagged templates (`` sql`select …` ``), found by the backtick after a name. */
function findTemplateTags(context: AnyRuleContext): TSESTree.Node[] {
  const offsets = [...context.sourceCode.text.matchAll(/[\w$]\s*`/g)].map((match) => (match.index ?? 0) + match[0].length - 1);
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
    .filter(({ call }) => getSqlStatement(context, call.arguments[0]).keyword !== undefined)
    .map(({ member }) => member);
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
