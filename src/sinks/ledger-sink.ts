import type { SynchronizerTime } from '../schemas/common.js';
import type { JsGetUpdatesResponse } from '../schemas/updates.js';

/**
 * Where a sink stands: the offset of the last element it committed and the latest record time seen per
 * synchronizer up to there (the `Checkpoint` of the stores, without its timestamp).
 */
export interface SinkPosition {
  readonly offset: number;
  readonly synchronizerTimes: readonly SynchronizerTime[];
}

/** The outcome of {@link LedgerSink.commit}. */
export interface SinkCommit {
  /**
   * `false` when the destination already held this position (a batch committed just before a crash and
   * read again after the restart): nothing was written twice.
   */
  readonly applied: boolean;
  /** Updates stored by this commit (elements other than `OffsetCheckpoint`s). */
  readonly updates: number;
  /** Bytes of element text stored by this commit. */
  readonly bytes: number;
}

/**
 * A destination that stores the update stream exactly once, together with its position, so that the
 * position is where a restart resumes and nothing is stored twice or skipped. Implemented by
 * `PostgresSink` (rows and checkpoint in one transaction) and `JetStreamSink` (each message carries its
 * offset; the stream's last message is the position), and meant for more (a Kafka producer with
 * transactions fits the same calls). `BatchCommitter` drives one from `tailUpdates`.
 *
 * The calls, in this order:
 * 1. `start(signal)` once: prepares the destination (schema, stream, lock) and resolves with the position
 *    of the last commit, or `undefined` when it holds nothing of this stream yet; the read resumes after it.
 *    `signal` abandons the preparation (rejecting with the signal's reason).
 * 2. `write(elements)` and `commit(position)`, alternating: `write` adds elements (offset order, after all
 *    elements written before) to the open unit and may resolve late to slow the reader down (backpressure);
 *    the next `write` waits for it. `commit(position)` closes the open unit at `position` (the offset of
 *    its last element) and resolves once the unit and the position are durable together, or rejects — a
 *    destination never keeps part of a unit without its position. `commit` may be called again before the
 *    previous commit resolved (the reader goes on while the destination works): units commit in call order,
 *    and after a rejected commit every later `write`/`commit` rejects.
 * 3. `close()`: releases connections and locks; an open unit is dropped, not committed.
 *
 * A sink that takes each element as it comes (encodes it at once, so that nothing keeps it) may also have `add`:
 * the same as `write([element])`, synchronous, for a sink whose `write` never slows the reader down.
 * `BatchCommitter` then hands it every element with `add` as it arrives and calls `commit` at once when the
 * batch is complete, never `write`.
 */
export interface LedgerSink {
  start(signal?: AbortSignal): Promise<SinkPosition | undefined>;
  write(elements: readonly JsGetUpdatesResponse[]): Promise<void>;
  /**
   * Optional: adds one element to the open unit at once (offset order, after every element added or written
   * before), as `write([element])` would. Throws when the sink has failed (a rejected commit, a lost lock) or
   * cannot take the element; after such a throw the open unit must not be committed (the sink's later `commit`
   * rejects).
   */
  add?(element: JsGetUpdatesResponse): void;
  commit(position: SinkPosition): Promise<SinkCommit>;
  close(): Promise<void>;
}
