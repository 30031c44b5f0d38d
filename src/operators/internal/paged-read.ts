import {
  EMPTY,
  Observable,
  catchError,
  concat,
  concatMap,
  defer,
  from,
  ignoreElements,
  map,
  of,
  repeat,
  retry,
  take,
  tap,
  throwError,
  timer,
  type ObservableInput,
  type SchedulerLike,
} from 'rxjs';
import type { GetUpdatesRequest, JsGetUpdatesResponse } from '../../schemas/updates.js';
import { elementOrderCheck } from '../../updates/element-order-check.js';
import { isOffsetCheckpoint } from '../../updates/is-offset-checkpoint.js';
import { offsetOrderOf, type OffsetRequest } from '../../updates/offset-order-of.js';
import { updateOffset } from '../../updates/update-offset.js';
import { onPageFailure } from '../../retry/on-page-failure.js';
import type { ResolvedRetryConfig } from '../../retry/retry-config.js';
import { ReadMeter } from './read-meter.js';
import type { TailStatus } from '../tail-status.js';
import type { UpdatesPageOptions, UpdatesSource } from '../updates-source.js';

/** One planned `POST /v2/updates` call. */
export interface PagePlan {
  /** The request; its offsets are numbers (the engine checks the answer against them). */
  readonly request: GetUpdatesRequest & OffsetRequest;
  readonly options: UpdatesPageOptions;
  /** Ascending reads only: elements beyond this offset end the read instead of being delivered. */
  readonly stopAfter?: number;
}

/** The read-specific decisions of {@link pagedRead}; `S` is the read's state (its cursor, mode, ...). */
export interface PagedReadSpec<S> {
  /** The initial state (may look up a checkpoint store or the ledger end). */
  start(): ObservableInput<S>;
  /** The next call for `state` with the current page `limit`, or `null` when the read is complete. */
  plan(state: S, limit: number): ObservableInput<PagePlan | null>;
  /** The state after an element at `offset` (or without one) was delivered. */
  delivered(state: S, offset: number | undefined): S;
  /**
   * The state after a page that brought `received` elements and took `durationMs` (scheduler time, from the
   * request to the end of the page); `null` completes the read.
   */
  pageEnd(state: S, received: number, plan: PagePlan, durationMs: number): S | null;
  /** The offset a (re)start resumes from, for the `resumed` status. */
  position(state: S): number;
}

/** Settings of {@link pagedRead}. */
export interface PagedReadConfig {
  readonly pageLimit: number;
  readonly retry: ResolvedRetryConfig;
  readonly scheduler: SchedulerLike;
  readonly onStatus: ((status: TailStatus) => void) | undefined;
  readonly handler: ((element: JsGetUpdatesResponse) => ObservableInput<unknown>) | undefined;
}

/** An element of a page, or the failure that ended the page. */
type PageItem =
  | { readonly kind: 'element'; readonly element: JsGetUpdatesResponse; readonly offset: number | undefined }
  | { readonly kind: 'failure'; readonly error: unknown };

/**
 * The engine of every paged read: calls `POST /v2/updates` page after page as `spec` plans them, has each
 * page's offsets checked against its request once (`elementOrderCheck`, here unless the source says it
 * checks: `UpdatesSource.checksElementOrder`), skips a checkpoint at the offset already reached, delivers
 * elements (after `handler`, if any), and retries retryable failures from the last delivered element. A 413
 * halves the limit of the page that got it (and caps later pages there) and asks again at once. The next
 * page is requested only after the previous one completed and every element was handled, so memory stays
 * within one page.
 *
 * Emits elements in offset order, each exactly once. Completes when `spec` says so. Errors with a
 * `ProtocolError` when offsets go the wrong way, with the error itself when it is not retryable, and with
 * `RetriesExhaustedError` when retries run out. Unsubscribing aborts the call in flight.
 *
 * With `onStatus`, also reports what metrics need (see `TailStatus`): `progress` (elements delivered by
 * kind, bytes read, the position, the last record time) and `request` (each call's outcome), named with
 * the source's `transport`.
 */
export function pagedRead<S>(source: UpdatesSource, spec: PagedReadSpec<S>, config: PagedReadConfig): Observable<JsGetUpdatesResponse> {
  return defer(() => {
    let state: S | undefined;
    let limit = config.pageLimit;
    let asked = limit;
    let finished = false;
    let attempt = 0;
    let resuming = true;
    const status = (s: TailStatus) => config.onStatus?.(s);
    const meter = config.onStatus ? new ReadMeter(status, () => config.scheduler.now()) : undefined;
    const transport = () => source.transport ?? 'http';

    const runPage = (plan: PagePlan): Observable<JsGetUpdatesResponse> =>
      new Observable<JsGetUpdatesResponse>((subscriber) => {
        const started = config.scheduler.now();
        asked = plan.options.limit ?? limit;
        const pageAsked = plan.options.limit;
        let received = 0;
        let ended = false;
        meter?.start(transport());
        const options = meter ? { ...plan.options, onBytes: meter.onBytes } : plan.options;
        const report = (outcome: 'ok' | 'error' | 'cancelled', error?: unknown) => {
          ended = true;
          meter?.ended(spec.position(state as S), outcome, received, pageAsked, config.scheduler.now() - started, error);
        };
        // the order is checked once: by the source when it says so (the client does), else here
        const check = source.checksElementOrder === true ? undefined : elementOrderCheck(offsetOrderOf(plan.request));
        let last = plan.request.descendingOrder === true ? undefined : plan.request.beginExclusive;
        let stop = false;
        const admitted = new Observable<{ element: JsGetUpdatesResponse; offset: number | undefined }>((inner) =>
          source.updates(plan.request, options).subscribe({
            next: (element) => {
              if (stop) return;
              const index = received++;
              if (check !== undefined) {
                try {
                  check(element, index);
                } catch (error) {
                  inner.error(error);
                  return;
                }
              }
              const offset = updateOffset(element);
              if (offset !== undefined) {
                if (offset === last && isOffsetCheckpoint(element)) return; // a checkpoint that does not advance: nothing new
                if (plan.stopAfter !== undefined && offset > plan.stopAfter) {
                  stop = true;
                  finished = true;
                  inner.complete();
                  return;
                }
                last = offset;
              }
              inner.next({ element, offset });
            },
            error: (e: unknown) => inner.error(e),
            complete: () => inner.complete(),
          }),
        );
        // With a handler, a failure of the page waits behind the elements already received: each is handled
        // and delivered first, so an element whose handler ran is never handed to it again by the retry.
        const handler = config.handler;
        const handled = handler
          ? admitted.pipe(
              map((x): PageItem => ({ kind: 'element', ...x })),
              catchError((error: unknown) => of<PageItem>({ kind: 'failure', error })),
              concatMap((item) =>
                item.kind === 'failure'
                  ? throwError(() => item.error)
                  : concat(from(handler(item.element)).pipe(ignoreElements()), of(item)),
              ),
            )
          : admitted;
        const subscription = handled.subscribe({
          next: ({ element, offset }) => {
            subscriber.next(element);
            state = spec.delivered(state as S, offset);
            attempt = 0;
            meter?.delivered(element, spec.position(state));
          },
          error: (e: unknown) => {
            report('error', e);
            subscriber.error(e);
          },
          complete: () => {
            report('ok');
            if (!finished) {
              const next = spec.pageEnd(state as S, received, plan, config.scheduler.now() - started);
              if (next === null) finished = true;
              else state = next;
            }
            attempt = 0;
            subscriber.complete();
          },
        });
        return () => {
          subscription.unsubscribe();
          if (!ended) report('cancelled');
        };
      });

    const onePage = defer(() => {
      const state$ = state === undefined ? from(spec.start()).pipe(take(1), tap((s) => (state = s))) : of(state);
      return state$.pipe(
        tap((s) => {
          if (resuming) {
            resuming = false;
            status({ type: 'resumed', fromOffset: spec.position(s), attempt, transport: transport() });
          }
        }),
        concatMap((s) => from(spec.plan(s, limit)).pipe(take(1))),
        concatMap((plan) => {
          if (plan === null) {
            finished = true;
            return EMPTY;
          }
          return runPage(plan);
        }),
      );
    });

    // A page that completed while it was being subscribed to (a synchronous source) is repeated on the
    // scheduler, so that an endless read of such a source cannot spin; a page that completed later (an HTTP
    // answer) is repeated at once: on the default asyncScheduler timer(0) is a setTimeout that Node clamps
    // to 1 ms, an idle millisecond per page (about a sixth of a catch-up's time, pages of 200 elements).
    let subscribing = false;
    let completedSynchronously = false;
    const page$ = onePage.pipe(
      retry({
        delay: (error: unknown) => {
          const decision = onPageFailure(error, Math.min(limit, asked), attempt + 1, config.retry);
          switch (decision.action) {
            case 'lower':
              status({ type: 'limit-lowered', from: decision.from, to: decision.to });
              limit = decision.to;
              return of(0);
            case 'wait':
              attempt++;
              status({ type: 'retrying', attempt, delayMs: decision.delayMs, error });
              resuming = true;
              return timer(decision.delayMs, config.scheduler);
            case 'fail':
              return throwError(() => decision.error);
          }
        },
      }),
    );
    const watched = new Observable<JsGetUpdatesResponse>((subscriber) => {
      subscribing = true;
      completedSynchronously = false;
      const subscription = page$.subscribe({
        next: (element) => subscriber.next(element),
        error: (e: unknown) => subscriber.error(e),
        complete: () => {
          completedSynchronously = subscribing;
          subscriber.complete();
        },
      });
      subscribing = false;
      return subscription;
    });
    return watched.pipe(repeat({ delay: () => (finished ? EMPTY : completedSynchronously ? timer(0, config.scheduler) : of(0)) }));
  });
}
