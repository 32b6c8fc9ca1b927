// A process that embeds the server with startServerOnStreams (as the benchmark does),
// for test/server/protocol.test.ts. It initializes, has one document linted, then
// either breaks the framing (`broken-frame`) or sends shutdown and exit (`exit`), waits
// for the server to close the connection, and prints one JSON line: what it saw, and
// that it is still running. If the server ended the process, that line never comes.
//
// Usage: node embedded-host.mjs <server.cjs> broken-frame|exit
import { createRequire } from 'node:module';
import { PassThrough } from 'node:stream';
import { StreamMessageReader, StreamMessageWriter, createMessageConnection } from 'vscode-jsonrpc/node';

const [serverPath, scenario] = process.argv.slice(2);
const { startServerOnStreams } = createRequire(import.meta.url)(serverPath);

const toServer = new PassThrough();
const toClient = new PassThrough();
startServerOnStreams(toServer, toClient);

const connection = createMessageConnection(new StreamMessageReader(toClient), new StreamMessageWriter(toServer));
const logs = [];
let diagnostics = -1;
let published;
const firstPublish = new Promise((resolve) => (published = resolve));
connection.onNotification('window/logMessage', ({ message }) => logs.push(message));
connection.onNotification('textDocument/publishDiagnostics', (params) => {
  diagnostics = params.diagnostics.length;
  published();
});
const closed = new Promise((resolve) => connection.onClose(resolve));
connection.listen();

await connection.sendRequest('initialize', { processId: null, rootUri: null, capabilities: {}, initializationOptions: { debounceMs: 0 } });
await connection.sendNotification('initialized', {});
await connection.sendNotification('textDocument/didOpen', {
  textDocument: {
    uri: 'file:///embedded/.env',
    languageId: 'dotenv',
    version: 1,
    text: 'MONGODB_URI=mongodb://app@orders.cluster-abc.us-east-1.docdb.amazonaws.com:27017/?retryWrites=false\n',
  },
});
await firstPublish;

if (scenario === 'broken-frame') {
  toServer.write('Content-Length: 44\n\n{"jsonrpc":"2.0","id":99,"method":"shutdown"}');
} else if (scenario === 'exit') {
  await connection.sendRequest('shutdown');
  await connection.sendNotification('exit');
} else {
  throw new Error(`unknown scenario ${scenario}`);
}

await closed;
// Give a process.exit() from the server every chance to happen before reporting.
await new Promise((resolve) => setTimeout(resolve, 200));
connection.dispose();
process.stdout.write(`${JSON.stringify({ scenario, diagnostics, closed: true, hostAliveAfterClose: true, logs })}\n`);
