/**
 * What a value is, as far as MongoDB goes: a driver client, database, collection or
 * session, a Mongoose model, connection, model registry or schema. `other` means "known not
 * to be one of these" (an array, a `Map`, a value annotated with another library's
 * type); `undefined` means "no idea".
 */
export type MongoValueKind = 'client' | 'db' | 'collection' | 'session' | 'model' | 'connection' | 'modelRegistry' | 'schema';
export type KnownKind = MongoValueKind | 'other';

