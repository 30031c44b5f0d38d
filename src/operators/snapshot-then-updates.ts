import { concat, defer, from, map, of, switchMap, type Observable } from 'rxjs';
import { ErrorCodes } from '../errors/error-codes.js';
import { ProtocolError } from '../errors/protocol-error.js';
import type { EventFormat, JsGetActiveContractsResponse, JsGetUpdatesResponse, UpdateFormat } from '../schemas/index.js';
import { activeContractsSnapshot } from './active-contracts-snapshot.js';
import type { CheckpointStore } from './checkpoint.js';
import { snapshotFormats } from './internal/snapshot-formats.js';
import { checkInteger } from './internal/check-integer.js';
import type { Transport } from '../updates/transport.js';
import type { SnapshotSource } from './snapshot-source.js';
import { tailUpdates, type TailUpdatesConfig } from './tail-updates.js';

/**
 * One element of {@link snapshotThenUpdates}, told apart by `kind`:
 * - `active-contract`: an entry of the snapshot (an active contract, or an incomplete (un)assignment);
 * - `snapshot-end`: the snapshot is complete; it was taken at `offset`, and the updates that follow are
 *   exactly those after it;
 * - `update`: an element of the update stream after the snapshot (a transaction, reassignment, topology
 *   transaction or `OffsetCheckpoint`), as `tailUpdates` emits it.
 */
export type SnapshotElement =
  | { readonly kind: 'active-contract'; readonly entry: JsGetActiveContractsResponse }
  | { readonly kind: 'snapshot-end'; readonly offset: number }
  | { readonly kind: 'update'; readonly element: JsGetUpdatesResponse };

/** Options of {@link snapshotThenUpdates}. */
export interface SnapshotThenUpdatesConfig extends Omit<TailUpdatesConfig, 'beginExclusive' | 'filter' | 'verbose' | 'updateFormat' | 'checkpointStore' | 'handler'> {
  /**
   * What to read, as an event format: the snapshot uses it, and the updates use it for transactions (ACS-delta
   * shape) and reassignments. Give this or `updateFormat`.
   */
  readonly eventFormat?: EventFormat;
  /**
   * What to read, as an update format (any shape, topology included): the updates use it as it is, the
   * snapshot the event format of its transactions (else of its reassignments).
   */
  readonly updateFormat?: UpdateFormat;
  /** The snapshot's offset. Default: the ledger end when the snapshot starts (reported in `snapshot-end`). */
  readonly activeAtOffset?: number;
  /**
   * How the snapshot is read: `websocket`, `page`, `list` (small sets), or `'auto'` (the default): the
   * WebSocket, falling back to `page`, then `list`, when the participant refuses one (see
   * `activeContractsSnapshot`), as the updates' `transport` does.
   */
  readonly snapshotTransport?: Transport;
  /**
   * Resume position: when it holds a checkpoint, the snapshot was already taken and processed, so only the
   * updates after the checkpoint are emitted (no snapshot, no `snapshot-end`). The application saves into it
   * the `snapshot-end` offset once it processed the snapshot, then the updates' offsets (`trackCheckpoint`).
   */
  readonly checkpointStore?: CheckpointStore;
}

/**
 * The state to start from and everything after it, on one Observable: the active contracts at an offset
 * (the snapshot), a `snapshot-end` marker with that offset, then the updates after it, resumably.
 *
 * ```
 * snapshot:  --c1--c2--c3--|                 (source.activeContracts at offset 40, the ledger end)
 * updates:                  --u41--u45--...   (tailUpdates after 40)
 * result:    --c1--c2--c3--(end 40)--u41--u45--...
 * ```
 *
 * No contract is missed or seen twice across the seam: the snapshot is the state at exactly its offset and
 * the updates are exactly those after it (the participant's promise, which the offset reported by the snapshot
 * read makes hold even when the ledger end moves meanwhile). A failure during the snapshot restarts it at the
 * same offset, after the last entry delivered (`activeContractsSnapshot` does, with `retry`); after the
 * seam the read resumes like `tailUpdates` (same `retry`, `transport` and statuses). The snapshot's transport
 * is `snapshotTransport`, by default `'auto'` with the fallback of the updates (`activeContractsSnapshot`). With a
 * `checkpointStore` holding a position, no snapshot is taken: the updates resume after it.
 *
 * Never completes unless `endInclusive` is given. Errors like `client.activeContracts` during the snapshot
 * (a pruned `activeAtOffset` is `PrunedOffsetError`) and like `tailUpdates` after it; invalid options throw
 * `InvalidArgumentError` at the call. Cold: each subscription starts over.
 */
export function snapshotThenUpdates(source: SnapshotSource, config: SnapshotThenUpdatesConfig): Observable<SnapshotElement> {
  const { eventFormat, updateFormat } = snapshotFormats(config);
  const { activeAtOffset, snapshotTransport, checkpointStore, eventFormat: _e, updateFormat: _u, ...tail } = config;
  checkInteger('activeAtOffset', activeAtOffset, 0);
  tailUpdates(source, { ...tail, updateFormat }); // checks the tail options now (cold: nothing is sent)

  const updatesAfter = (offset: number): Observable<SnapshotElement> =>
    tailUpdates(source, { ...tail, updateFormat, beginExclusive: offset }).pipe(map((element) => ({ kind: 'update', element }) as const));

  const withSnapshot = (): Observable<SnapshotElement> =>
    defer(() => {
      let offset: number | undefined;
      const snapshot = activeContractsSnapshot(
        source,
        { eventFormat, ...(activeAtOffset === undefined ? {} : { activeAtOffset }) },
        {
          transport: snapshotTransport ?? 'auto',
          onActiveAtOffset: (at) => (offset = at),
          ...(tail.retry === undefined ? {} : { retry: tail.retry }),
          ...(tail.scheduler === undefined ? {} : { scheduler: tail.scheduler }),
          ...(tail.onStatus === undefined ? {} : { onStatus: tail.onStatus }),
          ...(tail.validate === undefined ? {} : { validate: tail.validate }),
          ...(tail.rawText === undefined ? {} : { rawText: tail.rawText }),
        },
      ).pipe(map((entry) => ({ kind: 'active-contract', entry }) as const));
      const seam = defer(() => {
        const at = offset ?? activeAtOffset;
        if (at === undefined) throw new ProtocolError(ErrorCodes.UNEXPECTED_RESPONSE, 'the active-contracts read ended without saying which offset it was taken at');
        return concat(of({ kind: 'snapshot-end', offset: at } as const), updatesAfter(at));
      });
      return concat(snapshot, seam);
    });

  return defer(() => {
    if (checkpointStore === undefined) return withSnapshot();
    return from(checkpointStore.load()).pipe(
      switchMap((checkpoint) => (checkpoint === undefined ? withSnapshot() : updatesAfter(checkpoint.offset))),
    );
  });
}
