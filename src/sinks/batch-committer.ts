import type { ObservableInput } from 'rxjs';
import type { SynchronizerTime } from '../schemas/common.js';
import type { JsGetUpdatesResponse } from '../schemas/updates.js';
import { synchronizerTimesOf } from '../updates/synchronizer-times-of.js';
import { updateOffset } from '../updates/update-offset.js';
import type { LedgerSink, SinkCommit, SinkPosition } from './ledger-sink.js';

/** One commit reported by {@link BatchCommitter} (see `onCommit`). */
export interface BatchCommit extends SinkCommit {
  /** Offset of the first element of the batch. */
  readonly firstOffset: number;
  /** The position committed: the last element's offset and the synchronizer times up to it. */
  readonly position: SinkPosition;
  /** Elements in the batch (updates and checkpoints). */
  readonly elements: number;
  /** From the `commit` call to its completion, in ms. */
  readonly durationMs: number;
}

/** Options of {@link BatchCommitter}. */
export interface BatchCommitterOptions {
  /** The sink to write to; its `start` has resolved. With `add`, elements are handed to it one by one as they come. */
  readonly sink: Pick<LedgerSink, 'write' | 'commit' | 'add'>;
  /** Elements per batch: a full batch is written at once (see {@link BatchCommitter} for the wait). */
  readonly size: number;
  /** A partial batch is written at most this long after its first element, in ms. */
  readonly maxDelayMs: number;
  /** The sink's start position: its synchronizer times carry into the positions committed. */
  readonly start?: SinkPosition | undefined;
  /** Called after each commit, in order. */
  readonly onCommit?: (commit: BatchCommit) => void;
  /** Called once, with the first failed write or commit. */
  readonly onFailure: (error: unknown) => void;
}

const none: ObservableInput<unknown> = [];
const ignore = () => undefined;

/**
 * Groups update elements into batches and hands them to a {@link LedgerSink} — `write(batch)` then
 * `commit(position of its last element)` — in order, bounding both latency and memory:
 *
 * - `add` (use it as `tailUpdates`' `handler`) appends to the open batch (an element without an offset is
 *   ignored; offsets must increase, else it throws a `RangeError`); when the batch reaches `size` it is
 *   handed to the sink and `add` returns a Promise that resolves once this batch is written and the
 *   PREVIOUS batch is committed, so the read waits whenever a full batch is still committing: reading the
 *   next batch overlaps with committing this one, and at most two full batches plus the open one are held;
 * - a sink with `add` (`LedgerSink.add`: one that encodes each element as it comes) gets every element at once
 *   instead of at the batch's end, so the committer keeps none of them (they are garbage as soon as the sink has
 *   encoded them), and the batch is closed with `commit` at once when it is handed over (the next element belongs
 *   to the next batch); the waits are the same. A throw of the sink's `add` is a failure like a failed write;
 * - the first element of a batch starts a `maxDelayMs` timer that hands the batch over, full or not;
 * - `flush()` hands over the open batch and resolves when every commit is done (call it at the end).
 *
 * After a failed write or commit, `onFailure` is called, `add` throws and `flush` rejects with that error;
 * no later batch is written (so the stored position never skips a failed batch).
 */
export class BatchCommitter {
  private readonly options: BatchCommitterOptions;
  /** The open batch's elements, kept for a sink without `add`. */
  private open: JsGetUpdatesResponse[] = [];
  /** Elements in the open batch. */
  private count = 0;
  private first: number | undefined;
  private last: number | undefined;
  /**
   * The latest record time per synchronizer (first seen first; as `mergeSynchronizerTimes` would lay each element's
   * times over the last), kept in a map so that an element costs a `set`, not a new list.
   */
  private readonly times = new Map<string, string>();
  private writing: Promise<void> = Promise.resolve();
  private committed: Promise<void> = Promise.resolve();
  private timer: ReturnType<typeof setTimeout> | undefined;
  private failed: { error: unknown } | undefined;

  constructor(options: BatchCommitterOptions) {
    this.options = options;
    for (const t of options.start?.synchronizerTimes ?? []) this.times.set(t.synchronizerId, t.recordTime);
  }

  /** The first write or commit error, if any. */
  get failure(): unknown {
    return this.failed?.error;
  }

  /** Adds an element; returns something to wait for when the batch had to be handed over. */
  add(element: JsGetUpdatesResponse): ObservableInput<unknown> {
    if (this.failed) throw this.failed.error;
    const offset = updateOffset(element);
    if (offset === undefined) return none;
    if (this.last !== undefined && offset <= this.last) throw new RangeError(`offset ${offset} after ${this.last}: elements must be added in offset order`);
    this.last = offset;
    this.first ??= offset;
    for (const t of synchronizerTimesOf(element)) this.times.set(t.synchronizerId, t.recordTime);
    const { sink } = this.options;
    if (sink.add !== undefined) {
      try {
        sink.add(element);
      } catch (error) {
        this.fail(error);
        throw error;
      }
    } else this.open.push(element);
    if (++this.count >= this.options.size) {
      const previous = this.committed;
      const written = this.handOver();
      return Promise.all([previous, written]);
    }
    if (this.timer === undefined) {
      this.timer = setTimeout(() => {
        this.timer = undefined;
        this.handOver().catch(ignore);
      }, this.options.maxDelayMs);
    }
    return none;
  }

  /** Hands over the open batch (if any) and resolves when every commit is done. */
  flush(): Promise<void> {
    if (this.failed) return Promise.reject(this.failed.error);
    this.handOver().catch(ignore);
    return this.committed;
  }

  /** Stops the timer without handing anything over (after a failure). */
  dispose(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
  }

  /**
   * Writes the open batch after the previous write (a sink with `add` holds it already, and closes it now), then
   * commits it after the previous commit; resolves once written.
   */
  private handOver(): Promise<void> {
    this.dispose();
    const elements = this.open;
    const count = this.count;
    if (count === 0 || this.first === undefined || this.last === undefined) return this.writing;
    const firstOffset = this.first;
    const synchronizerTimes: SynchronizerTime[] = [];
    for (const [synchronizerId, recordTime] of this.times) synchronizerTimes.push({ synchronizerId, recordTime });
    const position: SinkPosition = { offset: this.last, synchronizerTimes };
    this.open = [];
    this.count = 0;
    this.first = undefined;
    const { sink, onCommit } = this.options;
    let commit: Promise<SinkCommit> | undefined;
    let commitStarted = 0;
    const check = () => {
      if (this.failed) throw this.failed.error;
    };
    let written: Promise<void>;
    if (sink.add !== undefined) {
      // the sink holds the batch: close it now, before the next element is added to the sink
      commitStarted = performance.now();
      commit = sink.commit(position);
      commit.catch(ignore);
      written = this.writing;
    } else {
      written = this.writing.then(async () => {
        check();
        await sink.write(elements);
        check();
        commitStarted = performance.now();
        commit = sink.commit(position);
        commit.catch(ignore);
      });
    }
    const committed = Promise.all([this.committed, written]).then(async () => {
      const result = await (commit as Promise<SinkCommit>);
      onCommit?.({ ...result, firstOffset, position, elements: count, durationMs: performance.now() - commitStarted });
    });
    const onError = (error: unknown) => {
      this.fail(error);
      throw error;
    };
    this.writing = written.catch(onError);
    this.committed = committed.catch(onError);
    this.writing.catch(ignore);
    this.committed.catch(ignore);
    return this.writing;
  }

  /** Records the first failure (`onFailure` once) and stops the timer. */
  private fail(error: unknown): void {
    if (this.failed) return;
    this.failed = { error };
    this.dispose();
    this.options.onFailure(error);
  }
}
