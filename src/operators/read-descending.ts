import { asyncScheduler, catchError, concatMap, defer, map, of, tap, throwError, type Observable } from 'rxjs';
import { PrunedOffsetError } from '../errors/pruned-offset-error.js';
import { InvalidArgumentError } from '../errors/invalid-argument-error.js';
import type { JsGetUpdatesResponse } from '../schemas/updates.js';
import type { PageChain } from './internal/page-chain.js';
import type { PagePlan } from './internal/page-plan.js';
import { readEngine } from './internal/read-engine.js';
import { updateReadConfig } from './internal/update-read-config.js';
import { initialTransportChoice, type TransportChoice } from './internal/transport-choice.js';
import { updatesVersionedTransports } from './internal/starting-transport-choice.js';
import { withTransportChoice } from './internal/with-transport-choice.js';
import { checkInteger } from './internal/check-integer.js';
import { resolveOffset } from './internal/resolve-offset.js';
import { decodingOptions, readFormat, type PagedReadOptions } from './paged-read-options.js';
import type { UpdatesSource } from './updates-source.js';
import { updateOffset } from '../updates/update-offset.js';

/** Options of {@link readDescending}. */
export interface ReadDescendingConfig extends PagedReadOptions {
  /** The newest offset to read (inclusive), or `'ledger-end'` (looked up at subscription). Default `'ledger-end'`. */
  readonly endInclusive?: number | 'ledger-end';
  /**
   * Stop above this offset (exclusive). Default: the whole history still available — 0, or on a pruned
   * participant its pruning offset (taken from its `PARTICIPANT_PRUNED_DATA_ACCESSED` answer).
   */
  readonly beginExclusive?: number;
}

interface DescendingState {
  /** `endInclusive` of the next page: one below the last offset delivered. */
  readonly end: number;
  readonly choice: TransportChoice;
  /** `page` transport: the token chain in progress. */
  readonly chain: PageChain | undefined;
}

/**
 * Reads history newest-first, page by page, with `descendingOrder: true` and `endInclusive`, over
 * `config.transport` (default `'auto'`, as `tailUpdates`): one bounded descending WebSocket stream, a
 * descending `get-updates-page` token chain, or list pages as below.
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
 * delivered offset; errors with `PrunedOffsetError` when an explicit `beginExclusive` is pruned (without
 * one, the read continues above the pruning offset the error names), with a `ProtocolError` when the order
 * breaks. Unsubscribing aborts the request in flight; resubscribing reads again from the start.
 *
 * ## Example: the newest 50 updates
 * ```ts
 * readDescending(client, { updateFormat, pageLimit: 50 }).pipe(take(50))
 * ```
 */
export function readDescending(source: UpdatesSource, config: ReadDescendingConfig): Observable<JsGetUpdatesResponse> {
  const first = readRange(source, config, config.beginExclusive ?? 0); // validates the configuration now
  if (config.beginExclusive !== undefined) return first;
  return defer(() => {
    let last: number | undefined;
    const above = (begin: number): Observable<JsGetUpdatesResponse> =>
      (begin === 0 && last === undefined ? first : readRange(source, last === undefined ? config : { ...config, endInclusive: last - 1 }, begin)).pipe(
        tap((element) => {
          const offset = updateOffset(element);
          if (offset !== undefined) last = offset;
        }),
        catchError((error: unknown) => {
          const earliest = error instanceof PrunedOffsetError ? error.earliestOffset : undefined;
          if (earliest === undefined || earliest <= begin) return throwError(() => error);
          // the default lower bound is "all that is still there": continue above the pruning offset
          return last !== undefined && last - 1 <= earliest ? of<JsGetUpdatesResponse>() : above(earliest);
        }),
      );
    return above(0);
  });
}

function checkEnd(endOption: number | 'ledger-end' | undefined): void {
  if (endOption !== undefined && endOption !== 'ledger-end' && (!Number.isSafeInteger(endOption) || endOption < 1)) {
    throw new InvalidArgumentError('endInclusive', "must be an integer >= 1 or 'ledger-end'");
  }
}

/** One descending read of `(begin, end]`. */
function readRange(source: UpdatesSource, config: ReadDescendingConfig, begin: number): Observable<JsGetUpdatesResponse> {
  checkInteger('beginExclusive', begin, 0);
  const endOption = config.endInclusive ?? 'ledger-end';
  checkEnd(endOption);
  const format = readFormat(config);
  const decoding = decodingOptions(config);
  const pageLimit = config.pageLimit ?? 200;

  const status = config.onStatus;
  const scheduler = config.scheduler ?? asyncScheduler;
  const choosing = { source, choice: initialTransportChoice(config.transport ?? 'auto', source, format.updateFormat != null), versioned: updatesVersionedTransports, coolOffMs: config.webSocketCoolOffMs, scheduler, onStatus: status };

  return readEngine<DescendingState, JsGetUpdatesResponse, PagePlan['request']>(
    withTransportChoice(choosing, {
      start: (chosen) => resolveOffset(endOption, source, status).pipe(concatMap((end) => chosen.pipe(map((choice): DescendingState => ({ end, choice, chain: undefined }))))),
      plan: (state, limit) => {
        if (state.end <= begin) return of(null);
        const request = { ...format, beginExclusive: begin, endInclusive: state.end, descendingOrder: true } as PagePlan['request'];
        // websocket: one bounded stream, newest first (a retry resumes below the last delivered offset); page: a token chain
        const transport = state.choice.current;
        return of<PagePlan>({ transport, request, options: transport === 'websocket' ? decoding : { limit, ...decoding }, chain: state.chain });
      },
      // once per element: written out, not spread (docs/benchmarks.md#per-element-cost-of-the-read-engine)
      delivered: (state, offset) => (offset === undefined ? state : { end: offset - 1, choice: state.choice, chain: state.chain }),
      // websocket: the stream ended with its range; page: the chain goes on while it has a token; list: until a short page
      pageEnd: (state, { received, plan, bounds }) =>
        plan.transport === 'websocket' || (plan.transport === 'page' && bounds === undefined) || (plan.transport !== 'page' && received < (plan.options.limit ?? pageLimit)) ? null : { ...state, chain: bounds },
      position: (state) => state.end,
      // a failed page chain is not continued: the next request starts below the last delivered offset
      reset: (state) => ({ ...state, chain: undefined }),
    }),
    updateReadConfig(source, config),
  );
}
