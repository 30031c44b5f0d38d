/** Everything `ledger-rx store watch` does, as options of `runStoreWatch`. */
export interface StoreWatchOptions {
  /** The PostgreSQL server `ingest --pg` writes to. */
  readonly pg?: string | undefined;
  /** Given instead of `pg`: refused (the embedded store serves the ingesting process only). */
  readonly dataDir?: string | undefined;
  /** Default `public`. */
  readonly schema?: string | undefined;
  /** Default `default`. */
  readonly streamName?: string | undefined;
  /** Stop after this many offsets (tests, scripts). Default: until SIGINT/SIGTERM. */
  readonly count?: number | undefined;
}
