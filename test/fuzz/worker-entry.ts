// The worker thread of the time-bounded runs (bounded-runner.ts): it checks one input at a
// time, so the suite can stop an input that runs past the bound instead of waiting for it.
import { parentPort } from 'node:worker_threads';
import { type CheckOptions, checkInput } from './checks';
import type { FuzzInput } from './input';
import { type Engine, lint } from './lint';

if (!parentPort) throw new Error('worker-entry runs in a worker thread');
const port = parentPort;

// Parsers and rules loaded and compiled before the first measured input.
for (const engine of ['eslint10', 'eslint9'] as Engine[]) {
  lint({ filename: 'warm.ts', text: "import { MongoClient } from 'mongodb';\nconst a: number = 1;", engine, parser: 'typescript' });
  lint({ filename: 'warm.js', text: 'const b = `mongodb://h/?retryWrites=false`;', engine, parser: 'espree' });
  lint({ filename: '.env', text: 'A=mongodb://h/?retryWrites=false\n', engine });
}
port.postMessage({ type: 'ready' });

port.on('message', (request: { id: number; input: FuzzInput; options: CheckOptions }) => {
  const report = checkInput(request.input, request.options);
  port.postMessage({ type: 'report', id: request.id, report });
});
