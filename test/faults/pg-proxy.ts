// A TCP proxy between node-postgres and the server that reads the PostgreSQL wire
// protocol and injects faults where they hurt:
// - cut a connection after the server received `COMMIT` and answered it, before the
//   client reads the answer: the transaction committed, the client cannot know;
// - cut a connection when the client sends a chosen statement, before the server sees it;
// - refuse new connections for a while (the listening socket is closed, so connecting
//   fails with ECONNREFUSED), as a server restarting or failing over does.
// Which COMMIT or statement is cut comes from a seeded schedule.
import { once } from 'node:events';
import net from 'node:net';
import type { Resources } from './resources';

export interface PgProxyFaults {
  /** Cut after the server answered the n-th `COMMIT` (0-based, counted over all connections). */
  cutAfterCommit?: (index: number) => boolean;
  /** Cut when the client sends the n-th statement matching `match`, before forwarding it. */
  cutBeforeStatement?: { match: RegExp; when: (index: number) => boolean };
}

export interface PgProxyStats {
  connections: number;
  commits: number;
  commitsCut: number;
  statementsMatched: number;
  statementsCut: number;
  refusedWindows: number;
}

/** Splits a byte stream into protocol messages: typed (1 byte + length) after an optional untyped start. */
class MessageReader {
  private buffer = Buffer.alloc(0);
  constructor(private untyped: boolean) {}

  /** Adds bytes; returns the complete messages (type '' for the untyped start message). */
  push(chunk: Buffer): { type: string; bytes: Buffer }[] {
    this.buffer = Buffer.concat([this.buffer, chunk]);
    const messages: { type: string; bytes: Buffer }[] = [];
    for (;;) {
      const header = this.untyped ? 0 : 1;
      if (this.buffer.length < header + 4) break;
      const length = this.buffer.readInt32BE(header) + header;
      if (this.buffer.length < length) break;
      const bytes = this.buffer.subarray(0, length);
      this.buffer = this.buffer.subarray(length);
      messages.push({ type: this.untyped ? '' : String.fromCharCode(bytes[0]!), bytes });
      if (this.untyped) {
        // SSLRequest and GSSENCRequest are followed by another untyped start message.
        const code = bytes.readInt32BE(4);
        this.untyped = code === 80877103 || code === 80877104;
      }
    }
    return messages;
  }
}

/** The SQL of a simple query ('Q') or a parse ('P') message. */
function sqlOf(message: { type: string; bytes: Buffer }): string | undefined {
  if (message.type === 'Q') return message.bytes.toString('utf8', 5, message.bytes.length - 1);
  if (message.type === 'P') {
    const nameEnd = message.bytes.indexOf(0, 5);
    const sqlEnd = message.bytes.indexOf(0, nameEnd + 1);
    return message.bytes.toString('utf8', nameEnd + 1, sqlEnd);
  }
  return undefined;
}

export class PgProxy {
  readonly stats: PgProxyStats = { connections: 0, commits: 0, commitsCut: 0, statementsMatched: 0, statementsCut: 0, refusedWindows: 0 };
  private faults: PgProxyFaults = {};
  private server: net.Server | undefined;
  private readonly sockets = new Set<net.Socket>();
  private refuseTimer: NodeJS.Timeout | undefined;
  private closed = false;

  private constructor(
    readonly port: number,
    private readonly target: { host: string; port: number },
  ) {}

  /** Starts a proxy on a free loopback port, closed with `resources`. */
  static async start(resources: Resources, target: { host: string; port: number }): Promise<PgProxy> {
    const probe = net.createServer();
    await new Promise<void>((resolve, reject) => {
      probe.once('error', reject);
      probe.listen(0, '127.0.0.1', resolve);
    });
    const port = (probe.address() as net.AddressInfo).port;
    await new Promise<void>((resolve) => probe.close(() => resolve()));
    const proxy = new PgProxy(port, target);
    await proxy.listen();
    resources.add(`PostgreSQL proxy on port ${port}`, () => proxy.close(), () => proxy.destroyAll());
    return proxy;
  }

  /**
   * Sets the faults for the next connections and statements, resets the counts, and ends a
   * refusal a run before may have left under way: a program that crashes at once (the
   * flagged variant) ends sooner than the window, and the next one must find the port open.
   */
  async setFaults(faults: PgProxyFaults): Promise<void> {
    this.faults = faults;
    Object.assign(this.stats, { connections: 0, commits: 0, commitsCut: 0, statementsMatched: 0, statementsCut: 0, refusedWindows: 0 });
    clearTimeout(this.refuseTimer);
    if (!this.server && !this.closed) await this.listen();
  }

  /** Refuses new connections for `ms` milliseconds; open connections stay. */
  refuseFor(ms: number): void {
    this.stats.refusedWindows++;
    // Closing the listening socket refuses new connections at once; open ones stay.
    this.server?.close();
    this.server = undefined;
    clearTimeout(this.refuseTimer);
    this.refuseTimer = setTimeout(() => {
      // Should the port be taken meanwhile, connections keep being refused and the scenario shows it.
      if (!this.closed) this.listen().catch(() => {});
    }, ms);
  }

  async close(): Promise<void> {
    const server = this.server;
    const closed = server ? once(server, 'close') : undefined;
    this.destroyAll();
    await closed;
  }

  /** Drops every connection and stops listening, without waiting. */
  destroyAll(): void {
    this.closed = true;
    clearTimeout(this.refuseTimer);
    for (const socket of this.sockets) socket.destroy();
    this.sockets.clear();
    this.server?.close();
    this.server = undefined;
  }

  private listen(): Promise<void> {
    const server = net.createServer((client) => this.connect(client));
    this.server = server;
    return new Promise((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.port, '127.0.0.1', () => resolve());
    });
  }

  private connect(client: net.Socket): void {
    this.stats.connections++;
    const server = net.connect(this.target.port, this.target.host);
    for (const socket of [client, server]) {
      this.sockets.add(socket);
      socket.setNoDelay(true);
      socket.on('error', () => cut());
      socket.on('close', () => {
        this.sockets.delete(socket);
        cut();
      });
    }
    let done = false;
    /** Drops both sides at once, with nothing more forwarded. */
    const cut = () => {
      if (done) return;
      done = true;
      client.destroy();
      server.destroy();
    };
    const fromClient = new MessageReader(true);
    const fromServer = new MessageReader(false);
    let commitPending: 'forward' | 'cut' | undefined;

    client.on('data', (chunk: Buffer) => {
      for (const message of fromClient.push(chunk)) {
        if (done) return;
        if (message.type === '' && message.bytes.length === 8 && message.bytes.readInt32BE(4) >= 80877103) {
          client.write('N'); // no TLS on loopback: the client goes on in plain text
          continue;
        }
        const sql = sqlOf(message);
        if (sql !== undefined) {
          const statement = this.faults.cutBeforeStatement;
          if (statement && statement.match.test(sql) && statement.when(this.stats.statementsMatched++)) {
            this.stats.statementsCut++;
            cut();
            return;
          }
          if (/^\s*COMMIT\b/i.test(sql)) {
            commitPending = this.faults.cutAfterCommit?.(this.stats.commits++) ? 'cut' : 'forward';
          }
        }
        server.write(message.bytes);
      }
    });
    server.on('data', (chunk: Buffer) => {
      for (const message of fromServer.push(chunk)) {
        if (done) return;
        // CommandComplete of the COMMIT: the server has committed; the client never hears it.
        if (message.type === 'C' && commitPending !== undefined) {
          const cutNow = commitPending === 'cut' && message.bytes.toString('utf8', 5, message.bytes.length - 1) === 'COMMIT';
          commitPending = undefined;
          if (cutNow) {
            this.stats.commitsCut++;
            cut();
            return;
          }
        }
        client.write(message.bytes);
      }
    });
  }
}
