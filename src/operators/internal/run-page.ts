import { Observable, from, type ObservableInput, type Subscription } from 'rxjs';
import type { JsGetUpdatesResponse } from '../../schemas/updates.js';
import { offsetOrderCheck } from '../../updates/offset-order-check.js';
import { offsetOrderOf, type OffsetRequest } from '../../updates/offset-order-of.js';
import { updateOffsets, type ElementOffsets } from './element-offsets.js';

/** An element {@link runPage} delivers, with its offset (`undefined` for an element without one). */
export interface PageElement<E = JsGetUpdatesResponse> {
  readonly element: E;
  readonly offset: number | undefined;
}

/** How {@link runPage} treats the elements of the answer. */
export interface RunPageOptions<E = JsGetUpdatesResponse> {
  /** Check the answer against the request with `elementOrderCheck` (`false` when the source already does). */
  readonly checkOrder: boolean;
  /** Async work per element that takes part in backpressure (see `PagedReadOptions.handler`). */
  readonly handler: ((element: E) => ObservableInput<unknown>) | undefined;
  /**
   * With a `handler`: called with the number of elements received but not yet emitted (waiting for or in
   * their handler) each time it changes, so that a streaming answer can be paused while the handler is behind.
   */
  readonly onPending?: ((pending: number) => void) | undefined;
}

/** What one page brought, counted by {@link runPage} as the answer arrives (read it when the page ended). */
export interface PageTally {
  /** Elements the answer brought, checkpoints that were skipped included. */
  readonly received: number;
  /** `true` once an element beyond `plan.stopAfter` ended the page, and with it the read. */
  readonly reachedStop: boolean;
}

/**
 * ONE page of a paged read, whatever transport brings its answer: `answer` is the cold Observable of the
 * elements of one answer to `plan.request` (one `POST /v2/updates` list today; a WebSocket stream or a
 * page of the paged endpoint fit the same way).
 *
 * The elements are updates unless `kind` says how to read another kind's offsets. Each element is checked
 * against the request (`offsetOrderCheck`, unless `checkOrder` is off); a
 * checkpoint at the offset already reached is skipped (it carries nothing new); an element beyond
 * `plan.stopAfter` ends the page (`tally.reachedStop`) and unsubscribes from the answer. With a `handler`,
 * each element is emitted only once its handler completed, and a failure of the answer waits behind the
 * elements already received, so that every element whose handler ran is also emitted.
 *
 * ```
 * answer:  --a--b--c(checkpoint at b's offset)--d--|
 * emits:   --a--b--------------------------------d--|      tally.received = 4
 * ```
 *
 * Emits `{element, offset}` in order; completes with the answer (or at `stopAfter`); errors with the
 * answer's error or a `ProtocolError` `OFFSET_NOT_INCREASING` (the element is not emitted). Unsubscribing
 * unsubscribes from the answer. Cold: `tally` counts the latest subscription.
 */
export function runPage<E = JsGetUpdatesResponse>(
  answer: Observable<E>,
  plan: { readonly request: unknown; readonly stopAfter?: number | undefined },
  options: RunPageOptions<E>,
  kind: ElementOffsets<E> = updateOffsets as unknown as ElementOffsets<E>,
): { readonly elements: Observable<PageElement<E>>; readonly tally: PageTally } {
  const tally = { received: 0, reachedStop: false };
  const admitted = new Observable<PageElement<E>>((inner) => {
    tally.received = 0;
    tally.reachedStop = false;
    // a request without offsets (a snapshot's) has no order to check
    const range = plan.request as Partial<OffsetRequest>;
    const ranged = typeof range.beginExclusive === 'number' ? (range as OffsetRequest) : undefined;
    const check = options.checkOrder && ranged ? offsetOrderCheck(offsetOrderOf(ranged), kind.offset, kind.isCheckpoint) : undefined;
    let last = range.descendingOrder === true ? undefined : range.beginExclusive;
    let stop = false;
    return answer.subscribe({
      next: (element) => {
        if (stop) return;
        const index = tally.received++;
        if (check !== undefined) {
          try {
            check(element, index);
          } catch (error) {
            inner.error(error);
            return;
          }
        }
        const offset = kind.offset(element);
        if (offset !== undefined) {
          if (offset === last && kind.isCheckpoint(element)) return; // a checkpoint that does not advance: nothing new
          if (plan.stopAfter !== undefined && offset > plan.stopAfter) {
            stop = true;
            tally.reachedStop = true;
            inner.complete();
            return;
          }
          last = offset;
        }
        inner.next({ element, offset });
      },
      error: (e: unknown) => inner.error(e),
      complete: () => inner.complete(),
    });
  });
  const handler = options.handler;
  if (!handler) return { elements: admitted, tally };
  return { elements: handled(admitted, handler, options.onPending), tally };
}

/**
 * `admitted` with each element emitted only once its handler completed, in order, the handlers one at a time
 * (as `concatMap`); a failure of `admitted` waits behind the elements already received: each is handled and
 * delivered first, so an element whose handler ran is never handed to it again by the retry. `onPending` is
 * told the number of elements received and not yet emitted each time it changes.
 *
 * A handler that returns an array (whatever it holds: its values are ignored, and it has nothing to wait
 * for) delivers its element at once, without an inner subscription; any other `ObservableInput` is
 * subscribed to (`from`) and waited for, its error ending the page. A handler that throws ends the page with
 * what it threw.
 */
function handled<E>(
  admitted: Observable<PageElement<E>>,
  handler: (element: E) => ObservableInput<unknown>,
  onPending: ((pending: number) => void) | undefined,
): Observable<PageElement<E>> {
  return new Observable<PageElement<E>>((subscriber) => {
    /** Received, not yet handed to the handler (a ring would not pay: the queue is short, `shift` is cheap). */
    const queue: PageElement<E>[] = [];
    let pending = 0;
    /** The handler in flight (its element is counted in `pending`), if it did not complete synchronously. */
    let waiting: Subscription | undefined;
    let busy = false;
    let pumping = false;
    let ended = false;
    let failed = false;
    let failure: unknown;

    const deliver = (item: PageElement<E>): void => {
      pending -= 1;
      onPending?.(pending);
      subscriber.next(item);
    };
    /** Hands the queued elements to the handler in order while none is in flight; ends the page once all are delivered. */
    const pump = (): void => {
      if (pumping) return; // the loop below, further up the stack, goes on
      pumping = true;
      try {
        while (!busy && !subscriber.closed) {
          const item = queue.shift();
          if (item === undefined) {
            if (failed) subscriber.error(failure);
            else if (ended) subscriber.complete();
            return;
          }
          const work = handler(item.element);
          if (Array.isArray(work)) {
            deliver(item);
            continue;
          }
          busy = true;
          waiting = from(work).subscribe({
            error: (error: unknown) => subscriber.error(error),
            complete: () => {
              busy = false;
              waiting = undefined;
              deliver(item);
              pump();
            },
          });
          if (!busy) waiting = undefined; // it completed while being subscribed to
        }
      } catch (error) {
        subscriber.error(error); // the handler threw (or `from` refused what it returned)
      } finally {
        pumping = false;
      }
    };

    const upstream = admitted.subscribe({
      next: (item) => {
        if (subscriber.closed) return;
        pending += 1;
        onPending?.(pending);
        queue.push(item);
        pump();
      },
      error: (error: unknown) => {
        failed = true;
        failure = error;
        pump();
      },
      complete: () => {
        ended = true;
        pump();
      },
    });
    return () => {
      upstream.unsubscribe();
      waiting?.unsubscribe();
    };
  });
}
