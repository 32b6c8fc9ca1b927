// The protocol's edges, over stdio against the built bundle: a broken frame makes the
// server log why and exit non-zero (so that the editor starts a new one) instead of
// living on without answering; requests before `initialize` and after `shutdown` fail
// as the specification says. Embedded with startServerOnStreams, the server closes the
// connection instead and leaves the host process running.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  CodeActionRequest,
  ErrorCodes,
  ExitNotification,
  HoverRequest,
  InitializeRequest,
  ResponseError,
  ShutdownRequest,
} from 'vscode-languageserver-protocol/node';
import { LspClient, SERVER_BUNDLE } from './lsp-client';

const ENV_TEXT = 'MONGODB_URI=mongodb://app@orders.cluster-abc.us-east-1.docdb.amazonaws.com:27017/?retryWrites=false\n';
const ZERO_RANGE = { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } };

/** The error a request failed with (fails the test when it succeeded). */
async function errorOf(request: Promise<unknown>): Promise<ResponseError<unknown>> {
  const outcome = await request.then(
    (result) => ({ result }),
    (error: unknown) => ({ error }),
  );
  if (!('error' in outcome)) throw new Error(`expected an error, got ${JSON.stringify(outcome.result)}`);
  expect(outcome.error).toBeInstanceOf(ResponseError);
  return outcome.error as ResponseError<unknown>;
}

/** A running server that has linted a document: it is demonstrably alive and answering. */
async function startLintingServer(): Promise<LspClient> {
  const client = await LspClient.start({ initializationOptions: { debounceMs: 0 } });
  const uri = 'file:///work/project/.env';
  await client.open(uri, 'dotenv', ENV_TEXT);
  expect(await client.diagnosticsFor(uri, 1)).toHaveLength(1);
  return client;
}

describe('a broken frame: the server logs why and exits with code 1', () => {
  const binaryGarbage = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0xff, 0xfe, 0x13, 0x37]);
  it.each([
    ['a non-numeric Content-Length', 'Content-Length: twelve\r\n\r\n{"jsonrpc":"2.0","id":99,"method":"shutdown"}', /Content-Length that is not a decimal number/],
    ['a missing Content-Length', 'Content-Type: application/vscode-jsonrpc\r\n\r\n{"jsonrpc":"2.0","id":99,"method":"shutdown"}', /no Content-Length/],
    ['a huge Content-Length', 'Content-Length: 99999999999999\r\n\r\n{"jsonrpc":"2.0","id":99,"method":"shutdown"}', /above the limit/],
    ['binary garbage', binaryGarbage, /byte 0x89 in a header/],
    ['LF-only headers', 'Content-Length: 44\n\n{"jsonrpc":"2.0","id":99,"method":"shutdown"}', /LF without CR/],
    ['a well-framed message that is not JSON', 'Content-Length: 9\r\n\r\n{"jsonrpc', /^Reading from the client failed: /],
  ])('%s', async (_kind, bytes, reason) => {
    const client = await startLintingServer();
    try {
      await client.writeRaw(bytes);
      expect(await client.exitCode()).toBe(1);
      const line = await client.waitForLog(reason);
      expect(line).toMatch(/^(The client sent a malformed frame|Reading from the client failed): .*\. Nothing after it can be read: the server exits \(code 1\) so that the client can start a new one\.$/s);
      expect(client.stderr).toContain(line);
    } finally {
      await client.stop();
    }
  });

  it('exits with 0 after shutdown and exit, and with 1 when the client just goes away', async () => {
    const polite = await LspClient.start();
    await polite.connection.sendRequest(ShutdownRequest.type);
    await polite.connection.sendNotification(ExitNotification.type);
    expect(await polite.exitCode()).toBe(0);
    await polite.stop();

    const gone = await LspClient.start();
    gone.process.stdin!.end();
    expect(await gone.exitCode()).toBe(1);
    await gone.stop();
  });
});

describe('the lifecycle', () => {
  it('answers a request before initialize with ServerNotInitialized, drops notifications, then serves normally', async () => {
    const client = await LspClient.start({ initialize: false, initializationOptions: { debounceMs: 0 } });
    try {
      const uri = 'file:///work/project/early.env';
      // Dropped: a notification before initialize (the specification allows only `exit`).
      await client.open(uri, 'dotenv', ENV_TEXT);
      for (const request of [
        client.connection.sendRequest(CodeActionRequest.type, { textDocument: { uri }, range: ZERO_RANGE, context: { diagnostics: [] } }),
        client.connection.sendRequest(HoverRequest.type, { textDocument: { uri }, position: ZERO_RANGE.start }),
        client.connection.sendRequest('retrySafety/serverStats'),
        client.connection.sendRequest('textDocument/noSuchMethod', {}),
        client.connection.sendRequest(ShutdownRequest.type),
      ]) {
        const error = await errorOf(request);
        expect(error.code).toBe(ErrorCodes.ServerNotInitialized);
        expect(error.message).toMatch(/^The server is not initialized: ".+" came before "initialize"\.$/);
      }

      await client.initialize({ initializationOptions: { debounceMs: 0 } });
      expect(client.initializeResult.capabilities.hoverProvider).toBe(true);
      expect(await client.connection.sendRequest('retrySafety/serverStats')).toMatchObject({ openDocuments: 0 });
      expect(client.published.filter((params) => params.uri === uri)).toEqual([]);
      // Unknown methods are still MethodNotFound once initialized.
      expect((await errorOf(client.connection.sendRequest('textDocument/noSuchMethod', {}))).code).toBe(ErrorCodes.MethodNotFound);
      const second = await errorOf(client.connection.sendRequest(InitializeRequest.type, { processId: null, rootUri: null, capabilities: {} }));
      expect(second.code).toBe(ErrorCodes.InvalidRequest);

      const later = 'file:///work/project/later.env';
      await client.open(later, 'dotenv', ENV_TEXT);
      expect(await client.diagnosticsFor(later, 1)).toHaveLength(1);
    } finally {
      await client.stop();
    }
  });

  it('answers every request after shutdown with InvalidRequest, publishes nothing more, and exits with 0 on exit', async () => {
    const client = await startLintingServer();
    const uri = 'file:///work/project/.env';
    expect(await client.connection.sendRequest(ShutdownRequest.type)).toBeNull();
    const publishedBefore = client.published.length;
    await client.change(uri, `${ENV_TEXT}OTHER_URI=${ENV_TEXT.slice('MONGODB_URI='.length)}`);
    for (const request of [
      client.connection.sendRequest(CodeActionRequest.type, { textDocument: { uri }, range: ZERO_RANGE, context: { diagnostics: [] } }),
      client.connection.sendRequest(HoverRequest.type, { textDocument: { uri }, position: { line: 0, character: 20 } }),
      client.connection.sendRequest('retrySafety/serverStats'),
      client.connection.sendRequest('textDocument/noSuchMethod', {}),
      client.connection.sendRequest(ShutdownRequest.type),
      client.connection.sendRequest(InitializeRequest.type, { processId: null, rootUri: null, capabilities: {} }),
    ]) {
      const error = await errorOf(request);
      expect(error.code).toBe(ErrorCodes.InvalidRequest);
      expect(error.message).toMatch(/^The server is shut down: ".+" came after "shutdown"; only "exit" is expected\.$/);
    }
    expect(client.published.length).toBe(publishedBefore);
    expect(client.isAlive).toBe(true);
    await client.connection.sendNotification(ExitNotification.type);
    expect(await client.exitCode()).toBe(0);
    await client.stop();
  });
});

describe('embedded with startServerOnStreams', () => {
  const host = fileURLToPath(new URL('./embedded-host.mjs', import.meta.url));

  /** Runs the host script; resolves with its exit code and the report it printed. */
  function runHost(scenario: string): Promise<{ code: number | null; report: Record<string, unknown> | undefined; stderr: string }> {
    return new Promise((resolve, reject) => {
      const child = spawn(process.execPath, [host, SERVER_BUNDLE, scenario], { stdio: ['ignore', 'pipe', 'pipe'] });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      const timer = setTimeout(() => {
        child.kill();
        reject(new Error(`the host did not finish within 30 s: ${stdout} ${stderr}`));
      }, 30_000);
      child.once('close', (code) => {
        clearTimeout(timer);
        const line = stdout.split('\n').find((candidate) => candidate.startsWith('{'));
        resolve({ code, report: line ? (JSON.parse(line) as Record<string, unknown>) : undefined, stderr });
      });
    });
  }

  it('closes the connection on a broken frame and leaves the host process running', async () => {
    const { code, report, stderr } = await runHost('broken-frame');
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(report).toMatchObject({ diagnostics: 1, closed: true, hostAliveAfterClose: true });
    expect(report?.logs).toEqual(
      expect.arrayContaining([expect.stringMatching(/^The client sent a malformed frame: a header line ends in LF without CR .* the server closes the connection\.$/s)]),
    );
  });

  it('closes the connection on exit instead of ending the host process', async () => {
    const { code, report, stderr } = await runHost('exit');
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(report).toMatchObject({ diagnostics: 1, closed: true, hostAliveAfterClose: true });
  });
});
