// Which documents the extension sends to the language server: those of the plugin's file
// kinds, by language and, for files without an extension of their own (`.env.local`), by
// name. The table comes from a plugin module that imports nothing, so ESLint stays out of
// the extension host.
import { FILE_KINDS } from 'eslint-plugin-retry-safety/file-kinds';

export interface DocumentFilter {
  scheme: string;
  language?: string;
  pattern?: string;
}

/** Languages of the documents the server checks: code with every rule, text files for connection strings. */
export const LANGUAGE_IDS = FILE_KINDS.flatMap((kind) => kind.languageIds);

/** Files matched by name (`.env`, `.env.local`, `.env.production`, …) whatever language VS Code gives them. */
export const FILE_NAME_PATTERNS = FILE_KINDS.flatMap((kind) => kind.fileNames.map((name) => `**/${name}`));

export const documentSelector: DocumentFilter[] = [
  ...LANGUAGE_IDS.flatMap((language) => [
    { scheme: 'file', language },
    { scheme: 'untitled', language },
  ]),
  ...FILE_NAME_PATTERNS.map((pattern) => ({ scheme: 'file', pattern })),
];
