// The properties every input is checked against:
//   no-throw           no rule throws (on the input, nor on its fixed text)
//   fix-parses         every autofix, applied alone, leaves code that parses with the same parser (and JSON that parses)
//   suggestion-parses  the same for every suggestion
//   suggestion-clears  a suggestion in code, applied alone, leaves fewer findings of its rule and message (re-linted;
//                      the first of each input, to keep the run short)
//   fix-idempotent     a fix applied twice equals once: after one pass of fixes no connection string is fixed
//                      again, and further passes (as eslint --fix makes them) settle within 10
//   uri-valid          every fixed connection string is still read by the MongoDB driver, with every option but
//                      retryWrites unchanged and retryWrites as the fix intends; no fix edits outside its URI
//   no-secret          no password (a generated marker) shows in a message, a suggestion or a server log line
//   time-bound         no lint (or log line) of one input takes longer than the bound
import { CONNECTION_STRING_RULE_ID, RULE_PREFIX } from '../../eslint-plugin/src/index';
import { createLogger } from '../../server/src/log';
import { describeDifference, readWithDriver } from './driver';
import type { FuzzInput, PlacedUri } from './input';
import { applyEdit, applyFixesOnce, type Edit, fileKindName, getLineStarts, isCodeFile, lint, type LintResult, type Message, offsetOf, parseOnly, TEMPLATE_PLACEHOLDER } from './lint';

export const PROPERTIES = ['no-throw', 'fix-parses', 'suggestion-parses', 'suggestion-clears', 'fix-idempotent', 'uri-valid', 'no-secret', 'time-bound'] as const;
export type Property = (typeof PROPERTIES)[number];

export interface Failure {
  property: Property;
  detail: string;
  /** no-secret: the markers shown, and where (`message`, `suggestion`, `log`). */
  shown?: { secrets: string[]; where: 'message' | 'suggestion' | 'log'; text: string };
  /** uri-valid: the connection string before and after the edit (when both were read). */
  uri?: { before: string; after: string };
}

export interface CheckReport {
  failures: Failure[];
  /** How many times each property was checked on this input. */
  checks: Record<Property, number>;
  /** False when the input is not valid code (only no-throw, no-secret and time-bound apply then). */
  parsed: boolean;
  findings: number;
  fixes: number;
  suggestions: number;
  /** The longest lint (or log line) of the input, in milliseconds. */
  maxMs: number;
}

export interface CheckOptions {
  timeBoundMs: number;
  /**
   * Pathological inputs: only no-throw, no-secret and time-bound (thousands of findings are
   * not each re-parsed), and the time bound is on the time past parsing.
   */
  lintOnly?: boolean;
}

const CONNECTION_STRING_RULE = `${RULE_PREFIX}${CONNECTION_STRING_RULE_ID}`;
const URI_IN_VALUE = /mongodb(?:\+srv)?:\/\//;
/** What a fix of each message intends for `retryWrites` (a suggestion always removes it: the driver's default, true). */
const FIX_RETRY_WRITES: Record<string, boolean> = { addRetryWritesFalse: false, setRetryWritesFalse: false, removeRetryWritesFalse: true };

function emptyReport(): CheckReport {
  return { failures: [], checks: Object.fromEntries(PROPERTIES.map((property) => [property, 0])) as Record<Property, number>, parsed: true, findings: 0, fixes: 0, suggestions: 0, maxMs: 0 };
}

function describeThrown(error: unknown): string {
  if (error instanceof Error) return (error.stack ?? `${error.name}: ${error.message}`).split('\n').slice(0, 6).join('\n');
  return String(error);
}

function countOccurrences(text: string, part: string): number {
  let count = 0;
  for (let index = text.indexOf(part); index !== -1; index = text.indexOf(part, index + part.length)) count++;
  return count;
}

/**
 * The markers that must not be shown: those found nowhere in the input but where they were
 * put. In a file: each exactly as often (text and settings) as it was put there; in log
 * lines (which may repeat a URI): nowhere once the passwords are taken out.
 */
export function getCheckedSecrets(input: FuzzInput): string[] {
  const haystack = `${input.text}\n${JSON.stringify(input.settings ?? null) ?? ''}`;
  const withoutPasswords = (input.logLines ?? []).map((line) => (input.passwords ?? []).reduce((text, password) => text.split(password).join(' '), line)).join('\n');
  const expected = new Map<string, number>();
  for (const secret of input.secrets) expected.set(secret, (expected.get(secret) ?? 0) + 1);
  return [...expected]
    .filter(([secret, count]) => secret.length >= 5 && (input.logLines ? !withoutPasswords.includes(secret) : countOccurrences(haystack, secret) === count))
    .map(([secret]) => secret);
}

/** Runs every property on one input. */
export function checkInput(input: FuzzInput, options: CheckOptions): CheckReport {
  return input.logLines ? checkLogLines(input, options) : checkLint(input, options);
}

function checkLogLines(input: FuzzInput, options: CheckOptions): CheckReport {
  const report = emptyReport();
  const secrets = getCheckedSecrets(input);
  const written: string[] = [];
  const sink = { error: (line: string) => written.push(line), warn: (line: string) => written.push(line), info: (line: string) => written.push(line), log: (line: string) => written.push(line) };
  const logger = createLogger(sink, () => true);
  const levels = ['error', 'warn', 'info', 'debug'] as const;
  (input.logLines ?? []).forEach((line, index) => {
    const started = performance.now();
    try {
      logger[levels[index % levels.length]!](line);
    } catch (error) {
      report.failures.push({ property: 'no-throw', detail: `the logger threw: ${describeThrown(error)}` });
    }
    const ms = performance.now() - started;
    report.maxMs = Math.max(report.maxMs, ms);
    report.checks['no-throw']++;
    report.checks['time-bound']++;
    if (ms > options.timeBoundMs) report.failures.push({ property: 'time-bound', detail: `a log line of ${line.length} characters took ${Math.round(ms)} ms` });
  });
  for (const line of written) {
    report.checks['no-secret']++;
    const shown = secrets.filter((secret) => line.includes(secret));
    if (shown.length > 0) report.failures.push({ property: 'no-secret', detail: `the log line shows ${shown.map((secret) => JSON.stringify(secret)).join(', ')}: ${line.split('\n')[0]}`, shown: { secrets: shown, where: 'log', text: line } });
  }
  return report;
}

function checkLint(input: FuzzInput, options: CheckOptions): CheckReport {
  const report = emptyReport();
  let first: LintResult;
  report.checks['no-throw']++;
  try {
    first = lint(input);
  } catch (error) {
    report.failures.push({ property: 'no-throw', detail: describeThrown(error) });
    return report;
  }
  report.checks['time-bound']++;
  // A large input: the parser's share is not the plugin's (parsed again alone, and taken off).
  const parseMs = options.lintOnly && isCodeFile(input.filename) ? parseOnly(input).ms : 0;
  const ms = first.ms - parseMs;
  report.maxMs = ms;
  if (ms > options.timeBoundMs) {
    report.failures.push({ property: 'time-bound', detail: `linting took ${Math.round(first.ms)} ms${parseMs ? `, ${Math.round(ms)} ms of it past parsing` : ''} (bound ${options.timeBoundMs} ms)` });
  }
  report.findings = first.findings.length;

  const secrets = getCheckedSecrets(input);
  if (secrets.length > 0) {
    for (const finding of first.findings) {
      const shownTexts: Array<['message' | 'suggestion', string]> = [['message', finding.message], ...(finding.suggestions ?? []).map((suggestion): ['suggestion', string] => ['suggestion', suggestion.desc])];
      for (const [where, text] of shownTexts) {
        report.checks['no-secret']++;
        const shown = secrets.filter((secret) => text.includes(secret));
        if (shown.length > 0) {
          const detail = `the ${where} of ${finding.ruleId} (${finding.messageId}) shows ${shown.map((secret) => JSON.stringify(secret)).join(', ')}: ${text}`;
          report.failures.push({ property: 'no-secret', detail, shown: { secrets: shown, where, text } });
        }
      }
    }
  }

  if (first.parseError) {
    report.parsed = false;
    return report;
  }
  if (options.lintOnly) return report;
  const isCode = isCodeFile(input.filename);
  const context: FixContext = { input, first, isCode, lineStarts: getLineStarts(input.text, isCode), report };
  for (const finding of first.findings) {
    if (finding.fix) {
      report.fixes++;
      checkEdit(context, finding, finding.fix, 'fix-parses', FIX_RETRY_WRITES[finding.messageId ?? '']);
    }
    for (const suggestion of finding.suggestions ?? []) {
      report.suggestions++;
      checkEdit(context, finding, suggestion.fix, 'suggestion-parses', true);
    }
  }
  if (first.findings.some((finding) => finding.fix)) checkIdempotent(context);
  return report;
}

interface FixContext {
  input: FuzzInput;
  first: LintResult;
  isCode: boolean;
  lineStarts: number[];
  report: CheckReport;
}

function describeFinding(finding: Message): string {
  return `${finding.ruleId} (${finding.messageId}) at ${finding.line}:${finding.column}`;
}

/** One fix or suggestion applied alone: the result parses, and a fixed connection string stays valid. */
function checkEdit(context: FixContext, finding: Message, edit: Edit, property: 'fix-parses' | 'suggestion-parses', retryWrites: boolean | undefined): void {
  const { input, report } = context;
  const fixed = applyEdit(input.text, edit);
  report.checks[property]++;
  let fixedLiterals: LintResult['literals'] = [];
  if (context.isCode) {
    const parsed = parseOnly({ ...input, text: fixed });
    if (parsed.parseError) {
      report.failures.push({ property, detail: `${describeFinding(finding)}: the edit ${JSON.stringify(edit)} leaves a parse error: ${parsed.parseError.message}` });
      return;
    }
    fixedLiterals = parsed.literals;
    if (property === 'suggestion-parses') checkCleared(context, finding, edit, fixed);
  } else if (fileKindName(input.filename) === 'JSON' && isJson(input.text) && !isJson(fixed)) {
    report.failures.push({ property, detail: `${describeFinding(finding)}: the edit ${JSON.stringify(edit)} leaves invalid JSON` });
    return;
  }
  if (finding.ruleId !== CONNECTION_STRING_RULE) return;
  if (context.isCode) checkCodeUri(context, finding, edit, fixed, fixedLiterals, retryWrites);
  else checkTextUri(context, finding, edit, fixed, retryWrites);
}

/** Suggestions re-linted per input: each costs a whole lint. */
const MAX_CLEARED_CHECKS = 1;

/** A suggestion applied alone takes its finding away: its rule reports that message less on the edited code. */
function checkCleared(context: FixContext, finding: Message, edit: Edit, fixed: string): void {
  const { input, first, report } = context;
  if (report.checks['suggestion-clears'] >= MAX_CLEARED_CHECKS) return;
  report.checks['suggestion-clears']++;
  const countOf = (findings: readonly Message[]) =>
    findings.filter((candidate) => candidate.ruleId === finding.ruleId && candidate.messageId === finding.messageId).length;
  const after = lint({ ...input, text: fixed });
  if (countOf(after.findings) >= countOf(first.findings)) {
    report.failures.push({ property: 'suggestion-clears', detail: `${describeFinding(finding)}: after the suggestion ${JSON.stringify(edit)} the rule still reports ${countOf(after.findings)} time(s), as before` });
  }
}

function isJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

function checkCodeUri(context: FixContext, finding: Message, edit: Edit, fixed: string, fixedLiterals: LintResult['literals'], retryWrites: boolean | undefined): void {
  const at = offsetOf(context.lineStarts, finding.line, finding.column);
  const literal = context.first.literals.find((candidate) => candidate.range[0] <= at && at < candidate.range[1] && URI_IN_VALUE.test(candidate.value));
  // A finding outside a string literal is about an options object: no URI to read.
  if (!literal) return;
  if (edit.range[0] <= literal.range[0] || edit.range[1] >= literal.range[1]) {
    context.report.checks['uri-valid']++;
    context.report.failures.push({ property: 'uri-valid', detail: `${describeFinding(finding)}: the edit ${JSON.stringify(edit)} reaches outside the string literal at ${literal.range.join('-')}` });
    return;
  }
  const after = fixedLiterals.find((candidate) => candidate.range[0] === literal.range[0]);
  if (!after) {
    context.report.checks['uri-valid']++;
    context.report.failures.push({ property: 'uri-valid', detail: `${describeFinding(finding)}: no string literal is left where the connection string was` });
    return;
  }
  compareUris(context, finding, literal.value, after.value, retryWrites);
}

function decode(placed: PlacedUri, written: string): string | undefined {
  if (placed.decode === 'raw') return written;
  try {
    const value: unknown = JSON.parse(`"${written}"`);
    return typeof value === 'string' ? value : undefined;
  } catch {
    return undefined;
  }
}

function checkTextUri(context: FixContext, finding: Message, edit: Edit, fixed: string, retryWrites: boolean | undefined): void {
  const { input, report } = context;
  if (input.uris.length === 0) return;
  const placed = input.uris.find((uri) => uri.start <= edit.range[0] && edit.range[1] <= uri.end);
  if (!placed) {
    report.checks['uri-valid']++;
    report.failures.push({ property: 'uri-valid', detail: `${describeFinding(finding)}: the edit ${JSON.stringify(edit)} is outside every connection string (${JSON.stringify(input.text.slice(Math.max(0, edit.range[0] - 20), edit.range[1] + 20))})` });
    return;
  }
  if (placed.decode === 'none') return;
  const delta = edit.text.length - (edit.range[1] - edit.range[0]);
  const before = decode(placed, input.text.slice(placed.start, placed.end));
  const after = decode(placed, fixed.slice(placed.start, placed.end + delta));
  if (before === undefined) return;
  if (after === undefined) {
    report.checks['uri-valid']++;
    report.failures.push({ property: 'uri-valid', detail: `${describeFinding(finding)}: the fixed value no longer decodes: ${fixed.slice(placed.start, placed.end + delta)}` });
    return;
  }
  compareUris(context, finding, before, after, retryWrites);
}

/** The driver reads the fixed URI, with the same options but `retryWrites`, which is as intended. */
function compareUris(context: FixContext, finding: Message, before: string, after: string, retryWrites: boolean | undefined): void {
  const { input, report } = context;
  const plain = (uri: string) => input.templates.reduce((text, piece) => text.split(piece).join(TEMPLATE_PLACEHOLDER), uri);
  const original = readWithDriver(plain(before));
  // A URI the driver rejects before the fix has nothing to keep.
  if (!original.ok) return;
  report.checks['uri-valid']++;
  const result = readWithDriver(plain(after));
  const where = `${describeFinding(finding)}: ${JSON.stringify(before)} → ${JSON.stringify(after)}`;
  const uri = { before, after };
  if (!result.ok) {
    report.failures.push({ property: 'uri-valid', detail: `${where}: the driver rejects the fixed URI: ${result.error}`, uri });
  } else if (result.others !== original.others) {
    report.failures.push({ property: 'uri-valid', detail: `${where}: other options changed (${describeDifference(original.others, result.others)})`, uri });
  } else if (retryWrites !== undefined && result.retryWrites !== retryWrites) {
    report.failures.push({ property: 'uri-valid', detail: `${where}: retryWrites is ${String(result.retryWrites)}, the fix intends ${String(retryWrites)}`, uri });
  }
}

/**
 * A fix applied twice equals once. The fixes of one pass are applied; linting again, no
 * connection string is fixed again (a fix that did not take would be repeated on every
 * save). Other fixes may follow in later passes (a second `retryWrites: false` of the same
 * options object), as `eslint --fix` runs them, but they settle within its 10 passes.
 */
function checkIdempotent(context: FixContext): void {
  const { input, report, first } = context;
  report.checks['fix-idempotent']++;
  let current = applyFixesOnce(input.text, first.messages);
  for (let pass = 2; pass <= 10; pass++) {
    let next: LintResult;
    try {
      next = lint({ ...input, text: current.output });
    } catch (error) {
      report.checks['no-throw']++;
      report.failures.push({ property: 'no-throw', detail: `on the fixed text (pass ${pass}): ${describeThrown(error)}` });
      return;
    }
    if (next.parseError) {
      report.failures.push({ property: 'fix-parses', detail: `the fixes of all rules together leave a parse error: ${next.parseError.message}` });
      return;
    }
    const remaining = next.findings.filter((finding) => finding.fix);
    if (remaining.length === 0) return;
    const refixed = pass === 2 && !current.overlapped ? remaining.filter((finding) => isUriFix(context.isCode, next, finding.fix!)) : [];
    if (refixed.length > 0) {
      const detail = refixed.map((finding) => `${describeFinding(finding)} ${JSON.stringify(finding.fix)}`).join('; ');
      report.failures.push({ property: 'fix-idempotent', detail: `after one pass of fixes, a connection string is fixed again: ${detail}` });
      return;
    }
    current = applyFixesOnce(current.output, next.messages);
  }
  report.failures.push({ property: 'fix-idempotent', detail: 'the fixes do not settle within 10 passes' });
}

/** A fix inside a connection string: any fix of a text file, a fix inside a string literal holding a URI in code. */
function isUriFix(isCode: boolean, result: LintResult, fix: Edit): boolean {
  if (!isCode) return true;
  return result.literals.some((literal) => literal.range[0] < fix.range[0] && fix.range[1] < literal.range[1] && URI_IN_VALUE.test(literal.value));
}
