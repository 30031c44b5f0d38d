import { defer, filter, map, type Observable } from 'rxjs';
import { ActiveSet } from '../active-contracts/active-set.js';
import type { CreatedEvent, EventFormat } from '../schemas/index.js';
import { updateOffset } from '../updates/update-offset.js';
import type { SnapshotSource } from './snapshot-source.js';
import { snapshotThenUpdates, type SnapshotThenUpdatesConfig } from './snapshot-then-updates.js';

/**
 * One state of the active-contract set of {@link liveContracts}: after the snapshot, then after each update
 * that changed the set.
 */
export interface LiveContracts {
  /** The offset this state is at: the snapshot's, then the update's. */
  readonly offset: number;
  /** The contracts that became active (with the snapshot: all of them). */
  readonly added: readonly CreatedEvent[];
  /** The contracts that stopped being active (archived, or reassigned away and not back). */
  readonly removed: readonly CreatedEvent[];
  /**
   * The whole active set, contract id → the `CreatedEvent` of its latest activation. Immutable: a later
   * state is a new map (sharing most of its memory with this one); keep as many as you like.
   */
  readonly contracts: ReadonlyMap<string, CreatedEvent>;
}

/** Options of {@link liveContracts}: those of `snapshotThenUpdates`, with an event format and no checkpoint store. */
export type LiveContractsConfig = Omit<SnapshotThenUpdatesConfig, 'eventFormat' | 'updateFormat' | 'checkpointStore' | 'handler'> & {
  /** Which contracts: the templates, interfaces and parties, as on the wire or from the `updateFormat()` builder's event formats. */
  readonly eventFormat: EventFormat;
};

/**
 * The active-contract set of an event format as it changes, for services that want state rather than
 * events: `snapshotThenUpdates` (with transactions in the ACS-delta shape and reassignments) folded into an
 * `ActiveSet`.
 *
 * ```
 * snapshot+updates:  -c1-c2-(end 40)--u41(create c3)--u42(other)--u45(archive c1)--
 * result:            --------S40------S41---------------------------S45------------
 *                    S40 = { offset 40, added [c1, c2], removed [], contracts {c1, c2} }
 *                    S41 = { offset 41, added [c3], removed [], contracts {c1, c2, c3} }
 *                    S45 = { offset 45, added [], removed [c1], contracts {c2, c3} }
 * ```
 *
 * Emits once the snapshot is loaded (even when it is empty), then after each update that adds or removes
 * a contract (checkpoints and updates that change nothing emit nothing). Reassignments are followed (a
 * contract reassigned away and back stays; incomplete reassignments in the snapshot count as the
 * `ActiveSet` says); archives remove. Memory is proportional to the active set, not to history: the entries
 * of the snapshot are folded as they arrive, updates are not kept.
 *
 * Never completes (unless `endInclusive` is given); resumes after failures like `snapshotThenUpdates`;
 * errors like it. Cold: each subscription reads a new snapshot.
 */
export function liveContracts(source: SnapshotSource, config: LiveContractsConfig): Observable<LiveContracts> {
  const elements = snapshotThenUpdates(source, config);
  return defer(() => {
    const set = new ActiveSet();
    return elements.pipe(
      map((element): LiveContracts | undefined => {
        if (element.kind === 'active-contract') {
          set.addSnapshotEntry(element.entry);
          return undefined;
        }
        if (element.kind === 'snapshot-end') {
          set.snapshotLoaded();
          return { offset: element.offset, added: [...set.contracts.values()], removed: [], contracts: set.contracts };
        }
        const change = set.applyUpdate(element.element);
        const offset = updateOffset(element.element);
        if (change === undefined || offset === undefined) return undefined;
        return { offset, added: change.added, removed: change.removed, contracts: set.contracts };
      }),
      filter((state): state is LiveContracts => state !== undefined),
    );
  });
}
