// The bundle's entry (dist/server.cjs). Started with a transport argument (`--stdio`,
// `--node-ipc`, `--socket=<port>`, `--pipe=<name>`) it serves that transport. Loaded
// without one, it only exports `startServerOnStreams`, for running the server inside
// another process (the benchmark does, to time it against a bare `Linter` fairly).
import type { Readable, Writable } from 'node:stream';
import { ProposedFeatures, StreamMessageReader, StreamMessageWriter, createConnection } from 'vscode-languageserver/node';
import { startServer } from './server';

const TRANSPORT_ARGUMENT = /^--(?:stdio$|node-ipc$|socket=|pipe=)/;

if (process.argv.some((argument) => TRANSPORT_ARGUMENT.test(argument))) {
  startServer(createConnection(ProposedFeatures.all), { ownsProcess: true });
} else if (require.main === module || /retry-safety-language-server(?:\.js)?$/.test(process.argv[1] ?? '')) {
  process.stderr.write('Usage: retry-safety-language-server --stdio | --node-ipc | --socket=<port> | --pipe=<name>\n');
  process.exitCode = 1;
}

/** Serves one client on the given streams, inside this process. */
export function startServerOnStreams(input: Readable, output: Writable): void {
  const connection = createConnection(ProposedFeatures.all, new StreamMessageReader(input), new StreamMessageWriter(output));
  startServer(connection, { ownsProcess: false });
}
