import { asyncScheduler, concat, defer, finalize, from, of, throwError, type Observable, type ObservableInput, type SchedulerLike } from 'rxjs';
import { ErrorCodes, ProtocolError } from '../errors/index.js';
import { resolveRetryConfig } from '../retry/resolve-retry-config.js';
import type { RetryConfig } from '../retry/retry-config.js';
import type { ListVettedPackagesRequest, ListVettedPackagesResponse, VettedPackages } from '../schemas/index.js';
import { pageAnswer } from './internal/page-answer.js';
import { readEngine } from './internal/read-engine.js';
import type { TailStatus } from './tail-status.js';

/** What {@link allVettedPackages} needs from a client: one page of the vetting state (`LedgerClient.listVettedPackages`). */
export interface VettedPackagesSource {
  /** `POST /v2/package-vetting/list`: one page; `signal` aborts it. */
  listVettedPackages(request: ListVettedPackagesRequest, options?: { readonly signal?: AbortSignal }): ObservableInput<ListVettedPackagesResponse>;
}

/** Options of {@link allVettedPackages}. */
export interface AllVettedPackagesConfig {
  /** Retry policy for a failed page (as `tailUpdates`' `retry`); `false` ends the walk on the first failure. */
  readonly retry?: RetryConfig | false;
  /** Scheduler of the backoff timers (tests use a virtual one). Default `asyncScheduler`. */
  readonly scheduler?: SchedulerLike;
  /** Side channel for `resumed` (`fromOffset` -1: the listing has no offsets) and `retrying`. */
  readonly onStatus?: (status: TailStatus) => void;
}

/** Where a walk stands: every token asked for so far, the last one that of the next page. */
type WalkState = readonly [...string[], string];

/** One page of the walk: its request, and the tokens asked for before it (a token among them would loop). */
interface PageCall {
  readonly request: ListVettedPackagesRequest;
  readonly requested: readonly string[];
}

/** The next page's token, or `undefined` after the last page (an empty page or an empty token). */
type NextToken = string | undefined;

/**
 * Every `VettedPackages` element of every page of `POST /v2/package-vetting/list`, in server order, on the
 * read engine: walks from `request.pageToken` (or the start) with the `nextPageToken` of each page, one page
 * at a time, and completes after the server's last page, an EMPTY page (a non-empty page always carries a
 * token, docs/server-behavior.md#vetting-list-paging-and-order), or an empty token.
 *
 * ```
 * requests:  p1--p2--p3(empty)|
 * emits:     a-b--c-d--|
 * ```
 *
 * A page is emitted only once it arrived whole; a page that fails with a retryable error (transport, 429,
 * 503, 504, categories with `retryInfo`) is asked for again — the same token — after `retry`'s capped,
 * jittered backoff that honours `retryInfo`, so every element is emitted exactly once. Errors with a
 * non-retryable page error as it is, `RetriesExhaustedError` when retries run out (the count starts over
 * after each page), or `ProtocolError` `PAGE_TOKEN_NOT_ADVANCING` (after that page's elements) when a page
 * gives a token that was already asked for. Cold: every subscription walks from the start. Unsubscribing
 * aborts the page request in flight.
 *
 * @param source - a `LedgerClient`, or anything with its `listVettedPackages`.
 * @param request - the first request (filters, `pageSize`, optional starting `pageToken`).
 * @throws InvalidArgumentError synchronously for a bad retry policy.
 */
export function allVettedPackages(source: VettedPackagesSource, request: ListVettedPackagesRequest, config: AllVettedPackagesConfig = {}): Observable<VettedPackages> {
  const retry = resolveRetryConfig(config.retry);
  const first = request.pageToken ?? '';
  return defer(() =>
    readEngine<WalkState, VettedPackages, PageCall, NextToken>(
      {
        start: () => of<WalkState>([first]),
        plan: (requested) => of({ request: { request: { ...request, pageToken: requested[requested.length - 1] }, requested }, options: {} }),
        delivered: (state) => state,
        pageEnd: (requested, { bounds }) => (bounds === undefined ? null : [...requested, bounds]),
        position: () => -1,
        transport: () => 'list',
      },
      {
        pageLimit: 1, // a listing has no page size to lower
        retry,
        scheduler: config.scheduler ?? asyncScheduler,
        onStatus: config.onStatus,
        answer: ({ request: call }) =>
          pageAnswer(
            () => {
              const controller = new AbortController();
              return from(source.listVettedPackages(call.request, { signal: controller.signal })).pipe(finalize(() => controller.abort()));
            },
            (response: ListVettedPackagesResponse) => {
              const elements = response.vettedPackages ?? [];
              const next = response.nextPageToken ?? '';
              const last = elements.length === 0 || next === '';
              if (last || !call.requested.includes(next)) return { elements, bounds: last ? undefined : next };
              const loop = new ProtocolError(ErrorCodes.PAGE_TOKEN_NOT_ADVANCING, 'POST /v2/package-vetting/list returned a page token that was already requested; stopping to avoid a loop');
              return { elements: concat(from(elements), throwError(() => loop)), bounds: next };
            },
          ),
        elements: { offset: () => undefined, isCheckpoint: () => false },
      },
    ),
  );
}
