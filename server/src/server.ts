// The Retry Safety language server: capabilities → settings → linting → handlers → listen.
// It translates between LSP and ESLint's `Linter` running the plugin; it never loads or
// runs anything from the workspace.
import { format } from 'node:util';
import {
  CodeActionKind,
  DidChangeConfigurationNotification,
  ProposedFeatures,
  TextDocuments,
  createConnection,
  type CodeAction,
  type Diagnostic,
  type InitializeResult,
} from 'vscode-languageserver/node';
import { TextDocument } from 'vscode-languageserver-textdocument';
import pkg from '../package.json';
import { FIX_ALL_COMMAND, isFixAllRequested, isKindRequested, serverCapabilities } from './capabilities';
import type { DiagnosticData } from './diagnostics';
import type { DocumentLinter } from './lint';
import { ProtocolLifecycle } from './lifecycle';
import { createLogger, describeError } from './log';
import { computeMinimalEdits } from './minimal-edits';
import { SETTINGS_SECTION, readDebounceMs, readInitializationSettings, readSettings, readWorkspaceFolders, type Settings } from './settings';
import { GuardedMessageReader, TrackedMessageWriter, type Transport } from './transport';

const DEFAULT_DEBOUNCE_MS = 200;

/** How long a failing server waits for its last log line to go out before it exits. */
const LAST_WORDS_TIMEOUT_MS = 1000;

/**
 * Serves one client on `transport`. `ownsProcess`: the server is the process (started
 * with `--stdio` and the like), so it may take over `console` and process-level error
 * handlers, and it exits when the client is gone or its input is broken; false when
 * embedded (the benchmark runs it in its own process): the server then closes the
 * connection instead and leaves the process alone.
 */
export function startServer(transport: Transport, { ownsProcess }: { ownsProcess: boolean }): void {
  // ---------------------------------------------------------------- connection and lifecycle

  const lifecycle = new ProtocolLifecycle();
  /** Set once the input cannot be read any further (see failLoudly): nothing more is delivered. */
  let failing = false;
  const writer = new TrackedMessageWriter(transport.writer);
  const reader = new GuardedMessageReader(transport.reader, transport.input, {
    admit(message) {
      if (failing) return false;
      const admission = lifecycle.admit(message);
      if (admission.action === 'refuse') void writer.write(admission.response).catch(() => undefined);
      // Embedded, `exit` must not end the host process (vscode-languageserver would): close instead.
      if (admission.action === 'deliver' && !ownsProcess && (message as { method?: unknown }).method === 'exit') {
        closeConnection();
        return false;
      }
      return admission.action === 'deliver';
    },
    onMalformed: (reason) => failLoudly(`The client sent a malformed frame: ${reason}`),
  });
  const connection = createConnection(ProposedFeatures.all, reader, writer);
  /** False once the connection is closed: nothing is scheduled, published or logged after that. */
  let connectionOpen = true;

  const documents = new TextDocuments(TextDocument);

  let verbose = false;
  const log = createLogger(
    {
      error: (message) => {
        if (connectionOpen) connection.console.error(message);
      },
      warn: (message) => {
        if (connectionOpen) connection.console.warn(message);
      },
      info: (message) => {
        if (connectionOpen) connection.console.info(message);
      },
      log: (message) => {
        if (connectionOpen) connection.console.log(message);
      },
    },
    () => verbose,
  );
  if (ownsProcess) {
    // Whatever a dependency prints goes to the client's log, masked (stdout is the protocol).
    console.log = console.info = console.dir = (...args: unknown[]) => log.info(format(...args));
    console.warn = console.trace = (...args: unknown[]) => log.warn(format(...args));
    console.error = (...args: unknown[]) => log.error(format(...args));
    console.debug = (...args: unknown[]) => log.debug(format(...args));
    process.on('uncaughtException', (error) => log.error(`Uncaught: ${describeError(error)}`));
    process.on('unhandledRejection', (error) => log.error(`Unhandled rejection: ${describeError(error)}`));
  }

  transport.reader.onError((error) => failLoudly(`Reading from the client failed: ${error.message}`));
  transport.reader.onClose(() => {
    if (failing) return;
    // The client is gone (or closed our input): as vscode-languageserver does for stdio,
    // exit with 0 after a `shutdown` and 1 otherwise.
    if (ownsProcess) process.exit(lifecycle.state === 'shut down' ? 0 : 1);
    closeConnection();
  });

  /**
   * The input cannot be read any further (a broken frame, an undecodable message): what
   * follows is out of step, and the message lost may have been a change to a document,
   * so the server's copies can no longer be trusted. Living on would mean never
   * answering again; instead the server says why and stops: it exits with code 1 when it
   * is the process (the editor's client then starts a new one and sends the documents
   * again), and closes the connection when embedded.
   */
  function failLoudly(problem: string): void {
    if (failing) return;
    failing = true;
    const consequence = ownsProcess ? 'the server exits (code 1) so that the client can start a new one' : 'the server closes the connection';
    const line = `${problem.replace(/\.+$/, '')}. Nothing after it can be read: ${consequence}.`;
    log.error(line);
    if (ownsProcess) {
      // Also on stderr, which editors log even when they no longer read the protocol.
      createLogger({ error: writeStderr, warn: writeStderr, info: writeStderr, log: writeStderr }, () => false).error(line);
    }
    void writer.settled(LAST_WORDS_TIMEOUT_MS).then(() => {
      if (ownsProcess) process.exit(1);
      closeConnection();
    });
  }

  /** Stops all work and closes the connection; the process is left alone. */
  function closeConnection(): void {
    if (!connectionOpen) return;
    connectionOpen = false;
    for (const uri of [...timers.keys()]) cancelLint(uri);
    transport.writer.end();
    connection.dispose();
  }

  /** ESLint, the parser and the plugin, loaded once `initialize` has been answered (see engine.ts). */
  type Engine = typeof import('./engine');
  let engineLoad: Promise<{ engine: Engine; linter: DocumentLinter }> | undefined;

  function loadEngine() {
    engineLoad ??= import('./engine').then((engine) => ({ engine, linter: new engine.DocumentLinter(log) }));
    return engineLoad;
  }

  // ---------------------------------------------------------------- capabilities

  let canPullConfiguration = false;
  let canRegisterConfigurationChange = false;
  let useDocumentChanges = false;
  let debounceMs = DEFAULT_DEBOUNCE_MS;
  /** Paths of the workspace folders at start: what a document's path is matched against the test-file patterns from. */
  let workspaceFolders: string[] = [];

  connection.onInitialize((params): InitializeResult => {
    const capabilities = params.capabilities;
    canPullConfiguration = capabilities.workspace?.configuration === true;
    canRegisterConfigurationChange = capabilities.workspace?.didChangeConfiguration?.dynamicRegistration === true;
    useDocumentChanges = capabilities.workspace?.workspaceEdit?.documentChanges === true;
    fallbackSettings = readInitializationSettings(params.initializationOptions);
    debounceMs = readDebounceMs(params.initializationOptions, DEFAULT_DEBOUNCE_MS);
    verbose = fallbackSettings.trace.server === 'verbose';
    workspaceFolders = readWorkspaceFolders(params);

    return { capabilities: serverCapabilities, serverInfo: { name: pkg.name, version: pkg.version } };
  });

  // After `shutdown` nothing is linted or published any more; `exit` follows.
  connection.onShutdown(() => {
    for (const uri of [...timers.keys()]) cancelLint(uri);
  });

  connection.onInitialized(() => {
    if (canRegisterConfigurationChange) {
      void connection.client.register(DidChangeConfigurationNotification.type, { section: SETTINGS_SECTION });
    }
    log.info(`Retry Safety language server started (settings ${canPullConfiguration ? 'pulled per resource' : 'from the client'}).`);
    loadEngine().catch((error: unknown) => log.error(`Loading the linter failed: ${describeError(error)}`));
  });

  // ---------------------------------------------------------------- settings

  /** Settings from `initializationOptions` or a pushed `didChangeConfiguration`; used when none can be pulled. */
  let fallbackSettings: Settings = readSettings(undefined);
  const settingsByUri = new Map<string, Promise<Settings>>();

  function getSettings(uri: string): Promise<Settings> {
    if (!canPullConfiguration) return Promise.resolve(fallbackSettings);
    let settings = settingsByUri.get(uri);
    if (!settings) {
      settings = connection.workspace.getConfiguration({ scopeUri: uri, section: SETTINGS_SECTION }).then(
        // A client with nothing configured answers null: keep what initializationOptions said.
        (raw: unknown) => (raw === null || raw === undefined ? fallbackSettings : readSettings(raw)),
        (error: unknown) => {
          log.warn(`Could not read settings for ${uri}: ${describeError(error)}`);
          return fallbackSettings;
        },
      );
      settingsByUri.set(uri, settings);
    }
    return settings;
  }

  connection.onDidChangeConfiguration((change) => {
    const pushed = (change.settings as Record<string, unknown> | null | undefined)?.[SETTINGS_SECTION];
    if (pushed !== undefined) fallbackSettings = readSettings(pushed);
    settingsByUri.clear();
    // The engine version, hosts or rule levels may have changed: every open document is re-linted.
    for (const document of documents.all()) scheduleLint(document.uri, 0);
  });

  // ---------------------------------------------------------------- linting

  const timers = new Map<string, NodeJS.Timeout | NodeJS.Immediate>();
  /** What was last published per document, for hover. */
  const published = new Map<string, Diagnostic[]>();
  /** Documents already logged as skipped (one line per document and reason). */
  const skipLogged = new Map<string, string>();

  function cancelLint(uri: string): void {
    const timer = timers.get(uri);
    if (timer === undefined) return;
    clearTimeout(timer as NodeJS.Timeout);
    clearImmediate(timer as NodeJS.Immediate);
    timers.delete(uri);
  }

  function scheduleLint(uri: string, delay = debounceMs): void {
    cancelLint(uri);
    if (!connectionOpen || lifecycle.state !== 'running') return;
    const run = () => {
      timers.delete(uri);
      lintDocument(uri).catch((error: unknown) => log.error(`Linting ${uri} failed: ${describeError(error)}`));
    };
    timers.set(uri, delay > 0 ? setTimeout(run, delay) : setImmediate(run));
  }

  function publish(uri: string, version: number, diagnostics: Diagnostic[]): void {
    if (!connectionOpen || lifecycle.state !== 'running') return;
    published.set(uri, diagnostics);
    void connection.sendDiagnostics({ uri, version, diagnostics });
  }

  async function lintDocument(uri: string): Promise<void> {
    // `TextDocuments` updates a document in place: remember the version, not the object.
    const requestedVersion = documents.get(uri)?.version;
    if (requestedVersion === undefined) return;
    const settings = await getSettings(uri);
    verbose = settings.trace.server === 'verbose';
    const document = documents.get(uri);
    // Changed or closed while the settings were on their way: that change scheduled its own run.
    if (!document || document.version !== requestedVersion) return;
    if (!settings.enable) {
      publish(uri, document.version, []);
      return;
    }

    const { engine, linter } = await loadEngine();
    if (document.version !== requestedVersion || !documents.get(uri)) return;
    syncOpenModules(engine);
    const started = performance.now();
    const outcome = linter.lint(document.getText(), engine.getLintTarget(uri, document.languageId, workspaceFolders), settings);
    if (outcome.status === 'parse-error') {
      // Mid-typing: no parse-error noise, and the client keeps what it shows (fix data is
      // tied to the older version, so no stale fix can be applied).
      log.debug(`${uri} v${document.version}: not linted, ${outcome.message}`);
      return;
    }
    if (outcome.status === 'skipped') {
      if (skipLogged.get(uri) !== outcome.reason) log.info(`Skipped ${uri}: ${outcome.reason}.`);
      skipLogged.set(uri, outcome.reason);
      publish(uri, document.version, []);
      return;
    }
    skipLogged.delete(uri);
    const diagnostics = engine.toPublishedDiagnostics(document, outcome);
    publish(uri, document.version, diagnostics);
    log.debug(`${uri} v${document.version}: ${outcome.messages.length} finding(s) in ${(performance.now() - started).toFixed(1)} ms`);
  }

  /** Paths whose editor text the plugin's module index reads instead of the file on disk. */
  const openModulePaths = new Set<string>();

  /**
   * The plugin's module index reads the unsaved text of open documents when a linted
   * file imports them; closed ones go back to the file on disk.
   */
  function syncOpenModules(engine: Engine): void {
    const stillOpen = new Set<string>();
    for (const open of documents.all()) {
      const filePath = engine.getFilePath(open.uri);
      if (!filePath) continue;
      stillOpen.add(filePath);
      engine.setOpenModuleText(filePath, open.getText());
    }
    for (const filePath of openModulePaths) if (!stillOpen.has(filePath)) engine.setOpenModuleText(filePath, undefined);
    openModulePaths.clear();
    for (const filePath of stillOpen) openModulePaths.add(filePath);
  }

  /**
   * After an edit, the other open documents that may import the edited one (their text
   * names its file) are linted again, a little later, so that what they import is current.
   */
  function scheduleDependents(changed: TextDocument): void {
    const stem = getModuleStem(changed.uri);
    if (!stem) return;
    for (const other of documents.all()) {
      if (other.uri !== changed.uri && other.getText().includes(stem)) scheduleLint(other.uri, debounceMs * 2);
    }
  }

  // `TextDocuments` fires a content change right after each open; that one is not debounced.
  const justOpened = new Set<string>();
  documents.onDidOpen(({ document }) => {
    justOpened.add(document.uri);
    scheduleLint(document.uri, 0);
  });
  documents.onDidChangeContent(({ document }) => {
    if (justOpened.delete(document.uri)) return;
    scheduleLint(document.uri);
    scheduleDependents(document);
  });
  documents.onDidClose(({ document }) => {
    justOpened.delete(document.uri);
    cancelLint(document.uri);
    settingsByUri.delete(document.uri);
    skipLogged.delete(document.uri);
    published.delete(document.uri);
    if (deferredLint?.uri === document.uri) deferredLint = undefined;
    if (connectionOpen && lifecycle.state === 'running') void connection.sendDiagnostics({ uri: document.uri, diagnostics: [] });
  });

  // ---------------------------------------------------------------- handlers

  async function getFixAllEdits(uri: string) {
    const version = documents.get(uri)?.version;
    if (version === undefined) return undefined;
    const settings = await getSettings(uri);
    const { engine, linter } = await loadEngine();
    const document = documents.get(uri);
    if (!settings.enable || !document || document.version !== version) return undefined;
    const text = document.getText();
    const fixed = linter.fix(text, engine.getLintTarget(uri, document.languageId, workspaceFolders), settings);
    if (fixed === undefined) return undefined;
    return { document, edits: computeMinimalEdits(text, fixed).map((edit) => engine.toTextEdit(document, edit)) };
  }

  /** The last full lint done for a deferred fix (one entry: the document under the cursor). */
  let deferredLint: { uri: string; version: number; settings: Settings; diagnostics: Diagnostic[] } | undefined;

  function resolveDeferred(
    { engine, linter }: Awaited<ReturnType<typeof loadEngine>>,
    document: TextDocument,
    settings: Settings,
    diagnostic: Diagnostic,
  ): DiagnosticData | undefined {
    if (deferredLint?.uri !== document.uri || deferredLint.version !== document.version || deferredLint.settings !== settings) {
      const outcome = linter.lint(document.getText(), engine.getLintTarget(document.uri, document.languageId, workspaceFolders), settings);
      const diagnostics = outcome.status === 'linted' ? engine.toDiagnostics(document, outcome, Infinity) : [];
      deferredLint = { uri: document.uri, version: document.version, settings, diagnostics };
    }
    const same = engine.findSameDiagnostic(deferredLint.diagnostics, diagnostic);
    return same ? engine.readDiagnosticData(same) : undefined;
  }

  connection.onCodeAction(async ({ textDocument, context }) => {
    const document = documents.get(textDocument.uri);
    if (!document) return [];
    const actions: CodeAction[] = [];
    if (isKindRequested(CodeActionKind.QuickFix, context.only)) {
      const settings = await getSettings(document.uri);
      const loaded = await loadEngine();
      const target = loaded.engine.getLintTarget(document.uri, document.languageId, workspaceFolders);
      actions.push(
        ...loaded.engine.getQuickFixes({
          document,
          target,
          diagnostics: context.diagnostics,
          useDocumentChanges,
          resolveDeferred: (diagnostic) => resolveDeferred(loaded, document, settings, diagnostic),
        }),
      );
    }
    if (isFixAllRequested(context.only)) {
      const fixAll = await getFixAllEdits(document.uri);
      if (fixAll && fixAll.edits.length > 0) {
        const { engine } = await loadEngine();
        actions.push(engine.getFixAllAction(fixAll.document, fixAll.edits, useDocumentChanges));
      }
    }
    return actions;
  });

  connection.onExecuteCommand(async ({ command, arguments: args }) => {
    if (command !== FIX_ALL_COMMAND) return null;
    // Arguments: the document's URI, or `{ uri, version? }` (a version that no longer matches is refused).
    const first: unknown = args?.[0];
    const uri = typeof first === 'string' ? first : (first as { uri?: unknown } | undefined)?.uri;
    const version = (first as { version?: unknown } | undefined)?.version;
    if (typeof uri !== 'string') return null;
    const fixAll = await getFixAllEdits(uri);
    if (!fixAll || fixAll.edits.length === 0) return { applied: false };
    if (typeof version === 'number' && version !== fixAll.document.version) return { applied: false };
    const { engine } = await loadEngine();
    const result = await connection.workspace.applyEdit({
      label: 'Fix all retry-safety problems',
      edit: engine.toWorkspaceEdit(fixAll.document, fixAll.edits, useDocumentChanges),
    });
    return { applied: result.applied };
  });

  connection.onHover(async ({ textDocument, position }) => {
    const diagnostics = published.get(textDocument.uri);
    if (!diagnostics?.length) return null;
    const { engine } = await loadEngine();
    return engine.getHover(diagnostics, position);
  });

  // For the benchmark and diagnosis: the server's own memory (after a GC when node runs with --expose-gc).
  connection.onRequest('retrySafety/serverStats', () => {
    (globalThis as { gc?: () => void }).gc?.();
    return { memory: process.memoryUsage(), openDocuments: documents.keys().length, published: published.size };
  });

  // ---------------------------------------------------------------- listen

  documents.listen(connection);
  connection.listen();
}

function writeStderr(message: string): void {
  process.stderr.write(`${message}\n`);
}

/** `db` of `file:///app/src/db.ts`, `mongo` of `…/db/mongo/index.js`: the name an import of the file contains. */
function getModuleStem(uri: string): string | undefined {
  const segments = uri.replace(/[?#].*$/s, '').split('/');
  let name = segments.pop() ?? '';
  name = name.replace(/\.[^.]*$/, '');
  if (name === 'index') name = segments.pop() ?? '';
  return /^[\w.-]{2,}$/.test(name) ? name : undefined;
}
