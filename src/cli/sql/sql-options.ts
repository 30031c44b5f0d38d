/** Everything `ledger-rx sql` does, as options of `runSql`. */
export interface SqlOptions {
  /** The query (one statement; several are allowed on the embedded store, the last result is shown). */
  readonly query: string;
  /** A PostgreSQL server URL; without it, the embedded PostgreSQL in `dataDir`. */
  readonly pg?: string | undefined;
  /** Default `./ledger-rx-data`. */
  readonly dataDir?: string | undefined;
  /** `search_path`: the schema `ingest` wrote to. Default `public`. */
  readonly schema?: string | undefined;
  /** `table` (aligned, for people) or `ndjson` (one JSON object per row). Default `table`. */
  readonly format?: 'table' | 'ndjson' | undefined;
}
