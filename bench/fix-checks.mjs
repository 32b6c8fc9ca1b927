// Checks the fixes and suggestions the retry-safety rules offer on one file, each applied
// alone: the result parses, its finding is gone, no other finding of ours appears, and (for
// TypeScript files, when a type checker is given) no new type error appears. Shared by
// `npm run bench:fixes` and the tests that apply every suggestion of examples/.
import { readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import ts from 'typescript';

const ourPrefix = 'retry-safety/';

/** One edit (ESLint's `{ range, text }`) applied to `text`. */
export function applyEdit(text, edit) {
  return text.slice(0, edit.range[0]) + edit.text + text.slice(edit.range[1]);
}

/** Our findings per rule id and message id (`rule:message`). */
function countByRule(messages) {
  const counts = new Map();
  for (const message of messages) {
    if (!message.ruleId?.startsWith(ourPrefix)) continue;
    const key = findingKey(message);
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return counts;
}

function findingKey(message) {
  return `${message.ruleId.slice(ourPrefix.length)}:${message.messageId ?? ''}`;
}

/** The rules the findings of this file belong to, with how many carry a fix or a suggestion. */
export function tallyCoverage(messages, into = new Map()) {
  for (const message of messages) {
    if (!message.ruleId?.startsWith(ourPrefix)) continue;
    const rule = message.ruleId.slice(ourPrefix.length);
    const row = into.get(rule) ?? { findings: 0, withEdit: 0, suggestions: 0, fixes: 0 };
    row.findings += 1;
    if (message.fix || (message.suggestions?.length ?? 0) > 0) row.withEdit += 1;
    if (message.fix) row.fixes += 1;
    row.suggestions += message.suggestions?.length ?? 0;
    into.set(rule, row);
  }
  return into;
}

/**
 * Applies each fix and suggestion of `messages` alone to `text`, lints the result with
 * `relint(text) → messages` and type-checks it with `typeErrors(text) → string[]` when given.
 * Returns one entry per edit: `{ rule, kind, title, line, failures: string[], text }`.
 */
export async function checkEdits({ text, messages, relint, typeErrors }) {
  const before = countByRule(messages);
  const baselineTypeErrors = typeErrors ? new Set(typeErrors(text)) : undefined;
  const checked = [];
  for (const message of messages) {
    if (!message.ruleId?.startsWith(ourPrefix)) continue;
    const edits = [
      ...(message.fix ? [{ kind: 'fix', title: 'autofix', fix: message.fix }] : []),
      ...(message.suggestions ?? []).map((suggestion) => ({ kind: 'suggestion', title: suggestion.desc, fix: suggestion.fix })),
    ];
    for (const edit of edits) {
      const applied = applyEdit(text, edit.fix);
      const after = await relint(applied);
      const failures = [];
      const fatal = after.find((entry) => entry.fatal || entry.ruleId === null);
      if (fatal) {
        failures.push(`does not parse: ${fatal.message} (line ${fatal.line})`);
      } else {
        const counts = countByRule(after);
        const own = findingKey(message);
        if ((counts.get(own) ?? 0) >= (before.get(own) ?? 0)) failures.push('its finding is still reported');
        for (const [key, count] of counts) {
          if (key !== own && count > (before.get(key) ?? 0)) failures.push(`adds a finding (${key})`);
        }
        if (baselineTypeErrors) {
          for (const error of typeErrors(applied)) if (!baselineTypeErrors.has(error)) failures.push(`type error: ${error}`);
        }
      }
      checked.push({ rule: message.ruleId.slice(ourPrefix.length), kind: edit.kind, title: edit.title, line: message.line, failures, text: applied });
    }
  }
  return checked;
}

const defaultCompilerOptions = {
  target: ts.ScriptTarget.ES2022,
  module: ts.ModuleKind.ESNext,
  moduleResolution: ts.ModuleResolutionKind.Bundler,
  strict: true,
  skipLibCheck: true,
  noEmit: true,
  allowJs: false,
};

/**
 * A type checker for one TypeScript file at a time, with the text of that file replaced:
 * `typeErrorsOf(path)(text)` lists the file's type errors (code and message, without
 * positions, so an edit that moves an old error does not count as a new one).
 * `tsconfigPath` gives the project's options; otherwise strict defaults with bundler
 * resolution from the file's own folder.
 */
export function createTypeChecker({ tsconfigPath } = {}) {
  let compilerOptions = defaultCompilerOptions;
  if (tsconfigPath) {
    const parsed = ts.getParsedCommandLineOfConfigFile(tsconfigPath, {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} });
    if (parsed) compilerOptions = { ...parsed.options, noEmit: true };
  }
  const overrides = new Map();
  const versions = new Map();
  const rootFiles = new Set();
  const host = {
    getScriptFileNames: () => [...rootFiles],
    getScriptVersion: (file) => String(versions.get(file) ?? 0),
    getScriptSnapshot: (file) => {
      const text = overrides.get(file) ?? (ts.sys.fileExists(file) ? readFileSync(file, 'utf8') : undefined);
      return text === undefined ? undefined : ts.ScriptSnapshot.fromString(text);
    },
    getCurrentDirectory: () => (tsconfigPath ? dirname(tsconfigPath) : process.cwd()),
    getCompilationSettings: () => compilerOptions,
    getDefaultLibFileName: (options) => ts.getDefaultLibFilePath(options),
    fileExists: ts.sys.fileExists,
    readFile: (file) => overrides.get(file) ?? ts.sys.readFile(file),
    readDirectory: ts.sys.readDirectory,
    directoryExists: ts.sys.directoryExists,
    getDirectories: ts.sys.getDirectories,
  };
  const service = ts.createLanguageService(host, ts.createDocumentRegistry());
  return (path) => (text) => {
    rootFiles.add(path);
    overrides.set(path, text);
    versions.set(path, (versions.get(path) ?? 0) + 1);
    const diagnostics = [...service.getSyntacticDiagnostics(path), ...service.getSemanticDiagnostics(path)];
    return diagnostics.map((diagnostic) => `TS${diagnostic.code} ${ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n')}`);
  };
}

export function isTypeScriptFile(path) {
  return /\.[cm]?tsx?$/.test(path) && !/\.d\.[cm]?ts$/.test(path);
}
