export { type ConnectionStringProblem, type ConnectionStringProblemKind, type ConnectionStringScanOptions, describeHostKind, getConnectionStringProblem, getHostKind, getHostNameKind, getMaskedHost, getMaskedUri, getRetryWritesValue, type HostKind, isConnectionStringParseable, isDocumentDbCaFile } from './problems';
export { type ConnectionStringToken, findConnectionStringTokens, type TextEdit } from './scan';
export { isRetryableWritesEngine } from './engine-version';
export { maskSecrets } from './mask';
export { getRetrySafetySettings } from './settings';
export { chooseEngineVersion, type EngineVersionChoice, type StatedEngineVersion } from './stated-versions';
export { type EngineVersion } from './engine-version';
