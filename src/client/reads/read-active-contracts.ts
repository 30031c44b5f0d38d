import { concatMap, defer, EMPTY, expand, filter, from, of, take, tap, type Observable } from 'rxjs';
import type { GetActiveContractsPageRequest, JsGetActiveContractsResponse } from '../../schemas/index.js';
import type { ActiveContractsTransport } from './active-contracts-options.js';
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
  readonly onActiveAtOffset: ((offset: number) => void) | undefined;
  /** Flow control of the `page` transport: while `true`, the next page is not requested. */
  readonly paused?: Observable<boolean> | undefined;
}

/**
 * ONE read of the snapshot of active contracts at one offset, over one transport: the read behind
 * `client.activeContracts` (`activeContractsSnapshot` in the operators resumes it after failures).
 *
 * - The offset is fixed before the first entry: the request's `activeAtOffset`, else the ledger end (looked up
 *   first for the streamed transports; for pages, the participant's choice on the first page), reported once
 *   through `onActiveAtOffset` before any entry.
 * - `websocket`/`list`: one streamed read, from the request's `streamContinuationToken` when it has one;
 *   `page`: page after page with the page tokens, each sent once the previous one was emitted and `paused`
 *   is not `true`, the request otherwise unchanged (a page token is valid only with the same request).
 *
 * Completes after the last entry. Errors with the first failure, as it is: nothing is retried. Cold: each
 * subscription reads the snapshot again. Unsubscribing aborts the request in flight.
 */
export function readActiveContracts(reads: ActiveContractsReads, body: ActiveContractsBody, settings: ActiveContractsReadSettings): Observable<JsGetActiveContractsResponse> {
  const { activeAtOffset, onActiveAtOffset, pageSize, paused } = settings;
  if (settings.transport !== 'page') {
    const token = settings.streamContinuationToken === undefined ? {} : { streamContinuationToken: settings.streamContinuationToken };
    return (activeAtOffset === undefined ? reads.ledgerEnd() : of(activeAtOffset)).pipe(
      concatMap((at) => {
        onActiveAtOffset?.(at);
        const pinned: PinnedActiveContractsBody = { ...body, activeAtOffset: at, ...token };
        return settings.transport === 'websocket' ? reads.websocket(pinned) : reads.list(pinned);
      }),
    );
  }
  return defer(() => {
    let reported = false;
    // the next page is asked for once the consumer is not paused (a slow consumer holds one page at most)
    const resumed: Observable<unknown> = paused === undefined ? of(0) : paused.pipe(filter((p) => !p), take(1));
    const page = (pageToken: string | undefined): Observable<ActiveContractsPage> =>
      resumed.pipe(
        concatMap(() =>
          reads.page({
            eventFormat: body.eventFormat,
            ...(activeAtOffset === undefined ? {} : { activeAtOffset }),
            ...(pageSize === undefined ? {} : { maxPageSize: pageSize }),
            ...(pageToken === undefined ? {} : { pageToken }),
          }),
        ),
        tap((p) => {
          if (!reported) onActiveAtOffset?.(p.activeAtOffset);
          reported = true;
        }),
      );
    return page(undefined).pipe(
      expand((p) => (p.nextPageToken === undefined ? EMPTY : page(p.nextPageToken))),
      concatMap((p) => from(p.activeContracts)),
    );
  });
}
