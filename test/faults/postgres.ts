// A throw-away PostgreSQL cluster: `initdb` in a temp folder, `pg_ctl start` on a free
// loopback port (no Unix socket, trust authentication on 127.0.0.1 only), `pg_ctl stop`
// and the folder removed on release. PostgreSQL refuses to run as root: as root, the
// cluster belongs to the `postgres` user that Debian's package creates (or `nobody`).
import { execFileSync, spawnSync } from 'node:child_process';
import { accessSync, appendFileSync, chownSync, constants, existsSync, readdirSync, readFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import pg, { type QueryResult, type QueryResultRow } from 'pg';
import type { Resources } from './resources';

/** Where Debian and Ubuntu put the server binaries (`postgresql-<major>` packages). */
const DEBIAN_ROOT = '/usr/lib/postgresql';
/** How to get them, for messages. */
export const INSTALL_HINT = 'install PostgreSQL (Debian/Ubuntu: `sudo apt-get install -y postgresql`), or point PG_BINDIR at the folder holding initdb and pg_ctl';
/** The superuser of the throw-away cluster. */
const SUPERUSER = 'postgres';

function isExecutable(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** The folder holding `initdb` and `pg_ctl`: PG_BINDIR when set, else Debian's newest version, else PATH. */
export function findPostgresBindir(): string | undefined {
  const candidates: string[] = [];
  if (process.env.PG_BINDIR) candidates.push(process.env.PG_BINDIR);
  else if (existsSync(DEBIAN_ROOT)) {
    const versions = readdirSync(DEBIAN_ROOT)
      .filter((name) => /^\d+(\.\d+)?$/.test(name))
      .sort((a, b) => Number(b) - Number(a));
    candidates.push(...versions.map((version) => path.join(DEBIAN_ROOT, version, 'bin')));
  }
  if (!process.env.PG_BINDIR) candidates.push(...(process.env.PATH ?? '').split(path.delimiter).filter(Boolean));
  return candidates.find((dir) => isExecutable(path.join(dir, 'initdb')) && isExecutable(path.join(dir, 'pg_ctl')));
}

/** The account that runs the server: the current one, or an unprivileged one under root. */
function serverAccount(): { name: string; uid: number; gid: number } | undefined {
  if (process.getuid?.() !== 0) return undefined;
  for (const name of ['postgres', 'nobody']) {
    const result = spawnSync('id', ['-u', name], { encoding: 'utf8' });
    if (result.status !== 0) continue;
    const gid = spawnSync('id', ['-g', name], { encoding: 'utf8' });
    return { name, uid: Number(result.stdout.trim()), gid: Number(gid.stdout.trim()) };
  }
  throw new Error('running as root, and there is no `postgres` or `nobody` user to run PostgreSQL as');
}

/** A command line run as the server's account (`runuser`, or `su` where it is missing). */
function asAccount(account: { name: string } | undefined, file: string, args: string[]): [string, string[]] {
  if (!account) return [file, args];
  if (isExecutable('/usr/sbin/runuser') || isExecutable('/sbin/runuser')) {
    return ['runuser', ['-u', account.name, '--', file, ...args]];
  }
  const quoted = [file, ...args].map((part) => `'${part.replaceAll("'", `'\\''`)}'`).join(' ');
  return ['su', ['-s', '/bin/sh', account.name, '-c', quoted]];
}

/** A free TCP port on 127.0.0.1 (free when asked; the caller binds it soon after). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

export interface PostgresCluster {
  host: string;
  port: number;
  user: string;
  database: string;
  /** The postmaster's process id. */
  pid: number;
  /** Runs SQL on a direct connection (not through any proxy). */
  query<R extends QueryResultRow = QueryResultRow>(text: string, values?: unknown[]): Promise<QueryResult<R>>;
}

/** Starts a cluster registered with `resources`; throws with the reason when it cannot. */
export async function startPostgres(resources: Resources): Promise<PostgresCluster> {
  const bindir = findPostgresBindir();
  if (!bindir) throw new Error(`no initdb and pg_ctl found (${process.env.PG_BINDIR ? `PG_BINDIR=${process.env.PG_BINDIR}` : `${DEBIAN_ROOT}/*/bin, PATH`})`);
  const account = serverAccount();
  const root = resources.tempDir('postgres');
  const data = path.join(root, 'data');
  const log = path.join(root, 'server.log');
  if (account) chownSync(root, account.uid, account.gid);
  const run = (file: string, args: string[], timeout: number) => {
    const [command, commandArgs] = asAccount(account, path.join(bindir, file), args);
    return execFileSync(command, commandArgs, { cwd: root, encoding: 'utf8', timeout, stdio: ['ignore', 'pipe', 'pipe'] });
  };
  const stopNow = () => {
    if (!existsSync(path.join(data, 'postmaster.pid'))) return;
    const [command, commandArgs] = asAccount(account, path.join(bindir, 'pg_ctl'), ['-D', data, '-m', 'immediate', '-w', '-t', '10', 'stop']);
    spawnSync(command, commandArgs, { cwd: root, stdio: 'ignore', timeout: 15_000 });
  };
  // Registered before the server starts, after the folder: stopped first, removed after.
  resources.add(`PostgreSQL in ${data}`, stopNow, stopNow);

  try {
    run('initdb', ['-D', data, '-U', SUPERUSER, '--auth=trust', '-E', 'UTF8', '--locale=C', '--no-sync'], 60_000);
  } catch (error) {
    throw new Error(`initdb failed: ${describeFailure(error)}`);
  }
  let lastError = '';
  for (let tries = 0; tries < 3; tries++) {
    const port = await freePort();
    // Loopback only, no Unix socket; durability off: the cluster is thrown away.
    appendFileSync(
      path.join(data, 'postgresql.conf'),
      `\nlisten_addresses = '127.0.0.1'\nport = ${port}\nunix_socket_directories = ''\nfsync = off\nsynchronous_commit = off\nfull_page_writes = off\n`,
    );
    try {
      run('pg_ctl', ['-D', data, '-l', log, '-w', '-t', '30', 'start'], 40_000);
    } catch (error) {
      lastError = `${describeFailure(error)}\n${existsSync(log) ? readFileSync(log, 'utf8').slice(-2000) : ''}`;
      continue;
    }
    const pid = Number(readFileSync(path.join(data, 'postmaster.pid'), 'utf8').split('\n')[0]);
    resources.trackPid(pid);
    const config = { host: '127.0.0.1', port, user: SUPERUSER, database: 'postgres' };
    return {
      ...config,
      pid,
      async query(text, values) {
        const client = new pg.Client(config);
        client.on('error', () => {});
        await client.connect();
        try {
          return await client.query(text, values);
        } finally {
          await client.end();
        }
      },
    };
  }
  throw new Error(`pg_ctl start failed: ${lastError}`);
}

function describeFailure(error: unknown): string {
  const failure = error as { message?: string; stderr?: string | Buffer };
  return String(failure.stderr ?? '').trim() || failure.message || String(error);
}
