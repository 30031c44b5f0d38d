import type { ObservableInput } from 'rxjs';
import type { JsGetUpdatesResponse } from '../schemas/updates.js';
import { IngestBatch } from './postgres/ingest-batch.js';

/** Options of {@link BatchCommitter}. */
export interface BatchCommitterOptions {
  /** Elements per batch: a full batch is committed at once (see {@link BatchCommitter} for the wait). */
  readonly size: number;
  /** A partial batch is committed at most this long after its first element, in ms. */
  readonly maxDelayMs: number;
  /** Writes a batch (with its checkpoint) durably. Commits never overlap and run in order. */
  readonly commit: (batch: IngestBatch) => Promise<void>;
  /** Called once, with the first failed commit. */
  readonly onFailure: (error: unknown) => void;
}

const none: ObservableInput<unknown> = [];

/**
 * Groups update elements into {@link IngestBatch}es and commits them one after the other, bounding both
 * latency and memory:
 *
 * - `add` (use it as `tailUpdates`' `handler`) appends to the open batch; when the batch reaches `size`
 *   it is queued for commit and `add` returns a Promise that resolves once the PREVIOUS batch is
 *   committed, so the read waits whenever a full batch is still queued: reading the next batch overlaps
 *   with writing this one, and at most two full batches plus the open one are in memory;
 * - the first element of a batch starts a `maxDelayMs` timer that commits the batch, full or not;
 * - `flush()` commits the open batch and resolves when every commit is done (call it at the end).
 *
 * After a failed commit, `onFailure` is called, `add` throws and `flush` rejects with that error; no
 * later batch is committed (so the stored checkpoint never skips a failed batch).
 */
export class BatchCommitter {
  private readonly options: BatchCommitterOptions;
  private open = new IngestBatch();
  private chain: Promise<void> = Promise.resolve();
  private timer: ReturnType<typeof setTimeout> | undefined;
  private failed: { error: unknown } | undefined;

  constructor(options: BatchCommitterOptions) {
    this.options = options;
  }

  /** The first commit error, if any. */
  get failure(): unknown {
    return this.failed?.error;
  }

  /** Adds an element; returns something to wait for when the batch had to be committed. */
  add(element: JsGetUpdatesResponse): ObservableInput<unknown> {
    if (this.failed) throw this.failed.error;
    if (!this.open.add(element)) return none;
    if (this.open.size >= this.options.size) {
      const previous = this.chain;
      this.commitOpen().catch(() => undefined);
      return previous;
    }
    if (this.timer === undefined) {
      this.timer = setTimeout(() => {
        this.timer = undefined;
        this.commitOpen().catch(() => undefined);
      }, this.options.maxDelayMs);
    }
    return none;
  }

  /** Commits the open batch (if any) and resolves when every commit is done. */
  flush(): Promise<void> {
    return this.commitOpen();
  }

  /** Stops the timer without committing (after a failure). */
  dispose(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
  }

  private commitOpen(): Promise<void> {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
    if (this.failed) return Promise.reject(this.failed.error);
    const batch = this.open;
    if (batch.size > 0) {
      this.open = new IngestBatch();
      this.chain = this.chain.then(() => {
        if (this.failed) throw this.failed.error;
        return this.options.commit(batch).catch((error: unknown) => {
          if (!this.failed) {
            this.failed = { error };
            this.options.onFailure(error);
          }
          throw error;
        });
      });
    }
    return this.chain;
  }
}
