// Starts a scenario program in a child process (run-program.mjs) and collects what
// happened: the workload's result, or the crash (exit code and stderr). The child is
// killed at the time bound, and always before the scenario's resources are released.
import { fork } from 'node:child_process';
import path from 'node:path';
import type { Resources } from './resources';

export const PROGRAMS_DIR = path.join(import.meta.dirname, 'programs');
const RUNNER = path.join(import.meta.dirname, 'run-program.mjs');

export interface WorkloadResult {
  calls: number;
  ok: number;
  failed: number;
  errors: Record<string, number>;
  /** How the workload's transaction ended, where it has one. */
  transaction?: string;
}

export interface ProgramRun {
  /** The workload's own report; missing when the process died first. */
  result?: WorkloadResult;
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  stderr: string;
  /** Killed at the time bound. */
  timedOut: boolean;
  ms: number;
}

export interface RunOptions {
  /** Environment for the program's clients (PG*, DYNAMODB_ENDPOINT, FAULTS_*…). */
  env: Record<string, string>;
  /** Called when the workload says it is ready for the fault; the workload goes on when it returns. */
  onReady?: () => Promise<void>;
  timeoutMs?: number;
}

/** The variables a developer's shell may hold that would point the programs elsewhere. */
const FOREIGN_VARIABLES = /^(PG|AWS_|DATABASE_URL$|DYNAMODB_)/;

/** Runs `program` (a file under programs/) with the scenario's workload. */
export async function runProgram(resources: Resources, scenario: string, program: string, options: RunOptions): Promise<ProgramRun> {
  const started = performance.now();
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(process.env)) if (value !== undefined && !FOREIGN_VARIABLES.test(name)) env[name] = value;
  Object.assign(env, {
    AWS_REGION: 'us-east-1',
    AWS_ACCESS_KEY_ID: 'faults',
    AWS_SECRET_ACCESS_KEY: 'faults',
    AWS_EC2_METADATA_DISABLED: 'true',
    AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
    ...options.env,
  });
  const child = fork(RUNNER, [scenario, path.join(PROGRAMS_DIR, program)], { env, stdio: ['ignore', 'pipe', 'pipe', 'ipc'], execArgv: [] });
  resources.trackPid(child.pid);
  const stop = resources.add(
    `program ${program} (pid ${child.pid})`,
    () => killAndWait(child),
    () => child.kill('SIGKILL'),
  );
  let stderr = '';
  child.stderr!.setEncoding('utf8').on('data', (text: string) => (stderr += text));
  child.stdout!.resume();
  let result: WorkloadResult | undefined;
  let injected: Promise<void> | undefined;
  child.on('message', (message: { type: string; result?: WorkloadResult }) => {
    if (message.type === 'result') result = message.result;
    if (message.type === 'ready') {
      injected = (options.onReady ?? (async () => {}))().then(
        () => {
          // The program may exit between the check and the write (a flagged program that
          // crashes as the fault lands): the failed send then goes to this callback instead
          // of an 'error' nobody listens to, and the exit is what the scenario looks at.
          if (child.connected) child.send({ type: 'go' }, () => {});
        },
        (error: unknown) => {
          stderr += `\n[fault injection failed] ${(error as Error).message}`;
          child.kill('SIGKILL');
        },
      );
    }
  });
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    child.kill('SIGKILL');
  }, options.timeoutMs ?? 20_000);
  const [exitCode, signal] = await new Promise<[number | null, NodeJS.Signals | null]>((resolve) => {
    child.once('exit', (code, exitSignal) => resolve([code, exitSignal]));
  });
  clearTimeout(timer);
  // The fault may still be finishing (a crash can come before its query returns).
  await injected;
  await stop();
  return { result, exitCode, signal, stderr, timedOut, ms: Math.round(performance.now() - started) };
}

async function killAndWait(child: ReturnType<typeof fork>): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGKILL');
  await exited;
}
