// The Retry Safety language server: capabilities → settings → linting → handlers → listen.
// It translates between LSP and ESLint running the plugin. Each folder is linted in one of
// two modes: with the project's own eslint.config.* (only in a trusted workspace, as this
// runs the project's code) or with the editor settings alone (nothing from the workspace runs).
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { format } from 'node:util';
import {
  CodeActionKind,
  DidChangeConfigurationNotification,
  DidChangeWatchedFilesNotification,
  MessageType,
  ProposedFeatures,
  ShowMessageNotification,
  TextDocuments,
  createConnection,
  type CodeAction,
  type Diagnostic,
  FileChangeType,
  type FileEvent,
  type InitializeResult,
  type WorkspaceFoldersChangeEvent,
} from 'vscode-languageserver/node';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { RULE_PREFIX } from 'eslint-plugin-retry-safety/constants';
import pkg from '../package.json';
import { getFilePath } from './file-paths';
import { FIX_ALL_COMMAND, isFixAllRequested, isKindRequested, serverCapabilities } from './capabilities';
import { CONFIG_FILE_GLOB, findConfigFile, isConfigFileName } from './config-files';
import type { DiagnosticData } from './diagnostics';
import type { DocumentLinter, LintOutcome } from './lint';
import { ProtocolLifecycle } from './lifecycle';
import { createLogger, describeError, maskSecrets } from './log';
import { computeMinimalEdits } from './minimal-edits';
import type { ProjectConfig, ProjectConfigs } from './project-config';
import {
  SETTINGS_SECTION,
  WORKSPACE_TRUST_GRANTED,
  readConfigFilesWatched,
  readDebounceMs,
  readInitializationSettings,
  readSettings,
  readWorkspaceFolders,
  readWorkspaceTrusted,
  type Settings,
} from './settings';
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
  let engineLoad: Promise<{ engine: Engine; linter: DocumentLinter; projectConfigs: ProjectConfigs }> | undefined;

  function loadEngine() {
    engineLoad ??= import('./engine').then((engine) => ({
      engine,
      linter: new engine.DocumentLinter(log),
      projectConfigs: new engine.ProjectConfigs(),
    }));
    return engineLoad;
  }

  // ---------------------------------------------------------------- capabilities

  let canPullConfiguration = false;
  let canRegisterConfigurationChange = false;
  let useDocumentChanges = false;
  let canWatchFiles = false;
  let canTrackFolders = false;
  let debounceMs = DEFAULT_DEBOUNCE_MS;
  /** Whether the client says the workspace is trusted: only then is a project's ESLint config loaded. */
  let workspaceTrusted = false;
  let configFilesWatched = false;

  connection.onInitialize((params): InitializeResult => {
    const capabilities = params.capabilities;
    canPullConfiguration = capabilities.workspace?.configuration === true;
    canRegisterConfigurationChange = capabilities.workspace?.didChangeConfiguration?.dynamicRegistration === true;
    useDocumentChanges = capabilities.workspace?.workspaceEdit?.documentChanges === true;
    canWatchFiles = capabilities.workspace?.didChangeWatchedFiles?.dynamicRegistration === true;
    canTrackFolders = capabilities.workspace?.workspaceFolders === true;
    workspaceFolders = sortFolders(readWorkspaceFolders(params));
    workspaceTrusted = readWorkspaceTrusted(params.initializationOptions);
    configFilesWatched = readConfigFilesWatched(params.initializationOptions);
    fallbackSettings = readInitializationSettings(params.initializationOptions);
    debounceMs = readDebounceMs(params.initializationOptions, DEFAULT_DEBOUNCE_MS);
    verbose = fallbackSettings.trace.server === 'verbose';

    return { capabilities: serverCapabilities, serverInfo: { name: pkg.name, version: pkg.version } };
  });

  // After `shutdown` nothing is linted or published any more; `exit` follows.
  connection.onShutdown(() => {
    for (const uri of [...timers.keys()]) cancelLint(uri);
  });

  connection.onInitialized(() => {
    if (canTrackFolders) connection.workspace.onDidChangeWorkspaceFolders(onWorkspaceFoldersChanged);
    if (canRegisterConfigurationChange) {
      void connection.client.register(DidChangeConfigurationNotification.type, { section: SETTINGS_SECTION });
    }
    log.info(
      `Retry Safety language server started (settings ${canPullConfiguration ? 'pulled per resource' : 'from the client'}; ` +
        `workspace ${workspaceTrusted ? "trusted: a project's eslint.config.* is used where there is one" : 'not trusted: editor settings only, no workspace code runs'}).`,
    );
    loadEngine()
      .then(({ engine }) => {
        // Infrastructure files that may state the DocumentDB engine version (without a watcher, saves and a
        // periodic check stand in), the modules, manifests and tsconfig files the module index reads (without
        // a watcher, it looks at them again after 3 to 30 s), and ESLint config files unless the extension
        // watches those itself.
        const globs = [engine.INFRA_FILE_GLOB, ...engine.MODULE_FILE_GLOBS, ...(configFilesWatched ? [] : [CONFIG_FILE_GLOB])];
        if (canWatchFiles && connectionOpen) {
          void connection.client.register(DidChangeWatchedFilesNotification.type, { watchers: globs.map((globPattern) => ({ globPattern })) });
        }
      })
      .catch((error: unknown) => log.error(`Loading the linter failed: ${describeError(error)}`));
  });

  // ---------------------------------------------------------------- workspace folders and infrastructure files

  /** Workspace folders on disk, deepest first. */
  let workspaceFolders: string[] = [];

  function setWorkspaceFolders(folders: ReadonlyArray<{ uri: string }>): void {
    workspaceFolders = sortFolders(folders.map((folder) => getFilePath(folder.uri)).filter((folder): folder is string => folder !== undefined));
  }

  function sortFolders(paths: readonly string[]): string[] {
    return [...new Set(paths)].sort((a, b) => b.length - a.length);
  }

  /** The workspace folder that holds a document: where its infrastructure code is searched. */
  function getWorkspaceFolder(uri: string): string | undefined {
    const filePath = getFilePath(uri);
    if (!filePath) return undefined;
    return workspaceFolders.find((folder) => {
      const relative = path.relative(folder, filePath);
      return relative !== '' && !relative.startsWith('..') && !path.isAbsolute(relative);
    });
  }

  function onWorkspaceFoldersChanged(event: WorkspaceFoldersChangeEvent): void {
    const removed = new Set(event.removed.map((folder) => getFilePath(folder.uri)));
    const kept = workspaceFolders.filter((folder) => !removed.has(folder)).map((folder) => ({ uri: pathToFileURL(folder).href }));
    setWorkspaceFolders([...kept, ...event.added]);
    for (const document of documents.all()) scheduleLint(document.uri, 0);
  }

  /** Files changed on disk (or saved): when one may change a folder's DocumentDB engine version, every open document is linted again. */
  async function noteChangedFiles(uris: readonly string[]): Promise<void> {
    const { engine } = await loadEngine();
    let changed = false;
    for (const uri of uris) {
      const filePath = getFilePath(uri);
      if (filePath && engine.noteInfraFileChanged(filePath)) changed = true;
    }
    if (!changed) return;
    log.debug('An infrastructure file changed: the DocumentDB engine version is looked for again.');
    deferredLint = undefined;
    for (const document of documents.all()) scheduleLint(document.uri, 0);
  }

  /**
   * Modules, manifests or tsconfig files changed on disk outside the editor (a checkout, a
   * generator): the module index reads them again, and the open documents that may import
   * them are linted again. An open document's own text wins over its file, so its saves are
   * left out.
   */
  async function noteModuleChanges(changes: readonly FileEvent[]): Promise<void> {
    const { engine, projectConfigs } = await loadEngine();
    const openPaths = new Set(documents.all().map((document) => getFilePath(document.uri)));
    let everyDocument = false;
    const stems = new Set<string>();
    for (const { uri, type } of changes) {
      const filePath = getFilePath(uri);
      if (!filePath || openPaths.has(filePath)) continue;
      const change = type === FileChangeType.Created ? 'created' : type === FileChangeType.Deleted ? 'deleted' : 'changed';
      const kind = engine.noteModuleFileChanged(filePath, change);
      if (kind === undefined) continue;
      void projectConfigs.noteModuleFileChanged(filePath, change);
      const stem = getModuleStem(uri);
      if (kind === 'project' || !stem) everyDocument = true;
      else stems.add(stem);
    }
    if (!everyDocument && stems.size === 0) return;
    log.debug(`Modules changed on disk (${everyDocument ? 'a manifest or tsconfig file' : [...stems].join(', ')}): linting the open documents that may import them again.`);
    if (everyDocument) for (const document of documents.all()) scheduleLint(document.uri, debounceMs);
    else scheduleDocumentsNaming(stems, debounceMs);
  }

  connection.onDidChangeWatchedFiles(({ changes }) => {
    noteConfigChanges(changes);
    noteModuleChanges(changes).catch((error: unknown) => log.error(`Reading module changes failed: ${describeError(error)}`));
    noteChangedFiles(changes.map((change) => change.uri)).catch((error: unknown) => log.error(`Reading file changes failed: ${describeError(error)}`));
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
    lintAllOpen();
  });

  connection.onNotification(WORKSPACE_TRUST_GRANTED, () => {
    if (workspaceTrusted) return;
    workspaceTrusted = true;
    log.info("The workspace is now trusted: a project's eslint.config.* is used where there is one.");
    lintAllOpen();
  });

  /** A config file created, changed or deleted: load configs afresh and lint every open document again. */
  function noteConfigChanges(changes: readonly FileEvent[]): void {
    const configChanges = changes.filter((change) => isConfigFileName(path.basename(getFilePath(change.uri) ?? '')));
    if (configChanges.length === 0) return;
    log.info(`ESLint config changed (${configChanges.map((change) => getFilePath(change.uri)).join(', ')}): linting open documents again.`);
    void engineLoad?.then(({ projectConfigs }) => projectConfigs.clear());
    lintAllOpen();
  }

  function lintAllOpen(): void {
    for (const document of documents.all()) scheduleLint(document.uri, 0);
  }

  // ---------------------------------------------------------------- lint mode per folder

  type LintMode = { kind: 'settings' } | { kind: 'project'; config: Extract<ProjectConfig, { status: 'loaded' }>; filePath: string };
  const SETTINGS_MODE: LintMode = { kind: 'settings' };
  /** What the log last said of each folder's mode (one line per folder and change). */
  const loggedModes = new Map<string, string>();
  /** Broken configs already shown to the user, by file and reason. */
  const shownFailures = new Set<string>();

  function logMode(folder: string, mode: string): void {
    if (loggedModes.get(folder) === mode) return;
    if (loggedModes.size > 1000) loggedModes.clear();
    loggedModes.set(folder, mode);
    log.info(`${folder}: ${mode}.`);
  }

  /** The workspace folder holding `filePath` (the deepest), else its own folder. */
  function getFolder(filePath: string): string {
    const containing = workspaceFolders.filter((folder) => filePath === folder || filePath.startsWith(folder.endsWith(path.sep) ? folder : folder + path.sep));
    return containing.sort((a, b) => b.length - a.length)[0] ?? path.dirname(filePath);
  }

  /** How a document is linted: with its project's ESLint config when allowed and loadable, else with the settings. */
  async function getLintMode(uri: string, settings: Settings): Promise<LintMode> {
    const filePath = getFilePath(uri);
    if (!filePath) return SETTINGS_MODE;
    const configFile = findConfigFile(filePath);
    const folder = configFile ? path.dirname(configFile) : getFolder(filePath);
    if (!configFile) {
      logMode(folder, 'no eslint.config.* found, linting with the retrySafety.* settings');
      return SETTINGS_MODE;
    }
    if (!workspaceTrusted) {
      logMode(folder, `the workspace is not trusted, so ${path.basename(configFile)} is not loaded: linting with the retrySafety.* settings`);
      return SETTINGS_MODE;
    }
    if (!settings.useProjectConfig) {
      logMode(folder, `retrySafety.useProjectConfig is off, so ${path.basename(configFile)} is not used: linting with the retrySafety.* settings`);
      return SETTINGS_MODE;
    }
    const { projectConfigs } = await loadEngine();
    const config = await projectConfigs.get(configFile);
    if (config.status === 'broken') {
      logMode(folder, `${configFile} could not be loaded (${config.reason}); linting with the retrySafety.* settings until the file changes`);
      showConfigFailure(configFile, config.reason);
      return SETTINGS_MODE;
    }
    logMode(folder, `linting with ${configFile} (${config.origin}); ${RULE_PREFIX}* rules only`);
    return { kind: 'project', config, filePath };
  }

  function showConfigFailure(configFile: string, reason: string): void {
    const key = `${configFile}\0${reason}`;
    if (shownFailures.has(key) || !connectionOpen) return;
    shownFailures.add(key);
    // A notification, not a request: nothing waits for the user to close it.
    void connection.sendNotification(ShowMessageNotification.type, {
      type: MessageType.Warning,
      message: maskSecrets(`Retry Safety could not load ${path.basename(configFile)}: ${reason}. Using the retrySafety.* settings for this folder until the file is fixed.`),
    });
  }

  /** Lints a document's current text in its folder's mode; never throws. */
  async function lintText(document: TextDocument, settings: Settings): Promise<LintOutcome> {
    const { engine, linter } = await loadEngine();
    const text = document.getText();
    const target = getTarget(engine, document);
    const mode = await getLintMode(document.uri, settings);
    if (mode.kind === 'settings') return linter.lint(text, target, settings);
    try {
      return await engine.lintWithProjectConfig(mode.config, text, mode.filePath, target);
    } catch (error) {
      log.error(`Linting ${mode.filePath} with ${mode.config.configFile} failed: ${describeError(error)}`);
      return { status: 'skipped', reason: 'the linter failed' };
    }
  }

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

    const loaded = await loadEngine();
    const { engine } = loaded;
    if (document.version !== requestedVersion || !documents.get(uri)) return;
    syncOpenModules(loaded);
    const started = performance.now();
    const outcome = await lintText(document, settings);
    // Changed or closed while a project's config was linting it: that change scheduled its own run.
    if (document.version !== requestedVersion || !documents.get(uri)) return;
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

  /** How a document is linted, with the workspace folder that holds it. */
  function getTarget(engine: Engine, document: TextDocument) {
    const target = engine.getLintTarget(document.uri, document.languageId, workspaceFolders);
    const folder = getWorkspaceFolder(document.uri);
    return folder ? { ...target, infraRoot: folder } : target;
  }

  /** Paths whose editor text the plugin's module index reads instead of the file on disk. */
  const openModulePaths = new Set<string>();

  /**
   * The plugin's module index reads the unsaved text of open documents when a linted
   * file imports them; closed ones go back to the file on disk.
   */
  function syncOpenModules({ engine, projectConfigs }: { engine: Engine; projectConfigs: ProjectConfigs }): void {
    const setText = (filePath: string, text: string | undefined) => {
      engine.setOpenModuleText(filePath, text);
      void projectConfigs.setOpenModuleText(filePath, text);
    };
    const stillOpen = new Set<string>();
    for (const open of documents.all()) {
      const filePath = getFilePath(open.uri);
      if (!filePath) continue;
      stillOpen.add(filePath);
      setText(filePath, open.getText());
    }
    for (const filePath of openModulePaths) if (!stillOpen.has(filePath)) setText(filePath, undefined);
    openModulePaths.clear();
    for (const filePath of stillOpen) openModulePaths.add(filePath);
  }

  /**
   * After an edit, the other open documents that may import the edited one (their text
   * names its file) are linted again, a little later, so that what they import is current.
   */
  function scheduleDependents(changed: TextDocument): void {
    const stem = getModuleStem(changed.uri);
    if (stem) scheduleDocumentsNaming([stem], debounceMs * 2, changed.uri);
  }

  /** Lints again, after `delayMs`, the open documents (but `except`) whose text names one of the module stems. */
  function scheduleDocumentsNaming(stems: Iterable<string>, delayMs: number, except?: string): void {
    const wanted = [...stems];
    for (const document of documents.all()) {
      if (document.uri === except) continue;
      const text = document.getText();
      if (wanted.some((stem) => text.includes(stem))) scheduleLint(document.uri, delayMs);
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
  documents.onDidSave(({ document }) => {
    noteChangedFiles([document.uri]).catch((error: unknown) => log.error(`Reading a saved file failed: ${describeError(error)}`));
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
    const mode = await getLintMode(uri, settings);
    let fixed: string | undefined;
    if (mode.kind === 'settings') {
      fixed = linter.fix(text, getTarget(engine, document), settings);
    } else {
      try {
        fixed = await engine.fixWithProjectConfig(mode.config, text, mode.filePath);
      } catch (error) {
        log.error(`Fixing ${mode.filePath} with ${mode.config.configFile} failed: ${describeError(error)}`);
      }
    }
    if (fixed === undefined || document.version !== version) return undefined;
    return { document, edits: computeMinimalEdits(text, fixed).map((edit) => engine.toTextEdit(document, edit)) };
  }

  /** The last full lint done for a deferred fix (one entry: the document under the cursor). */
  let deferredLint: { uri: string; version: number; settings: Settings; diagnostics: Diagnostic[] } | undefined;

  /** A full lint of the document (fixes of any length), done once per version for deferred fixes. */
  async function lintForDeferredFixes({ engine }: Awaited<ReturnType<typeof loadEngine>>, document: TextDocument, settings: Settings): Promise<void> {
    if (deferredLint?.uri === document.uri && deferredLint.version === document.version && deferredLint.settings === settings) return;
    const version = document.version;
    const outcome = await lintText(document, settings);
    if (document.version !== version) return;
    const diagnostics = outcome.status === 'linted' ? engine.toDiagnostics(document, outcome, Infinity) : [];
    deferredLint = { uri: document.uri, version, settings, diagnostics };
  }

  function resolveDeferred({ engine }: Awaited<ReturnType<typeof loadEngine>>, document: TextDocument, diagnostic: Diagnostic): DiagnosticData | undefined {
    if (deferredLint?.uri !== document.uri || deferredLint.version !== document.version) return undefined;
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
      const target = getTarget(loaded.engine, document);
      const needsFullLint = context.diagnostics.some((diagnostic) => {
        const data = loaded.engine.readDiagnosticData(diagnostic);
        return data?.version === document.version && loaded.engine.hasDeferredFix(data);
      });
      if (needsFullLint) {
        await lintForDeferredFixes(loaded, document, settings);
      }
      actions.push(
        ...loaded.engine.getQuickFixes({
          document,
          target,
          diagnostics: context.diagnostics,
          useDocumentChanges,
          resolveDeferred: (diagnostic) => resolveDeferred(loaded, document, diagnostic),
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

  // For the benchmark and diagnosis: the server's own memory (after a GC when node runs with --expose-gc) and CPU time.
  connection.onRequest('retrySafety/serverStats', () => {
    (globalThis as { gc?: () => void }).gc?.();
    return { memory: process.memoryUsage(), cpu: process.cpuUsage(), openDocuments: documents.keys().length, published: published.size };
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
