// The table `npm run faults` prints and the README shows: per scenario, what the faults
// did to the flagged program and to the fixed one, and what the linter said about each.
import type { Finding } from './lint';
import type { Outcome, Scenario } from './scenarios';

export interface Row {
  scenario: Scenario;
  flagged?: Outcome;
  fixed?: Outcome;
  /** The scenario rule's findings on each program. */
  reportsFlagged: Finding[];
  reportsFixed: Finding[];
  /** The fixed program is the flagged one with the rule's suggestion applied. */
  fixIsSuggestion: boolean;
  /** Why the row did not run. */
  skipped?: string;
}

function outcomeCell(outcome: Outcome | undefined): string {
  if (!outcome) return '—';
  return `${outcome.harmed ? '✘' : '✔'} ${outcome.text}`;
}

function lintCell(row: Row): string {
  const reports = row.reportsFlagged.length > 0 ? `reports flagged (line ${row.reportsFlagged.map((finding) => finding.line).join(', ')})` : '**misses flagged**';
  const accepts = row.reportsFixed.length === 0 ? 'accepts fixed' : `**reports fixed** (line ${row.reportsFixed.map((finding) => finding.line).join(', ')})`;
  const source = row.fixIsSuggestion ? 'fixed = its suggestion' : (row.scenario.fixedBy ?? 'fixed as its docs advise');
  return `${row.reportsFlagged.length > 0 ? '✔' : '✘'} ${reports}; ${row.reportsFixed.length === 0 ? '✔' : '✘'} ${accepts} (${source})`;
}

/** The Markdown table of the rows, then the notes of the rows that have one. */
export function renderTable(rows: Row[]): string {
  const lines = [
    '| # | scenario | rule | flagged program under faults | fixed program under the same faults | linter |',
    '|---|---|---|---|---|---|',
  ];
  for (const row of rows) {
    const rule = `[\`${row.scenario.rule}\`](eslint-plugin/docs/rules/${row.scenario.rule}.md)`;
    if (row.skipped) {
      lines.push(`| ${row.scenario.label} | ${row.scenario.title} | ${rule} | skipped: ${row.skipped} | | |`);
      continue;
    }
    lines.push(`| ${row.scenario.label} | ${row.scenario.title} | ${rule} | ${outcomeCell(row.flagged)} | ${outcomeCell(row.fixed)} | ${lintCell(row)} |`);
  }
  const notes = rows.filter((row) => row.scenario.note).map((row) => `- ${row.scenario.label}: ${row.scenario.note}`);
  return [...lines, ...(notes.length > 0 ? ['', ...notes] : [])].join('\n');
}

/** What each scenario injects, one line per row. */
export function renderFaults(rows: Row[]): string {
  return rows.map((row) => `- ${row.scenario.label}: ${row.scenario.faults}`).join('\n');
}
