// Generated database programs: MongoDB, Mongoose, DynamoDB (SDK v3, document client, v2),
// node-postgres and postgres.js calls, wrapped in the retry shapes the rules know (loops,
// recursion, `.catch` retries, p-retry, async-retry, transactions) with waits, error checks
// and idempotency keys written every which way. The same pieces, as self-contained
// snippets, are spliced into other programs (eslump's, the examples, the rule tests).
import fc from 'fast-check';
import { type GeneratedUri, settingsArb, uriArb } from './connection-strings';
import { engineArb, toCodeLiteral } from './documents';
import type { FuzzInput } from './input';
import type { ParserName, SourceType } from './lint';

/** A database library as programs use it: how it is imported, how its clients are made, which calls reach it. */
interface World {
  esm: string;
  cjs: string;
  setup: string;
  calls: readonly string[];
}

const WORLDS = {
  mongodb: {
    esm: "import { MongoClient, ObjectId, MongoServerError } from 'mongodb';",
    cjs: "const { MongoClient, ObjectId, MongoServerError } = require('mongodb');",
    setup: "const client = new MongoClient(MONGO_URI);\nconst orders = client.db('shop').collection('orders');\nconst session = client.startSession();",
    calls: [
      'orders.insertOne({ total: 1 })',
      'orders.insertOne({ _id: new ObjectId(), total: 1 })',
      'orders.insertOne(doc)',
      'orders.insertMany(docs)',
      'orders.insertMany([{ a: 1 }, { a: 2 }], { ordered: false })',
      "orders.updateMany({ status: 'cart' }, { $set: { status: 'expired' } })",
      'orders.updateMany({}, { $inc: { n: 1 } })',
      "orders.updateMany({}, [{ $set: { at: '$$NOW' } }])",
      'orders.deleteMany({ expired: true })',
      'orders.bulkWrite([{ updateMany: { filter: {}, update: { $set: { a: 1 } } } }, { insertOne: { document: { a: 1 } } }])',
      'orders.updateOne({ _id: id }, { $set: { a: 1 } }, { upsert: true })',
      'orders.findOneAndUpdate({ _id: id }, { $inc: { n: 1 } })',
      'orders.findOneAndUpdate({ _id: id }, { $set: { a: 1 } }, { projection: { _id: 1 } })',
      'orders.findOneAndDelete({ _id: id })',
      'orders.replaceOne({ _id: id }, doc)',
      'orders.findOne({ _id: id })',
      "client.db().collection('events').insertOne({ at: new Date() })",
    ],
  },
  mongoose: {
    esm: "import mongoose from 'mongoose';",
    cjs: "const mongoose = require('mongoose');",
    setup: "await mongoose.connect(MONGO_URI);\nconst Order = mongoose.model('Order', new mongoose.Schema({ total: Number }));",
    calls: ['Order.create({ total: 1 })', 'Order.updateMany({}, { $set: { a: 1 } })', 'Order.insertMany([{ total: 1 }])', 'Order.deleteMany({})', 'new Order({ total: 2 }).save()'],
  },
  dynamodb: {
    esm: "import { DynamoDBClient, PutItemCommand, BatchWriteItemCommand, TransactWriteItemsCommand, BatchGetItemCommand, UpdateItemCommand } from '@aws-sdk/client-dynamodb';",
    cjs: "const { DynamoDBClient, PutItemCommand, BatchWriteItemCommand, TransactWriteItemsCommand, BatchGetItemCommand, UpdateItemCommand } = require('@aws-sdk/client-dynamodb');",
    setup: "const ddb = new DynamoDBClient({ region: 'eu-west-1'DDB_OPTIONS });",
    calls: [
      "ddb.send(new PutItemCommand({ TableName: 'orders', Item: item }))",
      "ddb.send(new PutItemCommand({ TableName: 'orders', Item: item, ConditionExpression: 'attribute_not_exists(pk)' }))",
      'ddb.send(new BatchWriteItemCommand({ RequestItems: { orders: items } }))',
      'ddb.send(new TransactWriteItemsCommand({ TransactItems: items, ClientRequestToken: token }))',
      'ddb.send(new TransactWriteItemsCommand({ TransactItems: items }))',
      'ddb.send(new BatchGetItemCommand({ RequestItems: { orders: { Keys: keys } } }))',
      "ddb.send(new UpdateItemCommand({ TableName: 'orders', Key: key, UpdateExpression: 'ADD n :one' }))",
    ],
  },
  documentClient: {
    esm: "import { DynamoDBClient } from '@aws-sdk/client-dynamodb';\nimport { DynamoDBDocumentClient, PutCommand, BatchWriteCommand } from '@aws-sdk/lib-dynamodb';",
    cjs: "const { DynamoDBClient } = require('@aws-sdk/client-dynamodb');\nconst { DynamoDBDocumentClient, PutCommand, BatchWriteCommand } = require('@aws-sdk/lib-dynamodb');",
    setup: 'const documents = DynamoDBDocumentClient.from(new DynamoDBClient({ maxAttempts: 1 }));',
    calls: ["documents.send(new PutCommand({ TableName: 'orders', Item: item }))", 'documents.send(new BatchWriteCommand({ RequestItems: { orders: items } }))'],
  },
  awsV2: {
    esm: "import AWS from 'aws-sdk';",
    cjs: "const AWS = require('aws-sdk');",
    setup: 'const dynamo = new AWS.DynamoDB.DocumentClient({ maxRetries: 0 });',
    calls: ["dynamo.put({ TableName: 'orders', Item: item }).promise()", 'dynamo.batchWrite({ RequestItems: { orders: items } }).promise()'],
  },
  pg: {
    esm: "import { Pool } from 'pg';",
    cjs: "const { Pool } = require('pg');",
    setup: 'const pool = new Pool({ connectionString: process.env.DATABASE_URL });PG_LISTENER',
    calls: ["pool.query('INSERT INTO orders (id, total) VALUES ($1, $2)', [id, 1])", "pool.query('SELECT 1')", "pool.query('UPDATE orders SET n = n + 1')", 'pool.connect()'],
  },
  postgres: {
    esm: "import postgres from 'postgres';",
    cjs: "const postgres = require('postgres');",
    setup: 'const sql = postgres(process.env.DATABASE_URL);',
    calls: ['sql`INSERT INTO orders ${sql(order)}`', 'sql`SELECT 1`', 'sql.begin(async (tx) => tx`UPDATE orders SET n = n + 1`)'],
  },
} satisfies Record<string, World>;

export type WorldName = keyof typeof WORLDS;
const WORLD_NAMES = Object.keys(WORLDS) as WorldName[];

const HELPERS_ESM = "import { randomUUID } from 'node:crypto';\nimport pRetry from 'p-retry';\nimport retry from 'async-retry';";
const HELPERS_CJS = "const { randomUUID } = require('node:crypto');\nconst pRetry = require('p-retry');\nconst retry = require('async-retry');";
const HELPER_FUNCTIONS = 'const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));\nconst isTransient = (err) => err?.code === 40001;';

const DELAYS = [
  '100', '1000', '5000', '0', '-1', 'NaN', '2 ** 1000', 'delay', '1000 * attempt', '100 * 2 ** attempt', 'Math.min(20000, 100 * 2 ** attempt)',
  'Math.random() * Math.min(20000, 100 * 2 ** attempt)', 'Math.min(60000, 5000 * 2 ** attempt) + Math.random() * 1000', '(delay *= 2)',
  'Math.min(10000, 100 * Math.pow(2, attempt)) * (0.5 + Math.random())',
];
const delayArb = fc.constantFrom(...DELAYS);
const waitArb = fc.oneof(
  delayArb.map((delay) => `await sleep(${delay});`),
  delayArb.map((delay) => `await new Promise((resolve) => setTimeout(resolve, ${delay}));`),
  fc.constant(''),
);
const ERROR_CHECKS = [
  'if (err.code === 11000) throw err;',
  "if (err.name === 'ConditionalCheckFailedException') throw err;",
  "if (err.code === '23505') return;",
  'if (!isTransient(err)) throw err;',
  "if (err instanceof MongoServerError && err.hasErrorLabel('RetryableWriteError')) continue;",
  "if (err.code !== '40001') throw err;",
  "if (err?.name === 'ProvisionedThroughputExceededException') { await sleep(50); }",
  '',
];
const LIMITS = ['3', '5', 'MAX_ATTEMPTS', 'Infinity', '1e9'];
const limitArb = fc.constantFrom(...LIMITS);
const endArb = fc.constantFrom('continue;', '', 'throw err;', 'if (attempt >= 3) throw err;', 'console.error(err);', 'return undefined;');

const catchBodyArb = fc.tuple(fc.constantFrom(...ERROR_CHECKS), waitArb, endArb).map((parts) => parts.filter(Boolean).join(' '));

/** Statements that call a database (awaited, assigned, returned, thrown away). */
function callStatementArb(calls: readonly string[]): fc.Arbitrary<string> {
  return fc.tuple(fc.constantFrom(...calls), fc.constantFrom('await', 'await', 'const', 'return', 'bare', 'then', 'unprocessed')).map(([call, form]) => {
    switch (form) {
      case 'await':
        return `await ${call};`;
      case 'const':
        return `{\n  const result = await ${call};\n}`;
      case 'return':
        return `return await ${call};`;
      case 'then':
        return `${call}.then(() => undefined, () => undefined);`;
      case 'unprocessed':
        return `{\n  const { UnprocessedItems } = await ${call};\n  if (UnprocessedItems && Object.keys(UnprocessedItems).length) await ${call};\n}`;
      default:
        return `${call};`;
    }
  });
}

const LOOP_SHAPES = new Set(['for', 'while', 'do', 'for-of', 'key-inside', 'key-outside']);

/** A retry shape (or none) around `body`, in a block of its own (its declarations stay inside). */
function retryShapeArb(body: fc.Arbitrary<string>): fc.Arbitrary<string> {
  return fc
    .record({ shape: fc.constantFrom('for', 'while', 'do', 'recursion', 'catch', 'p-retry', 'async-retry', 'try', 'for-of', 'key-inside', 'key-outside'), body, catchBody: catchBodyArb, limit: limitArb, delay: delayArb })
    .map(({ shape, body, catchBody, limit, delay }) => {
      // `continue` only where a loop is.
      const caught = LOOP_SHAPES.has(shape) ? catchBody : catchBody.replace(/\bcontinue;/g, 'return;');
      return `{\n${shapeAround(shape, body, caught, limit, delay)}\n}`;
    });
}

function shapeAround(shape: string, body: string, catchBody: string, limit: string, delay: string): string {
  switch (shape) {
    case 'for':
      return `for (let attempt = 0; attempt < ${limit}; attempt++) {\n  try {\n    ${body}\n    return;\n  } catch (err) {\n    ${catchBody}\n  }\n}`;
    case 'while':
      return `let attempt = 0;\nlet delay = 100;\nwhile (true) {\n  try {\n    ${body}\n    break;\n  } catch (err) {\n    attempt++;\n    ${catchBody}\n  }\n}`;
    case 'do':
      return `let attempt = 0;\nlet done = false;\ndo {\n  try {\n    ${body}\n    done = true;\n  } catch (err) {\n    ${catchBody}\n  }\n} while (!done && ++attempt < ${limit});`;
    case 'recursion':
      return `const again = async (attempt = 0) => {\n  try {\n    ${body}\n  } catch (err) {\n    ${catchBody}\n    return again(attempt + 1);\n  }\n};\nawait again();`;
    case 'catch':
      return `const run = async () => {\n  ${body}\n};\nawait run().catch(() => run());`;
    case 'p-retry':
      return `await pRetry(async () => {\n  ${body}\n}, { retries: ${limit}, minTimeout: ${delay}, factor: 2, randomize: ${delay.includes('random')} });`;
    case 'async-retry':
      return `await retry(async (bail) => {\n  ${body}\n}, { retries: ${limit}, minTimeout: 0 });`;
    case 'for-of':
      return `for (const delay of [100, 200, 400]) {\n  try {\n    ${body}\n    break;\n  } catch (err) {\n    ${catchBody.replace(/\battempt\b/g, 'delay')}\n  }\n}`;
    case 'key-inside':
      return `for (let attempt = 0; attempt < ${limit}; attempt++) {\n  const token = randomUUID();\n  const id = randomUUID();\n  try {\n    ${body}\n    return;\n  } catch (err) {\n    ${catchBody}\n  }\n}`;
    case 'key-outside':
      return `const token = randomUUID();\nconst id = randomUUID();\nfor (let attempt = 0; attempt < ${limit}; attempt++) {\n  try {\n    ${body}\n    return;\n  } catch (err) {\n    ${catchBody}\n  }\n}`;
    default:
      return `try {\n  ${body}\n} catch (err) {\n  ${catchBody}\n}`;
  }
}

/** Transactions around a body: MongoDB sessions, node-postgres BEGIN … COMMIT, postgres.js `begin`. */
function transactionArb(body: fc.Arbitrary<string>): fc.Arbitrary<string> {
  return fc.tuple(fc.constantFrom('mongo', 'pg', 'postgres'), body).map(([kind, inner]) => {
    if (kind === 'mongo') return `await session.withTransaction(async () => {\n  ${inner}\n});`;
    if (kind === 'postgres') return `await sql.begin(async (tx) => {\n  ${inner}\n});`;
    return `{\nconst c = await pool.connect();\ntry {\n  await c.query('BEGIN');\n  ${inner.replace(/\bpool\.query/g, 'c.query')}\n  await c.query('COMMIT');\n} catch (e) {\n  await c.query('ROLLBACK');\n  throw e;\n} finally {\n  c.release();\n}\n}`;
  });
}

/** Statements over the calls of `worlds`, nested up to `depth` shapes deep. */
function statementsArb(calls: readonly string[], depth: number): fc.Arbitrary<string> {
  const call = callStatementArb(calls);
  if (depth === 0) return fc.array(call, { minLength: 1, maxLength: 2 }).map((lines) => lines.join('\n'));
  const inner = statementsArb(calls, depth - 1);
  return fc
    .array(fc.oneof({ weight: 3, arbitrary: call }, { weight: 4, arbitrary: retryShapeArb(inner) }, { weight: 1, arbitrary: transactionArb(inner) }), { minLength: 1, maxLength: 3 })
    .map((lines) => lines.join('\n'));
}

const FUNCTION_FORMS = ['function', 'arrow', 'method', 'top-level'] as const;

function wrapFunction(form: (typeof FUNCTION_FORMS)[number], name: string, body: string, typed: boolean): string {
  const params = typed ? 'doc: Order, docs: Order[], id: string, item: Record<string, unknown>, items: unknown[], keys: unknown[], key: unknown, order: Order' : 'doc, docs, id, item, items, keys, key, order';
  const indented = body.replace(/\n/g, '\n  ');
  switch (form) {
    case 'arrow':
      return `export const ${name} = async (${params}) => {\n  ${indented}\n};`;
    case 'method':
      return `export class ${name[0]!.toUpperCase()}${name.slice(1)}Repository {\n  async run(${params}) {\n    ${indented.replace(/\n/g, '\n  ')}\n  }\n}`;
    case 'top-level':
      // A module's top level: no `return` there.
      return `{\n  const doc = {}, docs = [], id = 'x', item = {}, items = [], keys = [], key = {}, order = {};\n  ${indented.replace(/\breturn;/g, ';').replace(/\breturn /g, 'void ')}\n}`;
    default:
      return `export async function ${name}(${params}) {\n  ${indented}\n}`;
  }
}

/** The imports and client setup of `worlds`, with a connection string for MongoDB. */
function preamble(worlds: readonly WorldName[], commonJs: boolean, uriLiteral: string, ddbOptions: string, pgListener: boolean, typed: boolean): string {
  const lines = [commonJs ? HELPERS_CJS : HELPERS_ESM, ...worlds.map((name) => (commonJs ? WORLDS[name].cjs : WORLDS[name].esm))];
  if (typed) lines.push('interface Order { _id?: unknown; total: number }');
  lines.push(`const MONGO_URI = ${uriLiteral};`, 'const MAX_ATTEMPTS = 4;', HELPER_FUNCTIONS);
  for (const name of worlds) {
    let setup: string = WORLDS[name].setup.replace('DDB_OPTIONS', ddbOptions).replace('PG_LISTENER', pgListener ? "\npool.on('error', (err) => console.error(err));" : '');
    if (commonJs) setup = setup.replace(/^await /gm, '');
    lines.push(setup);
  }
  return `${lines.join('\n')}\n`;
}

const programFileArb = fc.constantFrom(
  { filename: 'src/service.ts', parser: 'typescript' as ParserName, sourceType: 'module' as SourceType },
  { filename: 'src/service.mts', parser: 'typescript' as ParserName, sourceType: 'module' as SourceType },
  { filename: 'src/service.tsx', parser: 'typescript' as ParserName, sourceType: 'module' as SourceType },
  { filename: 'src/service.js', parser: 'espree' as ParserName, sourceType: 'module' as SourceType },
  { filename: 'src/service.js', parser: 'typescript' as ParserName, sourceType: 'module' as SourceType },
  { filename: 'src/service.mjs', parser: 'espree' as ParserName, sourceType: 'module' as SourceType },
  { filename: 'src/service.jsx', parser: 'espree' as ParserName, sourceType: 'module' as SourceType },
  { filename: 'src/service.cjs', parser: 'espree' as ParserName, sourceType: 'commonjs' as SourceType },
  { filename: 'src/service.cts', parser: 'typescript' as ParserName, sourceType: 'commonjs' as SourceType },
);

const uriLiteralArb: fc.Arbitrary<{ literal: string; uri: GeneratedUri | undefined }> = fc.oneof(
  { weight: 1, arbitrary: fc.constant({ literal: 'process.env.MONGO_URL', uri: undefined }) },
  { weight: 2, arbitrary: fc.tuple(uriArb, fc.constantFrom<"'" | '"' | '`'>("'", '"', '`')).map(([uri, quote]) => ({ literal: toCodeLiteral(uri.uri, quote, uri.templates), uri })) },
);

/** Worlds, their calls and a program body over them. */
const worldsArb = fc.subarray(WORLD_NAMES, { minLength: 1, maxLength: 3 });

export const programArb: fc.Arbitrary<FuzzInput> = fc
  .record({
    file: programFileArb,
    worlds: worldsArb,
    uri: uriLiteralArb,
    ddbOptions: fc.constantFrom('', ', maxAttempts: 1', ', maxAttempts: 5', ', maxRetries: 0', ', maxAttempts: 0'),
    pgListener: fc.boolean(),
    settings: settingsArb,
    engine: engineArb,
  })
  .chain(({ worlds, ...rest }) => {
    const calls = worlds.flatMap((name) => WORLDS[name].calls);
    const functionArb = fc.tuple(fc.constantFrom(...FUNCTION_FORMS), fc.constantFrom('save', 'place', 'expire', 'sync', 'record'), statementsArb(calls, 2));
    return fc.record({ functions: fc.array(functionArb, { minLength: 1, maxLength: 2 }), worlds: fc.constant(worlds), rest: fc.constant(rest) });
  })
  .map(({ functions, worlds, rest }) => {
    const { file, uri, ddbOptions, pgListener, settings, engine } = rest;
    const typed = /\.[cm]?tsx?$/.test(file.filename);
    const commonJs = file.sourceType === 'commonjs';
    const body = functions.map(([form, name, statements], index) => wrapFunction(commonJs && form === 'top-level' ? 'function' : form, `${name}${index}`, statements, typed));
    let text = preamble(worlds, commonJs, uri.literal, ddbOptions, pgListener, typed) + body.join('\n\n');
    if (commonJs) text = text.replace(/^export (default )?/gm, '');
    return {
      family: 'program',
      ...file,
      text: `${text}\n`,
      settings: settings.settings,
      engine,
      secrets: [...(uri.uri?.secrets ?? []), ...settings.secrets],
      passwords: uri.uri?.password === undefined ? [] : [uri.uri.password],
      templates: uri.uri?.templates ?? [],
      uris: [],
      origin: `program: ${worlds.join(', ')}`,
    } satisfies FuzzInput;
  });

/** A self-contained piece of database code to splice into another program. */
export interface Snippet {
  /** `import` lines (ES modules) and `require` lines (scripts) it needs at the top. */
  esm: string;
  cjs: string;
  /** Declarations after the imports (clients, helpers). */
  setup: string;
  /** A statement that can stand anywhere a statement can: an async function declaration, or a plain call. */
  statement: string;
  secrets: string[];
  passwords: string[];
  templates: string[];
}

export const snippetArb: fc.Arbitrary<Snippet> = fc
  .record({ worlds: worldsArb, uri: uriLiteralArb, bare: fc.boolean() })
  .chain(({ worlds, uri, bare }) => {
    const calls = worlds.flatMap((name) => WORLDS[name].calls);
    const statementArb = bare ? fc.constantFrom(...calls).map((call) => `${call};`) : statementsArb(calls, 1).map((body) => `async function retrySafetyFuzz(doc, docs, id, item, items, keys, key, order) {\n${body}\n}`);
    return statementArb.map((statement) => ({
      esm: [HELPERS_ESM, ...worlds.map((name) => WORLDS[name].esm)].join('\n'),
      cjs: [HELPERS_CJS, ...worlds.map((name) => WORLDS[name].cjs)].join('\n'),
      setup: [`const MONGO_URI = ${uri.literal};`, 'const MAX_ATTEMPTS = 4;', HELPER_FUNCTIONS, ...worlds.map((name) => WORLDS[name].setup.replace('DDB_OPTIONS', '').replace('PG_LISTENER', '').replace(/^await /gm, ''))].join('\n'),
      statement,
      secrets: uri.uri?.secrets ?? [],
      passwords: uri.uri?.password === undefined ? [] : [uri.uri.password],
      templates: uri.uri?.templates ?? [],
    }));
  });
