import { Subject, type Observable, type ObservableInput } from 'rxjs';
import type { CheckpointStore } from '../../operators/checkpoint.js';
import { trackCheckpoint } from '../../operators/track-checkpoint.js';
import type { JsGetUpdatesResponse } from '../../schemas/updates.js';
import { isOffsetCheckpoint } from '../../updates/is-offset-checkpoint.js';
import { updateOffset } from '../../updates/update-offset.js';
import type { UpdateWriter } from '../output/update-writer.js';
import { deliveryAction } from './delivery-action.js';

/** Options of {@link TailDelivery}. */
export interface TailDeliveryOptions {
  readonly descending: boolean;
  /** Write `OffsetCheckpoint` elements too (`--checkpoints`). */
  readonly includeCheckpoints: boolean;
  /** Save the position of what was delivered here (after the output was flushed: see `flushBeforeSave`). */
  readonly checkpoint?: { readonly store: CheckpointStore; readonly every: number; readonly everyMs: number } | undefined;
}

const none: ObservableInput<unknown> = [];

/**
 * The delivery side of `tail`: `handler` (the read's `handler`) writes each element with `writer` as
 * {@link deliveryAction} decides, and every element it took, in order, counts as delivered once its line
 * is written (an unwritten checkpoint once seen), even when the read is cut while the handler waits for
 * the output to drain. The checkpoint is tracked on the delivered elements, not on what the read emits
 * afterwards, so a saved checkpoint covers every line written and nothing more.
 *
 * End it with `finish()` when the read completed (saves the last position; rejects when that save fails)
 * or `abandon()` when it failed (saves what was delivered, never rejects). `failure$` errors as soon as a
 * save fails, to end the read with that error.
 */
export class TailDelivery {
  /** The stream's position: the offset of the last element handled, an unwritten checkpoint's too. */
  position: number | undefined;
  /** Offsets of the first and last element written. */
  firstOffset: number | undefined;
  lastOffset: number | undefined;
  /** Errors with the first failed checkpoint save; never emits. */
  readonly failure$: Observable<never>;
  private readonly delivered = new Subject<JsGetUpdatesResponse>();
  private readonly tracked: Promise<void> | undefined;
  private handledOffset: number | undefined;

  constructor(
    private readonly writer: UpdateWriter,
    private readonly options: TailDeliveryOptions,
  ) {
    const failure = new Subject<never>();
    this.failure$ = failure.asObservable();
    const checkpoint = options.checkpoint;
    if (checkpoint) {
      this.tracked = new Promise<void>((resolve, reject) =>
        this.delivered.pipe(trackCheckpoint(checkpoint.store, { every: checkpoint.every, everyMs: checkpoint.everyMs })).subscribe({
          error: (error: unknown) => {
            reject(error);
            failure.error(error);
          },
          complete: resolve,
        }),
      );
      this.tracked.catch(() => undefined);
    }
  }

  /** The read's `handler`: resolves (or returns at once) when the element may count as delivered. */
  readonly handler = (element: JsGetUpdatesResponse): ObservableInput<unknown> => {
    const offset = updateOffset(element);
    const action = deliveryAction({
      offset,
      handledOffset: this.handledOffset,
      descending: this.options.descending,
      isCheckpoint: isOffsetCheckpoint(element),
      includeCheckpoints: this.options.includeCheckpoints,
    });
    if (action === 'repeat') return none;
    if (offset !== undefined) {
      this.handledOffset = offset;
      this.position = offset;
    }
    if (action === 'pass') {
      this.delivered.next(element);
      return none;
    }
    const ready = this.writer.write(element);
    if (offset !== undefined) {
      this.firstOffset ??= offset;
      this.lastOffset = offset;
    }
    this.delivered.next(element);
    return ready ? none : this.writer.drained();
  };

  /** The read completed: saves the position of everything delivered; rejects when that save fails. */
  async finish(): Promise<void> {
    this.delivered.complete();
    await this.tracked;
  }

  /** The read failed with `error`: saves the position of what was delivered; never rejects. */
  async abandon(error: unknown): Promise<void> {
    this.delivered.error(error);
    await this.tracked?.catch(() => undefined);
  }
}
