import type { LogLevel } from '../log/log-level.js';
import type { MonitoringOptions } from '../monitoring/monitoring-options.js';
import type { FilterOptions } from '../options/filter-options.js';
import type { FromOffset } from '../options/parse-from-offset.js';
import type { ToOffset } from '../options/parse-to-offset.js';
import type { OutputFormat } from '../output/output-format.js';
import type { SourceOptions } from '../options/source-options.js';

/** Everything `ledger-rx tail` does, as options of `runTail`. */
export interface TailOptions {
  readonly source: SourceOptions;
  readonly filter: FilterOptions;
  /** Start after this offset, at `begin` (default) or at the ledger `end`. Ignored when a checkpoint exists. */
  readonly from?: FromOffset | undefined;
  /** Stop after this offset, or at the ledger end as of the start; default: tail forever. */
  readonly to?: ToOffset | undefined;
  /** Newest first (history only: needs no checkpoint; `to` defaults to the ledger end). */
  readonly descending?: boolean | undefined;
  /** Stop after this many updates (with `descending`: the newest N). */
  readonly limit?: number | undefined;
  /** Elements per request while catching up. Default 200; halved by itself after a 413. */
  readonly pageLimit?: number | undefined;
  /** `stream_idle_timeout_ms` of catch-up requests, in ms. Default 20 (raised by the tail when the participant is slower to its first element). */
  readonly idleTimeoutMs?: number | undefined;
  /** Long-poll timeout once caught up, in ms. Default 5 000. */
  readonly longPollMs?: number | undefined;
  /** Retries of a failing request before giving up (exit 4). Default 10. */
  readonly maxRetries?: number | undefined;
  /** A checkpoint file: resume after its offset; saved after the lines are written and flushed. */
  readonly checkpointFile?: string | undefined;
  /** A PostgreSQL URL holding the checkpoint row of `streamName`. */
  readonly checkpointPg?: string | undefined;
  readonly streamName?: string | undefined;
  /** Save the checkpoint every N elements (default 100) and at most every `checkpointEveryMs` (default 1 000). */
  readonly checkpointEvery?: number | undefined;
  readonly checkpointEveryMs?: number | undefined;
  /** `pretty` (the human view) or `ndjson`; default: `pretty` when writing to stdout on a terminal, else `ndjson`. */
  readonly format?: OutputFormat | undefined;
  /** Data file; default stdout. Appended to when a checkpoint is used, truncated otherwise. */
  readonly out?: string | undefined;
  /** Also write `OffsetCheckpoint` elements (the human view draws them muted). Default false: updates only. */
  readonly includeCheckpoints?: boolean | undefined;
  /** Print the JSON summary on stderr at exit. */
  readonly stats?: boolean | undefined;
  /**
   * Live progress (status) line on stderr: by default when stderr is a terminal and the data does not go to
   * the same terminal as NDJSON (the human view keeps it at the bottom, below its lines).
   */
  readonly progress?: boolean | undefined;
  /** Validate each element against the wire schema; default true (`--no-validate` turns it off). */
  readonly validate?: boolean | undefined;
  readonly logLevel?: LogLevel | undefined;
  /** `--metrics-port`, `--metrics-host`, `--stall-after`. */
  readonly monitoring?: MonitoringOptions | undefined;
}
