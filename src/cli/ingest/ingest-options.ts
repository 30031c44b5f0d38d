import type { LogLevel } from '../log/log-level.js';
import type { MonitoringOptions } from '../monitoring/monitoring-options.js';
import type { FilterOptions } from '../options/filter-options.js';
import type { FromOffset } from '../options/parse-from-offset.js';
import type { ToOffset } from '../options/parse-to-offset.js';
import type { SourceOptions } from '../options/source-options.js';

/** Everything `ledger-rx ingest` does, as options of `runIngest`. */
export interface IngestOptions {
  readonly source: SourceOptions;
  readonly filter: FilterOptions;
  /** PostgreSQL connection URL. */
  readonly pg: string;
  /** Schema of the tables (created if needed). Default `public`. */
  readonly schema?: string | undefined;
  /** Name of the stream: its checkpoint row and the `stream_name` of its rows. Default `default`. */
  readonly streamName?: string | undefined;
  /** Where a new stream starts (ignored once the stream has a checkpoint). Default `begin`. */
  readonly from?: FromOffset | undefined;
  /** Stop after this offset, or at the ledger end at start; default: ingest forever. */
  readonly to?: ToOffset | undefined;
  /** Elements per transaction. Default 1 000. */
  readonly batch?: number | undefined;
  /** A partial batch is committed at most this long after its first element. Default 500 ms. */
  readonly batchMs?: number | undefined;
  readonly pageLimit?: number | undefined;
  /** `stream_idle_timeout_ms` of catch-up requests, in ms. Default 20 (raised by the tail when needed). */
  readonly idleTimeoutMs?: number | undefined;
  readonly maxRetries?: number | undefined;
  /** How long to wait for another process ingesting the same stream to stop. Default 15 000 ms. */
  readonly lockWaitMs?: number | undefined;
  readonly stats?: boolean | undefined;
  readonly progress?: boolean | undefined;
  /** Validate each element against the wire schema; default true (`--no-validate` turns it off). */
  readonly validate?: boolean | undefined;
  readonly logLevel?: LogLevel | undefined;
  /** `--metrics-port`, `--metrics-host`, `--stall-after`. */
  readonly monitoring?: MonitoringOptions | undefined;
}
