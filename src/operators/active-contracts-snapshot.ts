import { asyncScheduler, concatMap, defer, filter, map, of, skip, take, type Observable } from 'rxjs';
import { resolveRetryConfig } from '../retry/resolve-retry-config.js';
import type { GetActiveContractsPageRequest, JsGetActiveContractsResponse } from '../schemas/index.js';
import { snapshotVersionedTransports } from './internal/starting-transport-choice.js';
import { withTransportChoice } from './internal/with-transport-choice.js';
import { checkInteger } from './internal/check-integer.js';
import { pageAnswer, type PageAnswer } from './internal/page-answer.js';
import { readEngine } from './internal/read-engine.js';
import { transportChoiceAmong, type TransportChoice } from './internal/transport-choice.js';
import { decodingOptions } from './paged-read-options.js';
import type { Transport } from '../updates/transport.js';
import type { ActiveContractsSnapshotOptions, ActiveContractsSnapshotRequest, SnapshotSource } from './snapshot-source.js';

/** Options of {@link activeContractsSnapshot}: those of `SnapshotSource.activeContracts`, with `'auto'` as a transport. */
export interface ActiveContractsSnapshotConfig extends Omit<ActiveContractsSnapshotOptions, 'transport'> {
  /**
   * How the snapshot is read: `websocket`, `page`, `list` (small sets), or `'auto'` (the default): the
   * WebSocket, falling back to `page`, then to `list`, when the participant (or a proxy) refuses one, once
   * per subscription, as `tailUpdates` does.
   */
  readonly transport?: Transport | undefined;
  /** `'auto'`: how long the WebSocket a read of the same source gave up is skipped (as the update reads' `webSocketCoolOffMs`). Default 300 000. */
  readonly webSocketCoolOffMs?: number | undefined;
}

/** The snapshot transports, in the order `'auto'` tries them. */
const snapshotTransports: readonly Exclude<Transport, 'auto'>[] = ['websocket', 'page', 'list'];

/**
 * Where a snapshot read stands: its transport; streamed, the continuation token of the last entry delivered
 * that had one and the entries delivered since (skipped by a restart); paged, the chain's first request (a
 * token is valid only with it) and the next page's token.
 */
interface SnapshotState {
  readonly choice: TransportChoice;
  readonly token: string | undefined;
  readonly since: number;
  readonly chain: { readonly request: GetActiveContractsPageRequest; readonly token: string } | undefined;
}

/** One planned request: a streamed read (`skip`: the entries it repeats) or, with `page`, one page. */
interface SnapshotCall {
  readonly request: ActiveContractsSnapshotRequest;
  readonly skip: number;
  readonly page?: GetActiveContractsPageRequest;
}

/**
 * The active contracts at one offset through `source`, resumed on the read engine, with the transport choice
 * of the update reads (docs/transports.md): `'auto'` starts with the WebSocket (unless the same client gave it
 * up within `webSocketCoolOffMs`; `page` only when the participant's version has `active-contracts-page`)
 * and, when the participant or the path does not carry it (a 404 without a Canton body, 405, 426, 501, a
 * handshake without an answer, an upgrade a proxy answered) before the first entry, reads the same snapshot
 * through the next transport at once — pinned to the offset the refused read reported — until one answers
 * (status `transport-selected`, with `refused` and `reason` after a fallback). An explicit transport is used
 * alone.
 *
 * - Streamed (`websocket`, `list`, and `page` when the source has no `activeContractsPage`): one
 *   `source.activeContracts` read; a retryable failure resumes after `retry`'s backoff at the same offset,
 *   after the last entry delivered: with that entry's `streamContinuationToken`, or, when the entries carry
 *   none, by reading the snapshot again and skipping the entries already delivered (the participant serves a
 *   snapshot at one offset in one order).
 * - `page` with `source.activeContractsPage`: page after page with the page tokens (a failed page is asked
 *   for again with its token), each page once the consumer is not `paused`.
 *
 * Emits the entries once each, in the participant's order; `onActiveAtOffset` is called once, before the
 * first entry. Completes after the last entry. Errors with a non-retryable error (`PrunedOffsetError`, a 413
 * of a list larger than the participant's limit), `RetriesExhaustedError`, or the refusal of the last
 * transport left. Statuses as the update reads' (`resumed`, from `-1` while the offset is not known yet,
 * `retrying`, `request`). Cold. Unsubscribing aborts the request in flight.
 */
export function activeContractsSnapshot(
  source: SnapshotSource,
  request: ActiveContractsSnapshotRequest,
  config: ActiveContractsSnapshotConfig = {},
): Observable<JsGetActiveContractsResponse> {
  const { transport: requested = 'auto', webSocketCoolOffMs, onActiveAtOffset, retry, scheduler: givenScheduler, onStatus, pageSize, ...options } = config;
  const scheduler = givenScheduler ?? asyncScheduler;
  checkInteger('webSocketCoolOffMs', webSocketCoolOffMs, 0);
  const firstChoice = transportChoiceAmong(requested, snapshotTransports);
  const retryConfig = resolveRetryConfig(retry);
  const pages = typeof source.activeContractsPage === 'function' ? source.activeContractsPage.bind(source) : undefined;
  return defer(() => {
    let at = request.activeAtOffset;
    let reported = false;
    const report = (offset: number): void => {
      if (!reported) onActiveAtOffset?.(offset);
      reported = true;
      at = offset;
    };

    const answer = (call: SnapshotCall, transport: Exclude<Transport, 'auto'>, onBytes: ((bytes: number) => void) | undefined): PageAnswer<JsGetActiveContractsResponse, string> => {
      const page = call.page;
      if (page === undefined || pages === undefined) {
        const read = source.activeContracts(call.request, { ...options, ...(pageSize === undefined ? {} : { pageSize }), transport, onActiveAtOffset: report });
        return { elements: read.pipe(skip(call.skip)), bounds: () => undefined };
      }
      // the next page is asked for once the consumer is not paused (a slow consumer holds one page at most)
      const resumed: Observable<unknown> = options.paused === undefined ? of(0) : options.paused.pipe(filter((paused) => !paused), take(1));
      return pageAnswer(() => resumed.pipe(concatMap(() => pages(page, decodingOptions({ ...options, ...(onBytes === undefined ? {} : { onBytes }) })))), (p) => {
        report(p.activeAtOffset);
        return { elements: p.activeContracts, bounds: p.nextPageToken };
      });
    };

    return readEngine(
      withTransportChoice<SnapshotState, JsGetActiveContractsResponse, SnapshotCall, string>(
        { source, choice: firstChoice, versioned: snapshotVersionedTransports, coolOffMs: webSocketCoolOffMs, scheduler, onStatus },
        {
          start: (chosen) => chosen.pipe(map((choice): SnapshotState => ({ choice, token: undefined, since: 0, chain: undefined }))),
          plan: (state) => {
            const pinned: ActiveContractsSnapshotRequest = at === undefined ? request : { ...request, activeAtOffset: at };
            if (state.choice.current !== 'page' || !pages) {
              const token = state.token === undefined ? {} : { streamContinuationToken: state.token };
              return of({ transport: state.choice.current, request: { request: { ...pinned, ...token }, skip: state.since }, options: {} });
            }
            const first: GetActiveContractsPageRequest = state.chain?.request ?? { ...pinned, ...(pageSize === undefined ? {} : { maxPageSize: pageSize }) };
            const token = state.chain?.token;
            const page = token === undefined ? first : { ...first, pageToken: token };
            return of({ transport: 'page' as const, request: { request: pinned, skip: 0, page }, options: pageSize === undefined ? {} : { limit: pageSize } });
          },
          delivered: (state, _offset, entry) => {
            const token = entry.streamContinuationToken;
            // once per entry: written out, not spread (docs/benchmarks.md#per-element-cost-of-the-read-engine)
            const fresh = typeof token === 'string' && token !== '';
            return { choice: state.choice, token: fresh ? token : state.token, since: fresh ? 0 : state.since + 1, chain: state.chain };
          },
          pageEnd: (state, { plan, bounds }) => (plan.request.page === undefined || bounds === undefined ? null : { ...state, chain: { request: plan.request.page, token: bounds } }),
          position: () => at ?? -1,
        },
      ),
      {
        pageLimit: 1, // a snapshot has no page size to lower: a 413 (a list above the participant's limit) is an error
        retry: retryConfig,
        scheduler,
        onStatus,
        answer: (plan, context) => answer(plan.request, plan.transport ?? 'list', context.options.onBytes),
        elements: { offset: () => undefined, isCheckpoint: () => false, metrics: 'requests' },
      },
    );
  });
}
