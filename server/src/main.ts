// The bundle's entry (dist/server.cjs). Started with a transport argument (`--stdio`,
// `--node-ipc`, `--socket=<port>`, `--pipe=<name>`) it serves that transport. Loaded
// without one, it only exports `startServerOnStreams`, for running the server inside
// another process (the benchmark does, to time it against a bare `Linter` fairly).
import type { Readable, Writable } from 'node:stream';
import { startServer } from './server';
import { openTransport, streamTransport } from './transport';

const transport = openTransport(process.argv);
if (transport) {
  startServer(transport, { ownsProcess: true });
} else if (require.main === module || /retry-safety-language-server(?:\.js)?$/.test(process.argv[1] ?? '')) {
  process.stderr.write('Usage: retry-safety-language-server --stdio | --node-ipc | --socket=<port> | --pipe=<name>\n');
  process.exitCode = 1;
}

/** Serves one client on the given streams, inside this process (a broken input closes the connection, never the process). */
export function startServerOnStreams(input: Readable, output: Writable): void {
  startServer(streamTransport(input, output), { ownsProcess: false });
}
