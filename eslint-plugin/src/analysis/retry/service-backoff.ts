import type { Database } from '../clients';

/** The wait before a retry each service's guidance gives (DOMAIN.md), in milliseconds: the first wait and the cap. */
export interface ServiceBackoff {
  baseDelayMs: number;
  maxDelayMs: number;
}

export const SERVICE_BACKOFF: Readonly<Record<Database, ServiceBackoff>> = {
  // The AWS SDK for JavaScript v3 standard retry mode: base 100 ms, cap 20 s.
  dynamodb: { baseDelayMs: 100, maxDelayMs: 20000 },
  // Azure's guidance for transient PostgreSQL errors: 5 s before the first retry, up to 60 s.
  postgres: { baseDelayMs: 5000, maxDelayMs: 60000 },
  mongodb: { baseDelayMs: 100, maxDelayMs: 10000 },
};

/** Attempts a retry the fixes write makes before giving up, the first included. */
export const SUGGESTED_MAX_ATTEMPTS = 5;
