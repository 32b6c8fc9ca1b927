// A small LSP client for the protocol tests and the benchmark: spawns the BUILT server
// bundle over stdio and talks JSON-RPC to it like an editor would (configuration
// requests answered from `settings`, `workspace/applyEdit` applied to its own copy).
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { createMessageConnection, StreamMessageReader, StreamMessageWriter, type MessageConnection } from 'vscode-jsonrpc/node';
import {
  ApplyWorkspaceEditRequest,
  CodeActionRequest,
  ConfigurationRequest,
  DidChangeConfigurationNotification,
  DidChangeTextDocumentNotification,
  DidChangeWatchedFilesNotification,
  DidChangeWorkspaceFoldersNotification,
  DidCloseTextDocumentNotification,
  DidOpenTextDocumentNotification,
  DidSaveTextDocumentNotification,
  ExecuteCommandRequest,
  ExitNotification,
  HoverRequest,
  InitializeRequest,
  InitializedNotification,
  LogMessageNotification,
  PublishDiagnosticsNotification,
  RegistrationRequest,
  ShowMessageNotification,
  ShutdownRequest,
  type CodeAction,
  type Diagnostic,
  type FileEvent,
  type Hover,
  type InitializeResult,
  type PublishDiagnosticsParams,
  type Range,
  type Registration,
  type TextEdit,
  type WorkspaceEdit,
} from 'vscode-languageserver-protocol/node';
import { TextDocument } from 'vscode-languageserver-textdocument';

export const SERVER_BUNDLE = fileURLToPath(new URL('../../server/dist/server.cjs', import.meta.url));

export interface ClientOptions {
  /** `retrySafety` settings returned for `workspace/configuration`; omit to act as a client without it. */
  settings?: Record<string, unknown>;
  initializationOptions?: unknown;
  /** false: start the server but send no `initialize` (to test what it does before). */
  initialize?: boolean;
  /** Workspace folders (`file:` URIs); none by default. */
  workspaceFolders?: string[];
  /** Announce that the client watches files for the server (`workspace/didChangeWatchedFiles` registrations). */
  watchFiles?: boolean;
}

type Waiter = { uri: string; accept: (params: PublishDiagnosticsParams) => boolean; resolve: (params: PublishDiagnosticsParams) => void };

export class LspClient {
  readonly logs: string[] = [];
  /** What the server showed the user (`window/showMessage`). */
  readonly shownMessages: string[] = [];
  /** What the server wrote to stderr. */
  stderr = '';
  readonly published: PublishDiagnosticsParams[] = [];
  readonly documents = new Map<string, TextDocument>();
  /** What the server registered with `client/registerCapability`. */
  readonly registrations: Registration[] = [];
  settings: Record<string, unknown> | undefined;
  /** Delay before answering `workspace/configuration`, to let edits overtake a settings pull. */
  configurationDelayMs = 0;
  initializeResult!: InitializeResult;
  #waiters: Waiter[] = [];
  #exited: Promise<number | null>;
  #closed: Promise<number | null>;

  private constructor(
    readonly process: ChildProcess,
    readonly connection: MessageConnection,
    options: ClientOptions,
  ) {
    this.settings = options.settings;
    this.#exited = new Promise((resolve) => process.once('exit', (code) => resolve(code)));
    this.#closed = new Promise((resolve) => process.once('close', (code) => resolve(code)));
    process.stderr?.on('data', (chunk: Buffer) => {
      this.stderr += chunk.toString();
    });
    connection.onNotification(LogMessageNotification.type, ({ message }) => {
      this.logs.push(message);
    });
    connection.onNotification(ShowMessageNotification.type, ({ message }) => {
      this.shownMessages.push(message);
    });
    connection.onNotification(PublishDiagnosticsNotification.type, (params) => {
      this.published.push(params);
      for (const waiter of [...this.#waiters]) {
        if (waiter.uri === params.uri && waiter.accept(params)) {
          this.#waiters.splice(this.#waiters.indexOf(waiter), 1);
          waiter.resolve(params);
        }
      }
    });
    connection.onRequest(ConfigurationRequest.type, async ({ items }) => {
      if (this.configurationDelayMs > 0) await new Promise((resolve) => setTimeout(resolve, this.configurationDelayMs));
      return items.map(() => this.settings ?? null);
    });
    connection.onRequest(RegistrationRequest.type, ({ registrations }) => {
      this.registrations.push(...registrations);
    });
    connection.onRequest(ApplyWorkspaceEditRequest.type, ({ edit }) => {
      this.applyWorkspaceEdit(edit);
      return { applied: true };
    });
  }

  static async start(options: ClientOptions = {}): Promise<LspClient> {
    const child = spawn(process.execPath, [SERVER_BUNDLE, '--stdio'], { stdio: ['pipe', 'pipe', 'pipe'] });
    const connection = createMessageConnection(new StreamMessageReader(child.stdout!), new StreamMessageWriter(child.stdin!));
    const client = new LspClient(child, connection, options);
    connection.listen();
    if (options.initialize === false) return client;
    await client.initialize(options);
    return client;
  }

  /** Sends `initialize` (and `initialized`), announcing what an editor like VS Code supports. */
  async initialize(options: ClientOptions = {}): Promise<InitializeResult> {
    const connection = this.connection;
    this.initializeResult = await connection.sendRequest(InitializeRequest.type, {
      processId: process.pid,
      rootUri: options.workspaceFolders?.[0] ?? null,
      workspaceFolders: options.workspaceFolders?.map((uri, index) => ({ uri, name: `folder-${index}` })) ?? null,
      initializationOptions: options.initializationOptions,
      capabilities: {
        workspace: {
          configuration: options.settings !== undefined,
          didChangeConfiguration: { dynamicRegistration: options.settings !== undefined },
          workspaceEdit: { documentChanges: true },
          applyEdit: true,
          ...(options.watchFiles ? { didChangeWatchedFiles: { dynamicRegistration: true }, workspaceFolders: true } : {}),
        },
        textDocument: {
          publishDiagnostics: { versionSupport: true, codeDescriptionSupport: true, dataSupport: true },
          codeAction: { dataSupport: true, isPreferredSupport: true },
          hover: { contentFormat: ['markdown', 'plaintext'] },
        },
      },
    });
    await connection.sendNotification(InitializedNotification.type, {});
    return this.initializeResult;
  }

  /** The next diagnostics for `uri` that satisfy `accept` (already received ones count if `includeReceived`). */
  waitForDiagnostics(
    uri: string,
    accept: (params: PublishDiagnosticsParams) => boolean = () => true,
    timeoutMs = 15_000,
  ): Promise<PublishDiagnosticsParams> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.#waiters = this.#waiters.filter((waiter) => waiter.resolve !== done);
        reject(new Error(`No matching diagnostics for ${uri} within ${timeoutMs} ms`));
      }, timeoutMs);
      const done = (params: PublishDiagnosticsParams) => {
        clearTimeout(timer);
        resolve(params);
      };
      this.#waiters.push({ uri, accept, resolve: done });
    });
  }

  /** Diagnostics of a given document version (the server stamps every publish with it). */
  diagnosticsFor(uri: string, version: number, timeoutMs?: number): Promise<Diagnostic[]> {
    const received = this.published.find((params) => params.uri === uri && params.version === version);
    if (received) return Promise.resolve(received.diagnostics);
    return this.waitForDiagnostics(uri, (params) => params.version === version, timeoutMs).then((params) => params.diagnostics);
  }

  async open(uri: string, languageId: string, text: string): Promise<TextDocument> {
    const document = TextDocument.create(uri, languageId, 1, text);
    this.documents.set(uri, document);
    await this.connection.sendNotification(DidOpenTextDocumentNotification.type, {
      textDocument: { uri, languageId, version: 1, text },
    });
    return document;
  }

  /** Sends edits (or a whole new text) as the next version; returns that version. */
  async change(uri: string, change: string | TextEdit[]): Promise<number> {
    const document = this.documents.get(uri)!;
    const version = document.version + 1;
    const edits: TextEdit[] =
      typeof change === 'string' ? [{ range: { start: document.positionAt(0), end: document.positionAt(document.getText().length) }, newText: change }] : change;
    TextDocument.update(document, edits.map((edit) => ({ range: edit.range, text: edit.newText })), version);
    await this.connection.sendNotification(DidChangeTextDocumentNotification.type, {
      textDocument: { uri, version },
      contentChanges: edits.map((edit) => ({ range: edit.range, text: edit.newText })),
    });
    return version;
  }

  /** Files changed on disk, as an editor's file watcher reports them. */
  async changeWatchedFiles(changes: FileEvent[]): Promise<void> {
    await this.connection.sendNotification(DidChangeWatchedFilesNotification.type, { changes });
  }

  /** Workspace folders added and removed (`file:` URIs). */
  async changeWorkspaceFolders(added: string[], removed: string[] = []): Promise<void> {
    const folders = (uris: string[]) => uris.map((uri, index) => ({ uri, name: `changed-${index}` }));
    await this.connection.sendNotification(DidChangeWorkspaceFoldersNotification.type, { event: { added: folders(added), removed: folders(removed) } });
  }

  /** The document was saved (its text on disk is what the client holds). */
  async save(uri: string): Promise<void> {
    await this.connection.sendNotification(DidSaveTextDocumentNotification.type, { textDocument: { uri } });
  }

  async close(uri: string): Promise<void> {
    this.documents.delete(uri);
    await this.connection.sendNotification(DidCloseTextDocumentNotification.type, { textDocument: { uri } });
  }

  /** Applies a workspace edit to the client's documents and tells the server, as an editor does. */
  applyWorkspaceEdit(edit: WorkspaceEdit): void {
    const byUri = new Map<string, TextEdit[]>();
    for (const change of edit.documentChanges ?? []) {
      if ('textDocument' in change) byUri.set(change.textDocument.uri, change.edits as TextEdit[]);
    }
    for (const [uri, edits] of Object.entries(edit.changes ?? {})) byUri.set(uri, edits);
    for (const [uri, edits] of byUri) {
      const document = this.documents.get(uri)!;
      const text = TextDocument.applyEdits(document, edits);
      void this.change(uri, text);
    }
  }

  text(uri: string): string {
    return this.documents.get(uri)!.getText();
  }

  version(uri: string): number {
    return this.documents.get(uri)!.version;
  }

  codeActions(uri: string, range: Range, diagnostics: Diagnostic[], only?: string[]): Promise<CodeAction[]> {
    return this.connection
      .sendRequest(CodeActionRequest.type, { textDocument: { uri }, range, context: { diagnostics, ...(only ? { only } : {}) } })
      .then((actions) => (actions ?? []) as CodeAction[]);
  }

  hover(uri: string, position: { line: number; character: number }): Promise<Hover | null> {
    return this.connection.sendRequest(HoverRequest.type, { textDocument: { uri }, position });
  }

  executeCommand(command: string, args: unknown[]): Promise<unknown> {
    return this.connection.sendRequest(ExecuteCommandRequest.type, { command, arguments: args });
  }

  /** New settings, announced the way VS Code does (a change notification; the server pulls). */
  async changeSettings(settings: Record<string, unknown>): Promise<void> {
    this.settings = settings;
    await this.connection.sendNotification(DidChangeConfigurationNotification.type, { settings: { retrySafety: settings } });
  }

  /** Writes bytes to the server's input as they are, bypassing the client's framing. */
  writeRaw(bytes: string | Uint8Array): Promise<void> {
    return new Promise((resolve, reject) => this.process.stdin!.write(bytes, (error) => (error ? reject(error) : resolve())));
  }

  /** The server's exit code, once it has exited and its output is read to the end; rejects after `timeoutMs`. */
  exitCode(timeoutMs = 15_000): Promise<number | null> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`The server did not exit within ${timeoutMs} ms`)), timeoutMs);
      void this.#closed.then((code) => {
        clearTimeout(timer);
        resolve(code);
      });
    });
  }

  /** The first log line matching `pattern` (already received or still to come). */
  async waitForLog(pattern: RegExp, timeoutMs = 5_000): Promise<string> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const line = this.logs.find((candidate) => pattern.test(candidate));
      if (line !== undefined) return line;
      if (Date.now() > deadline) throw new Error(`No log line matching ${pattern} within ${timeoutMs} ms`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  /** Whether the server process is still running. */
  get isAlive(): boolean {
    return this.process.exitCode === null && this.process.signalCode === null;
  }

  async stop(): Promise<void> {
    if (this.isAlive) {
      await this.connection.sendRequest(ShutdownRequest.type).catch(() => undefined);
      await this.connection.sendNotification(ExitNotification.type).catch(() => undefined);
      const timer = setTimeout(() => this.process.kill(), 2000);
      await this.#exited;
      clearTimeout(timer);
    }
    this.connection.dispose();
  }
}
