import { asyncScheduler, from, map, of, type Observable, type ObservableInput, type SchedulerLike } from 'rxjs';
import { InvalidArgumentError } from '../errors/invalid-argument-error.js';
import type { TransactionFilter, UpdateFormat } from '../schemas/filters.js';
import type { GetUpdatesRequest, JsGetUpdatesResponse } from '../schemas/updates.js';
import { pagedRead } from './internal/paged-read.js';
import { resolveRetryConfig, type RetryConfig } from './retry-config.js';
import type { TailStatus } from './tail-status.js';
import type { UpdatesSource } from './updates-source.js';

/** Options of {@link readDescending}. */
export interface ReadDescendingConfig {
  /** The newest offset to read (inclusive), or `'ledger-end'` (looked up at subscription). Default `'ledger-end'`. */
  readonly endInclusive?: number | 'ledger-end';
  /** Stop above this offset (exclusive). Default 0: the whole history still available. */
  readonly beginExclusive?: number;
  /** Elements per request (the `limit` parameter). Lowered after a 413. Default 200. */
  readonly pageLimit?: number;
  readonly updateFormat?: UpdateFormat;
  readonly filter?: TransactionFilter;
  readonly verbose?: boolean;
  readonly retry?: RetryConfig | false;
  readonly scheduler?: SchedulerLike;
  readonly onStatus?: (status: TailStatus) => void;
  /** Async per-element work that takes part in backpressure (see `tailUpdates`). */
  readonly handler?: (element: JsGetUpdatesResponse) => ObservableInput<unknown>;
  readonly validate?: boolean;
}

interface DescendingState {
  /** `endInclusive` of the next page: one below the last offset delivered. */
  readonly end: number;
}

/**
 * Reads history newest-first, page by page, with `descendingOrder: true` and `endInclusive`.
 *
 * ```
 * page 1: (begin, 900] limit 3 → --900--870--851|
 * page 2: (begin, 850] limit 3 → --840--802|         (short page: the range is exhausted)
 * result: --900--870--851--840--802|
 * ```
 *
 * Each page's upper bound moves below the last offset seen, so nothing is repeated or skipped across
 * pages, and memory stays within one page. Emits elements with strictly decreasing offsets (descending
 * reads carry no checkpoints). Completes when a page comes back short or the range `(beginExclusive, end]`
 * is exhausted; completes at once on an empty ledger. Retries like `tailUpdates`, resuming below the last
 * delivered offset; errors with `PrunedOffsetError` when `beginExclusive` is pruned, with a `ProtocolError`
 * when the order breaks. Unsubscribing aborts the request in flight.
 *
 * ## Example: the newest 50 updates
 * ```ts
 * readDescending(client, { updateFormat, pageLimit: 50 }).pipe(take(50))
 * ```
 */
export function readDescending(source: UpdatesSource, config: ReadDescendingConfig): Observable<JsGetUpdatesResponse> {
  const begin = config.beginExclusive ?? 0;
  if (!Number.isSafeInteger(begin) || begin < 0) throw new InvalidArgumentError('beginExclusive', 'must be an integer >= 0');
  const endOption = config.endInclusive ?? 'ledger-end';
  if (endOption !== 'ledger-end' && (!Number.isSafeInteger(endOption) || endOption < 1)) {
    throw new InvalidArgumentError('endInclusive', "must be an integer >= 1 or 'ledger-end'");
  }
  const pageLimit = config.pageLimit ?? 200;
  if (!Number.isSafeInteger(pageLimit) || pageLimit < 1) throw new InvalidArgumentError('pageLimit', 'must be an integer >= 1');
  if (config.updateFormat && config.filter) throw new InvalidArgumentError('filter', 'give either updateFormat or the deprecated filter, not both');
  if (!config.updateFormat && !config.filter) throw new InvalidArgumentError('updateFormat', 'an updateFormat (or the deprecated filter) is required');
  const format: Partial<GetUpdatesRequest> = config.updateFormat
    ? { updateFormat: config.updateFormat }
    : { filter: config.filter as TransactionFilter, ...(config.verbose === undefined ? {} : { verbose: config.verbose }) };

  return pagedRead<DescendingState>(
    source,
    {
      direction: 'descending',
      start: () =>
        endOption === 'ledger-end' ? from(source.ledgerEnd()).pipe(map((e) => ({ end: e.offset ?? 0 }))) : of({ end: endOption }),
      plan: (state, limit) =>
        of(
          state.end <= begin
            ? null
            : {
                request: { ...format, beginExclusive: begin, endInclusive: state.end, descendingOrder: true } as GetUpdatesRequest,
                options: { limit, ...(config.validate === undefined ? {} : { validate: config.validate }) },
                from: state.end + 1,
              },
        ),
      delivered: (state, offset) => (offset === undefined ? state : { end: offset - 1 }),
      pageEnd: (state, received, plan) => (received < (plan.options.limit ?? pageLimit) ? null : state),
      position: (state) => state.end,
    },
    {
      pageLimit,
      retry: resolveRetryConfig(config.retry),
      scheduler: config.scheduler ?? asyncScheduler,
      onStatus: config.onStatus,
      handler: config.handler,
    },
  );
}
