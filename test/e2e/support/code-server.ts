// Starts code-server (VS Code in the browser) with every bit of state in a temp folder,
// installs the built .vsix into it, and stops its whole process group afterwards.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, openSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { codeServerEntry, node24, node24Dir } from './paths';

export interface CodeServer {
  port: number;
  /** URL that opens `folder` and then `file` (absolute paths on this machine). */
  url(folder: string, file?: string): string;
  /** Text of the code-server log and the extension host logs, for failure reports. */
  logs(): string;
  stop(): Promise<void>;
}

/** Settings that keep the workbench quiet and deterministic. */
const USER_SETTINGS = {
  'workbench.startupEditor': 'none',
  'workbench.tips.enabled': false,
  'workbench.enableExperiments': false,
  'workbench.secondarySideBar.defaultVisibility': 'hidden',
  'chat.disableAIFeatures': true,
  'extensions.autoCheckUpdates': false,
  'extensions.autoUpdate': false,
  'extensions.ignoreRecommendations': true,
  'telemetry.telemetryLevel': 'off',
  'update.mode': 'none',
  'security.workspace.trust.enabled': false,
  'typescript.validate.enable': false,
  'javascript.validate.enable': false,
  'typescript.tsserver.experimental.enableProjectDiagnostics': false,
  'editor.lightbulb.enabled': 'on',
  'files.autoSave': 'off',
  'window.restoreWindows': 'none',
};

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

export async function startCodeServer(vsix: string, userSettings: Record<string, unknown> = {}): Promise<CodeServer> {
  if (!existsSync(codeServerEntry)) throw new Error(`code-server is not installed at ${codeServerEntry}: run scripts/e2e-install.sh`);
  const state = mkdtempSync(join(tmpdir(), 'retry-safety-code-server-'));
  const dirs = {
    home: join(state, 'home'),
    userData: join(state, 'user-data'),
    extensions: join(state, 'extensions'),
    config: join(state, 'xdg-config'),
    data: join(state, 'xdg-data'),
    cache: join(state, 'xdg-cache'),
  };
  for (const dir of Object.values(dirs)) mkdirSync(dir, { recursive: true });
  mkdirSync(join(dirs.userData, 'User'), { recursive: true });
  writeFileSync(join(dirs.userData, 'User', 'settings.json'), JSON.stringify({ ...USER_SETTINGS, ...userSettings }, null, 2));

  const port = await freePort();
  const configFile = join(state, 'config.yaml');
  writeFileSync(configFile, `bind-addr: 127.0.0.1:${port}\nauth: none\ncert: false\n`);

  const env: NodeJS.ProcessEnv = {
    PATH: `${join(node24Dir, 'bin')}:${process.env.PATH ?? '/usr/bin:/bin'}`,
    HOME: dirs.home,
    XDG_CONFIG_HOME: dirs.config,
    XDG_DATA_HOME: dirs.data,
    XDG_CACHE_HOME: dirs.cache,
    TMPDIR: tmpdir(),
    LANG: 'C.UTF-8',
  };
  const common = ['--config', configFile, '--user-data-dir', dirs.userData, '--extensions-dir', dirs.extensions];
  execFileSync(node24, [codeServerEntry, ...common, '--install-extension', vsix, '--force'], { env, stdio: 'pipe', timeout: 120_000 });

  const logFile = join(state, 'code-server.log');
  const log = openSync(logFile, 'a');
  // setsid: code-server, its extension host and watchers share one new process group,
  // so one signal to the group stops them all.
  const child = spawn(
    'setsid',
    [
      node24,
      codeServerEntry,
      ...common,
      '--disable-telemetry',
      '--disable-update-check',
      '--disable-workspace-trust',
      '--disable-getting-started-override',
    ],
    { env, stdio: ['ignore', log, log] },
  );
  const pgid = child.pid;
  if (pgid === undefined) throw new Error('code-server did not start');
  let exited = false;
  child.once('exit', () => (exited = true));

  await waitForHealth(port, () => exited, logFile);

  return {
    port,
    url(folder, file) {
      const params = new URLSearchParams({ folder });
      if (file) params.set('payload', JSON.stringify([['openFile', `vscode-remote://127.0.0.1:${port}${file}`]]));
      return `http://127.0.0.1:${port}/?${params.toString()}`;
    },
    logs: () => collectLogs(logFile, dirs.userData),
    async stop() {
      signalGroup(pgid, 'SIGTERM');
      for (let i = 0; i < 50 && groupAlive(pgid); i++) await sleep(100);
      if (groupAlive(pgid)) signalGroup(pgid, 'SIGKILL');
      if (process.env.E2E_KEEP_STATE) console.log(`[code-server] state kept in ${state}`);
      else rmSync(state, { recursive: true, force: true });
    },
  };
}

async function waitForHealth(port: number, exited: () => boolean, logFile: string): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (exited()) throw new Error(`code-server exited:\n${readFileSync(logFile, 'utf8')}`);
    try {
      const response = await fetch(`http://127.0.0.1:${port}/healthz`);
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    await sleep(200);
  }
  throw new Error(`code-server did not answer /healthz in 60 s:\n${readFileSync(logFile, 'utf8')}`);
}

function signalGroup(pgid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pgid, signal);
  } catch {
    // group already gone
  }
}

function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
}

function collectLogs(logFile: string, userData: string): string {
  const parts = [`--- code-server log\n${safeRead(logFile)}`];
  const logsDir = join(userData, 'logs');
  for (const file of walk(logsDir).filter((path) => /remoteexthost\.log$|Retry Safety\.log$/.test(path))) {
    parts.push(`--- ${file}\n${safeRead(file)}`);
  }
  return parts.join('\n');
}

function walk(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? walk(join(dir, entry.name)) : [join(dir, entry.name)],
  );
}

function safeRead(file: string): string {
  try {
    return readFileSync(file, 'utf8').slice(-20_000);
  } catch {
    return '';
  }
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
