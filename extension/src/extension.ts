// The VS Code side of Retry Safety: starts the bundled language server over stdio and
// adds three commands. Diagnostics, quick-fixes, fix-on-save and hovers all come from
// the server through vscode-languageclient; this file holds no knowledge of the rules.
import * as vscode from 'vscode';
import {
  ExecuteCommandRequest,
  LanguageClient,
  TransportKind,
  type DynamicFeature,
  type ExecuteCommandRegistrationOptions,
  type LanguageClientOptions,
  type RegistrationData,
  type ServerOptions,
  type StaticFeature,
} from 'vscode-languageclient/node';
import { documentSelector } from './document-selector';

/** Settings section shared with the server (`workspace/configuration`). */
export const SETTINGS_SECTION = 'retrySafety';

export const COMMANDS = {
  restartServer: 'retrySafety.restartServer',
  fixAll: 'retrySafety.fixAll',
  showOutput: 'retrySafety.showOutput',
} as const;

/** The project's ESLint config files, watched so that the server re-lints when one changes (the server's CONFIG_FILE_GLOB). */
export const CONFIG_FILE_GLOB = '**/eslint.config.{js,mjs,cjs,ts,mts,cts}';

/** Tells the server the workspace became trusted (the server's WORKSPACE_TRUST_GRANTED). */
export const WORKSPACE_TRUST_GRANTED = 'retrySafety/workspaceTrustGranted';

/** Bundled next to `dist/extension.js` by `build.mjs`. */
const SERVER_FILE = 'dist/server.cjs';

let client: LanguageClient | undefined;

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  const outputChannel = vscode.window.createOutputChannel('Retry Safety', { log: true });
  const languageClient = createClient(context, outputChannel);
  client = languageClient;
  context.subscriptions.push(
    outputChannel,
    vscode.commands.registerCommand(COMMANDS.restartServer, () => restartServer(languageClient, outputChannel)),
    vscode.commands.registerCommand(COMMANDS.fixAll, () => fixAllInActiveEditor(languageClient)),
    vscode.commands.registerCommand(COMMANDS.showOutput, () => outputChannel.show(true)),
    // Trusting the workspace lets the server load the project's eslint.config.*.
    vscode.workspace.onDidGrantWorkspaceTrust(() => {
      if (languageClient.isRunning()) void languageClient.sendNotification(WORKSPACE_TRUST_GRANTED);
    }),
  );
  await startServer(languageClient, outputChannel);
}

export async function deactivate(): Promise<void> {
  if (client?.needsStop()) await client.stop();
  client = undefined;
}

function createClient(context: vscode.ExtensionContext, outputChannel: vscode.LogOutputChannel): LanguageClient {
  const module = context.asAbsolutePath(SERVER_FILE);
  const serverOptions: ServerOptions = {
    run: { module, transport: TransportKind.stdio },
    debug: { module, transport: TransportKind.stdio, options: { execArgv: ['--nolazy', '--inspect=6011'] } },
  };
  const clientOptions: LanguageClientOptions = {
    documentSelector,
    // Pushes `workspace/didChangeConfiguration` when a `retrySafety.*` setting changes;
    // the server then pulls the per-resource values with `workspace/configuration`.
    synchronize: {
      configurationSection: SETTINGS_SECTION,
      // `workspace/didChangeWatchedFiles` for the project's ESLint config files.
      fileEvents: vscode.workspace.createFileSystemWatcher(CONFIG_FILE_GLOB),
    },
    // Read again at each (re)start: the server loads a project's ESLint config (its code) only in a trusted workspace.
    initializationOptions: () => ({ workspaceTrusted: vscode.workspace.isTrusted, configFilesWatched: true }),
    outputChannel,
  };
  return new RetrySafetyLanguageClient(SETTINGS_SECTION, 'Retry Safety', serverOptions, clientOptions);
}

/**
 * The server announces `retrySafety.fixAll` in `executeCommandProvider` so that any LSP
 * client can run it by name. vscode-languageclient would register that id as a VS Code
 * command too, which collides with ours (ours adds the active document, so it also works
 * from the command palette). Leave our own ids out of what the client registers.
 */
class RetrySafetyLanguageClient extends LanguageClient {
  override registerFeature(feature: StaticFeature | DynamicFeature<unknown>): void {
    if (isExecuteCommandFeature(feature)) {
      const register = feature.register.bind(feature);
      feature.register = (data) => register(withoutOwnCommands(data));
    }
    super.registerFeature(feature);
  }
}

function isExecuteCommandFeature(
  feature: StaticFeature | DynamicFeature<unknown>,
): feature is DynamicFeature<ExecuteCommandRegistrationOptions> {
  return 'registrationType' in feature && feature.registrationType.method === ExecuteCommandRequest.method;
}

function withoutOwnCommands(
  data: RegistrationData<ExecuteCommandRegistrationOptions>,
): RegistrationData<ExecuteCommandRegistrationOptions> {
  const own: readonly string[] = Object.values(COMMANDS);
  const commands = data.registerOptions.commands.filter((command) => !own.includes(command));
  return { ...data, registerOptions: { ...data.registerOptions, commands } };
}

async function startServer(languageClient: LanguageClient, outputChannel: vscode.LogOutputChannel): Promise<void> {
  try {
    await languageClient.start();
  } catch (error) {
    outputChannel.error('The Retry Safety language server did not start', error);
    void showStartFailure(outputChannel);
  }
}

async function restartServer(languageClient: LanguageClient, outputChannel: vscode.LogOutputChannel): Promise<void> {
  outputChannel.info('Restarting the Retry Safety language server');
  try {
    if (languageClient.needsStart()) {
      await languageClient.start();
    } else {
      await languageClient.restart();
    }
  } catch (error) {
    outputChannel.error('The Retry Safety language server did not restart', error);
    void showStartFailure(outputChannel);
  }
}

async function showStartFailure(outputChannel: vscode.LogOutputChannel): Promise<void> {
  const showOutput = 'Show Output';
  const choice = await vscode.window.showErrorMessage('Retry Safety: the language server did not start.', showOutput);
  if (choice === showOutput) outputChannel.show(true);
}

/** Asks the server to apply every safe fix to the active document (suggestions excluded). */
async function fixAllInActiveEditor(languageClient: LanguageClient): Promise<void> {
  const document = vscode.window.activeTextEditor?.document;
  if (!document) {
    void vscode.window.showInformationMessage('Retry Safety: open a file to fix.');
    return;
  }
  if (vscode.languages.match(documentSelector, document) === 0) {
    void vscode.window.showInformationMessage('Retry Safety does not check this kind of file.');
    return;
  }
  if (!languageClient.isRunning()) {
    void vscode.window.showWarningMessage('Retry Safety: the language server is not running. Try "Retry Safety: Restart Server".');
    return;
  }
  // The server answers with a `workspace/applyEdit` request that VS Code applies.
  await languageClient.sendRequest(ExecuteCommandRequest.type, {
    command: COMMANDS.fixAll,
    arguments: [{ uri: languageClient.code2ProtocolConverter.asUri(document.uri), version: document.version }],
  });
}
