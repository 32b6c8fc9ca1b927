import type { TraceMap } from '../modules';
import type { DbValue } from './db-value';

/**
 * What one database's libraries teach the value analysis (db-values.ts): where values are
 * made, which type names declare them, and which methods, properties and callback
 * parameters lead from one value to another. Data only: the walk is the same for all.
 */
export interface DbVocabulary {
  /** Packages whose `import` / `require` make values (`mongodb`, `pg`, `aws-sdk`, …). */
  modules: readonly string[];
  /** Module references that make a value (`new MongoClient()`, `mongoose.model()`, `new Pool()`). */
  seeds: TraceMap<DbValue>;
  /** Type names in annotations, per module, by export path (`Collection`, `DynamoDB.DocumentClient`, `''` for the module itself). */
  typeNames: Readonly<Record<string, Readonly<Record<string, DbValue>>>>;
  /** With typed linting: the declared type's package and symbol name → the value. */
  declaredTypes: Readonly<Record<string, Readonly<Record<string, DbValue>>>>;
  /** Methods whose result is another value, per value key (`client.db()` → db). */
  methodResults: Readonly<Record<string, Readonly<Record<string, DbValue>>>>;
  /** Properties that lead from a value to another, per value key (`mongoose.connection.db`). */
  propertyResults: Readonly<Record<string, Readonly<Record<string, DbValue>>>>;
  /** Any property of such a value, per value key (`mongoose.models.Job` → model). */
  anyPropertyResults: Readonly<Record<string, DbValue>>;
  /** Callbacks whose parameter is a value, per receiver value key and method (`client.withSession(async (session) => …)`). */
  callbackParameters: Readonly<Record<string, Readonly<Record<string, CallbackParameter>>>>;
  /** Methods whose awaited result is a connection of its own, per receiver value key (`await pool.connect()`, `await sql.reserve()`). */
  connectionMethods?: Readonly<Record<string, readonly string[]>>;
}

export interface CallbackParameter {
  /** Which argument the callback is: any, or the last one (`sql.begin([options,] async (sql) => …)`). */
  argument: 'any' | 'first' | 'last';
  /** Which of the callback's parameters holds the value. */
  parameter: number;
  value: DbValue;
  /** The parameter is a connection of its own (`sql.begin`, `pool.connect(cb)`). */
  connection?: boolean;
}

/** One key per value (`mongodb:collection`, `postgres:pg:client`, `dynamodb:v2-client`), for the tables above. */
export function getValueKey(value: DbValue): string {
  if (value.database === 'postgres') return `postgres:${value.library}:${value.role}`;
  return `${value.database}:${value.kind}`;
}
