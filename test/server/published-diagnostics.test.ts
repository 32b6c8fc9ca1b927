// The cap on one document's findings, on its own: which findings are shown, where the
// summary goes and how severe it is (the protocol test shows it end to end).
import type { Linter } from 'eslint';
import { describe, expect, it } from 'vitest';
import { DiagnosticSeverity } from 'vscode-languageserver';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { MAX_PUBLISHED_DIAGNOSTICS, toPublishedDiagnostics } from '../../server/src/diagnostics';
import type { LintOutcome } from '../../server/src/lint';
import { TEXT_LINE_BREAK } from '../../server/src/positions';
import type { RuleLevel } from '../../server/src/settings';

const WARN_RULE = 'retry-safety/mongo-retry-writes-connection-string';
const ERROR_RULE = 'retry-safety/require-retry-backoff';

function lintOf(ruleIds: string[], levels: Record<string, RuleLevel>) {
  const text = ruleIds.map((_, index) => `line ${index}`).join('\n');
  const messages = ruleIds.map(
    (ruleId, index): Linter.LintMessage => ({ ruleId, message: `finding ${index}`, line: index + 1, column: 1, endLine: index + 1, endColumn: 5, severity: 1 }),
  );
  const outcome: Extract<LintOutcome, { status: 'linted' }> = {
    status: 'linted',
    messages,
    levels: new Map(Object.entries(levels)),
    lineBreak: TEXT_LINE_BREAK,
    bomLength: 0,
  };
  return { document: TextDocument.create('file:///project/.env', 'dotenv', 3, text), outcome };
}

describe('toPublishedDiagnostics', () => {
  it('caps at 1,000', () => {
    expect(MAX_PUBLISHED_DIAGNOSTICS).toBe(1000);
  });

  it('publishes everything up to the cap', () => {
    const { document, outcome } = lintOf([WARN_RULE, WARN_RULE, WARN_RULE], { [WARN_RULE]: 'warn' });
    expect(toPublishedDiagnostics(document, outcome, 3).map((diagnostic) => diagnostic.message)).toEqual(['finding 0', 'finding 1', 'finding 2']);
  });

  it('shows the first findings and one summary at the first left out, as severe as the most severe left out', () => {
    const { document, outcome } = lintOf([WARN_RULE, WARN_RULE, WARN_RULE, ERROR_RULE, WARN_RULE], {
      [WARN_RULE]: 'warn',
      [ERROR_RULE]: 'error',
    });
    const diagnostics = toPublishedDiagnostics(document, outcome, 2);
    expect(diagnostics.map((diagnostic) => diagnostic.message)).toEqual([
      'finding 0',
      'finding 1',
      '3 more retry-safety findings are not shown, from here on: the editor shows the first 2 of the 5 in this file. Run ESLint on the file to see them all.',
    ]);
    const summary = diagnostics[2]!;
    expect(summary.range).toEqual({ start: { line: 2, character: 0 }, end: { line: 2, character: 0 } });
    expect(summary.severity).toBe(DiagnosticSeverity.Error);
    expect(summary.code).toBeUndefined();
    expect(summary.data).toBeUndefined();
  });

  it('says "1 more finding is" for one', () => {
    const { document, outcome } = lintOf([WARN_RULE, WARN_RULE], { [WARN_RULE]: 'info' });
    const summary = toPublishedDiagnostics(document, outcome, 1)[1]!;
    expect(summary.message).toMatch(/^1 more retry-safety finding is not shown, from here on: the editor shows the first 1 of the 2 in this file\./);
    expect(summary.severity).toBe(DiagnosticSeverity.Information);
  });
});
