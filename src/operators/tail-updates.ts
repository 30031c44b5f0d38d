import { asyncScheduler, concatMap, defer, from, map, of, timer, type Observable, type ObservableInput } from 'rxjs';
import { InvalidArgumentError } from '../errors/invalid-argument-error.js';
import type { GetUpdatesRequest, JsGetUpdatesResponse } from '../schemas/updates.js';
import type { CheckpointStore } from './checkpoint.js';
import type { PagePlan } from './internal/page-plan.js';
import type { PageChain } from './internal/page-chain.js';
import { nextTailState } from './internal/next-tail-state.js';
import { readEngine } from './internal/read-engine.js';
import { checkInteger } from './internal/check-integer.js';
import type { PageEnd } from './internal/next-read-state.js';
import { updateReadConfig } from './internal/update-read-config.js';
import { initialTransportChoice, type TransportChoice } from './internal/transport-choice.js';
import { updatesVersionedTransports } from './internal/starting-transport-choice.js';
import { withTransportChoice } from './internal/with-transport-choice.js';
import { initialTailState, listPageOptions, tailAt, tailSettings, type TailState } from './internal/tail-state.js';
import { resolveOffset } from './internal/resolve-offset.js';
import { decodingOptions, readFormat, type PagedReadOptions } from './paged-read-options.js';
import type { TailStatus } from './tail-status.js';
import { isOffsetCheckpoint } from '../updates/is-offset-checkpoint.js';
import type { UpdatesSource } from './updates-source.js';

/** Options of {@link tailUpdates}. */
export interface TailUpdatesConfig extends PagedReadOptions {
  /**
   * Where to start: an offset (exclusive), `'begin'` (0) or `'ledger-end'` (only new updates).
   * Used when there is no `checkpointStore` or it holds nothing yet. Default `'begin'`.
   */
  readonly beginExclusive?: number | 'begin' | 'ledger-end';
  /** Resume after the offset saved in this store (see `trackCheckpoint`). */
  readonly checkpointStore?: CheckpointStore;
  /** Stop after this offset (inclusive) instead of tailing forever. */
  readonly endInclusive?: number;
  /**
   * `stream_idle_timeout_ms` of catch-up requests: how long the server waits for one more element before it
   * answers — counted from the start of the stream for the first element. Short keeps latency low. A
   * participant whose first element takes longer answers such pages with `[]`; the tail proves that with
   * the ledger end (see {@link tailUpdates}) and doubles it, up to `longPollMs`. Default 20.
   */
  readonly idleTimeoutMs?: number;
  /** `stream_idle_timeout_ms` of the long poll when caught up (must stay below the server's 20 s timeout). Default 5 000. */
  readonly longPollMs?: number;
  /**
   * The latency to aim for while updates keep arriving: the server answers a page only when it is full or
   * idle, so under a steady stream faster than `idleTimeoutMs` a page of `pageLimit` elements would take
   * `pageLimit` × the arrival interval. Pages that fill more slowly than this are made smaller; pages that
   * fill fast (a backlog) grow back to `pageLimit`. Default 50.
   */
  readonly targetLatencyMs?: number;
  /**
   * `page` transport: once caught up (a page shorter than `pageLimit`), the next page is asked for after this
   * long (ms). Default 200.
   */
  readonly pollIntervalMs?: number;
}

/** A tail's state: where it stands (`tail`: its cursor, and the list's adaptive page state) and how it reads. */
interface TransportTailState {
  readonly tail: TailState;
  readonly choice: TransportChoice;
  /** `page` transport: the token chain in progress. */
  readonly chain: PageChain | undefined;
  /** `page` transport: caught up, so the next page waits `pollIntervalMs`. */
  readonly poll: boolean;
}

function checkConfig(c: TailUpdatesConfig): Partial<GetUpdatesRequest> {
  checkInteger('endInclusive', c.endInclusive, 1);
  checkInteger('pollIntervalMs', c.pollIntervalMs, 0);
  if (typeof c.beginExclusive === 'number' && c.endInclusive !== undefined && c.endInclusive < c.beginExclusive) {
    throw new InvalidArgumentError('endInclusive', 'must not be below beginExclusive');
  }
  return readFormat(c);
}

/**
 * An endless, resumable tail of the update stream, over the transport `config.transport` names (default
 * `'auto'`: the WebSocket when the source offers it, falling back at once to `get-updates-page` (when the
 * participant's version has it), then to the `POST /v2/updates` list, when the participant or the path does
 * not carry one — a refusal, a handshake without an answer, an upgrade a proxy answered — before it
 * answered; the same client's reads skip a WebSocket given up within `webSocketCoolOffMs`; reported as
 * `transport-selected` with the reason, docs/transports.md; the start position is resolved once, so a
 * fallback loses nothing):
 *
 * - `websocket`: one stream from the cursor (bounded by `endInclusive` when that is already on the ledger);
 *   it only ends to resume: after a failure (backoff), or shortly before the token's `exp`
 *   (`tokenRefreshMarginMs`: a new connection with a fresh token). With a `handler`, the socket is paused
 *   while 128 elements wait for it and resumed below 32, so the participant, not memory, holds the backlog.
 *   `caught-up` once the ledger end seen at the start is delivered.
 * - `page`: a `get-updates-page` token chain from the cursor, `pageLimit` updates per page, each follow-up
 *   repeating the first request's offsets; a page shorter than that means caught up, and the next one is
 *   asked for after `pollIntervalMs`. A failure, or a token the participant refuses, starts a new chain
 *   after the last delivered offset.
 * - `list`: pages of `POST /v2/updates`, as below.
 *
 * Over the list:
 *
 * ```
 * page 1 (catch-up):  --u1--u2--c3--|              limit 8 (doubles while pages fill fast), short idle
 * page 2 (live):                    -------u4|     limit 1, long poll: answers as soon as u4 exists
 * page 3 (catch-up):                          --|  nothing more: back to the long poll
 * result:             --u1--u2--c3-----------u4---
 * ```
 *
 * Each request resumes with `beginExclusive` = the offset of the last element delivered — an update or an
 * `OffsetCheckpoint` (offsets are not contiguous). While behind, it asks for up to `pageLimit` elements with
 * a short idle timeout; once a page comes back short it is caught up and long-polls with `limit=1`, which
 * the server answers as soon as one new element exists, so live latency is one round trip rather than the
 * server's 500 ms list wait. Because the server answers a page only when it is full or idle, the page size
 * adapts to time: pages that fill more slowly than `targetLatencyMs` shrink, pages that fill fast grow back
 * to `pageLimit`, and a catch-up after a long poll starts small. A participant slower to its first element
 * than the catch-up idle timeout would answer every catch-up page with `[]`: the tail reads the ledger end
 * before the catch-up page that follows a long poll, and when that page was empty although the next long
 * poll brings an update at or below that ledger end (three times in a row), the idle timeout doubles (status
 * `idle-timeout-raised`) and that first-element time no longer counts against the target latency. A quiet
 * live stream brings newer updates, so it never raises it (and the checks back off). Empty pages are normal. A 413 lowers the limit.
 *
 * Emits every element once, offsets strictly increasing; a checkpoint at the offset already reached is
 * skipped. Never completes unless `endInclusive` is given (then it completes after the last element at or
 * below it). Retries retryable failures (transport, 429, 503, 504, categories with `retryInfo`) with capped,
 * jittered exponential backoff that honours `retryInfo`, resuming from the last delivered offset; errors
 * with `PrunedOffsetError` (earliest available offset inside) when the start is pruned, with other
 * non-retryable errors as they are, with `RetriesExhaustedError` when retries run out, and with a
 * `ProtocolError` when the server's offsets go backwards. Unsubscribing aborts the request in flight.
 * Resubscribing starts again from the start position (or the store's checkpoint).
 *
 * On every transport a stream ended by the token's lifetime (`ACCESS_TOKEN_EXPIRED`,
 * `STALE_STREAM_AUTHORIZATION`) resumes at once with a fresh token, without backoff.
 *
 * Memory stays within one page (a list page, a `get-updates-page` page, 128 elements of a paused stream):
 * the next page is requested only after the previous one was consumed — synchronously by the subscriber, or
 * by `handler` for async work. When a page fails mid-way, the elements
 * it already brought are handled and delivered before the retry, so `handler` never sees an element twice.
 *
 * @see trackCheckpoint to persist the position, readDescending for newest-first history.
 */
export function tailUpdates(source: UpdatesSource, config: TailUpdatesConfig): Observable<JsGetUpdatesResponse> {
  const format = checkConfig(config);
  const firstChoice = initialTransportChoice(config.transport ?? 'auto', source, format.updateFormat != null);
  const decoding = decodingOptions(config);
  const settings = tailSettings(config);
  const { pageLimit } = settings;
  const pollInterval = config.pollIntervalMs ?? 200;
  const scheduler = config.scheduler ?? asyncScheduler;
  const status = (s: TailStatus) => config.onStatus?.(s);
  const to = config.endInclusive;
  const ledgerEnd = () => resolveOffset('ledger-end', source, status);
  const startOffset = (): Observable<number> => {
    const fallback = resolveOffset(config.beginExclusive ?? 'begin', source, status);
    if (!config.checkpointStore) return fallback;
    return from(config.checkpointStore.load()).pipe(concatMap((cp) => (cp ? of(cp.offset) : fallback)));
  };

  /** The request from `cursor` (up to `end`, when given) through `transport`, stopping after `endInclusive`. */
  const planned = (transport: NonNullable<PagePlan['transport']>, cursor: number, end: number | undefined, options: PagePlan['options'], extra: Partial<PagePlan> = {}): PagePlan => ({
    transport,
    request: { ...format, beginExclusive: cursor, ...(end === undefined ? {} : { endInclusive: end }) } as PagePlan['request'],
    options,
    ...(to === undefined ? {} : { stopAfter: to }),
    ...extra,
  });
  /** `endInclusive` once the ledger end has reached it (the request can then be bounded), else none. */
  const boundBy = (ledgerEndOffset: number): number | undefined => (to !== undefined && ledgerEndOffset >= to ? to : undefined);

  // list: pages with the adaptive page size and idle timeout (catch-up), long polls for one element (live);
  // the catch-up page after a long poll may be asked with the ledger end read just before it (see nextTailState)
  const listPlan = (state: TailState, limit: number): ObservableInput<PagePlan | null> => {
    const open = (end?: number): PagePlan => planned('list', state.cursor, undefined, { ...listPageOptions(state, limit, settings), ...decoding }, end === undefined ? {} : { ledgerEnd: end });
    if (to === undefined) return state.checkLedgerEnd ? ledgerEnd().pipe(map(open)) : of(open());
    return ledgerEnd().pipe(map((end) => (boundBy(end) === undefined ? open(end) : planned('list', state.cursor, to, { limit, ...decoding }))));
  };

  return defer(() => {
    /** `websocket`: the ledger end when the stream in progress was opened; delivering it means caught up. */
    let liveFrom: number | undefined;
    /** `websocket`: `caught-up` was reported (once per subscription: a stream cannot tell when it falls behind). */
    let streamCaughtUp = false;
    const streamReached = (offset: number): void => {
      if (streamCaughtUp || liveFrom === undefined || offset < liveFrom) return;
      streamCaughtUp = true;
      status({ type: 'caught-up', offset });
    };

    // websocket: one stream from the cursor — bounded when the end is already on the ledger, else open
    // (stopping past `endInclusive`); the ledger end at the start tells when it has caught up
    const streamPlan = (state: TransportTailState): ObservableInput<PagePlan | null> =>
      ledgerEnd().pipe(
        map((end) => {
          liveFrom = end;
          streamReached(state.tail.cursor);
          return planned('websocket', state.tail.cursor, boundBy(end), decoding);
        }),
      );

    // page: a token chain from the cursor (repeating its offsets), polled when caught up
    const pagePlan = (state: TransportTailState, limit: number): ObservableInput<PagePlan | null> => {
      const { chain } = state;
      const chainEnd = chain !== undefined ? of(chain.endInclusive) : to === undefined ? of(undefined) : ledgerEnd().pipe(map(boundBy));
      const plan$ = chainEnd.pipe(map((end) => planned('page', state.tail.cursor, end, { limit, ...decoding }, { chain })));
      return state.poll && pollInterval > 0 ? timer(pollInterval, scheduler).pipe(concatMap(() => plan$)) : plan$;
    };

    const pageEnd = (state: TransportTailState, { received, plan, durationMs, bounds }: PageEnd<PagePlan['request']>): TransportTailState | null => {
      switch (plan.transport ?? 'list') {
        case 'websocket':
          // a bounded stream ends with its range; an open one only ends to reconnect with a fresh token
          return plan.request.endInclusive != null ? null : state;
        case 'page': {
          if (bounds === undefined && plan.request.endInclusive != null) return null; // the last page of a bounded chain
          // a short page: caught up (reported once until a full page), the next one polled
          const short = received < (plan.options.limit ?? pageLimit);
          if (short && !state.tail.caughtUp) status({ type: 'caught-up', offset: state.tail.cursor });
          return { ...state, chain: bounds, poll: short, tail: { ...state.tail, caughtUp: short } };
        }
        default: {
          const advanced = state.tail.cursor !== plan.request.beginExclusive;
          const step = nextTailState(state.tail, { received, asked: plan.options.limit ?? pageLimit, durationMs, bounded: plan.request.endInclusive != null, ledgerEnd: plan.ledgerEnd, advanced }, settings);
          if (step.status) status(step.status);
          return step.state === null ? null : { ...state, tail: step.state };
        }
      }
    };

    const choosing = { source, choice: firstChoice, versioned: updatesVersionedTransports, coolOffMs: config.webSocketCoolOffMs, scheduler, onStatus: status };
    return readEngine<TransportTailState, JsGetUpdatesResponse, PagePlan['request']>(
      withTransportChoice(choosing, {
        start: (chosen) => chosen.pipe(concatMap((choice) => startOffset().pipe(map((cursor): TransportTailState => ({ tail: initialTailState(cursor, settings), choice, chain: undefined, poll: false }))))),
        plan: (state, limit) => {
          if (to !== undefined && state.tail.cursor >= to) return of(null);
          const current = state.choice.current;
          return current === 'websocket' ? streamPlan(state) : current === 'page' ? pagePlan(state, limit) : listPlan(state.tail, limit);
        },
        delivered: (state, offset, element) => {
          if (offset === undefined) return state;
          if (state.choice.current === 'websocket') streamReached(offset);
          // once per element: written out (see `tailAt`)
          return { tail: tailAt(state.tail, offset, isOffsetCheckpoint(element)), choice: state.choice, chain: state.chain, poll: state.poll };
        },
        pageEnd,
        position: (state) => state.tail.cursor,
        // a failed page chain is not continued: the next request starts after the last delivered offset
        reset: (state) => ({ ...state, chain: undefined, poll: false }),
      }),
      updateReadConfig(source, config),
    );
  });
}
