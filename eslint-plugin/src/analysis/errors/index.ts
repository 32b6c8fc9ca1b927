export { classifyRetryScope, retriesOutcomeUnknownErrors } from './error-classification';
export type { ErrorClassification } from './error-paths';
export { getDatabaseLabel, getPermanentErrorExamples, getTransientErrorExamples, isAlwaysPermanentError, isConflictError } from './transient-errors';
export { isIgnorableCleanup } from './ignored-cleanup';
