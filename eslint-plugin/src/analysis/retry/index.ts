export { getRetryDelayFacts } from './between-attempts';
export { collectAssignedNames, collectIdentifierNames, walkOwnCode } from './code-walk';
export { alwaysLeaves } from './control-flow';
export type { RetryDelayFacts } from './delay-facts';
export { findKeyCreations, isKeyLikeName, type KeyCreation } from './idempotency-keys';
export { getFunctionName } from './local-functions';
export type { RetryHandler, RetryScope } from './retry-scope';
export { findDatabaseRetryScopes, findEnclosingRetryScopes } from './retry-scopes';
export { SERVICE_BACKOFF, SUGGESTED_MAX_ATTEMPTS, type ServiceBackoff } from './service-backoff';
