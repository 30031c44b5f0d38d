import { concatMap, defer, EMPTY, filter, from, Observable, of, repeat, retry, take, tap, throwError, timer, type SchedulerLike } from 'rxjs';
import { onPageFailure } from '../../retry/on-page-failure.js';
import type { ResolvedRetryConfig } from '../../retry/retry-config.js';
import type { GetActiveContractsPageRequest, JsGetActiveContractsResponse } from '../../schemas/index.js';
import type { ActiveContractsStatus, ActiveContractsTransport } from './active-contracts-options.js';
import type { ActiveContractsPage } from './active-contracts-page.js';
import type { ActiveContractsBody } from './to-active-contracts-body.js';

/** A request for active contracts at a known offset, as one streamed read sends it. */
export type PinnedActiveContractsBody = ActiveContractsBody & { readonly activeAtOffset: number };

/** The single reads {@link readActiveContracts} is made of (the client's transports; fakes in tests). */
export interface ActiveContractsReads {
  /** One WebSocket snapshot stream (completes after the last entry). */
  readonly websocket: (body: PinnedActiveContractsBody) => Observable<JsGetActiveContractsResponse>;
  /** One `POST /v2/state/active-contracts` list. */
  readonly list: (body: PinnedActiveContractsBody) => Observable<JsGetActiveContractsResponse>;
  /** One page (cold: each subscription sends the request; unsubscribing aborts it). */
  readonly page: (request: GetActiveContractsPageRequest) => Observable<ActiveContractsPage>;
  /** The ledger end (cold, abortable). */
  readonly ledgerEnd: () => Observable<number>;
}

/** How {@link readActiveContracts} reads, resolved from the options. */
export interface ActiveContractsReadSettings {
  readonly transport: ActiveContractsTransport;
  /** The snapshot's offset when the request gives it. */
  readonly activeAtOffset: number | undefined;
  /** Where a streamed read starts (the request's `streamContinuationToken`). */
  readonly streamContinuationToken: string | undefined;
  readonly pageSize: number | undefined;
  readonly retry: ResolvedRetryConfig;
  readonly scheduler: SchedulerLike;
  readonly onStatus: ((status: ActiveContractsStatus) => void) | undefined;
  readonly onActiveAtOffset: ((offset: number) => void) | undefined;
  /** Flow control of the `page` transport: while `true`, the next page is not requested. */
  readonly paused?: Observable<boolean> | undefined;
}

/**
 * The snapshot of active contracts at one offset, over one transport, resumed after failures: the read
 * behind `client.activeContracts`.
 *
 * - The offset is fixed before the first entry: the request's `activeAtOffset`, else the ledger end (looked up
 *   first for the streamed transports; for pages, the participant's choice on the first page), reported once
 *   through `onActiveAtOffset` before any entry.
 * - `websocket`/`list`: one streamed read; `page`: page after page, each sent once the previous one was
 *   emitted and `paused` is not `true`, the request otherwise unchanged (a page token is valid only with the
 *   same request).
 * - A retryable failure (transport, 429, 503, categories with `retryInfo`) resumes after `retry`'s backoff
 *   (`onPageFailure`; attempts count from the last entry delivered) at the SAME offset, after the last entry
 *   delivered: with that entry's `streamContinuationToken` (streamed), or the token of the next page. A
 *   streamed read whose entries carry no token restarts the snapshot and skips the entries already
 *   delivered (the participant serves a snapshot at one offset in one order). So every entry is emitted once.
 *
 * Completes after the last entry. Errors with a non-retryable error as it is (`PrunedOffsetError` for an
 * offset before the pruning offset, a 413 for a list larger than the participant's limit, an invalid token),
 * or `RetriesExhaustedError`. Cold: each subscription reads the snapshot again (at the same offset when the
 * request gives one). Unsubscribing aborts the request in flight.
 */
export function readActiveContracts(reads: ActiveContractsReads, body: ActiveContractsBody, settings: ActiveContractsReadSettings): Observable<JsGetActiveContractsResponse> {
  const { transport, scheduler, onStatus } = settings;
  return defer(() => {
    let activeAt = settings.activeAtOffset;
    let token = settings.streamContinuationToken;
    /** Entries delivered since the last one that carried a continuation token (from the start when none did). */
    let sinceToken = 0;
    let pageToken: string | undefined;
    let lastPage = false;
    let attempt = 0;
    let reported = false;

    const report = (offset: number): void => {
      if (reported) return;
      reported = true;
      settings.onActiveAtOffset?.(offset);
    };

    /** One request, reported as a `request` status when it ends. */
    const measured = <T>(request: Observable<T>, count: (value: T) => number, limit: number | undefined): Observable<T> =>
      defer(() => {
        if (onStatus === undefined) return request;
        const started = scheduler.now();
        let elements = 0;
        let ended = false;
        const end = (outcome: 'ok' | 'error' | 'cancelled', error?: unknown): void => {
          if (ended) return;
          ended = true;
          onStatus({ type: 'request', transport, outcome, elements, limit, durationMs: scheduler.now() - started, ...(outcome === 'error' ? { error } : {}) });
        };
        return new Observable<T>((subscriber) => {
          const inner = request.subscribe({
            next: (value) => {
              elements += count(value);
              subscriber.next(value);
            },
            error: (error: unknown) => {
              end('error', error);
              subscriber.error(error);
            },
            complete: () => {
              end('ok');
              subscriber.complete();
            },
          });
          return () => {
            inner.unsubscribe();
            end('cancelled');
          };
        });
      });

    const delivered = (entry: JsGetActiveContractsResponse): void => {
      attempt = 0;
      const next = entry.streamContinuationToken;
      if (typeof next === 'string' && next !== '') {
        token = next;
        sinceToken = 0;
      } else sinceToken++;
    };

    const streamed = (): Observable<JsGetActiveContractsResponse> =>
      (activeAt === undefined ? reads.ledgerEnd().pipe(tap((offset) => (activeAt = offset))) : of(activeAt)).pipe(
        concatMap((at) => {
          report(at);
          onStatus?.({ type: 'resumed', fromOffset: at, attempt, transport });
          let skip = sinceToken;
          const request: PinnedActiveContractsBody = { ...body, activeAtOffset: at, ...(token === undefined ? {} : { streamContinuationToken: token }) };
          const read = transport === 'websocket' ? reads.websocket(request) : reads.list(request);
          return measured(read, () => 1, undefined).pipe(
            concatMap((entry) => {
              if (skip > 0) {
                skip--;
                return EMPTY;
              }
              delivered(entry);
              return of(entry);
            }),
          );
        }),
      );

    const firstPageOffset = settings.activeAtOffset;
    const paged = (): Observable<JsGetActiveContractsResponse> =>
      defer(() => {
        onStatus?.({ type: 'resumed', fromOffset: activeAt ?? -1, attempt, transport });
        const onePage = (): Observable<JsGetActiveContractsResponse> => {
          const request: GetActiveContractsPageRequest = {
            eventFormat: body.eventFormat,
            ...(firstPageOffset === undefined ? {} : { activeAtOffset: firstPageOffset }),
            ...(settings.pageSize === undefined ? {} : { maxPageSize: settings.pageSize }),
            ...(pageToken === undefined ? {} : { pageToken }),
          };
          return measured(reads.page(request), (page) => page.activeContracts.length, settings.pageSize).pipe(
            concatMap((page) => {
              activeAt = page.activeAtOffset;
              report(page.activeAtOffset);
              attempt = 0;
              pageToken = page.nextPageToken;
              lastPage = pageToken === undefined;
              return from(page.activeContracts);
            }),
          );
        };
        // the next page is asked for once the consumer is not paused (a slow consumer holds one page at most)
        const resumed = settings.paused === undefined ? of(0) : settings.paused.pipe(filter((paused) => !paused), take(1));
        return defer(onePage).pipe(repeat({ delay: () => (lastPage ? EMPTY : resumed) }));
      });

    return defer(() => (transport === 'page' ? paged() : streamed())).pipe(
      retry({
        delay: (error: unknown) => {
          attempt++;
          const decision = onPageFailure(error, undefined, attempt, settings.retry);
          if (decision.action === 'fail') return throwError(() => decision.error);
          onStatus?.({ type: 'retrying', attempt, delayMs: decision.delayMs, error });
          return timer(decision.delayMs, scheduler);
        },
      }),
    );
  });
}
