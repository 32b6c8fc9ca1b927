export { classifyRetryScope, retriesOutcomeUnknownErrors } from './error-classification';
export type { ErrorClassification } from './error-paths';
export { getDatabaseLabel, getPermanentErrorExamples, getTransientErrorExamples, getTransientErrorTable, isAlwaysPermanentError, isConflictError, NOT_APPLIED_TRANSIENT_SQLSTATES, type TransientErrorTable } from './transient-errors';
export { isIgnorableCleanup } from './ignored-cleanup';
