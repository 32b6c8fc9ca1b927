// Runs one scenario program in its own Node.js process, the way a service would use it,
// and sends what happened to the parent over IPC:
//
//   node run-program.mjs <scenario id> <program file>
//
// The program is imported as is (its clients read PG* and DYNAMODB_ENDPOINT from the
// environment). A process that crashes sends nothing: the parent sees its exit code and
// stderr. Workloads that need the parent to inject a fault in the middle send
// { type: 'ready' } and wait for { type: 'go' }.
import { pathToFileURL } from 'node:url';

const [scenario, file] = process.argv.slice(2);
const number = (name, fallback) => Number(process.env[name] ?? fallback);
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

function send(message) {
  return new Promise((resolve) => process.send(message, () => resolve()));
}

function waitFor(type) {
  return new Promise((resolve) => {
    const listener = (message) => {
      if (message?.type !== type) return;
      process.off('message', listener);
      resolve(message);
    };
    process.on('message', listener);
  });
}

/** Runs `call` for each of `count` inputs, one after the other; counts what succeeded. */
async function sequential(count, call) {
  const errors = {};
  let ok = 0;
  for (let index = 0; index < count; index++) {
    try {
      await call(index);
      ok++;
    } catch (error) {
      const name = error.code ?? error.name ?? 'Error';
      errors[name] = (errors[name] ?? 0) + 1;
    }
  }
  return { calls: count, ok, failed: count - ok, errors };
}

const workloads = {
  // Places orders one after the other.
  async 'pg-commit-reply-lost'(program) {
    const result = await sequential(number('FAULTS_CALLS', 12), (index) => program.placeOrder(`customer-${index}`, 10 + index));
    await program.pool.end();
    return result;
  },

  // Fills the pool with idle connections, lets the parent drop them, then serves requests.
  async 'pg-idle-connections-dropped'(program) {
    const size = number('FAULTS_POOL_SIZE', 4);
    await Promise.all(Array.from({ length: size }, () => program.countOrders()));
    await send({ type: 'ready', idle: program.pool.idleCount });
    await waitFor('go');
    const requests = number('FAULTS_CALLS', 20);
    const result = await sequential(requests, async () => {
      await sleep(number('FAULTS_INTERVAL_MS', 25));
      await program.countOrders();
    });
    await program.pool.end();
    return result;
  },

  // A transaction whose connection drops, then requests to serve.
  async 'pg-checked-out-connection-dropped'(program) {
    const transaction = await program.closeDay('2026-12-01').then(
      () => 'committed',
      (error) => `failed: ${error.message}`,
    );
    const result = await sequential(number('FAULTS_CALLS', 10), () => program.countOrders());
    await program.pool.end();
    return { ...result, transaction };
  },

  // Transfers money one transfer after the other, each with its own transfer id.
  async 'pg-statement-retried-in-transaction'(program) {
    const amount = number('FAULTS_AMOUNT', 100);
    const result = await sequential(number('FAULTS_CALLS', 6), (index) => program.transfer(`transfer-${index}`, 'alice', 'bob', amount));
    await program.pool.end();
    return result;
  },

  // Saves orders in batches of 25, the batches at the same time.
  async 'dynamodb-partial-batch'(program) {
    const orders = Array.from({ length: number('FAULTS_ITEMS', 100) }, (_, index) => ({ id: `order-${index}`, total: index }));
    const batches = [];
    for (let start = 0; start < orders.length; start += 25) batches.push(orders.slice(start, start + 25));
    const outcomes = await Promise.allSettled(batches.map((batch) => program.saveOrders(batch)));
    const ok = outcomes.filter((outcome) => outcome.status === 'fulfilled').length;
    return { calls: batches.length, ok, failed: batches.length - ok, errors: {} };
  },

  // Several workers record events as fast as they can for a fixed time.
  async 'dynamodb-retry-without-wait'(program) {
    const until = Date.now() + number('FAULTS_DURATION_MS', 2000);
    const workers = number('FAULTS_WORKERS', 8);
    const results = await Promise.all(
      Array.from({ length: workers }, async (_, worker) => {
        let ok = 0;
        let failed = 0;
        for (let index = 0; Date.now() < until; index++) {
          try {
            await program.recordEvent({ id: `worker-${worker}-${index}`, kind: 'click' });
            ok++;
          } catch {
            failed++;
          }
        }
        return { ok, failed };
      }),
    );
    const ok = results.reduce((sum, result) => sum + result.ok, 0);
    const failed = results.reduce((sum, result) => sum + result.failed, 0);
    return { calls: ok + failed, ok, failed, errors: {} };
  },

  // Reads orders one after the other.
  async 'dynamodb-retries-disabled'(program) {
    return sequential(number('FAULTS_CALLS', 60), (index) => program.getOrder(`order-${index % 10}`));
  },
};

const workload = workloads[scenario];
if (!workload) throw new Error(`no workload for scenario ${scenario}`);
const program = await import(pathToFileURL(file).href);
const result = await workload(program);
await send({ type: 'result', result });
// Done: do not wait for kept-alive sockets of the clients to time out.
process.exit(0);
