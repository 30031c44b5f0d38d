import type { BatchCommit } from '../../metrics/ledger-rx-metrics.js';
import type { ReadinessPhase } from '../../metrics/readiness-tracker.js';
import type { CheckpointStore } from '../../operators/checkpoint.js';
import type { TailStatus } from '../../operators/tail-status.js';
import type { GetLedgerEndResponse } from '../../schemas/state.js';

/**
 * The monitoring of one daemon command (see `startDaemonMonitor`): metrics and readiness, fed by the
 * command. Without `--metrics-port` every method does nothing.
 */
export interface DaemonMonitor {
  /** The server's URL, when one was started. */
  readonly url: string | undefined;
  /** Combines the monitor's status listener with `next` (the command's own, e.g. its logger). */
  withStatus(next: (status: TailStatus) => void): (status: TailStatus) => void;
  /** Looks the ledger end up with `lookup` every 5 seconds from now on (for the lag and the stall check). */
  watchLedgerEnd(lookup: () => Promise<GetLedgerEndResponse>): void;
  /** What the daemon is doing: `standby` while it waits for its stream's lock, `stopping` after a stop signal. */
  setPhase(phase: ReadinessPhase): void;
  /** Records an ingest batch committed with its checkpoint. */
  batchCommitted(commit: BatchCommit): void;
  /** `store`, with its saves recorded as checkpoint commits. */
  instrumentCheckpointStore(store: CheckpointStore): CheckpointStore;
  /** Stops the ledger-end look-ups and the server. Idempotent. */
  close(): Promise<void>;
}
