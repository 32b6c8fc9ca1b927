// The labelled real-code set: which installed npm packages are scored by
// `npm run bench:quality`, and which of their files. Labels are in labels.json.
//
// - `source`: 'quality' — a pinned devDependency of bench/quality/package.json;
//   'corpus' — reused from the benchmark corpus (bench/corpus/package.json).
// - `include`: files or folders inside the package (one build only where a package
//   ships the same code as ESM and CJS).
// - `database`: the database its code talks to ('mongodb' | 'dynamodb' | 'postgresql'),
//   or 'look-alike' for code of another database or ORM whose method names look like
//   a driver's (mysql2, Prisma, knex).
// - `why`: why it is in the set.
export const qualityPackages = [
  // MongoDB / Mongoose
  {
    name: '@better-auth/mongo-adapter',
    source: 'quality',
    database: 'mongodb',
    include: ['dist/index.mjs'],
    why: 'auth adapter; the Db and client are passed in by the application (parameter shape)',
  },
  {
    name: '@clipboard-health/mongo-jobs',
    source: 'quality',
    database: 'mongodb',
    include: ['src'],
    why: 'job queue; a Mongoose model is created in one module and constructor-injected into a repository',
  },
  {
    name: '@pulsecron/pulse',
    source: 'quality',
    database: 'mongodb',
    include: ['dist'],
    why: 'job scheduler; the collection is assigned to `this._collection` in one module and used by methods defined in other modules',
  },
  {
    name: '@sidequest/mongo-backend',
    source: 'quality',
    database: 'mongodb',
    include: ['dist/mongo-backend.js', 'dist/utils.js'],
    why: 'job queue backend; collections made in the same file from a MongoClient (control for the same-file shape)',
  },
  {
    name: '@shopify/shopify-app-session-storage-mongodb',
    source: 'quality',
    database: 'mongodb',
    include: ['src'],
    why: 'session store (TypeScript sources); the collection comes from a private getter',
  },
  {
    name: '@socket.io/mongo-adapter',
    source: 'quality',
    database: 'mongodb',
    include: ['dist'],
    why: 'Socket.IO adapter; the collection is passed in by the application',
  },
  {
    name: 'casbin-mongodb-adapter',
    source: 'quality',
    database: 'mongodb',
    include: ['build/main'],
    why: 'authorization adapter; the collection comes from a `getCollection()` method',
  },
  {
    name: 'casbin-mongoose-adapter',
    source: 'quality',
    database: 'mongodb',
    include: ['src'],
    why: 'authorization adapter (TypeScript sources); a Mongoose model kept in a class field, optional transactions',
  },
  {
    name: 'migrate-mongoose',
    source: 'quality',
    database: 'mongodb',
    include: ['src'],
    why: 'migration tool; the Mongoose model is made by a factory in its own module (`require(\'./db\')`)',
  },
  {
    name: 'ts-migrate-mongoose',
    source: 'quality',
    database: 'mongodb',
    include: ['dist/index.mjs'],
    why: 'migration tool; the Mongoose model comes from a helper function and is kept in a class field',
  },
  {
    name: 'mongodb-queue-up',
    source: 'quality',
    database: 'mongodb',
    include: ['mongodb-queue.js'],
    why: 'message queue; the Db is passed to the constructor, calls are hidden behind small callbackified wrappers',
  },
  {
    name: '@agendajs/mongo-backend',
    source: 'corpus',
    database: 'mongodb',
    include: ['dist'],
    why: 'job scheduler backend from the benchmark corpus: same-file collections and a Db passed to a logger',
  },
  {
    name: 'migrate-mongo',
    source: 'corpus',
    database: 'mongodb',
    include: ['lib'],
    why: 'migration tool from the benchmark corpus; the Db is a function parameter everywhere',
  },
  {
    name: 'connect-mongo',
    source: 'corpus',
    database: 'mongodb',
    include: ['dist/index.mjs'],
    why: 'session store from the benchmark corpus; the collection arrives through a promise callback',
  },
  {
    name: 'parse-server',
    source: 'corpus',
    database: 'mongodb',
    include: ['lib/Adapters/Storage/Mongo'],
    why: 'application server from the benchmark corpus, its MongoDB storage adapter only',
  },
  // DynamoDB
  {
    name: 'launchdarkly-node-server-sdk-dynamodb',
    source: 'quality',
    database: 'dynamodb',
    include: ['index.js', 'dynamodb_feature_store.js', 'dynamodb_big_segment_store.js', 'dynamodb_helpers.js'],
    why: 'feature store (SDK v2 DocumentClient); the client is made in a helper module or passed in, batch writes go through a helper',
  },
  {
    name: '@rwai/langgraphjs-checkpoint-dynamodb',
    source: 'quality',
    database: 'dynamodb',
    include: ['dist/esm'],
    why: 'checkpoint store (SDK v3 DynamoDBDocument kept in a class field)',
  },
  {
    name: 'serverless-dynamodb-seed',
    source: 'quality',
    database: 'dynamodb',
    include: ['index.js'],
    why: 'seeding plugin; the SDK v2 DocumentClient comes from a lazy getter',
  },
  {
    name: '@nasa-gcn/dynamodb-autoincrement',
    source: 'quality',
    database: 'dynamodb',
    include: ['index.js'],
    why: 'optimistic-locking counter; the document client is passed in (props.doc)',
  },
  {
    name: 'copy-dynamodb-table',
    source: 'quality',
    database: 'dynamodb',
    include: ['index.js', 'validate.js', 'error.js'],
    why: 'table copy tool that does handle UnprocessedItems (look-alike for the batch rule)',
  },
  {
    name: '@keyv/dynamo',
    source: 'corpus',
    database: 'dynamodb',
    include: ['dist/index.js'],
    why: 'cache store from the benchmark corpus (SDK v3 DynamoDBDocument in a class field)',
  },
  // PostgreSQL
  {
    name: '@shopify/shopify-app-session-storage-postgresql',
    source: 'quality',
    database: 'postgresql',
    include: ['src'],
    why: 'session store (TypeScript sources); a pg Pool kept in a class field, a connection class used by other modules',
  },
  {
    name: '@socket.io/postgres-adapter',
    source: 'quality',
    database: 'postgresql',
    include: ['dist'],
    why: 'Socket.IO adapter; the pg Pool is passed in by the application',
  },
  {
    name: '@modelcontextprotocol/server-postgres',
    source: 'quality',
    database: 'postgresql',
    include: ['dist'],
    why: 'small application (an MCP server) with a module-level pg Pool',
  },
  {
    name: '@keyv/postgres',
    source: 'corpus',
    database: 'postgresql',
    include: ['dist/index.js'],
    why: 'cache store from the benchmark corpus',
  },
  // Look-alikes: other databases and ORMs whose calls must stay silent
  {
    name: '@shopify/shopify-app-session-storage-mysql',
    source: 'quality',
    database: 'look-alike',
    include: ['src'],
    why: 'mysql2 pool with `query()` / `BEGIN` look-alikes',
  },
  {
    name: 'express-mysql-session',
    source: 'quality',
    database: 'look-alike',
    include: ['index.js'],
    why: 'mysql2 session store: `DELETE` queries, a pool, callbacks',
  },
  {
    name: '@lucia-auth/adapter-mysql',
    source: 'quality',
    database: 'look-alike',
    include: ['dist'],
    why: 'mysql2 and PlanetScale drivers: `execute()` / `query()` with SQL text',
  },
  {
    name: '@lucia-auth/adapter-prisma',
    source: 'quality',
    database: 'look-alike',
    include: ['dist'],
    why: 'Prisma `deleteMany` / `create` look-alikes',
  },
  {
    name: '@sidequest/postgres-backend',
    source: 'quality',
    database: 'look-alike',
    include: ['dist/postgres-backend.js', 'migrations'],
    why: 'knex on PostgreSQL: `del()`, `insert()`, `update()`, transactions through knex',
  },
];
