export { type ConnectionStringProblem, type ConnectionStringProblemKind, type ConnectionStringScanOptions, describeHostKind, getConnectionStringProblem, getHostKind, getHostNameKind, getMaskedHost, getMaskedUri, getRetryWritesValue, type HostKind, isConnectionStringParseable, isDocumentDbCaFile } from './problems';
export { type ConnectionStringToken, findConnectionStringTokens, type TextEdit } from './scan';
export { isRetryableWritesEngine } from './engine-version';
export { maskSecrets } from './mask';
export { getRetrySafetySettings } from './settings';
