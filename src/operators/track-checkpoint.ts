import { Observable, asyncScheduler, defer, interval, type MonoTypeOperatorFunction, type SchedulerLike, type Subscription } from 'rxjs';
import { ErrorCodes } from '../errors/error-codes.js';
import { LedgerRxError } from '../errors/ledger-rx-error.js';
import type { SynchronizerTime } from '../schemas/common.js';
import type { JsGetUpdatesResponse } from '../schemas/updates.js';
import { mergeSynchronizerTimes } from '../updates/merge-synchronizer-times.js';
import { synchronizerTimesOf } from '../updates/synchronizer-times-of.js';
import { updateOffset } from '../updates/update-offset.js';
import type { Checkpoint, CheckpointStore } from './checkpoint.js';
import { checkInteger } from './internal/check-integer.js';

/** Options of {@link trackCheckpoint}. */
export interface TrackCheckpointConfig {
  /** Persist after this many processed elements. Default 100. */
  readonly every?: number;
  /** Persist at most this long after an element was processed, in ms. Default 1 000; `0` disables the timer. */
  readonly everyMs?: number;
  /** Scheduler for the timer and for `updatedAt`. Default `asyncScheduler`. */
  readonly scheduler?: SchedulerLike;
}

/**
 * Records the position of each element once the downstream has processed it, and persists it to `store`
 * every `every` elements or `everyMs` milliseconds, and at completion.
 *
 * ```
 * source:     --a--b--c--d--|
 * result:     --a--b--c--d--(save d)|      every: 2 → saves after b and d (d again not needed at the end)
 * ```
 *
 * Place it after the step that does the work: an element counts as processed when the `next` call that
 * delivered it returns (for async work, do it upstream, e.g. in `tailUpdates`' `handler` or a `concatMap`).
 * The position is `{offset, synchronizerTimes, updatedAt}`: the offset of the last element, the latest
 * record time seen per synchronizer (from `OffsetCheckpoint`s and from the updates themselves), and the
 * scheduler's time. Saves never overlap and never go backwards; a position is never saved before its
 * element was processed.
 *
 * Emits what the source emits. On completion, saves the last position, then completes. On error, saves the
 * last processed position, then errors with the source's error. A failed save errors the stream with code
 * `CHECKPOINT_STORE_FAILED`. Unsubscribing stops without saving: complete the source (e.g. `takeUntil`) to
 * flush.
 */
export function trackCheckpoint<T extends JsGetUpdatesResponse>(store: CheckpointStore, config: TrackCheckpointConfig = {}): MonoTypeOperatorFunction<T> {
  const every = config.every ?? 100;
  const everyMs = config.everyMs ?? 1_000;
  checkInteger('every', every, 1);
  checkInteger('everyMs', everyMs, 0);
  const scheduler = config.scheduler ?? asyncScheduler;

  return (source) =>
    new Observable<T>((subscriber) => {
      let processed: Checkpoint | undefined;
      let committedOffset = -1;
      let sinceSave = 0;
      let saving: Subscription | undefined;
      let again = false;
      let ending: { kind: 'complete' } | { kind: 'error'; error: unknown } | undefined;
      let times: readonly SynchronizerTime[] = [];

      const finish = () => {
        if (!ending || saving) return;
        if (ending.kind === 'complete') subscriber.complete();
        else subscriber.error(ending.error);
      };

      const save = () => {
        if (saving) {
          again = true;
          return;
        }
        const target = processed;
        if (!target || target.offset <= committedOffset) {
          finish();
          return;
        }
        sinceSave = 0;
        saving = defer(() => store.save(target)).subscribe({
          error: (error: unknown) => {
            saving = undefined;
            subscriber.error(new LedgerRxError(ErrorCodes.CHECKPOINT_STORE_FAILED, `saving checkpoint ${target.offset} failed`, { cause: error }));
          },
          complete: () => {
            saving = undefined;
            committedOffset = Math.max(committedOffset, target.offset);
            if (again) {
              again = false;
              save();
            } else finish();
          },
        });
      };

      const timer = everyMs > 0 ? interval(everyMs, scheduler).subscribe(() => save()) : undefined;

      const upstream = source.subscribe({
        next: (element) => {
          subscriber.next(element);
          const offset = updateOffset(element);
          if (offset === undefined) return;
          const seen = synchronizerTimesOf(element);
          if (seen.length > 0) times = mergeSynchronizerTimes(times, seen);
          processed = { offset, synchronizerTimes: times, updatedAt: new Date(scheduler.now()).toISOString() };
          if (++sinceSave >= every) save();
        },
        error: (error: unknown) => {
          ending = { kind: 'error', error };
          save();
        },
        complete: () => {
          ending = { kind: 'complete' };
          save();
        },
      });

      return () => {
        upstream.unsubscribe();
        timer?.unsubscribe();
        saving?.unsubscribe();
      };
    });
}
