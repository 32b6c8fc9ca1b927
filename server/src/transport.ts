// Where the server's messages come from and go to, and the guard in front of the
// connection: every message passes the frame check (framing.ts) and the protocol's
// lifecycle (lifecycle.ts) before vscode-languageserver dispatches it.
import { createConnection as connectSocket } from 'node:net';
import type { Readable, Writable } from 'node:stream';
import {
  IPCMessageReader,
  IPCMessageWriter,
  SocketMessageReader,
  SocketMessageWriter,
  StreamMessageReader,
  StreamMessageWriter,
  type DataCallback,
  type Disposable,
  type Message,
  type MessageReader,
  type MessageWriter,
} from 'vscode-languageserver/node';
import { FrameChecker } from './framing';

export interface Transport {
  reader: MessageReader;
  writer: MessageWriter;
  /** The bytes `reader` decodes, for the frame check; none for Node IPC, which carries objects. */
  input?: Readable;
}

/** The transport arguments the server accepts (the forms vscode-languageclient passes). */
export const TRANSPORT_ARGUMENT = /^--(?:stdio$|node-ipc$|socket=|pipe=)/;

/** The transport named by the first transport argument, or undefined when there is none. */
export function openTransport(argv: readonly string[]): Transport | undefined {
  const argument = argv.find((candidate) => TRANSPORT_ARGUMENT.test(candidate));
  if (argument === undefined) return undefined;
  if (argument === '--stdio') return streamTransport(process.stdin, process.stdout);
  if (argument === '--node-ipc') return { reader: new IPCMessageReader(process), writer: new IPCMessageWriter(process) };
  const value = argument.slice(argument.indexOf('=') + 1);
  // The client listens; the server connects (as vscode-jsonrpc's server transports do).
  const socket = argument.startsWith('--socket=') ? connectSocket(Number(value), '127.0.0.1') : connectSocket(value);
  return { reader: new SocketMessageReader(socket), writer: new SocketMessageWriter(socket), input: socket };
}

export function streamTransport(input: Readable, output: Writable): Transport {
  return { reader: new StreamMessageReader(input), writer: new StreamMessageWriter(output), input };
}

export interface ReaderGuard {
  /** Whether a decoded message goes on to the connection. */
  admit(message: Message): boolean;
  /** The input broke the framing; nothing after it is delivered. */
  onMalformed(reason: string): void;
}

/**
 * A reader that lets through only what `guard` admits, and checks the framing of the
 * raw input as it arrives. Once the framing is broken it delivers nothing more: what the
 * inner reader would make of the bytes that follow cannot be trusted.
 */
export class GuardedMessageReader implements MessageReader {
  readonly #frames = new FrameChecker();
  readonly #onData = (chunk: Uint8Array | string) => {
    if (this.#frames.failure !== undefined) return;
    const reason = this.#frames.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
    if (reason !== undefined) this.guard.onMalformed(reason);
  };

  constructor(
    private readonly inner: MessageReader,
    private readonly input: Readable | undefined,
    private readonly guard: ReaderGuard,
  ) {}

  get onError() {
    return this.inner.onError;
  }

  get onClose() {
    return this.inner.onClose;
  }

  get onPartialMessage() {
    return this.inner.onPartialMessage;
  }

  listen(callback: DataCallback): Disposable {
    // The check is registered first, in the same tick as the reader: it sees each chunk
    // before the reader decodes it, and no chunk flows before both listen.
    this.input?.on('data', this.#onData);
    const listening = this.inner.listen((message) => {
      if (this.#frames.failure === undefined && this.guard.admit(message)) callback(message);
    });
    return {
      dispose: () => {
        this.input?.off('data', this.#onData);
        listening.dispose();
      },
    };
  }

  dispose(): void {
    this.input?.off('data', this.#onData);
    this.inner.dispose();
  }
}

/** A writer that can tell when everything written so far has gone out (before the process exits). */
export class TrackedMessageWriter implements MessageWriter {
  #lastWrite: Promise<void> = Promise.resolve();

  constructor(private readonly inner: MessageWriter) {}

  get onError() {
    return this.inner.onError;
  }

  get onClose() {
    return this.inner.onClose;
  }

  write(message: Message): Promise<void> {
    const written = this.inner.write(message);
    this.#lastWrite = written.then(
      () => undefined,
      () => undefined,
    );
    return written;
  }

  /** Resolves once every message written so far is out (or failed), or after `timeoutMs`. */
  settled(timeoutMs: number): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, timeoutMs);
    });
    return Promise.race([this.#lastWrite, timeout]).finally(() => clearTimeout(timer));
  }

  end(): void {
    this.inner.end();
  }

  dispose(): void {
    this.inner.dispose();
  }
}
