// Hover over a finding: what the rule is about, the finding's own message, and the docs.
import { MarkupKind, type Diagnostic, type Hover, type Position } from 'vscode-languageserver';
import { getRuleId } from './diagnostics';
import { getRuleDocs } from './plugin';
import { isPositionInRange } from './positions';

function describe(diagnostic: Diagnostic): string {
  // The summary of findings left out (see toPublishedDiagnostics) belongs to no rule.
  if (typeof diagnostic.code !== 'string') return typeof diagnostic.message === 'string' ? diagnostic.message : diagnostic.message.value;
  const ruleId = getRuleId(diagnostic);
  const { description, url } = getRuleDocs(ruleId);
  const lines = [`**${ruleId}**${description ? ` — ${description}` : ''}`, '', diagnostic.message];
  if (url) lines.push('', `[Documentation for ${ruleId}](${url})`);
  return lines.join('\n');
}

/** A Markdown hover for the published diagnostics under `position`, or null when there are none. */
export function getHover(diagnostics: readonly Diagnostic[], position: Position): Hover | null {
  const hits = diagnostics.filter((diagnostic) => isPositionInRange(position, diagnostic.range));
  if (hits.length === 0) return null;
  return {
    contents: { kind: MarkupKind.Markdown, value: hits.map(describe).join('\n\n---\n\n') },
    range: hits[0]!.range,
  };
}
