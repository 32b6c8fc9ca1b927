// dynalite ships no types; the fault scenarios use its one API.
declare module 'dynalite' {
  import type { Server } from 'node:http';
  export interface DynaliteOptions {
    createTableMs?: number;
    deleteTableMs?: number;
    updateTableMs?: number;
    path?: string;
  }
  export default function dynalite(options?: DynaliteOptions): Server;
}
