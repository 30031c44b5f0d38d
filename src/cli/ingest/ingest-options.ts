import type { SinkReadOptions } from '../sink/sink-read-options.js';

/** Everything `ledger-rx ingest` does, as options of `runIngest` (`batch`: elements per transaction, default 1 000; `batchMs` default 500). */
export interface IngestOptions extends SinkReadOptions {
  /** PostgreSQL connection URL; without it, the embedded PostgreSQL in `dataDir`. */
  readonly pg?: string | undefined;
  /** The embedded PostgreSQL's directory (when there is no `pg`). Default `./ledger-rx-data`. */
  readonly dataDir?: string | undefined;
  /** Schema of the tables (created if needed). Default `public`. */
  readonly schema?: string | undefined;
  /** Name of the stream: its checkpoint row and the `stream_name` of its rows. Default `default`. */
  readonly streamName?: string | undefined;
  /** How long to wait for another process ingesting the same stream to stop. Default 15 000 ms. */
  readonly lockWaitMs?: number | undefined;
  /** Wait for the stream's lock as long as it takes (a standby), instead of `lockWaitMs`. */
  readonly standby?: boolean | undefined;
  /** A leader whose lock session falls silent this long loses the lock to a standby. Default 10 000 ms. */
  readonly lockLeaseMs?: number | undefined;
  /**
   * `--from acs`: a new stream starts from the active-contract snapshot (at `at`, else the ledger end), then
   * the updates after it. (`from` `begin`, the default, does so by itself on a pruned participant.)
   */
  readonly fromAcs?: boolean | undefined;
  /** `--at OFFSET` (only with `fromAcs`): the snapshot's offset. */
  readonly at?: number | undefined;
  /** `--dar FILE` (repeatable): typed views of each DAR's templates and interfaces (docs/query-store.md, "Typed views"). */
  readonly dars?: readonly string[] | undefined;
}
