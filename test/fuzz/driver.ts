// The MongoDB driver's own reading of a connection string (`parseOptions` of
// mongodb/lib/connection_string.js, what `new MongoClient(uri)` runs), for comparing a
// URI before and after a fix: everything but `retryWrites` must stay as it was.
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const { parseOptions } = require('mongodb/lib/connection_string.js') as { parseOptions: (uri: string) => Record<string, unknown> };

export type DriverReading = { ok: true; retryWrites: unknown; others: string } | { ok: false; error: string };

/** Plain data for comparing: host addresses as `host:port`, no promises or functions. */
function normalize(value: unknown, depth = 0): unknown {
  if (depth > 8) return '<deep>';
  if (typeof value === 'function') return '<function>';
  if (typeof value === 'bigint') return String(value);
  if (value === null || typeof value !== 'object') return value;
  if (value instanceof Promise) return '<promise>';
  if (value instanceof Map) return [...value.entries()].map(([key, item]) => [key, normalize(item, depth + 1)]);
  if (Array.isArray(value)) return value.map((item) => normalize(item, depth + 1));
  if (value.constructor?.name === 'HostAddress') return String(value);
  const record = value as Record<string, unknown>;
  return Object.fromEntries(
    Object.keys(record)
      .sort()
      .map((key) => [key, normalize(record[key], depth + 1)]),
  );
}

const cache = new Map<string, DriverReading>();

/** How the driver reads `uri`: its `retryWrites` and, as one string, every other option. */
export function readWithDriver(uri: string): DriverReading {
  const known = cache.get(uri);
  if (known) return known;
  let reading: DriverReading;
  try {
    const options = parseOptions(uri);
    // `runtime` is a promise of the driver's adapters: nothing the URI says.
    const others = Object.fromEntries(Object.entries(options).filter(([key]) => key !== 'retryWrites' && key !== 'runtime'));
    reading = { ok: true, retryWrites: options.retryWrites, others: JSON.stringify(normalize(others)) };
  } catch (error) {
    reading = { ok: false, error: error instanceof Error ? error.message : String(error) };
  }
  if (cache.size > 5000) cache.clear();
  cache.set(uri, reading);
  return reading;
}

/** The first option that differs between two readings' `others`, for a report. */
export function describeDifference(before: string, after: string): string {
  const a = JSON.parse(before) as Record<string, unknown>;
  const b = JSON.parse(after) as Record<string, unknown>;
  for (const key of new Set([...Object.keys(a), ...Object.keys(b)])) {
    const left = JSON.stringify(a[key]);
    const right = JSON.stringify(b[key]);
    if (left !== right) return `${key}: ${left} → ${right}`;
  }
  return 'no difference';
}
