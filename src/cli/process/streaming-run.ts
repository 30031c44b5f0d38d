import type { TailStatus } from '../../operators/tail-status.js';
import type { Logger } from '../log/logger.js';
import type { DaemonMonitor } from '../monitoring/daemon-monitor.js';
import type { ProgressSnapshot } from '../report/format-progress.js';
import type { RunCounters } from '../report/compute-run-stats.js';
import type { StatusSurface } from '../report/status-surface.js';
import type { StopSignals } from './listen-for-stop-signals.js';

/** What a streaming command counts, for `--stats` (the elapsed time and the retries are the run's own). */
export type RunTally = Omit<RunCounters, 'elapsedMs' | 'retries' | 'transport'>;

/**
 * The services `runStreamingCommand` gives the work of a long-running command (`tail`, `ingest`), and
 * the things the work hands back for the end of the run. Everything registered here is undone by the run
 * itself, whichever way the work ends.
 */
export interface StreamingRun {
  /** The command's logger (JSON lines on stderr unless `--logger`); it erases the progress line first. */
  readonly logger: Logger;
  /** SIGINT/SIGTERM as a graceful stop (see `listenForStopSignals`); disposed at the end. */
  readonly stops: StopSignals;
  /**
   * An `onStatus` for the reads: logs each status, counts the retries and keeps the transport for `--stats`
   * and the progress line, and feeds the monitor.
   */
  readonly onStatus: (status: TailStatus) => void;
  /** The metrics and readiness of `--metrics-port` (does nothing without it); closed at the very end. */
  readonly monitor: DaemonMonitor;
  /**
   * Registers something to close at the end (a source, a store, an output): the closes run after the work
   * and the progress line ended, in the reverse order of registration, each failure ignored.
   */
  release(close: () => unknown): void;
  /** Where `--stats` reads the command's counters at the end. Default: all zero. */
  tally(read: () => RunTally): void;
  /** The data output's kept error, read at the end: an `EPIPE` ends the run quietly with exit 0. */
  watchOutput(error: () => Error | undefined): void;
  /**
   * Shows the live progress (status) line on stderr (see `ProgressLine`), reading `read` at each redraw,
   * polling `ledgerEnd` every second for the lag, cut to stderr's width and styled by `look.style`; both
   * stop at the end of the run. Returns the line, for output sharing its terminal (erase, then redraw).
   */
  showProgress(
    read: () => Omit<ProgressSnapshot, 'rate' | 'ledgerEnd' | 'transport'>,
    ledgerEnd: () => Promise<number>,
    look?: { readonly style?: (line: string) => string },
  ): StatusSurface;
}
