import { EMPTY, Observable, concatMap, defer, from, of, retry, take, tap, throwError, timer, type ObservableInput, type SchedulerLike } from 'rxjs';
import type { JsGetUpdatesResponse } from '../../schemas/updates.js';
import { onPageFailure } from '../../retry/on-page-failure.js';
import type { ResolvedRetryConfig } from '../../retry/retry-config.js';
import type { TailStatus } from '../tail-status.js';
import type { UpdatesSource } from '../updates-source.js';
import type { PagePlan } from './page-plan.js';
import { ReadMeter } from './read-meter.js';
import { repeatPages } from './repeat-pages.js';
import { runPage } from './run-page.js';

/** The read-specific decisions of {@link pagedRead}; `S` is the read's state (its cursor, mode, ...). */
export interface PagedReadSpec<S> {
  /** The initial state (may look up a checkpoint store or the ledger end). */
  start(): ObservableInput<S>;
  /** The next call for `state` with the current page `limit`, or `null` when the read is complete. */
  plan(state: S, limit: number): ObservableInput<PagePlan | null>;
  /** The state after `element`, at `offset` (or without one), was delivered. */
  delivered(state: S, offset: number | undefined, element: JsGetUpdatesResponse): S;
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

/**
 * The engine of every paged read, in three parts: this loop keeps the read's state (`spec`'s), the page
 * limit and the retry count, and asks `spec` for page after page; {@link runPage} runs one page over the
 * source's answer (the order checked once: by the page unless the source says it checks,
 * `UpdatesSource.checksElementOrder`; a checkpoint at the offset already reached skipped; `handler`
 * before delivery); `onPageFailure` decides what a failure means: a 413 lowers the limit (to the cap the
 * server states, else half) and asks again at once, a retryable error waits its backoff and resumes from the
 * last delivered element, anything else ends the read. {@link repeatPages} repeats the pages until `spec`
 * completes the read. The next page is requested only after the previous one completed and every element
 * was handled, so memory stays within one page.
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

    const pageOf = (plan: PagePlan): Observable<JsGetUpdatesResponse> =>
      new Observable<JsGetUpdatesResponse>((subscriber) => {
        const started = config.scheduler.now();
        asked = plan.options.limit ?? limit;
        const pageAsked = plan.options.limit;
        let ended = false;
        meter?.start(transport());
        const options = meter ? { ...plan.options, onBytes: meter.onBytes } : plan.options;
        // the order is checked once: by the source when it says so (the client does), else by the page
        const page = runPage(source.updates(plan.request, options), plan, { checkOrder: source.checksElementOrder !== true, handler: config.handler });
        const report = (outcome: 'ok' | 'error' | 'cancelled', error?: unknown) => {
          ended = true;
          if (page.tally.reachedStop) finished = true;
          meter?.ended(spec.position(state as S), outcome, page.tally.received, pageAsked, config.scheduler.now() - started, error);
        };
        const subscription = page.elements.subscribe({
          next: ({ element, offset }) => {
            subscriber.next(element);
            state = spec.delivered(state as S, offset, element);
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
              const next = spec.pageEnd(state as S, page.tally.received, plan, config.scheduler.now() - started);
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
          return pageOf(plan);
        }),
      );
    });

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
    return repeatPages(page$, () => finished, config.scheduler);
  });
}
