// The MongoDB driver's own reading of a connection string (`parseOptions`, what `new
// MongoClient(uri)` does before connecting; no network), to check fixes and suggestions
// against: an edit may change `retryWrites` and nothing else the driver reads.
import { createRequire } from 'node:module';
import type { MongoOptions } from 'mongodb';
import { expect } from 'vitest';

const { parseOptions } = createRequire(import.meta.url)('mongodb/lib/connection_string') as {
  parseOptions(uri: string): MongoOptions;
};

export interface DriverReading {
  retryWrites: boolean;
  /** Every other option, the hosts and the credentials, as JSON. */
  rest: string;
}

/** How the driver reads `uri`; undefined when it rejects it. */
export function readWithDriver(uri: string): DriverReading | undefined {
  let options: MongoOptions;
  try {
    options = parseOptions(uri);
  } catch {
    return undefined;
  }
  const seen = new WeakSet<object>();
  const rest = JSON.stringify(options, (key, value: unknown) => {
    if (key === 'retryWrites') return undefined;
    if (typeof value === 'bigint') return String(value);
    if (value instanceof Map) return [...value];
    if (typeof value === 'object' && value !== null) {
      if (seen.has(value)) return '[seen]';
      seen.add(value);
    }
    return value;
  });
  return { retryWrites: options.retryWrites, rest };
}

/**
 * The driver reads `after` as it reads `before` in everything but `retryWrites`, which is
 * `retryWrites` (true when the option is gone: the driver's default).
 */
export function expectSameButRetryWrites(before: string, after: string, retryWrites: boolean): void {
  const original = readWithDriver(before);
  const edited = readWithDriver(after);
  expect(original, `the driver rejects ${before}`).toBeDefined();
  expect(edited, `the driver rejects ${after}`).toBeDefined();
  expect(edited!.rest).toBe(original!.rest);
  expect(edited!.retryWrites).toBe(retryWrites);
}
