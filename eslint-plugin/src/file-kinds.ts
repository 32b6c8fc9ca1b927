/**
 * The kinds of files the plugin checks, in one table: which are code (linted with the code
 * rules through a JavaScript / TypeScript parser) and which are text (read as plain text by
 * the `retry-safety/text` language, where the connection-string rule runs), how their
 * documents are named in editors, and how each writes a line comment.
 *
 * Read by the `connection-strings` preset (its `files`), the text language (which comments
 * may hold an `eslint-disable` directive), the language server (code or text; the comment
 * of "Disable … for this line") and the VS Code extension (its document selector). This
 * file imports nothing: the extension bundles it, as `eslint-plugin-retry-safety/file-kinds`,
 * without ESLint.
 */

export interface FileKind {
  /** What the files are. */
  name: string;
  /** `code`: parsed as JavaScript / TypeScript. `text`: read as plain text. */
  syntax: 'code' | 'text';
  /** File extensions, lower case, with the dot (`.yaml`); the first names an untitled code document. */
  extensions: readonly string[];
  /**
   * Base-name patterns for files without an extension of their own (`.env*`, `*` standing
   * for any run of characters). Editors do not always know their language, so the
   * extension selects these by name too.
   */
  fileNames: readonly string[];
  /** VS Code language ids of these documents. */
  languageIds: readonly string[];
  /** Line-comment openers the format allows, the usual one first; empty when it has no comments (JSON). */
  lineComments: readonly string[];
  /**
   * Text files the `connection-strings` preset lints. The other text kinds are checked only
   * where an editor sends them to the language server (which reads every document that is
   * not code as text); there they get the right comment syntax.
   */
  inConnectionStringsPreset: boolean;
}

export const FILE_KINDS: readonly FileKind[] = [
  { name: 'JavaScript', syntax: 'code', extensions: ['.js', '.mjs', '.cjs'], fileNames: [], languageIds: ['javascript'], lineComments: ['//'], inConnectionStringsPreset: false },
  { name: 'JavaScript with JSX', syntax: 'code', extensions: ['.jsx'], fileNames: [], languageIds: ['javascriptreact'], lineComments: ['//'], inConnectionStringsPreset: false },
  { name: 'TypeScript', syntax: 'code', extensions: ['.ts', '.mts', '.cts'], fileNames: [], languageIds: ['typescript'], lineComments: ['//'], inConnectionStringsPreset: false },
  { name: 'TypeScript with JSX', syntax: 'code', extensions: ['.tsx'], fileNames: [], languageIds: ['typescriptreact'], lineComments: ['//'], inConnectionStringsPreset: false },
  { name: 'dotenv', syntax: 'text', extensions: ['.env'], fileNames: ['.env*'], languageIds: ['dotenv'], lineComments: ['#'], inConnectionStringsPreset: true },
  { name: 'JSON', syntax: 'text', extensions: ['.json'], fileNames: [], languageIds: ['json', 'jsonc'], lineComments: [], inConnectionStringsPreset: true },
  { name: 'YAML', syntax: 'text', extensions: ['.yaml', '.yml'], fileNames: [], languageIds: ['yaml'], lineComments: ['#'], inConnectionStringsPreset: true },
  { name: 'Java properties', syntax: 'text', extensions: ['.properties'], fileNames: [], languageIds: ['properties'], lineComments: ['#'], inConnectionStringsPreset: true },
  { name: 'TOML', syntax: 'text', extensions: ['.toml'], fileNames: [], languageIds: ['toml'], lineComments: ['#'], inConnectionStringsPreset: true },
  { name: 'INI', syntax: 'text', extensions: ['.ini'], fileNames: [], languageIds: ['ini'], lineComments: ['#', ';'], inConnectionStringsPreset: true },
  { name: 'Terraform', syntax: 'text', extensions: ['.tf'], fileNames: [], languageIds: ['terraform'], lineComments: ['#', '//'], inConnectionStringsPreset: true },
  { name: 'Terraform variables', syntax: 'text', extensions: ['.tfvars'], fileNames: [], languageIds: [], lineComments: ['#', '//'], inConnectionStringsPreset: false },
  { name: 'shell script', syntax: 'text', extensions: ['.sh'], fileNames: [], languageIds: [], lineComments: ['#'], inConnectionStringsPreset: false },
  { name: 'configuration file', syntax: 'text', extensions: ['.conf', '.cfg'], fileNames: [], languageIds: [], lineComments: ['#'], inConnectionStringsPreset: false },
  { name: 'plain text', syntax: 'text', extensions: [], fileNames: [], languageIds: ['plaintext'], lineComments: [], inConnectionStringsPreset: false },
];

/** The extension of a base name as Node's `path.extname` gives it (`.env` has none, `a.env` has `.env`). */
export function getFileExtension(baseName: string): string {
  const dot = baseName.lastIndexOf('.');
  return dot <= 0 || baseName === '..' ? '' : baseName.slice(dot);
}

const namePatterns = new Map<string, RegExp>();

/** Whether a base name matches a `fileNames` pattern (case-insensitive). */
export function matchesFileName(baseName: string, pattern: string): boolean {
  let regExp = namePatterns.get(pattern);
  if (!regExp) {
    const source = pattern
      .split('*')
      .map((part) => part.replace(/[\\^$.|?+()[\]{}]/g, '\\$&'))
      .join('.*');
    regExp = new RegExp(`^${source}$`, 'is');
    namePatterns.set(pattern, regExp);
  }
  return regExp.test(baseName);
}

/**
 * The kind of a file, by its base name: code by extension first (`.env.ts` is
 * TypeScript), then a file-name pattern (`.env.json` is dotenv), then the extension.
 */
export function findFileKind(baseName: string): FileKind | undefined {
  const extension = getFileExtension(baseName).toLowerCase();
  return (
    FILE_KINDS.find((kind) => kind.syntax === 'code' && kind.extensions.includes(extension)) ??
    FILE_KINDS.find((kind) => kind.fileNames.some((pattern) => matchesFileName(baseName, pattern))) ??
    FILE_KINDS.find((kind) => kind.extensions.includes(extension))
  );
}

/** The code kind of an editor language id (`typescriptreact`), for documents whose name says nothing (untitled). */
export function findCodeKindByLanguageId(languageId: string): FileKind | undefined {
  return FILE_KINDS.find((kind) => kind.syntax === 'code' && kind.languageIds.includes(languageId));
}

/** Flat-config `files` patterns of the `connection-strings` preset. */
export function getConnectionStringsPresetFiles(): string[] {
  return FILE_KINDS.filter((kind) => kind.inConnectionStringsPreset).flatMap((kind) => [
    ...kind.fileNames.map((pattern) => `**/${pattern}`),
    ...kind.extensions.map((extension) => `**/*${extension}`),
  ]);
}

/** Every comment opener of the text kinds: where the text language accepts an `eslint-disable` directive. */
export function getTextLineComments(): string[] {
  return [...new Set(FILE_KINDS.filter((kind) => kind.syntax === 'text').flatMap((kind) => kind.lineComments))];
}

/** Test files, as flat-config `files` patterns (kept with the constants, which the analysis may read). */
export { TEST_FILE_PATTERNS } from './constants';
