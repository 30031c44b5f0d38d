import type { CheckpointStore } from '../operators/checkpoint.js';
import type { TailStatus } from '../operators/tail-status.js';

/** One commit of a batch of rows together with its checkpoint (an ingest sink's transaction). */
export interface BatchCommit {
  /** Elements in the batch (updates and checkpoints). */
  readonly elements: number;
  /** From `BEGIN` to `COMMIT`, in ms. */
  readonly durationMs: number;
}

/**
 * The instruments of one read (one `stream` label value), as returned by `collectMetrics`. Feed it the
 * read's statuses (`onStatus`) and, where the application writes checkpoints or batches, the commit hooks;
 * the numbers appear on the registry it was created with.
 */
export interface LedgerRxMetrics {
  /** The `stream` label of every series this handle writes. */
  readonly stream: string;
  /**
   * Pass as (or call from) `tailUpdates`/`readDescending`'s `onStatus`: counts elements by kind, bytes,
   * requests, reconnects and retries, and keeps the position, page size and record time for the lag. A
   * bound function: `onStatus: metrics.onStatus` works.
   */
  readonly onStatus: (status: TailStatus) => void;
  /** Records a ledger end learnt elsewhere (a poll of `GET /v2/state/ledger-end`), for the lag. */
  observeLedgerEnd(offset: number): void;
  /** Records one checkpoint save: its duration, and whether it failed. */
  checkpointSaved(durationMs: number, failed?: boolean): void;
  /** Records one committed batch of an ingest (size and commit latency; also a checkpoint save). */
  batchCommitted(commit: BatchCommit): void;
  /**
   * A store that saves through `store` and records each save with {@link checkpointSaved} (for
   * `trackCheckpoint`). `load` is passed through.
   */
  instrumentCheckpointStore(store: CheckpointStore): CheckpointStore;
}
