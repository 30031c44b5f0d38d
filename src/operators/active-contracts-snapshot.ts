import { catchError, defer, tap, type Observable } from 'rxjs';
import type { JsGetActiveContractsResponse } from '../schemas/index.js';
import { fallBackTransport } from './internal/fall-back-transport.js';
import { transportChoiceAmong, type TransportChoice } from './internal/transport-choice.js';
import type { ReadTransport, TransportOption } from './read-transport.js';
import type { ActiveContractsSnapshotOptions, ActiveContractsSnapshotRequest, SnapshotSource } from './snapshot-source.js';

/** Options of {@link activeContractsSnapshot}: those of `SnapshotSource.activeContracts`, with `'auto'` as a transport. */
export interface ActiveContractsSnapshotConfig extends Omit<ActiveContractsSnapshotOptions, 'transport'> {
  /**
   * How the snapshot is read: `websocket`, `page`, `list` (small sets), or `'auto'` (the default): the
   * WebSocket, falling back to `page`, then to `list`, when the participant (or a proxy) refuses one, once
   * per subscription, as `tailUpdates` does.
   */
  readonly transport?: TransportOption | undefined;
}

/** The snapshot transports, in the order `'auto'` tries them. */
const snapshotTransports: readonly ReadTransport[] = ['websocket', 'page', 'list'];

/**
 * The active contracts at one offset through `source.activeContracts`, with the transport choice of the
 * update reads: `'auto'` starts with the WebSocket and, when the participant refuses it (`transportRefused`:
 * a 404 without a Canton body, 405, 426, 501) before the first entry, reads the same snapshot again through
 * the next transport — pinned to the offset the refused read already reported, so the snapshot does not move
 * — until one answers; the choice is then fixed for the subscription. Each choice is reported on `onStatus`
 * as `transport-selected` (with `refused` after a fallback). An explicit transport is used alone.
 *
 * Emits the entries once each, in the participant's order; `onActiveAtOffset` is called once, before the
 * first entry. Completes after the last entry. Errors as `source.activeContracts` does (it retries
 * retryable failures itself, at the same offset), and with the refusal of the last transport left. Cold.
 */
export function activeContractsSnapshot(
  source: SnapshotSource,
  request: ActiveContractsSnapshotRequest,
  config: ActiveContractsSnapshotConfig = {},
): Observable<JsGetActiveContractsResponse> {
  const { transport: requested = 'auto', onActiveAtOffset, ...options } = config;
  const firstChoice = transportChoiceAmong(requested, snapshotTransports);
  return defer(() => {
    let choice: TransportChoice = firstChoice;
    let at = request.activeAtOffset;
    let reported = false;
    const status = config.onStatus;
    status?.({ type: 'transport-selected', transport: choice.current, requested });
    const read = (): Observable<JsGetActiveContractsResponse> =>
      defer(() =>
        source.activeContracts(at === undefined ? request : { ...request, activeAtOffset: at }, {
          ...options,
          transport: choice.current,
          onActiveAtOffset: (offset) => {
            at = offset;
            if (reported) return;
            reported = true;
            onActiveAtOffset?.(offset);
          },
        }),
      ).pipe(
        tap(() => {
          if (choice.fallbacks.length > 0) choice = { ...choice, fallbacks: [] }; // it answered: the choice is made
        }),
        catchError((error: unknown) => {
          const next = fallBackTransport(choice, error);
          if (next === undefined) throw error;
          status?.({ type: 'transport-selected', transport: next.current, requested, refused: { transport: choice.current, error } });
          choice = next;
          return read();
        }),
      );
    return read();
  });
}
