// What the server announces in its `initialize` result. Kept free of ESLint, the parser
// and the plugin, which load only after `initialize` has been answered (see engine.ts).
import { CodeActionKind, TextDocumentSyncKind, type ServerCapabilities } from 'vscode-languageserver';

export const FIX_ALL_KIND = `${CodeActionKind.SourceFixAll}.retrySafety`;
export const FIX_ALL_COMMAND = 'retrySafety.fixAll';

export const serverCapabilities: ServerCapabilities = {
  // `save`: a saved infrastructure file may state another DocumentDB engine version (for
  // clients that do not watch files for the server).
  textDocumentSync: { openClose: true, change: TextDocumentSyncKind.Incremental, save: { includeText: false } },
  codeActionProvider: { codeActionKinds: [CodeActionKind.QuickFix, FIX_ALL_KIND] },
  executeCommandProvider: { commands: [FIX_ALL_COMMAND] },
  hoverProvider: true,
  // Each document's infrastructure code is searched from the workspace folder that holds it.
  workspace: { workspaceFolders: { supported: true, changeNotifications: true } },
};

/** Whether a request's `only` filter lets an action of `kind` through. */
export function isKindRequested(kind: string, only: readonly string[] | undefined): boolean {
  if (!only) return true;
  return only.some((requested) => kind === requested || kind.startsWith(`${requested}.`));
}

/** Whether fix-all should be computed: only when asked for by kind (it runs the linter again). */
export function isFixAllRequested(only: readonly string[] | undefined): boolean {
  return only !== undefined && isKindRequested(FIX_ALL_KIND, only);
}
