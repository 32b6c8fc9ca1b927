// Lints the scenario programs with ESLint and the built plugin
// (eslint-plugin-retry-safety from this workspace, eslint-plugin/dist: `npm run build`),
// every rule on (the `all` preset), all files in one run, as a user's CI would.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { ESLint } from 'eslint';

export interface Finding {
  ruleId: string;
  line: number;
  message: string;
  suggestions: { desc: string; fix: { range: [number, number]; text: string } }[];
}

const ROOT = path.join(import.meta.dirname, '..', '..');

/** The findings of every file, by absolute path. */
export async function lintPrograms(files: string[]): Promise<Map<string, Finding[]>> {
  let plugin: { configs: Record<string, object> };
  try {
    // Loaded by Node as a user's config loads it (vitest's own import would wrap the CommonJS bundle).
    plugin = createRequire(import.meta.url)('eslint-plugin-retry-safety') as typeof plugin;
  } catch (error) {
    throw new Error(`the plugin is not built (run \`npm run build\`): ${(error as Error).message}`);
  }
  const eslint = new ESLint({
    cwd: ROOT,
    overrideConfigFile: true,
    overrideConfig: [{ files: ['**/*.mjs'] }, ...(plugin.configs.all as object[])],
    ignore: false,
  });
  const results = await eslint.lintFiles(files);
  const findings = new Map<string, Finding[]>();
  for (const result of results) {
    const fatal = result.messages.find((message) => message.fatal);
    if (fatal) throw new Error(`${result.filePath} does not parse: ${fatal.message}`);
    findings.set(
      result.filePath,
      result.messages.map((message) => ({
        ruleId: (message.ruleId ?? '').replace(/^retry-safety\//, ''),
        line: message.line,
        message: message.message,
        suggestions: (message.suggestions ?? []).map((suggestion) => ({ desc: suggestion.desc, fix: suggestion.fix })),
      })),
    );
  }
  return findings;
}

/** The file's text with one suggestion applied. */
export function applySuggestion(file: string, fix: { range: [number, number]; text: string }): string {
  const text = readFileSync(file, 'utf8');
  return text.slice(0, fix.range[0]) + fix.text + text.slice(fix.range[1]);
}

/** A program's code without its opening comment (which says what the program does wrong or right). */
export function withoutHeader(text: string): string {
  const lines = text.split('\n');
  let start = 0;
  while (start < lines.length && lines[start]!.startsWith('//')) start++;
  return lines.slice(start).join('\n');
}
