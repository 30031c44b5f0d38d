import type { LogLevel } from '../log/log-level.js';
import type { MonitoringOptions } from '../monitoring/monitoring-options.js';
import type { FilterOptions } from '../options/filter-options.js';
import type { FromOffset } from '../options/parse-from-offset.js';
import type { ToOffset } from '../options/parse-to-offset.js';
import type { SourceOptions } from '../options/source-options.js';

/** The options `ingest` and `publish` share: what to read, how to batch it, how to run. */
export interface SinkReadOptions {
  readonly source: SourceOptions;
  readonly filter: FilterOptions;
  /** Where a new stream starts (ignored once the sink holds a position). Default `begin`. */
  readonly from?: FromOffset | undefined;
  /** Stop after this offset, or at the ledger end at start; default: forever. */
  readonly to?: ToOffset | undefined;
  /** Elements per batch (a transaction, or a group of publishes whose acks are awaited together). */
  readonly batch?: number | undefined;
  /** A partial batch is handed over at most this long after its first element, in ms. */
  readonly batchMs?: number | undefined;
  readonly pageLimit?: number | undefined;
  /** `stream_idle_timeout_ms` of catch-up requests, in ms. Default 20 (raised by the tail when needed). */
  readonly idleTimeoutMs?: number | undefined;
  readonly maxRetries?: number | undefined;
  readonly stats?: boolean | undefined;
  readonly progress?: boolean | undefined;
  /** Validate each element against the wire schema; default true (`--no-validate` turns it off). */
  readonly validate?: boolean | undefined;
  readonly logLevel?: LogLevel | undefined;
  /** `--metrics-port`, `--metrics-host`, `--stall-after`. */
  readonly monitoring?: MonitoringOptions | undefined;
}
