// How the fuzz suite lints one input: ESLint 10 or ESLint 9 (the `eslint9` alias), espree
// or @typescript-eslint/parser for code, the plugin's `connection-strings` preset and
// `retry-safety/text` language for text files. Every code lint also runs a probe rule that
// records the file's string literals, so a fixed connection string can be read back from
// the fixed code with the same parser.
import * as tsParser from '@typescript-eslint/parser';
import { Linter } from 'eslint';
import { Linter as Linter9 } from 'eslint9';
import { CONNECTION_STRING_RULE_ID, CONNECTION_STRINGS_PRESET_NAME, FILE_KINDS, PLUGIN_NAMESPACE, RULE_PREFIX, TEXT_LANGUAGE_ID, findFileKind } from '../../eslint-plugin/src/index';
import plugin from '../../eslint-plugin/src/index';

export type Engine = 'eslint10' | 'eslint9';
export type ParserName = 'espree' | 'typescript';
export type SourceType = 'module' | 'script' | 'commonjs';

/** What is linted: a file name (its kind follows from it, as in `file-kinds.ts`), its text and the plugin's settings. */
export interface LintRequest {
  filename: string;
  text: string;
  /** `settings["retry-safety"]`, any shape (invalid values are part of the fuzzing); undefined: not set. */
  settings?: unknown;
  engine: Engine;
  /** Code only. */
  parser?: ParserName;
  /** Code only; `module` when not given. */
  sourceType?: SourceType;
}

/** The parts of an ESLint message the checks read, the same for ESLint 9 and 10. */
export interface Edit {
  range: [number, number];
  text: string;
}
export interface Message {
  ruleId: string | null;
  message: string;
  messageId?: string | undefined;
  fatal?: boolean | undefined;
  line: number;
  column: number;
  endLine?: number | undefined;
  endColumn?: number | undefined;
  fix?: Edit | undefined;
  suggestions?: Array<{ desc: string; messageId?: string | undefined; fix: Edit }> | undefined;
}

/** A string or template literal of parsed code: its range and cooked value (template expressions read as `tmpl`). */
export interface StringLiteral {
  range: [number, number];
  value: string;
  isTemplate: boolean;
}

export interface LintResult {
  messages: Message[];
  /** The plugin's messages (the probe's and ESLint's own left out). */
  findings: Message[];
  /** The parse error, when the text does not parse. */
  parseError: Message | undefined;
  /** String literals of the code (empty for text files and unparsable code). */
  literals: StringLiteral[];
  ms: number;
}

/** What a template expression becomes in a literal's value: a plain word, as the plugin reads templates. */
export const TEMPLATE_PLACEHOLDER = 'tmpl';

const CODE_PATTERNS = FILE_KINDS.filter((kind) => kind.syntax === 'code').flatMap((kind) => kind.extensions.map((extension) => `**/*${extension}`));
/** Text kinds outside the `connection-strings` preset: linted as the language server does, with the text language. */
const OTHER_TEXT_PATTERNS = [
  ...FILE_KINDS.filter((kind) => kind.syntax === 'text' && !kind.inConnectionStringsPreset).flatMap((kind) => kind.extensions.map((extension) => `**/*${extension}`)),
  // Plain text has no extension of its own; the suite names such files `*.txt`.
  '**/*.txt',
];

export function isCodeFile(filename: string): boolean {
  return findFileKind(baseName(filename))?.syntax === 'code';
}

export function baseName(filename: string): string {
  return filename.slice(filename.lastIndexOf('/') + 1);
}

/** The name of the file kind, as `file-kinds.ts` spells it (`plain text` for names it does not know). */
export function fileKindName(filename: string): string {
  return findFileKind(baseName(filename))?.name ?? 'plain text';
}

let collected: StringLiteral[] = [];

interface ProbeNode {
  type: string;
  range: [number, number];
  value?: unknown;
  quasis?: Array<{ value: { cooked: string | null; raw: string } }>;
}

/** Records every string and template literal of the file (for reading URIs back after a fix). */
const probePlugin = {
  meta: { name: 'fuzz-probe' },
  rules: {
    literals: {
      meta: { type: 'problem' as const, schema: [] },
      create() {
        return {
          Literal(node: ProbeNode) {
            if (typeof node.value === 'string') collected.push({ range: [node.range[0], node.range[1]], value: node.value, isTemplate: false });
          },
          TemplateLiteral(node: ProbeNode) {
            const value = (node.quasis ?? []).map((quasi) => quasi.value.cooked ?? quasi.value.raw).join(TEMPLATE_PLACEHOLDER);
            collected.push({ range: [node.range[0], node.range[1]], value, isTemplate: true });
          },
        };
      },
    },
  },
};

const allRules = plugin.configs.all[0]?.rules ?? {};
const PROBE_RULE = 'fuzz-probe/literals';

function codeConfig(request: LintRequest, withRules: boolean): Linter.Config[] {
  const jsx = /\.[jt]sx$/i.test(request.filename);
  const languageOptions: Linter.LanguageOptions = {
    ecmaVersion: 'latest',
    sourceType: request.sourceType ?? 'module',
    parserOptions: { ecmaFeatures: { jsx } },
  };
  if (request.parser === 'typescript') languageOptions.parser = tsParser as Linter.Parser;
  return [
    {
      files: CODE_PATTERNS,
      plugins: { [PLUGIN_NAMESPACE]: plugin as never, 'fuzz-probe': probePlugin as never },
      languageOptions,
      linterOptions: { reportUnusedDisableDirectives: 'off' },
      rules: withRules ? { ...allRules, [PROBE_RULE]: 'error' } : { [PROBE_RULE]: 'error' },
      settings: settingsOf(request),
    },
  ];
}

function textConfig(request: LintRequest): Linter.Config[] {
  const settings = settingsOf(request);
  return [
    { ...plugin.configs[CONNECTION_STRINGS_PRESET_NAME], linterOptions: { reportUnusedDisableDirectives: 'off' }, settings },
    {
      files: OTHER_TEXT_PATTERNS,
      plugins: { [PLUGIN_NAMESPACE]: plugin as never },
      language: TEXT_LANGUAGE_ID,
      linterOptions: { reportUnusedDisableDirectives: 'off' },
      rules: { [`${RULE_PREFIX}${CONNECTION_STRING_RULE_ID}`]: 'error' },
      settings,
    },
  ];
}

function settingsOf(request: LintRequest): Record<string, unknown> {
  return request.settings === undefined ? {} : { [PLUGIN_NAMESPACE]: request.settings };
}

interface AnyLinter {
  verify(text: string, config: Linter.Config[], options: { filename: string }): Message[];
}

const linters: Record<Engine, AnyLinter> = {
  eslint10: new Linter({ configType: 'flat' }) as unknown as AnyLinter,
  eslint9: new Linter9({ configType: 'flat' }) as unknown as AnyLinter,
};

/** Where the suite's files live for ESLint: relative names under a folder of their own. */
function eslintFilename(filename: string): string {
  return `fuzz/${filename}`;
}

/**
 * Lints with every rule of the plugin (code) or the connection-string rule (text). A rule
 * that throws makes this throw, as ESLint does; a parse error is a message.
 */
export function lint(request: LintRequest): LintResult {
  return run(request, true);
}

/** Parses only (no plugin rule): the parse error, if any, and the string literals. */
export function parseOnly(request: LintRequest): LintResult {
  if (!isCodeFile(request.filename)) return { messages: [], findings: [], parseError: undefined, literals: [], ms: 0 };
  return run(request, false);
}

function run(request: LintRequest, withRules: boolean): LintResult {
  const code = isCodeFile(request.filename);
  const config = code ? codeConfig(request, withRules) : textConfig(request);
  collected = [];
  const started = performance.now();
  let messages: Message[];
  let literals: StringLiteral[];
  try {
    messages = linters[request.engine].verify(request.text, config, { filename: eslintFilename(request.filename) });
  } finally {
    // Nothing of one lint may leak into the next, even when a rule throws.
    literals = collected;
    collected = [];
  }
  const ms = performance.now() - started;
  const unmatched = messages.find((message) => message.ruleId === null && !message.fatal);
  if (unmatched) throw new Error(`The suite's ESLint config does not lint ${request.filename}: ${unmatched.message}`);
  const parseError = messages.find((message) => message.fatal);
  return {
    messages,
    findings: messages.filter((message) => message.ruleId?.startsWith(RULE_PREFIX)),
    parseError,
    literals: parseError ? [] : literals.sort((a, b) => a.range[0] - b.range[0]),
    ms,
  };
}

/** `text` with one edit applied. */
export function applyEdit(text: string, edit: Edit): string {
  return text.slice(0, edit.range[0]) + edit.text + text.slice(edit.range[1]);
}

/**
 * The fixes of one lint applied as ESLint applies them in one pass: in order, a fix that
 * overlaps or touches the previous one is left for the next pass (`overlapped`).
 */
export function applyFixesOnce(text: string, messages: readonly Message[]): { output: string; applied: number; overlapped: boolean } {
  const fixes = messages
    .map((message) => message.fix)
    .filter((fix): fix is Edit => fix !== undefined)
    .sort((a, b) => a.range[0] - b.range[0] || a.range[1] - b.range[1]);
  let output = '';
  let lastPos = Number.NEGATIVE_INFINITY;
  let copied = 0;
  let applied = 0;
  let overlapped = false;
  for (const fix of fixes) {
    const [start, end] = fix.range;
    if (lastPos >= start || start > end) {
      overlapped = true;
      continue;
    }
    output += text.slice(copied, start) + fix.text;
    copied = end;
    lastPos = end;
    applied++;
  }
  return { output: output + text.slice(copied), applied, overlapped };
}

/**
 * Where each line starts, as ESLint counts lines: code breaks lines at CR, LF, CRLF, U+2028
 * and U+2029, the text language at CR, LF and CRLF only.
 */
export function getLineStarts(text: string, isCode: boolean): number[] {
  const lineBreak = isCode ? /\r\n|[\r\n\u2028\u2029]/gu : /\r\n|[\r\n]/gu;
  const starts = [0];
  for (const match of text.matchAll(lineBreak)) starts.push(match.index + match[0].length);
  return starts;
}

/** Offset of a 1-based line and 1-based column (ESLint's message positions). */
export function offsetOf(lineStarts: readonly number[], line: number, column: number): number {
  return (lineStarts[line - 1] ?? lineStarts.at(-1) ?? 0) + column - 1;
}
