import { asyncScheduler, concatMap, defer, EMPTY, expand, retry, throwError, timer, type Observable, type SchedulerLike } from 'rxjs';
import { ErrorCodes, ProtocolError } from '../../errors/index.js';
import { resolveRetryConfig } from '../../retry/resolve-retry-config.js';
import { onPageFailure } from '../../retry/on-page-failure.js';
import type { RetryConfig } from '../../retry/retry-config.js';
import type { ListVettedPackagesRequest, ListVettedPackagesResponse, VettedPackages } from '../../schemas/index.js';
import { fromAbortable } from '../http/from-abortable.js';

/** How {@link listAllVettedPackages} retries a failed page. */
export interface ListAllVettedPackagesRetry {
  /** Retry policy for a page (as `tailUpdates`' `retry`); `false` ends the walk on the first failure. Default: the same defaults. */
  readonly retry?: RetryConfig | false;
  /** Scheduler of the backoff timers (tests use a virtual one). Default `asyncScheduler`. */
  readonly scheduler?: SchedulerLike;
}

/** Fetches one page of the vetting list; must honour `signal`. */
export type FetchVettedPackagesPage = (request: ListVettedPackagesRequest, signal: AbortSignal) => Promise<ListVettedPackagesResponse>;

/**
 * Walks every page of `POST /v2/package-vetting/list` and emits each `VettedPackages` element in order.
 *
 * ```
 * requests:  p1--p2--p3(empty)|
 * emits:     a-b--c-d--|
 * ```
 *
 * Starts from `request.pageToken` (or the beginning) and follows `nextPageToken`. The server's last page is
 * an EMPTY page (a non-empty page always carries a token, docs/server-behavior.md#vetting-list-paging-and-order), so the walk completes on
 * the first empty page or empty token. A page that fails with a retryable error (transport, 429, 503, 504,
 * categories with `retryInfo`) is asked for again — the same page token — after a capped, jittered
 * backoff that honours `retryInfo`: a page is emitted only once it arrived whole, so a retried walk emits
 * every element exactly once. Errors with a non-retryable page error as it is, with `RetriesExhaustedError`
 * when retries run out (the count resets after each page), or with `ProtocolError`
 * `PAGE_TOKEN_NOT_ADVANCING` (after emitting that page's elements) when a page returns a token that was
 * already requested in this walk. Cold: every subscription starts over. Pages are fetched one at a time;
 * unsubscribing aborts the in-flight request.
 *
 * @param fetchPage - sends one page request.
 * @param request - the first request (filters, `pageSize`, optional starting `pageToken`).
 * @param options - retry policy and scheduler.
 */
export function listAllVettedPackages(
  fetchPage: FetchVettedPackagesPage,
  request: ListVettedPackagesRequest,
  options: ListAllVettedPackagesRetry = {},
): Observable<VettedPackages> {
  const config = resolveRetryConfig(options.retry);
  const scheduler = options.scheduler ?? asyncScheduler;
  return defer(() => {
    const requested = new Set<string>();
    const page = (pageToken: string) => {
      requested.add(pageToken);
      return fromAbortable((signal) => fetchPage({ ...request, pageToken }, signal)).pipe(
        retry({
          delay: (error: unknown, attempt: number) => {
            const decision = onPageFailure(error, undefined, attempt, config); // no page size to lower
            return decision.action === 'wait' ? timer(decision.delayMs, scheduler) : throwError(() => decision.error);
          },
        }),
      );
    };
    return page(request.pageToken ?? '').pipe(
      expand((response) => {
        const next = response.nextPageToken ?? '';
        if ((response.vettedPackages ?? []).length === 0 || next === '') return EMPTY;
        if (requested.has(next)) {
          return throwError(() => new ProtocolError(
            ErrorCodes.PAGE_TOKEN_NOT_ADVANCING,
            'POST /v2/package-vetting/list returned a page token that was already requested; stopping to avoid a loop',
          ));
        }
        return page(next);
      }),
      concatMap((response) => response.vettedPackages ?? []),
    );
  });
}
