// Code actions: each ESLint fix and suggestion as a quick fix, "Disable <rule> for this
// line", and fix-all (`source.fixAll.retrySafety`). Fixes come from `Diagnostic.data`,
// and only while the document is still at the version they were computed for.
import { findFileKind } from 'eslint-plugin-retry-safety';
import {
  CodeActionKind,
  TextDocumentEdit,
  type CodeAction,
  type Diagnostic,
  type TextEdit,
  type WorkspaceEdit,
} from 'vscode-languageserver';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { MAX_CARRIED_FIX_LENGTH, getRuleId, hasDeferredFix, isOwnDiagnostic, readDiagnosticData, type DiagnosticData, type FixData } from './diagnostics';
import { FIX_ALL_KIND } from './capabilities';
import type { LintTarget } from './lint';
import { maskSecrets } from './log';
import { computeMinimalEdits, type OffsetEdit } from './minimal-edits';

export function toWorkspaceEdit(document: TextDocument, edits: TextEdit[], useDocumentChanges: boolean): WorkspaceEdit {
  if (useDocumentChanges) {
    return { documentChanges: [TextDocumentEdit.create({ uri: document.uri, version: document.version }, edits)] };
  }
  return { changes: { [document.uri]: edits } };
}

export function toTextEdit(document: TextDocument, edit: OffsetEdit): TextEdit {
  return { range: { start: document.positionAt(edit.start), end: document.positionAt(edit.end) }, newText: edit.text };
}

/** A fix as edits; a large (merged) fix is split into the small edits it really makes. */
function fixToTextEdits(document: TextDocument, fix: FixData): TextEdit[] {
  const [start, end] = fix.range;
  if (end - start + fix.text.length <= MAX_CARRIED_FIX_LENGTH) return [toTextEdit(document, { start, end, text: fix.text })];
  return computeMinimalEdits(document.getText().slice(start, end), fix.text).map((edit) =>
    toTextEdit(document, { start: start + edit.start, end: start + edit.end, text: edit.text }),
  );
}

/** Longest edited text that a fix's title quotes. */
const MAX_TITLE_SNIPPET = 48;

/**
 * A title that says what an autofix does (ESLint fixes carry no description): `Remove
 * "&retryWrites=false"`, `Add "…"`, `Replace "…" with "…"` for one short edit, else the
 * generic "Fix this <rule> problem".
 */
function describeFix(document: TextDocument, fix: FixData, ruleId: string): string {
  const [start, end] = fix.range;
  const edits = computeMinimalEdits(document.getText().slice(start, end), fix.text);
  const edit = edits.length === 1 ? edits[0]! : undefined;
  const removed = edit ? document.getText().slice(start + edit.start, start + edit.end).trim() : '';
  const added = edit ? edit.text.trim() : '';
  const quotable = (text: string): boolean => text.length <= MAX_TITLE_SNIPPET && !/[\r\n"]/.test(text);
  if (!edit || !quotable(removed) || !quotable(added) || (removed === '' && added === '')) return `Fix this ${ruleId} problem`;
  const title = removed === '' ? `Add "${added}"` : added === '' ? `Remove "${removed}"` : `Replace "${removed}" with "${added}"`;
  return maskSecrets(title);
}

/**
 * The line-comment opener for a disable directive in this document, from the plugin's
 * file kinds (`#` in `.env` and YAML, none in JSON and plain text); undefined when none fits.
 */
export function getCommentOpener(target: LintTarget): string | undefined {
  const kind = findFileKind(target.filename);
  return kind?.syntax === target.kind ? kind.lineComments[0] : undefined;
}

function getDisableAction(
  document: TextDocument,
  diagnostic: Diagnostic,
  opener: string,
  useDocumentChanges: boolean,
): CodeAction | undefined {
  const line = diagnostic.range.start.line;
  if (line >= document.lineCount) return undefined;
  const lineText = document.getText({ start: { line, character: 0 }, end: { line: line + 1, character: 0 } });
  const indentation = /^[ \t]*/.exec(lineText)?.[0] ?? '';
  const eol = /\r\n$/.test(lineText) || (!/\n$/.test(lineText) && document.getText().includes('\r\n')) ? '\r\n' : '\n';
  const ruleId = getRuleId(diagnostic);
  const edit: TextEdit = {
    range: { start: { line, character: 0 }, end: { line, character: 0 } },
    newText: `${indentation}${opener} eslint-disable-next-line ${ruleId}${eol}`,
  };
  return {
    title: `Disable ${ruleId} for this line`,
    kind: CodeActionKind.QuickFix,
    diagnostics: [diagnostic],
    edit: toWorkspaceEdit(document, [edit], useDocumentChanges),
  };
}

export interface QuickFixContext {
  document: TextDocument;
  target: LintTarget;
  diagnostics: readonly Diagnostic[];
  useDocumentChanges: boolean;
  /** The full data of a diagnostic whose fixes were too large to carry, linting the same version again. */
  resolveDeferred: (diagnostic: Diagnostic) => DiagnosticData | undefined;
}

/** Quick fixes for the client's diagnostics in the requested range. */
export function getQuickFixes(context: QuickFixContext): CodeAction[] {
  const { document, useDocumentChanges } = context;
  const fixes: CodeAction[] = [];
  const disables: CodeAction[] = [];
  const disabledRules = new Set<string>();
  const opener = getCommentOpener(context.target);

  for (const diagnostic of context.diagnostics) {
    if (!isOwnDiagnostic(diagnostic)) continue;
    let data = readDiagnosticData(diagnostic);
    // Offsets from another version would land in the wrong place: no fix until re-linted.
    if (data && data.version === document.version) {
      if (hasDeferredFix(data)) data = context.resolveDeferred(diagnostic) ?? data;
      if (data.fix) {
        fixes.push({
          title: describeFix(document, data.fix, getRuleId(diagnostic)),
          kind: CodeActionKind.QuickFix,
          diagnostics: [diagnostic],
          isPreferred: true,
          edit: toWorkspaceEdit(document, fixToTextEdits(document, data.fix), useDocumentChanges),
        });
      }
      for (const suggestion of data.suggestions ?? []) {
        if (!suggestion.fix) continue;
        fixes.push({
          title: suggestion.desc,
          kind: CodeActionKind.QuickFix,
          diagnostics: [diagnostic],
          edit: toWorkspaceEdit(document, fixToTextEdits(document, suggestion.fix), useDocumentChanges),
        });
      }
    }
    const key = `${String(diagnostic.code)}:${diagnostic.range.start.line}`;
    if (opener && !disabledRules.has(key)) {
      disabledRules.add(key);
      const action = getDisableAction(document, diagnostic, opener, useDocumentChanges);
      if (action) disables.push(action);
    }
  }
  return [...fixes, ...disables];
}

export function getFixAllAction(document: TextDocument, edits: TextEdit[], useDocumentChanges: boolean): CodeAction {
  return {
    title: 'Fix all retry-safety problems',
    kind: FIX_ALL_KIND,
    edit: toWorkspaceEdit(document, edits, useDocumentChanges),
  };
}
