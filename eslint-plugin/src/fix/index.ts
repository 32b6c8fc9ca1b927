/**
 * The edits behind the rules' fixes and suggestions, one kind of edit a file. A rule
 * decides what to change; these helpers write the change.
 */
export { appendProperty, insertFirstProperty } from './add-property';
export { getAsyncListenerFix } from './async-function';
export { type AttemptLimitEdit, getAttemptLimitFix } from './attempt-limit';
export { type BoundedRetry, getBoundedRetryText } from './bounded-retry';
export { findSleepHelper, getBackoffDelayText, getWaitStatement } from './backoff';
export { type CodeStyle, formatInStyle, getCodeStyle, quoteString, readCodeStyle, typeAnnotation } from './code-style';
export { hasCommentOutside, overlapsComment } from './comments';
export { asStatement, getCatchCallbackFix, getLogErrorCall, getRethrowAtEndFix, getRethrowInsteadOfReturnFix, getThrowAfterLoopFix, getThrowIfFlagAfterLoopFix } from './failure-reporting';
export { getDefinedFunction, getFileHelper, getFileHelpers, insertAtFileTop, type FileHelper, type HelperAccess } from './file-helpers';
export { fillEmptyBlock, replaceBlock } from './fill-block';
export { getUsedNames, getUsedNamesAround, getUsedNamesInFile, isNameTakenAround, isNameTakenAt, pickFreeName, pickNumberedName } from './fresh-names';
export { isComputableBefore, withSemicolon } from './hoisting';
export { getIndent, type IndentStyle } from './indentation';
export { getInsertBeforeStatementFix, insertLine } from './insert-statement';
export { findResultHandler, getLeftoverLoopFix, getLeftoverRecursionFix, getLeftoverResendFix, type LeftoverLoopEdit, type LeftoverRecursionEdit, type LeftoverResendEdit } from './leftover-resend';
export { getOwnLinesRange } from './line-ranges';
export { getObjectIdAccess, type ObjectIdAccess } from './object-id';
export { getAddProjectionFix, getProjectionText } from './projection';
export { getRecursionLimitFix, type RecursionLimitEdit } from './recursion-limit';
export { getPropertyRemovalRange, type PropertyRemovalLayout } from './remove-property';
export { getStatementRemovalRange } from './remove-statement';
export { isSimpleReference } from './simple-reference';
export { getSingleAttemptFix } from './single-attempt';
export { getSingleDocumentWritesText, type MultiDocumentWrite } from './single-document-writes';
export { getNotAppliedPgErrorHelper, getTransientErrorHelper } from './transient-error-check';
export { getHelperGuardFix, getTransientGuardFix } from './transient-error-guard';
export { canRunAgainInArrow, findTopLevelSleepFunction, getTransientRetryHelper, type TransientRetry } from './transient-retry';
export { getTimerRetryLimitFix, type GiveUpReport, type TimerRetryLimit, type TimerRetryLimitEdit } from './timer-retry-limit';
export { getEnclosingInsertableStatement, getEnclosingListedStatement, getListedStatement, isStatementListItem } from './statement-anchors';
export { getUnprocessedItemsCall, getUnprocessedItemsHelper } from './unprocessed-items';
export { getUuidGenerator } from './uuid-generator';
