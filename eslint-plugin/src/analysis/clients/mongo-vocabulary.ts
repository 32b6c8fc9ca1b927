import { ASTUtils } from '@typescript-eslint/utils';
import type { TraceMap } from '../modules';
import type { DbValue } from './db-value';
import type { CallbackParameter, DbVocabulary } from './db-vocabulary';
import type { MongoValueKind } from './mongo-kinds';

/** MongoDB's vocabulary for the value analysis: the driver (`mongodb`) and Mongoose. */

const { CALL, CONSTRUCT, READ, ESM } = ASTUtils.ReferenceTracker;

const mongo = (kind: MongoValueKind): DbValue => ({ database: 'mongodb', kind });

export const MONGO_MODULES = ['mongodb', 'mongoose'];

/** Libraries whose presence makes `updateMany(…, { $set })` evidence unreliable. */
export const LOOK_ALIKE_MODULES = /^(?:typeorm|sequelize|sequelize-typescript|@prisma\/client|@reduxjs\/toolkit|@mikro-orm\/.*)$/;

/** Packages whose databases also answer `db.collection(name)`. */
export const OTHER_COLLECTION_MODULES = ['firebase', 'firebase-admin', '@google-cloud/firestore', '@firebase/firestore', 'arangojs', 'couchbase', 'nedb', '@seald-io/nedb', 'tingodb', 'mongo-mock', 'mingo'];

const mongodbApi = {
  MongoClient: { [CONSTRUCT]: mongo('client'), connect: { [CALL]: mongo('client') } },
};
const mongooseApi = {
  model: { [CALL]: mongo('model') },
  Schema: { [CONSTRUCT]: mongo('schema') },
  createConnection: { [CALL]: mongo('connection') },
  connection: { [READ]: mongo('connection') },
  models: { [READ]: mongo('modelRegistry') },
  startSession: { [CALL]: mongo('session') },
};

const mongodbTypes = { Collection: mongo('collection'), Db: mongo('db'), MongoClient: mongo('client'), ClientSession: mongo('session') };
const mongooseTypes = { Model: mongo('model'), Connection: mongo('connection'), ClientSession: mongo('session') };

const session: CallbackParameter = { argument: 'any', parameter: 0, value: mongo('session') };
/** Callbacks whose first parameter is a session (`client.withSession(async (session) => …)`). */
const sessionCallbacks = { withSession: session, withTransaction: session, transaction: session };

export const MONGO_VOCABULARY: DbVocabulary = {
  modules: MONGO_MODULES,
  seeds: {
    mongodb: { [ESM]: true, ...mongodbApi, default: mongodbApi },
    mongoose: { [ESM]: true, ...mongooseApi, default: mongooseApi },
  } as unknown as TraceMap<DbValue>,
  typeNames: { mongodb: mongodbTypes, mongoose: mongooseTypes },
  declaredTypes: {
    mongodb: mongodbTypes,
    mongoose: { ...mongooseTypes, Collection: mongo('collection') },
  },
  methodResults: {
    'mongodb:client': { db: mongo('db'), connect: mongo('client'), startSession: mongo('session') },
    'mongodb:db': { collection: mongo('collection'), createCollection: mongo('collection') },
    'mongodb:connection': { collection: mongo('collection'), model: mongo('model'), startSession: mongo('session'), asPromise: mongo('connection'), useDb: mongo('connection') },
  },
  propertyResults: {
    'mongodb:connection': { db: mongo('db'), client: mongo('client'), models: mongo('modelRegistry') },
    'mongodb:model': { collection: mongo('collection'), db: mongo('connection') },
  },
  anyPropertyResults: { 'mongodb:modelRegistry': mongo('model') },
  callbackParameters: {
    'mongodb:client': sessionCallbacks,
    'mongodb:session': sessionCallbacks,
    'mongodb:connection': sessionCallbacks,
  },
};
