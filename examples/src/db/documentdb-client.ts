// The orders service's connection to Amazon DocumentDB, plus the other databases it
// talks to. The cluster was upgraded to engine 8.0.2, which supports retryable writes,
// but the connection settings still turn them off.
import { MongoClient, type Db } from 'mongodb';

// Used when DOCDB_URI is not set (local runs against the staging cluster).
// Reported: retryWrites=false disables retryable writes on an 8.0.2 cluster (autofix).
export const FALLBACK_DOCDB_URI =
  'mongodb://orders_app:change-me@orders-staging.cluster-c1a2b3c4d5e6.eu-west-1.docdb.amazonaws.com:27017/orders?tls=true&tlsCAFile=global-bundle.pem&replicaSet=rs0&retryWrites=false';

export const client = new MongoClient(process.env.DOCDB_URI ?? FALLBACK_DOCDB_URI, {
  tls: true,
  tlsCAFile: 'global-bundle.pem',
  readPreference: 'secondaryPreferred',
  // Reported: needed before engine 8.0.2 (error 301), wrong since the upgrade (autofix).
  retryWrites: false,
  maxPoolSize: 20,
});

export function ordersDb(): Db {
  return client.db('orders');
}

// Look-alikes that must stay silent:

// Atlas without retryWrites: the driver default (retryable writes on) is right.
export const ANALYTICS_URI = 'mongodb+srv://reporting.x1y2z.mongodb.net/analytics?w=majority&appName=orders-reports';

// PostgreSQL, not MongoDB.
export const LEDGER_URL = 'postgres://ledger:change-me@ledger.internal.example.com:5432/ledger?sslmode=require';

// Prose that merely mentions the option.
export const UPGRADE_NOTE = 'Engines before 8.0.2 need retryWrites=false in the connection string (error 301).';

// A connection string in a comment is documentation, not configuration:
// mongodb://localhost:27017/orders?retryWrites=false

// A host that is only known at run time: nothing to say about it.
export function localUri(host: string): string {
  return `mongodb://${host}:27017/orders?directConnection=true`;
}
