// The bundle's entry (dist/server.cjs). Started with a transport argument (`--stdio`,
// `--node-ipc`, `--socket=<port>`, `--pipe=<name>`) it serves that transport; `--help`
// and `--version` print and exit. Loaded without one, it only exports
// `startServerOnStreams`, for running the server inside another process (the benchmark
// does, to time it against a bare `Linter` fairly).
import type { Readable, Writable } from 'node:stream';
import { version as eslintVersion } from 'eslint/package.json';
import { version as pluginVersion } from 'eslint-plugin-retry-safety/package.json';
import { version as parserVersion } from '@typescript-eslint/parser/package.json';
import { version } from '../package.json';
import { startServer } from './server';
import { openTransport, streamTransport } from './transport';

const NAME = 'retry-safety-language-server';

const USAGE = `Usage: ${NAME} --stdio | --node-ipc | --socket=<port> | --pipe=<name>

The Retry Safety language server: diagnostics and quick-fixes for database code that
breaks under retries (MongoDB / Amazon DocumentDB, DynamoDB, PostgreSQL), for any
editor that speaks the Language Server Protocol.

Transports (pick one; editors pass it for you):
  --stdio            read requests from stdin, write responses to stdout
  --node-ipc         Node.js IPC channel (the process was started with fork())
  --socket=<port>    connect to a client listening on 127.0.0.1:<port>
  --pipe=<name>      connect to a client listening on a named pipe / Unix socket

Options:
  --help, -h         show this help and exit
  --version, -v      show the versions and exit

Settings come from the client (section "retrySafety"); the package's README.md
lists them, with a Neovim example.
`;

const args = process.argv.slice(2);
const transport = args.some((arg) => arg === '--help' || arg === '-h' || arg === '--version' || arg === '-v') ? undefined : openTransport(process.argv);
if (transport) {
  startServer(transport, { ownsProcess: true });
} else if (require.main === module || /retry-safety-language-server(?:\.js)?$/.test(process.argv[1] ?? '')) {
  if (args.includes('--help') || args.includes('-h')) {
    process.stdout.write(USAGE);
  } else if (args.includes('--version') || args.includes('-v')) {
    process.stdout.write(`${NAME} ${version}\nbundles eslint-plugin-retry-safety ${pluginVersion}, eslint ${eslintVersion}, @typescript-eslint/parser ${parserVersion}\n`);
  } else {
    const unknown = args.length > 0 ? `Unknown argument: ${args.join(' ')}\n` : 'Missing the transport argument.\n';
    process.stderr.write(`${unknown}${USAGE.slice(0, USAGE.indexOf('\n') + 1)}Run ${NAME} --help for more.\n`);
    process.exitCode = 1;
  }
}

/** Serves one client on the given streams, inside this process (a broken input closes the connection, never the process). */
export function startServerOnStreams(input: Readable, output: Writable): void {
  startServer(streamTransport(input, output), { ownsProcess: false });
}
