// node-postgres ships no types and @types/pg is not a dependency; the fault scenarios
// use this much of it.
declare module 'pg' {
  export interface QueryResultRow {
    [column: string]: unknown;
  }
  export interface QueryResult<R extends QueryResultRow = QueryResultRow> {
    rows: R[];
    rowCount: number | null;
  }
  export interface ClientConfig {
    host?: string;
    port?: number;
    user?: string;
    database?: string;
    application_name?: string;
  }
  export class Client {
    constructor(config?: ClientConfig);
    connect(): Promise<void>;
    query<R extends QueryResultRow = QueryResultRow>(text: string, values?: unknown[]): Promise<QueryResult<R>>;
    end(): Promise<void>;
    on(event: 'error', listener: (error: Error) => void): this;
  }
  const pg: { Client: typeof Client };
  export default pg;
}
