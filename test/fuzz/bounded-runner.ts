// Checks inputs in a worker thread and stops one that runs past the time bound: a
// quadratic scan or a backtracking pattern then costs the bound, not minutes, and is
// reported as a time-bound failure with its input. The worker is bundled with esbuild from
// the sources (the plugin's included), so it checks the code as it is, without a build.
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { buildSync } from 'esbuild';
import { type CheckOptions, type CheckReport, PROPERTIES, type Property } from './checks';
import type { FuzzInput } from './input';

const ROOT = path.join(import.meta.dirname, '..', '..');
/** Time a worker may take to start (load ESLint, both parsers and the plugin) before it is given up on. */
const START_TIMEOUT_MS = 120_000;

function bundleWorker(): string {
  const dir = path.join(ROOT, 'node_modules', '.cache', 'retry-safety-fuzz');
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `worker-${process.pid}-${Date.now()}.cjs`);
  const result = buildSync({
    entryPoints: [path.join(import.meta.dirname, 'worker-entry.ts')],
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    packages: 'external',
    write: false,
    logLevel: 'silent',
    // `import.meta.url` (driver.ts) as a CommonJS bundle has it.
    define: { 'import.meta.url': '__fuzzImportMetaUrl', 'import.meta.dirname': '__dirname' },
    banner: { js: "const __fuzzImportMetaUrl = require('node:url').pathToFileURL(__filename).href;" },
  });
  writeFileSync(file, result.outputFiles[0]!.text);
  return file;
}

function timeoutReport(detail: string): CheckReport {
  const checks = Object.fromEntries(PROPERTIES.map((property) => [property, 0])) as Record<Property, number>;
  checks['time-bound'] = 1;
  return { failures: [{ property: 'time-bound', detail }], checks, parsed: true, findings: 0, fixes: 0, suggestions: 0, maxMs: Number.POSITIVE_INFINITY };
}

export class BoundedRunner {
  #file: string | undefined;
  #worker: Worker | undefined;
  #ready: Promise<void> | undefined;
  #nextId = 0;

  constructor(private readonly options: CheckOptions) {}

  #start(): Promise<void> {
    this.#file ??= bundleWorker();
    const worker = new Worker(this.#file);
    this.#worker = worker;
    this.#ready = new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('the fuzz worker did not start')), START_TIMEOUT_MS);
      worker.once('message', () => {
        clearTimeout(timer);
        resolve();
      });
      worker.once('error', (error) => {
        clearTimeout(timer);
        reject(error);
      });
    });
    return this.#ready;
  }

  /**
   * Checks one input. Past twice the bound and five seconds (parsing a large file is not
   * counted in the bound; a hang is) the worker is stopped and the input fails the time bound.
   */
  async check(input: FuzzInput): Promise<CheckReport> {
    if (!this.#worker) await this.#start();
    else await this.#ready;
    const worker = this.#worker!;
    const id = this.#nextId++;
    const limit = this.options.timeBoundMs * 2 + 5000;
    return new Promise<CheckReport>((resolve) => {
      const cleanUp = () => {
        clearTimeout(timer);
        worker.off('message', onMessage);
        worker.off('error', onError);
      };
      const onMessage = (message: { type: string; id: number; report: CheckReport }) => {
        if (message.type !== 'report' || message.id !== id) return;
        cleanUp();
        resolve(message.report);
      };
      const onError = (error: Error) => {
        cleanUp();
        this.#worker = undefined;
        resolve({ ...timeoutReport(''), failures: [{ property: 'no-throw', detail: `the worker failed: ${error.stack ?? error.message}` }] });
      };
      const timer = setTimeout(() => {
        cleanUp();
        this.#worker = undefined;
        void worker.terminate();
        resolve(timeoutReport(`not done after ${limit} ms (bound ${this.options.timeBoundMs} ms): stopped`));
      }, limit);
      worker.on('message', onMessage);
      worker.on('error', onError);
      worker.postMessage({ id, input, options: this.options });
    });
  }

  async close(): Promise<void> {
    const worker = this.#worker;
    this.#worker = undefined;
    if (worker) await worker.terminate();
    if (this.#file) rmSync(this.#file, { force: true });
  }
}
