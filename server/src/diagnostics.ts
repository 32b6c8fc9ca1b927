// ESLint messages → LSP diagnostics. Each diagnostic carries its fix and suggestions in
// `data` (kept by the client between diagnostics and code actions since LSP 3.16), as
// offsets into the text of the document version they were computed for.
import { DiagnosticSeverity, type Diagnostic } from 'vscode-languageserver';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import type { LintOutcome } from './lint';
import { RULE_PREFIX, getRuleDocs } from './plugin';
import { findLineStarts, toLspRange } from './positions';
import type { RuleLevel } from './settings';

export const DIAGNOSTIC_SOURCE = 'retry-safety';

/** An ESLint fix, with offsets into the whole document text. */
export interface FixData {
  range: [number, number];
  text: string;
}

export interface DiagnosticData {
  /** The document version the offsets belong to; a fix is only offered for that version. */
  version: number;
  fix?: FixData;
  suggestions?: { desc: string; fix: FixData }[];
}

const SEVERITIES: Record<RuleLevel, DiagnosticSeverity> = {
  off: DiagnosticSeverity.Hint,
  info: DiagnosticSeverity.Information,
  warn: DiagnosticSeverity.Warning,
  error: DiagnosticSeverity.Error,
};

function shiftFix(fix: { range: [number, number]; text: string }, by: number): FixData {
  return { range: [fix.range[0] + by, fix.range[1] + by], text: fix.text };
}

export function toDiagnostics(document: TextDocument, outcome: Extract<LintOutcome, { status: 'linted' }>): Diagnostic[] {
  const { bomLength } = outcome;
  const source = bomLength ? document.getText().slice(bomLength) : document.getText();
  const lineStarts = findLineStarts(source, outcome.lineBreak).map((start) => start + bomLength);

  return outcome.messages.map((message) => {
    const ruleId = message.ruleId ?? '';
    const { url } = getRuleDocs(ruleId);
    const data: DiagnosticData = { version: document.version };
    if (message.fix) data.fix = shiftFix(message.fix, bomLength);
    if (message.suggestions?.length) {
      data.suggestions = message.suggestions.map((suggestion) => ({
        desc: suggestion.desc,
        fix: shiftFix(suggestion.fix, bomLength),
      }));
    }
    const diagnostic: Diagnostic = {
      range: toLspRange(document, lineStarts, message),
      severity: SEVERITIES[outcome.levels.get(ruleId) ?? 'warn'],
      source: DIAGNOSTIC_SOURCE,
      // ESLint's rule id, as written in `eslint-disable` comments and printed by the CLI.
      code: ruleId,
      message: message.message,
      data,
    };
    if (url) diagnostic.codeDescription = { href: url };
    return diagnostic;
  });
}

/** `data` of one of our diagnostics, when it is well-formed (clients echo it back verbatim). */
export function readDiagnosticData(diagnostic: Diagnostic): DiagnosticData | undefined {
  const data = diagnostic.data as Partial<DiagnosticData> | undefined;
  if (!data || typeof data.version !== 'number') return undefined;
  return data as DiagnosticData;
}

/** Whether a diagnostic (from a client's request) is one this server published. */
export function isOwnDiagnostic(diagnostic: Diagnostic): boolean {
  return diagnostic.source === DIAGNOSTIC_SOURCE && typeof diagnostic.code === 'string' && diagnostic.code.startsWith(RULE_PREFIX);
}
