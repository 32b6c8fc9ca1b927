// DynamoDB for the fault scenarios: dynalite (in memory, in this process) behind an HTTP
// proxy that behaves as DynamoDB does under load:
// - it answers a request with ProvisionedThroughputExceededException (HTTP 400,
//   `x-amzn-ErrorType`) when the throttle says so: a seeded share of requests, or the
//   requests over a table's write capacity (a token bucket);
// - it forwards only part of a BatchWriteItem / BatchGetItem and returns the rest as
//   UnprocessedItems / UnprocessedKeys, without an error, as DynamoDB does.
// The AWS SDK v3 reaches it through `endpoint`.
import { once } from 'node:events';
import http from 'node:http';
import type net from 'node:net';
import { crc32 } from 'node:zlib';
import dynalite from 'dynalite';
import type { Resources } from './resources';

export interface DynamoRequest {
  /** The operation, from `X-Amz-Target` (`PutItem`, `BatchWriteItem`…). */
  operation: string;
  /** 0-based position among all requests since the faults were set. */
  index: number;
  body: string;
}

export interface DynamoFaults {
  /** Whether to answer the request with ProvisionedThroughputExceededException. */
  throttle?: (request: DynamoRequest) => boolean;
  /** For batch operations: the share (0–1) of the batch's requests to process; the rest is returned unprocessed. */
  processedShare?: (request: DynamoRequest) => number;
}

export interface DynamoStats {
  requests: number;
  throttled: number;
  /** Write or read requests inside batches that were returned unprocessed. */
  heldBack: number;
  /** Arrival time of each request, ms since the faults were set. */
  arrivals: number[];
  /** For each request sent again after a throttle: ms from the throttle's answer to it (same item key). */
  retryGaps: number[];
}

const THROTTLE_BODY = JSON.stringify({
  __type: 'com.amazonaws.dynamodb.v20120810#ProvisionedThroughputExceededException',
  message:
    'The level of configured provisioned throughput for the table was exceeded. Consider increasing your provisioning level with the UpdateTable API.',
});

/** A throttle that admits `perSecond` requests a second with bursts of `burst`, as provisioned capacity does. */
export function tokenBucket(perSecond: number, burst: number, now: () => number = () => performance.now()): () => boolean {
  let tokens = burst;
  let last = now();
  return () => {
    const time = now();
    tokens = Math.min(burst, tokens + ((time - last) / 1000) * perSecond);
    last = time;
    if (tokens >= 1) {
      tokens -= 1;
      return false;
    }
    return true;
  };
}

type Batch = Record<string, unknown[]>;

/** The item a single-item request is about (`Item` or `Key`), as text; undefined for batches. */
function itemKey(body: string): string | undefined {
  try {
    const input = JSON.parse(body) as { TableName?: string; Item?: unknown; Key?: unknown };
    const item = input.Key ?? input.Item;
    return item === undefined ? undefined : `${input.TableName} ${JSON.stringify(item)}`;
  } catch {
    return undefined;
  }
}

/** Splits each table's requests of a batch into the ones forwarded and the ones held back. */
function splitBatch(items: Batch, share: number): { forwarded: Batch; heldBack: Batch; count: number } {
  const forwarded: Batch = {};
  const heldBack: Batch = {};
  const total = Object.values(items).reduce((sum, list) => sum + list.length, 0);
  // At least one request is processed: DynamoDB throttles a batch of which it can process none.
  let budget = Math.max(1, Math.round(total * share));
  let count = 0;
  for (const [table, list] of Object.entries(items)) {
    const take = Math.min(budget, list.length);
    budget -= take;
    if (take > 0) forwarded[table] = list.slice(0, take);
    if (take < list.length) {
      heldBack[table] = list.slice(take);
      count += list.length - take;
    }
  }
  return { forwarded, heldBack, count };
}

export class DynamoDB {
  readonly stats: DynamoStats = { requests: 0, throttled: 0, heldBack: 0, arrivals: [], retryGaps: [] };
  /** When each item key was last answered with a throttle, to time the retry that follows. */
  private throttledAt = new Map<string, number>();
  private faults: DynamoFaults = {};
  private startedAt = performance.now();
  private readonly agent = new http.Agent({ keepAlive: true });

  private readonly proxy = http.createServer((request, response) => {
    // A request cut short (the program exits, or the scenario's resources are closed while it
    // is under way) is dropped: it must not surface as an unhandled error of the test run.
    this.handle(request, response).catch(() => response.destroy());
  });
  /** The proxy's URL: what the SDK's `endpoint` gets. */
  endpoint = '';
  /** dynalite's own URL, without faults: what the checks read the tables through. */
  readonly directEndpoint: string;

  private constructor(private readonly backendPort: number) {
    this.directEndpoint = `http://127.0.0.1:${backendPort}`;
  }

  static async start(resources: Resources): Promise<DynamoDB> {
    const backend = dynalite({ createTableMs: 0, deleteTableMs: 0, updateTableMs: 0 });
    resources.add('dynalite', () => closeServer(backend), () => backend.close());
    backend.listen(0, '127.0.0.1');
    await once(backend, 'listening');
    const instance = new DynamoDB((backend.address() as net.AddressInfo).port);
    const { proxy, agent } = instance;
    resources.add('DynamoDB proxy', () => closeServer(proxy), () => proxy.close());
    resources.add('DynamoDB proxy connections', () => agent.destroy(), () => agent.destroy());
    proxy.listen(0, '127.0.0.1');
    await once(proxy, 'listening');
    instance.endpoint = `http://127.0.0.1:${(proxy.address() as net.AddressInfo).port}`;
    return instance;
  }

  /** Sets the faults for the next requests and resets the counts. */
  setFaults(faults: DynamoFaults): void {
    this.faults = faults;
    Object.assign(this.stats, { requests: 0, throttled: 0, heldBack: 0, arrivals: [], retryGaps: [] });
    this.throttledAt.clear();
    this.startedAt = performance.now();
  }

  private async handle(request: http.IncomingMessage, response: http.ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks).toString('utf8');
    const operation = String(request.headers['x-amz-target'] ?? '').split('.').pop() ?? '';
    const call: DynamoRequest = { operation, index: this.stats.requests++, body };
    const now = performance.now();
    this.stats.arrivals.push(now - this.startedAt);
    const key = itemKey(body);
    const throttledAt = key === undefined ? undefined : this.throttledAt.get(key);
    if (throttledAt !== undefined) this.stats.retryGaps.push(now - throttledAt);

    if (this.faults.throttle?.(call)) {
      this.stats.throttled++;
      if (key !== undefined) this.throttledAt.set(key, performance.now());
      this.reply(response, 400, THROTTLE_BODY, { 'x-amzn-ErrorType': 'ProvisionedThroughputExceededException:' });
      return;
    }
    const share = this.faults.processedShare?.(call);
    const batchKey = operation === 'BatchWriteItem' ? 'UnprocessedItems' : operation === 'BatchGetItem' ? 'UnprocessedKeys' : undefined;
    if (share === undefined || batchKey === undefined) {
      const answer = await this.forward(request, body);
      this.reply(response, answer.status, answer.body);
      return;
    }
    const input = JSON.parse(body) as { RequestItems: Record<string, unknown> };
    let heldBack: Record<string, unknown>;
    if (operation === 'BatchWriteItem') {
      const split = splitBatch(input.RequestItems as Batch, share);
      input.RequestItems = split.forwarded;
      heldBack = split.heldBack;
      this.stats.heldBack += split.count;
    } else {
      const tables = input.RequestItems as Record<string, { Keys: unknown[] }>;
      const split = splitBatch(Object.fromEntries(Object.entries(tables).map(([table, entry]) => [table, entry.Keys])), share);
      input.RequestItems = Object.fromEntries(Object.entries(split.forwarded).map(([table, keys]) => [table, { ...tables[table], Keys: keys }]));
      heldBack = Object.fromEntries(Object.entries(split.heldBack).map(([table, keys]) => [table, { ...tables[table], Keys: keys }]));
      this.stats.heldBack += split.count;
    }
    const answer = await this.forward(request, JSON.stringify(input));
    if (answer.status !== 200) {
      this.reply(response, answer.status, answer.body);
      return;
    }
    const output = JSON.parse(answer.body) as Record<string, Record<string, unknown>>;
    output[batchKey] = { ...output[batchKey], ...heldBack };
    this.reply(response, 200, JSON.stringify(output));
  }

  private async forward(request: http.IncomingMessage, body: string): Promise<{ status: number; body: string }> {
    const headers = { ...request.headers, 'content-length': String(Buffer.byteLength(body)) };
    const forwarded = http.request({ host: '127.0.0.1', port: this.backendPort, method: request.method, path: request.url, headers, agent: this.agent });
    // Before the answer, an error rejects the wait below; after it, reading the body fails instead.
    forwarded.on('error', () => undefined);
    forwarded.end(body);
    const [answer] = (await once(forwarded, 'response')) as [http.IncomingMessage];
    const chunks: Buffer[] = [];
    for await (const chunk of answer) chunks.push(chunk as Buffer);
    return { status: answer.statusCode ?? 500, body: Buffer.concat(chunks).toString('utf8') };
  }

  private reply(response: http.ServerResponse, status: number, body: string, extra: Record<string, string> = {}): void {
    response.writeHead(status, {
      'content-type': 'application/x-amz-json-1.0',
      'content-length': Buffer.byteLength(body),
      'x-amz-crc32': String(crc32(body)),
      'x-amzn-requestid': `faults-${this.stats.requests}`,
      ...extra,
    });
    response.end(body);
  }
}

/** Stops listening, drops kept-alive connections, and waits (dynalite also closes its store). */
function closeServer(server: http.Server): Promise<void> {
  if (!server.listening) return Promise.resolve();
  return new Promise((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
}
