import {
  BehaviorSubject,
  EMPTY,
  NEVER,
  Observable,
  Subject,
  concatMap,
  defer,
  finalize,
  from,
  of,
  retry,
  switchMap,
  take,
  takeUntil,
  tap,
  throwError,
  timer,
  type ObservableInput,
  type SchedulerLike,
} from 'rxjs';
import type { JsGetUpdatesResponse } from '../../schemas/updates.js';
import { onPageFailure } from '../../retry/on-page-failure.js';
import type { ResolvedRetryConfig } from '../../retry/retry-config.js';
import type { ReadTransport } from '../read-transport.js';
import type { TailStatus } from '../tail-status.js';
import type { UpdatesPageOptions, UpdatesSource } from '../updates-source.js';
import type { PagePlan } from './page-plan.js';
import { tokenRefreshDelay } from './token-refresh-delay.js';
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
   * request to the end of the page); `null` completes the read. `page` is what a `get-updates-page` answer
   * said beyond its updates (for plans of the `page` transport).
   */
  pageEnd(state: S, received: number, plan: PagePlan, durationMs: number, page?: PageBounds): S | null;
  /** The offset a (re)start resumes from, for the `resumed` status. */
  position(state: S): number;
  /** The transport the next request of `state` goes through, for the `resumed` status. Default `list`. */
  transport?(state: S): ReadTransport;
  /**
   * Called first when a request failed: the state to go on with, and `now: true` when the read should ask
   * again at once without counting an attempt (the spec dealt with it: a transport the participant refused
   * was replaced). `undefined`: the state stays, and the retry policy decides.
   */
  failed?(state: S, error: unknown): { readonly state: S; readonly now: boolean } | undefined;
}

/** What a `get-updates-page` answer says beyond its updates. */
export interface PageBounds {
  readonly highestPageOffsetInclusive: number;
  readonly nextPageToken: string | undefined;
}

/** How the WebSocket transport is run (see `PagedReadOptions`). */
export interface StreamSettings {
  readonly pingIntervalMs: number | undefined;
  readonly silenceTimeoutMs: number | undefined;
  /** Reconnect this long before the token's `exp` (see `tokenRefreshDelay`). */
  readonly tokenRefreshMarginMs: number;
}

/** With a `handler`, a WebSocket is paused when this many elements wait for it, and resumed at {@link resumeBelow}. */
const pauseAt = 128;
const resumeBelow = 32;

/** Settings of {@link pagedRead}. */
export interface PagedReadConfig {
  readonly pageLimit: number;
  readonly retry: ResolvedRetryConfig;
  readonly scheduler: SchedulerLike;
  readonly onStatus: ((status: TailStatus) => void) | undefined;
  readonly handler: ((element: JsGetUpdatesResponse) => ObservableInput<unknown>) | undefined;
  /** WebSocket settings. Default: the client's liveness defaults, reconnect 30 s before the token expires. */
  readonly stream?: StreamSettings | undefined;
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
    const meter = config.onStatus ? new ReadMeter(status, config.scheduler) : undefined;
    const transport = (s: S | undefined): ReadTransport => (s === undefined ? undefined : spec.transport?.(s)) ?? 'list';
    const streamSettings = config.stream ?? { pingIntervalMs: undefined, silenceTimeoutMs: undefined, tokenRefreshMarginMs: 30_000 };

    /** The answer to `plan` through its transport; `bounds` receives what a page of `get-updates-page` says. */
    const answerOf = (plan: PagePlan, options: UpdatesPageOptions, paused: Observable<boolean>, bounds: (b: PageBounds) => void): Observable<JsGetUpdatesResponse> => {
      const decoding = {
        ...(options.validate === undefined ? {} : { validate: options.validate }),
        ...(options.rawText === undefined ? {} : { rawText: options.rawText }),
        ...(options.onBytes === undefined ? {} : { onBytes: options.onBytes }),
      };
      switch (plan.transport ?? 'list') {
        case 'websocket': {
          if (!source.streamUpdates) return throwError(() => new TypeError('the source has no streamUpdates()'));
          // a planned reconnection shortly before the token expires: the answer completes, the next one resumes
          const opened = new Subject<number | undefined>();
          const refresh = opened.pipe(
            switchMap((expiresAt) => {
              const delay = tokenRefreshDelay(expiresAt, config.scheduler.now(), streamSettings.tokenRefreshMarginMs);
              return delay === undefined ? NEVER : timer(delay, config.scheduler);
            }),
          );
          return source
            .streamUpdates(plan.request, {
              ...decoding,
              paused,
              onOpen: (connection) => opened.next(connection.tokenExpiresAt),
              ...(streamSettings.pingIntervalMs === undefined ? {} : { pingIntervalMs: streamSettings.pingIntervalMs }),
              ...(streamSettings.silenceTimeoutMs === undefined ? {} : { silenceTimeoutMs: streamSettings.silenceTimeoutMs }),
            })
            .pipe(takeUntil(refresh));
        }
        case 'page': {
          if (!source.updatesPage || !plan.pageRequest) return throwError(() => new TypeError('the source has no updatesPage()'));
          const request = plan.pageRequest;
          const read = source.updatesPage.bind(source);
          return defer(() => from(read(request, decoding))).pipe(
            concatMap((page) => {
              bounds({ highestPageOffsetInclusive: page.highestPageOffsetInclusive, nextPageToken: page.nextPageToken });
              return from(page.updates);
            }),
          );
        }
        default:
          return source.updates(plan.request, options);
      }
    };

    const pageOf = (plan: PagePlan): Observable<JsGetUpdatesResponse> =>
      new Observable<JsGetUpdatesResponse>((subscriber) => {
        const started = config.scheduler.now();
        asked = plan.options.limit ?? limit;
        const pageAsked = plan.options.limit;
        let ended = false;
        let bounds: PageBounds | undefined;
        meter?.start(plan.transport ?? 'list');
        const options = meter ? { ...plan.options, onBytes: meter.onBytes } : plan.options;
        // a WebSocket is paused while the handler is behind, so the socket, not memory, holds the backlog
        const paused = new BehaviorSubject(false);
        const onPending = (pending: number) => {
          if (pending >= pauseAt && !paused.value) paused.next(true);
          else if (pending < resumeBelow && paused.value) paused.next(false);
        };
        const answer = answerOf(plan, options, paused, (b) => (bounds = b));
        // the order is checked once: by the source when it says so (the client does), else by the page; the
        // pages of a `get-updates-page` chain are checked here, across pages (each one's request starts at
        // the chain's begin)
        const checkOrder = plan.transport === 'page' || source.checksElementOrder !== true;
        const page = runPage(answer, plan, { checkOrder, handler: config.handler, onPending });
        const report = (outcome: 'ok' | 'error' | 'cancelled', error?: unknown) => {
          ended = true;
          if (page.tally.reachedStop) finished = true;
          meter?.ended(spec.position(state as S), outcome, page.tally.received, pageAsked, config.scheduler.now() - started, error);
        };
        const subscription = page.elements.subscribe({
          next: ({ element, offset }) => {
            // counted and positioned before it is emitted: a consumer that unsubscribes on it (take(n)) ends
            // the read inside next(), and the read's last report must include it
            state = spec.delivered(state as S, offset, element);
            attempt = 0;
            meter?.delivered(element, spec.position(state));
            subscriber.next(element);
          },
          error: (e: unknown) => {
            report('error', e);
            subscriber.error(e);
          },
          complete: () => {
            report('ok');
            if (!finished) {
              const next = spec.pageEnd(state as S, page.tally.received, plan, config.scheduler.now() - started, bounds);
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
            status({ type: 'resumed', fromOffset: spec.position(s), attempt, transport: transport(s) });
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
          const handled = state === undefined ? undefined : spec.failed?.(state, error);
          if (handled !== undefined) {
            state = handled.state;
            if (handled.now) {
              resuming = true;
              return of(0);
            }
          }
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
    return repeatPages(page$, () => finished, config.scheduler).pipe(finalize(() => meter?.dispose()));
  });
}
