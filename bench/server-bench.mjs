// Language server benchmark (called by bench/run.js; also runs alone after `npm run build`):
//
// - latency: for a 2,000-line and a 10,000-line TypeScript file, the time from sending
//   `textDocument/didChange` to receiving `textDocument/publishDiagnostics` (debounce set
//   to 0 through initializationOptions), against a bare `Linter.verify` of the same text
//   with the same rules. Both run in this one process (the server bundle is embedded and
//   spoken to over in-memory streams, JSON-RPC as usual), so both get the same CPU on a
//   busy machine; rounds alternate so drift hits both alike. Wall-clock and CPU time are
//   both printed. Target: median ratio ≤ 1.2.
// - memory: the heap (after a forced GC) after 300 and after 1,300 edits of a 500-line
//   file, each edit linted and published before the next. Target: no growth.
// - cold start: spawning `node server.cjs --stdio` until its `initialize` result, median of 5.
// - project config: a real TypeScript project (the `mongodb` driver's own `src/`, 130-odd
//   files, copied from node_modules with its dependencies linked) linted with its
//   eslint.config.mjs in a trusted workspace, untyped and typed (parserOptions.projectService),
//   against the editor settings alone: time to the first diagnostics after didOpen (a new
//   server each time, so the typed figure includes building the TypeScript program) and
//   didChange→publishDiagnostics (the program reused across edits). Each server is its own
//   process, as in an editor. Prints the ratios typed / untyped.
//
// Usage: node bench/server-bench.mjs     (BENCH_SERVER_ROUNDS=15 for more rounds;
//        --project-config for the project-config part alone, BENCH_PROJECT_ROUNDS=5 for more rounds of it)
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { performance } from 'node:perf_hooks';
import { PassThrough } from 'node:stream';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Linter } from 'eslint';
import * as tsParser from '@typescript-eslint/parser';
import { createMessageConnection, StreamMessageReader, StreamMessageWriter } from 'vscode-jsonrpc/node';

// The memory figures need a forced GC: run again with --expose-gc when it is missing.
if (typeof globalThis.gc !== 'function') {
  const result = spawnSync(process.execPath, ['--expose-gc', fileURLToPath(import.meta.url), ...process.argv.slice(2)], { stdio: 'inherit' });
  process.exit(result.status ?? 1);
}

const require = createRequire(import.meta.url);
const serverPath = fileURLToPath(new URL('../server/dist/server.cjs', import.meta.url));
const plugin = require('../eslint-plugin/dist/index.cjs');

const ENGINE_VERSION = '8.0.2';
const ROUNDS = Number(process.env.BENCH_SERVER_ROUNDS) || 7;
const WARMUP_ROUNDS = 2;
const MEMORY_EDITS = 1000;
const MEMORY_FILE_LINES = 500;
const MEMORY_WARMUP_EDITS = 300;
const LATENCY_TARGET = 1.2;

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};
const mb = (bytes) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

// ------------------------------------------------------------------ input

/** A realistic service file of exactly `lines` lines: MongoDB writes, retry loops, connection strings. */
function generateSource(lines) {
  const header = [
    "import { MongoClient, type Db } from 'mongodb';",
    '',
    'interface Order { _id: string; customerId: string; archived: boolean; total: number }',
    '',
  ];
  const block = (index) => [
    `export async function archiveOrders${index}(db: Db, customerId: string): Promise<number> {`,
    "  const orders = db.collection<Order>('orders');",
    `  const limit${index} = 100;`,
    '  for (let attempt = 0; attempt < 3; attempt++) {',
    '    try {',
    '      const result = await orders.updateMany({ customerId, archived: false }, { $set: { archived: true } });',
    `      return result.modifiedCount + limit${index};`,
    '    } catch (error) {',
    '      if (attempt === 2) throw error;',
    '    }',
    '  }',
    '  return 0;',
    '}',
    '',
    `export async function addItem${index}(db: Db, item: { sku: string; qty: number }) {`,
    "  await db.collection('items').insertOne({ sku: item.sku, qty: item.qty });",
    `  const client = new MongoClient('mongodb://app:pw@orders${index}.cluster-abc.us-east-1.docdb.amazonaws.com:27017/?tls=true&retryWrites=false');`,
    '  return client;',
    '}',
    '',
  ];
  const out = [...header];
  for (let index = 0; out.length < lines; index++) out.push(...block(index));
  // Cut at a block boundary below the target, then pad with comment lines to the exact count.
  while (out.length > lines) out.length = out.lastIndexOf('', out.length - 2) + 1;
  while (out.length < lines) out.push(`// padding ${out.length}`);
  return out.join('\n');
}

/** The line of the `limitN = 100` declaration nearest the middle: the benchmark edits it. */
function findEditLine(text) {
  const lines = text.split('\n');
  for (let offset = 0; offset < lines.length; offset++) {
    for (const line of [Math.floor(lines.length / 2) + offset, Math.floor(lines.length / 2) - offset]) {
      if (/const limit\d+ = 10\d;/.test(lines[line] ?? '')) return line;
    }
  }
  throw new Error('no editable line');
}

// ------------------------------------------------------------------ bare linter

const bareLinter = new Linter({ cwd: '/bench' });
const bareConfig = [
  {
    files: ['**/*.ts'],
    plugins: { 'retry-safety': plugin },
    languageOptions: { parser: tsParser, ecmaVersion: 'latest', sourceType: 'module', parserOptions: { ecmaFeatures: { jsx: true } } },
    linterOptions: { reportUnusedDisableDirectives: 'off' },
    settings: { 'retry-safety': { documentdb: { engineVersion: ENGINE_VERSION, hosts: [] } } },
    rules: plugin.configs.recommended[0].rules,
  },
];

/** CPU milliseconds (user + system) this process spent since `since`. */
function cpuMs(since) {
  const { user, system } = process.cpuUsage(since);
  return (user + system) / 1000;
}

function timeBareVerify(text) {
  const started = performance.now();
  const cpuStarted = process.cpuUsage();
  const messages = bareLinter.verify(text, bareConfig, '/bench/service.ts');
  return { ms: performance.now() - started, cpuMs: cpuMs(cpuStarted), count: messages.length };
}

// ------------------------------------------------------------------ server client

/** A JSON-RPC client on the given streams, initialized as a client without workspace/configuration. */
async function connectClient(readable, writable, initializationOptions = { debounceMs: 0, retrySafety: { documentdb: { engineVersion: ENGINE_VERSION } } }) {
  const connection = createMessageConnection(new StreamMessageReader(readable), new StreamMessageWriter(writable));
  const waiters = new Map();
  connection.onNotification('textDocument/publishDiagnostics', (params) => {
    const key = `${params.uri}@${params.version}`;
    waiters.get(key)?.(params);
    waiters.delete(key);
  });
  connection.onNotification('window/logMessage', () => undefined);
  connection.onRequest('client/registerCapability', () => null);
  connection.listen();
  await connection.sendRequest('initialize', {
    processId: process.pid,
    rootUri: null,
    capabilities: {},
    initializationOptions,
  });
  await connection.sendNotification('initialized', {});
  return {
    connection,
    waitFor(uri, version) {
      return new Promise((resolve) => waiters.set(`${uri}@${version}`, resolve));
    },
  };
}

/** The server bundle running inside this process, over in-memory streams. */
async function startEmbeddedServer() {
  const { startServerOnStreams } = require(serverPath);
  const toServer = new PassThrough();
  const toClient = new PassThrough();
  startServerOnStreams(toServer, toClient);
  return connectClient(toClient, toServer);
}

/** Milliseconds from spawning `node server.cjs --stdio` to its `initialize` result. */
async function timeColdStart() {
  const started = performance.now();
  const child = spawn(process.execPath, [serverPath, '--stdio'], { stdio: ['pipe', 'pipe', 'inherit'] });
  const connection = createMessageConnection(new StreamMessageReader(child.stdout), new StreamMessageWriter(child.stdin));
  connection.listen();
  await connection.sendRequest('initialize', { processId: process.pid, rootUri: null, capabilities: {} });
  const ms = performance.now() - started;
  await connection.sendRequest('shutdown').catch(() => undefined);
  await connection.sendNotification('exit').catch(() => undefined);
  await new Promise((resolve) => (child.exitCode === null ? child.once('exit', resolve) : resolve()));
  connection.dispose();
  return ms;
}

/** One open document on the server, edited by flipping the `limitN = 10x` literal. */
async function openDocument(server, name, text) {
  const uri = `file:///bench/${name}`;
  let version = 1;
  let current = text;
  const line = findEditLine(text);
  const opened = server.waitFor(uri, version);
  await server.connection.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: 'typescript', version, text } });
  const first = await opened;
  return {
    diagnosticsCount: first.diagnostics.length,
    get text() {
      return current;
    },
    /** Sends one edit; resolves with the ms until its diagnostics arrived. */
    async edit({ wait = true } = {}) {
      const lines = current.split('\n');
      const column = lines[line].indexOf('= 10') + 4;
      const digit = lines[line][column] === '0' ? '1' : '0';
      lines[line] = lines[line].slice(0, column) + digit + lines[line].slice(column + 1);
      current = lines.join('\n');
      version++;
      const published = wait ? server.waitFor(uri, version) : undefined;
      const started = performance.now();
      const cpuStarted = process.cpuUsage();
      await server.connection.sendNotification('textDocument/didChange', {
        textDocument: { uri, version },
        contentChanges: [{ range: { start: { line, character: column }, end: { line, character: column + 1 } }, text: digit }],
      });
      if (!published) return 0;
      const params = await published;
      return { ms: performance.now() - started, cpuMs: cpuMs(cpuStarted), count: params.diagnostics.length };
    },
  };
}

// ------------------------------------------------------------------ runs

async function measureLatency(server, lines) {
  const text = generateSource(lines);
  const document = await openDocument(server, `service-${lines}.ts`, text);
  const viaServerTimes = { wall: [], cpu: [] };
  const bareTimes = { wall: [], cpu: [] };
  for (let round = 0; round < WARMUP_ROUNDS + ROUNDS; round++) {
    const viaServer = await document.edit();
    const bare = timeBareVerify(document.text);
    // The server publishes at most 1,000 findings per document, plus one summary of the rest.
    const expected = bare.count > 1000 ? 1001 : bare.count;
    if (viaServer.count !== expected) throw new Error(`server published ${viaServer.count} diagnostics, Linter found ${bare.count}`);
    if (round >= WARMUP_ROUNDS) {
      viaServerTimes.wall.push(viaServer.ms);
      viaServerTimes.cpu.push(viaServer.cpuMs);
      bareTimes.wall.push(bare.ms);
      bareTimes.cpu.push(bare.cpuMs);
    }
  }
  const wallRatio = median(viaServerTimes.wall) / median(bareTimes.wall);
  const cpuRatio = median(viaServerTimes.cpu) / median(bareTimes.cpu);
  // Judged on CPU time: the server path never waits (debounce 0), so on an idle machine
  // the two agree, and on a busy one wall time is mostly waiting for a core.
  const ratio = cpuRatio;
  console.log(
    `  ${String(lines).padStart(6)} lines, ${document.diagnosticsCount} findings: ` +
      `didChange→publishDiagnostics ${median(viaServerTimes.wall).toFixed(0)} ms (cpu ${median(viaServerTimes.cpu).toFixed(0)} ms), ` +
      `Linter.verify ${median(bareTimes.wall).toFixed(0)} ms (cpu ${median(bareTimes.cpu).toFixed(0)} ms), ` +
      `ratio wall ${wallRatio.toFixed(2)} / cpu ${cpuRatio.toFixed(2)} (target ≤ ${LATENCY_TARGET}) ${ratio <= LATENCY_TARGET ? 'ok' : 'ABOVE TARGET'}`,
  );
  return ratio;
}

async function measureMemory(server) {
  const document = await openDocument(server, 'memory.ts', generateSource(MEMORY_FILE_LINES));
  const stats = () => server.connection.sendRequest('retrySafety/serverStats');
  // V8 keeps compiling and collecting type feedback over the first few hundred lints: warm up first.
  for (let edit = 0; edit < MEMORY_WARMUP_EDITS; edit++) await document.edit();
  const before = (await stats()).memory;
  for (let edit = 0; edit < MEMORY_EDITS; edit++) await document.edit();
  const after = (await stats()).memory;
  const growth = after.heapUsed - before.heapUsed;
  // A leak of 2 KB per edit (a diagnostic list, a document copy) would show as > 2 MB here.
  const ok = growth < 2 * 1024 * 1024;
  console.log(
    `  memory over ${MEMORY_EDITS} edits after ${MEMORY_WARMUP_EDITS} (${MEMORY_FILE_LINES}-line file, each linted): heap ${mb(before.heapUsed)} → ${mb(after.heapUsed)} ` +
      `(${growth >= 0 ? '+' : ''}${(growth / 1024).toFixed(0)} KB), rss ${mb(before.rss)} → ${mb(after.rss)} ${ok ? 'ok' : 'GROWTH'}`,
  );
  return ok;
}

async function measureColdStart() {
  const times = [];
  for (let run = 0; run < 5; run++) times.push(await timeColdStart());
  console.log(`  cold start (spawn → initialize result): median ${median(times).toFixed(0)} ms of ${times.map((t) => t.toFixed(0)).join(', ')} ms`);
}

// ------------------------------------------------------------------ project config, typed and untyped

const repoModules = fileURLToPath(new URL('../node_modules/', import.meta.url));
const PROJECT_FILE = 'src/collection.ts';
const PROJECT_ROUNDS = Number(process.env.BENCH_PROJECT_ROUNDS) || 3;
const PROJECT_EDITS = 10;

/** The mongodb driver's TypeScript sources as a project of their own, with an eslint.config.mjs (typed or not). */
function createTypeScriptProject() {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'retry-safety-bench-project-'));
  const driver = path.join(repoModules, 'mongodb');
  cpSync(path.join(driver, 'src'), path.join(dir, 'src'), { recursive: true });
  cpSync(path.join(driver, 'tsconfig.json'), path.join(dir, 'tsconfig.json'));
  for (const name of ['bson', 'mongodb-connection-string-url', '@mongodb-js/saslprep', '@types/node', 'typescript', 'eslint', '@typescript-eslint/parser']) {
    mkdirSync(path.dirname(path.join(dir, 'node_modules', name)), { recursive: true });
    symlinkSync(path.join(repoModules, name), path.join(dir, 'node_modules', name), 'dir');
  }
  symlinkSync(fileURLToPath(new URL('../eslint-plugin', import.meta.url)), path.join(dir, 'node_modules', 'eslint-plugin-retry-safety'), 'dir');
  const writeConfig = (typed) =>
    writeFileSync(
      path.join(dir, 'eslint.config.mjs'),
      `import tsParser from '@typescript-eslint/parser';
import retrySafety from 'eslint-plugin-retry-safety';
export default [
  { files: ['**/*.ts'], languageOptions: { parser: tsParser${typed ? ', parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname }' : ''} } },
  ...retrySafety.configs.recommended,
  { settings: { 'retry-safety': { documentdb: { engineVersion: '${ENGINE_VERSION}' } } } },
];
`,
    );
  return { dir, writeConfig };
}

/** A server process in a trusted workspace; `useProjectConfig` false: the editor settings alone. */
async function spawnProjectServer(useProjectConfig) {
  const child = spawn(process.execPath, [serverPath, '--stdio'], { stdio: ['pipe', 'pipe', 'inherit'] });
  const server = await connectClient(child.stdout, child.stdin, {
    debounceMs: 0,
    workspaceTrusted: true,
    retrySafety: { useProjectConfig, documentdb: { engineVersion: ENGINE_VERSION } },
  });
  return {
    ...server,
    async stop() {
      await server.connection.sendRequest('shutdown').catch(() => undefined);
      await server.connection.sendNotification('exit').catch(() => undefined);
      await new Promise((resolve) => (child.exitCode === null ? child.once('exit', resolve) : resolve()));
      server.connection.dispose();
    },
  };
}

/** The server process's CPU milliseconds (user + system) so far. */
async function serverCpuMs(server) {
  const { cpu } = await server.connection.sendRequest('retrySafety/serverStats');
  return (cpu.user + cpu.system) / 1000;
}

/**
 * didOpen → first diagnostics in a new server, then the median didChange → diagnostics over
 * a few edits; wall-clock and the server's own CPU time (what a busy machine does not skew).
 */
async function timeProjectMode(filePath, useProjectConfig) {
  const text = readFileSync(filePath, 'utf8');
  const uri = pathToFileURL(filePath).href;
  const server = await spawnProjectServer(useProjectConfig);
  const opened = server.waitFor(uri, 1);
  let cpuBefore = await serverCpuMs(server);
  let started = performance.now();
  await server.connection.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: 'typescript', version: 1, text } });
  const first = await opened;
  const open = { wall: performance.now() - started, cpu: (await serverCpuMs(server)) - cpuBefore };
  const changes = { wall: [], cpu: [] };
  for (let version = 2; version < 2 + PROJECT_EDITS; version++) {
    const published = server.waitFor(uri, version);
    cpuBefore = await serverCpuMs(server);
    started = performance.now();
    await server.connection.sendNotification('textDocument/didChange', {
      textDocument: { uri, version },
      contentChanges: [{ text: `${text}\n// edit ${version}\n` }],
    });
    const params = await published;
    changes.wall.push(performance.now() - started);
    changes.cpu.push((await serverCpuMs(server)) - cpuBefore);
    if (params.diagnostics.length !== first.diagnostics.length) throw new Error(`edit ${version} changed the findings`);
  }
  await server.stop();
  return { open, change: { wall: median(changes.wall), cpu: median(changes.cpu) }, findings: first.diagnostics.length };
}

async function measureProjectConfig() {
  const { dir, writeConfig } = createTypeScriptProject();
  const filePath = path.join(dir, PROJECT_FILE);
  const modes = [
    { name: 'settings only', useProjectConfig: false, typed: false },
    { name: 'project config, untyped', useProjectConfig: true, typed: false },
    { name: 'project config, typed', useProjectConfig: true, typed: true },
  ];
  const runs = new Map(modes.map((mode) => [mode.name, []]));
  try {
    for (let round = 0; round < PROJECT_ROUNDS; round++) {
      for (const mode of round % 2 ? [...modes].reverse() : modes) {
        writeConfig(mode.typed);
        runs.get(mode.name).push(await timeProjectMode(filePath, mode.useProjectConfig));
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const summary = (name) => {
    const results = runs.get(name);
    const of = (pick) => median(results.map(pick));
    return {
      open: { wall: of((r) => r.open.wall), cpu: of((r) => r.open.cpu) },
      change: { wall: of((r) => r.change.wall), cpu: of((r) => r.change.cpu) },
      findings: results[0].findings,
    };
  };
  const [settingsOnly, untyped, typed] = modes.map((mode) => summary(mode.name));
  for (const [mode, { open, change, findings }] of modes.map((mode, index) => [mode, [settingsOnly, untyped, typed][index]])) {
    console.log(
      `  ${mode.name.padEnd(24)} ${PROJECT_FILE} (${findings} findings): first diagnostics after didOpen ${open.wall.toFixed(0)} ms (server cpu ${open.cpu.toFixed(0)} ms), ` +
        `didChange→publishDiagnostics ${change.wall.toFixed(0)} ms (server cpu ${change.cpu.toFixed(0)} ms)`,
    );
  }
  const ratio = (a, b) => `${(a.wall / b.wall).toFixed(2)} (cpu ${(a.cpu / b.cpu).toFixed(2)})`;
  console.log(`  ratios typed / untyped: first diagnostics ${ratio(typed.open, untyped.open)}, didChange ${ratio(typed.change, untyped.change)}`);
  console.log(`  ratios untyped project config / settings only: first diagnostics ${ratio(untyped.open, settingsOnly.open)}, didChange ${ratio(untyped.change, settingsOnly.change)}`);
}

if (!existsSync(serverPath)) {
  console.error('server/dist/server.cjs is missing: run `npm run build` first.');
  process.exit(1);
}
if (process.argv.includes('--project-config')) {
  await measureProjectConfig();
  process.exit(0);
}
const server = await startEmbeddedServer();
const ratios = [];
for (const lines of [2000, 10000]) ratios.push(await measureLatency(server, lines));
const memoryOk = await measureMemory(server);
await measureColdStart();
await measureProjectConfig();
const latencyOk = ratios.every((ratio) => ratio <= LATENCY_TARGET);
console.log(`  server targets: latency ratio ${latencyOk ? 'met' : 'NOT met'}, memory ${memoryOk ? 'flat' : 'GROWING'}`);
process.exit(0);
