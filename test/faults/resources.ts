// What a fault scenario starts — temp folders, child processes, servers, the PostgreSQL
// cluster — registered as it is made and released in reverse order, also when the
// scenario fails. Whatever is still open when the process exits (a crash, Ctrl-C) is
// released by the synchronous half of each cleanup. `leftovers()` lists what survived:
// the suite asserts it is empty.
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** Prefix of every temp folder the scenarios make, under the system temp folder. */
export const TEMP_PREFIX = 'retry-safety-faults-';

interface Cleanup {
  name: string;
  /** The normal release: awaited, in reverse order of registration. */
  release: () => Promise<void> | void;
  /** Used when the process exits before `release` ran: must not wait for anything. */
  releaseNow: () => void;
}

/** Everything made by one run, released together. */
export class Resources {
  private readonly cleanups: Cleanup[] = [];
  /** Processes and folders ever made, to check afterwards that none is left. */
  private readonly pids = new Set<number>();
  private readonly dirs = new Set<string>();

  constructor() {
    live.add(this);
  }

  /** Registers a cleanup; returns a function that runs it early (once). */
  add(name: string, release: () => Promise<void> | void, releaseNow: () => void = () => {}): () => Promise<void> {
    const cleanup: Cleanup = { name, release, releaseNow };
    this.cleanups.push(cleanup);
    return async () => {
      const index = this.cleanups.indexOf(cleanup);
      if (index === -1) return;
      this.cleanups.splice(index, 1);
      await cleanup.release();
    };
  }

  /** A new folder under the system temp folder, removed on release. */
  tempDir(label: string): string {
    const dir = mkdtempSync(path.join(os.tmpdir(), `${TEMP_PREFIX}${label}-`));
    this.dirs.add(dir);
    const remove = () => rmSync(dir, { recursive: true, force: true, maxRetries: 3 });
    this.add(`temp folder ${dir}`, remove, remove);
    return dir;
  }

  /** Remembers a process id, so `leftovers()` can tell whether it is still running. */
  trackPid(pid: number | undefined): void {
    if (pid !== undefined) this.pids.add(pid);
  }

  /** Releases everything, last made first; reports every failure after trying them all. */
  async close(): Promise<void> {
    const errors: string[] = [];
    while (this.cleanups.length > 0) {
      const cleanup = this.cleanups.pop()!;
      try {
        await cleanup.release();
      } catch (error) {
        errors.push(`${cleanup.name}: ${(error as Error).message}`);
        try {
          cleanup.releaseNow();
        } catch {
          // The synchronous half is the last resort; leftovers() reports what survived.
        }
      }
    }
    live.delete(this);
    if (errors.length > 0) throw new Error(`cleanup failed:\n${errors.join('\n')}`);
  }

  /** Processes still running and folders still on disk, of all this object ever made. */
  leftovers(): string[] {
    const left: string[] = [];
    for (const pid of this.pids) if (isRunning(pid)) left.push(`process ${pid}`);
    for (const dir of this.dirs) if (existsSync(dir)) left.push(`folder ${dir}`);
    return left;
  }

  /** Every process and folder made, running or not. */
  tracked(): { pids: number[]; dirs: string[] } {
    return { pids: [...this.pids], dirs: [...this.dirs] };
  }

  /** The synchronous cleanups, for process exit. */
  releaseAllNow(): void {
    while (this.cleanups.length > 0) {
      try {
        this.cleanups.pop()!.releaseNow();
      } catch {
        // Keep going: release as much as possible on the way out.
      }
    }
  }
}

/** Runs `body` with fresh resources and releases them however it ends. */
export async function withResources<T>(body: (resources: Resources) => Promise<T>): Promise<T> {
  const resources = new Resources();
  try {
    return await body(resources);
  } finally {
    await resources.close();
  }
}

/** Whether a process runs (a zombie, dead but not yet collected, does not count). */
export function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return true; // no /proc (not Linux): the signal check is all there is
  }
}

const live = new Set<Resources>();
let exitHooked = false;

/** Releases whatever is still open when the process exits or is told to stop. */
export function releaseOnExit(): void {
  if (exitHooked) return;
  exitHooked = true;
  const releaseAll = () => {
    for (const resources of live) resources.releaseAllNow();
  };
  process.on('exit', releaseAll);
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    process.once(signal, () => {
      releaseAll();
      process.kill(process.pid, signal);
    });
  }
}
