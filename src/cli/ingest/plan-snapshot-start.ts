import type { FromOffset } from '../options/parse-from-offset.js';
import { UsageError } from '../options/usage-error.js';
import type { LedgerBounds } from '../source/ledger-bounds.js';
import type { ReadRange } from '../source/resolve-read-range.js';

/** Where a new ingest stream takes its active-contract snapshot, and why. */
export interface SnapshotStart {
  /** The snapshot's offset: the stream's first position; the updates after it follow. */
  readonly offset: number;
  /**
   * `pruned`: `--from begin` on a pruned participant (the snapshot at the pruning offset holds the contracts
   * created before it and still active, which no update read can bring any more); `asked`: `--from acs`.
   */
  readonly why: 'pruned' | 'asked';
}

/** The flags {@link planSnapshotStart} decides from. */
export interface SnapshotStartRequest {
  readonly from?: FromOffset | undefined;
  /** `--from acs`. */
  readonly fromAcs?: boolean | undefined;
  /** `--at OFFSET` (with `--from acs`): the snapshot's offset instead of the ledger end. */
  readonly at?: number | undefined;
}

/**
 * Whether a NEW ingest stream starts from the active-contract snapshot, and at which offset (`undefined`:
 * it reads the updates of `range` as they are):
 *
 * - `--from acs`: at `--at`, else at the ledger end now; an `--at` after the ledger end, or a snapshot
 *   after an explicit `--to`, is a {@link UsageError}; an `--at` before the pruning offset is left to the
 *   participant (`PARTICIPANT_PRUNED_DATA_ACCESSED`, exit 3 with the earliest offset, as a pruned `--from`);
 * - `--from begin` (the default) on a pruned participant, i.e. when `resolveReadRange` started the range at
 *   the pruning offset (`range.beginExclusive` > 0): at that offset, so that the contracts created before it
 *   and still active are stored too (an `--to` at or below it keeps the range at 0, which the participant
 *   refuses, and takes no snapshot);
 * - otherwise (an unpruned participant from `begin`, `--from OFFSET`, `--from end`): none.
 */
export async function planSnapshotStart(request: SnapshotStartRequest, range: ReadRange, bounds: LedgerBounds): Promise<SnapshotStart | undefined> {
  if (request.fromAcs) {
    const end = await bounds.ledgerEnd();
    if (request.at !== undefined && request.at > end) {
      throw new UsageError(`--at ${request.at} is after the ledger end (${end}): give an offset up to ${end}, or leave --at out for the ledger end`);
    }
    const offset = request.at ?? end;
    if (typeof range.endInclusive === 'number' && range.endInclusive < offset) {
      throw new UsageError(`--to ${range.endInclusive} is below the snapshot's offset ${offset}: the stream would start after its end`);
    }
    return { offset, why: 'asked' };
  }
  const fromBegin = request.from === undefined || request.from === 'begin';
  if (fromBegin && typeof range.beginExclusive === 'number' && range.beginExclusive > 0) return { offset: range.beginExclusive, why: 'pruned' };
  return undefined;
}
