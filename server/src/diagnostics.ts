// ESLint messages → LSP diagnostics. Each diagnostic carries its fix and suggestions in
// `data` (kept by the client between diagnostics and code actions since LSP 3.16), as
// offsets into the text of the document version they were computed for.
import { PLUGIN_NAMESPACE, RULE_PREFIX } from 'eslint-plugin-retry-safety';
import { DiagnosticSeverity, type Diagnostic } from 'vscode-languageserver';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import type { LintOutcome } from './lint';
import { getRuleDocs, isRuleName } from './plugin';
import { findLineStarts, toLspRange } from './positions';
import type { RuleLevel } from './settings';

/**
 * Diagnostics are labelled with the plugin's name and coded with the rule's name within it:
 * editors show `source(code)`, so VS Code reads `retry-safety(mongo-require-insert-id)`
 * rather than repeating the plugin name in both.
 */
export const DIAGNOSTIC_SOURCE = PLUGIN_NAMESPACE;

/** The rule name a diagnostic is coded with: ESLint's rule id without the `retry-safety/` prefix. */
export function getDiagnosticCode(ruleId: string): string {
  return ruleId.startsWith(RULE_PREFIX) ? ruleId.slice(RULE_PREFIX.length) : ruleId;
}

/** ESLint's rule id (`retry-safety/<name>`, as `eslint-disable` comments write it) of one of our diagnostics. */
export function getRuleId(diagnostic: Diagnostic): string {
  return RULE_PREFIX + String(diagnostic.code);
}

/** An ESLint fix, with offsets into the whole document text. */
export interface FixData {
  range: [number, number];
  text: string;
}

export interface DiagnosticData {
  /** The document version the offsets belong to; a fix is only offered for that version. */
  version: number;
  /** `null`: there is a fix, too large to carry (see `MAX_CARRIED_FIX_LENGTH`). */
  fix?: FixData | null;
  suggestions?: { desc: string; fix: FixData | null }[];
}

/**
 * A fix larger than this (replaced range plus new text) is not carried in `data`. ESLint
 * merges a multi-part fix (an import at the top plus a property further down) into one
 * replacement that repeats all the text in between: carried for every finding, that makes
 * the diagnostics of a large file quadratic in size. Such a fix is recomputed by linting
 * the same document version again when its code action is asked for.
 */
export const MAX_CARRIED_FIX_LENGTH = 4096;

const SEVERITIES: Record<RuleLevel, DiagnosticSeverity> = {
  off: DiagnosticSeverity.Hint,
  info: DiagnosticSeverity.Information,
  warn: DiagnosticSeverity.Warning,
  error: DiagnosticSeverity.Error,
};

function carryFix(fix: { range: [number, number]; text: string }, by: number, maxLength: number): FixData | null {
  if (fix.range[1] - fix.range[0] + fix.text.length > maxLength) return null;
  return { range: [fix.range[0] + by, fix.range[1] + by], text: fix.text };
}

export function toDiagnostics(
  document: TextDocument,
  outcome: Extract<LintOutcome, { status: 'linted' }>,
  maxFixLength = MAX_CARRIED_FIX_LENGTH,
): Diagnostic[] {
  const { bomLength } = outcome;
  const source = bomLength ? document.getText().slice(bomLength) : document.getText();
  const lineStarts = findLineStarts(source, outcome.lineBreak).map((start) => start + bomLength);

  return outcome.messages.map((message) => {
    const ruleId = message.ruleId ?? '';
    const { url } = getRuleDocs(ruleId);
    const data: DiagnosticData = { version: document.version };
    if (message.fix) data.fix = carryFix(message.fix, bomLength, maxFixLength);
    if (message.suggestions?.length) {
      data.suggestions = message.suggestions.map((suggestion) => ({
        desc: suggestion.desc,
        fix: carryFix(suggestion.fix, bomLength, maxFixLength),
      }));
    }
    const diagnostic: Diagnostic = {
      range: toLspRange(document, lineStarts, message),
      severity: SEVERITIES[outcome.levels.get(ruleId) ?? 'warn'],
      source: DIAGNOSTIC_SOURCE,
      code: getDiagnosticCode(ruleId),
      message: message.message,
      data,
    };
    if (url) diagnostic.codeDescription = { href: url };
    return diagnostic;
  });
}

/**
 * At most this many findings of one document are published, plus one summary of the
 * rest: a generated or pathological file cannot flood the editor (or the protocol)
 * with thousands of squiggles and megabytes of diagnostics.
 */
export const MAX_PUBLISHED_DIAGNOSTICS = 1000;

/**
 * The diagnostics to publish for a lint: the first `max` findings (ESLint's order: by
 * position) and, when there are more, one summary at the first finding left out that
 * says how many are not shown, with the highest severity among them. Only the findings
 * shown are converted.
 */
export function toPublishedDiagnostics(
  document: TextDocument,
  outcome: Extract<LintOutcome, { status: 'linted' }>,
  max = MAX_PUBLISHED_DIAGNOSTICS,
): Diagnostic[] {
  if (outcome.messages.length <= max) return toDiagnostics(document, outcome);
  const diagnostics = toDiagnostics(document, { ...outcome, messages: outcome.messages.slice(0, max + 1) });
  const firstLeftOut = diagnostics.pop() as Diagnostic;
  const leftOut = outcome.messages.slice(max);
  const severity = Math.min(...new Set(leftOut.map((message) => SEVERITIES[outcome.levels.get(message.ruleId ?? '') ?? 'warn']))) as DiagnosticSeverity;
  const count = (value: number) => value.toLocaleString('en-US');
  const more = leftOut.length === 1 ? `1 more ${DIAGNOSTIC_SOURCE} finding is` : `${count(leftOut.length)} more ${DIAGNOSTIC_SOURCE} findings are`;
  diagnostics.push({
    range: { start: firstLeftOut.range.start, end: firstLeftOut.range.start },
    severity,
    source: DIAGNOSTIC_SOURCE,
    message: `${more} not shown, from here on: the editor shows the first ${count(max)} of the ${count(outcome.messages.length)} in this file. Run ESLint on the file to see them all.`,
  });
  return diagnostics;
}

/** `data` of one of our diagnostics, when it is well-formed (clients echo it back verbatim). */
export function readDiagnosticData(diagnostic: Diagnostic): DiagnosticData | undefined {
  const data = diagnostic.data as Partial<DiagnosticData> | undefined;
  if (!data || typeof data.version !== 'number') return undefined;
  return data as DiagnosticData;
}

/** Whether some fix of this diagnostic was left out of its `data` for its size. */
export function hasDeferredFix(data: DiagnosticData): boolean {
  return data.fix === null || (data.suggestions ?? []).some((suggestion) => suggestion.fix === null);
}

/** The same finding in another list (same rule, range and message). */
export function findSameDiagnostic(diagnostics: readonly Diagnostic[], wanted: Diagnostic): Diagnostic | undefined {
  const key = (diagnostic: Diagnostic) => JSON.stringify([diagnostic.code, diagnostic.range, diagnostic.message]);
  const wantedKey = key(wanted);
  return diagnostics.find((diagnostic) => key(diagnostic) === wantedKey);
}

/** Whether a diagnostic (from a client's request) is one this server published. */
export function isOwnDiagnostic(diagnostic: Diagnostic): boolean {
  return diagnostic.source === DIAGNOSTIC_SOURCE && typeof diagnostic.code === 'string' && isRuleName(diagnostic.code);
}
