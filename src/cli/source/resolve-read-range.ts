import type { LedgerBounds } from './ledger-bounds.js';
import type { Logger } from '../log/logger.js';
import type { FromOffset } from '../options/parse-from-offset.js';
import type { ToOffset } from '../options/parse-to-offset.js';
import { UsageError } from '../options/usage-error.js';

/** The range flags of `tail` and `ingest`. */
export interface ReadRangeRequest {
  readonly from?: FromOffset | undefined;
  readonly to?: ToOffset | undefined;
  readonly descending?: boolean | undefined;
}

/** A read range in the terms of `tailUpdates` / `readDescending`. */
export interface ReadRange {
  /** Exclusive start (ascending) or lower bound (descending); `'ledger-end'`: only new updates (ascending). */
  readonly beginExclusive: number | 'ledger-end';
  /**
   * Inclusive end: ascending, `undefined` reads forever; descending, the newest offset to read, where
   * `'ledger-end'` is left to `readDescending` to look up.
   */
  readonly endInclusive: number | 'ledger-end' | undefined;
}

/**
 * Turns `--from` / `--to` into the range to read, asking the participant (through `bounds`, which retries)
 * only what the decision needs:
 *
 * - `--to end` (ascending) is the ledger end now (logged, with `what`: "reading", "ingesting");
 * - `--from begin` (the default) is the pruning boundary, so that a pruned participant serves "everything
 *   still available" instead of failing; except under an explicit `--to N` at or below that boundary,
 *   where the whole range is pruned: then it stays 0 and the participant's
 *   `PARTICIPANT_PRUNED_DATA_ACCESSED` (exit 3, earliest offset printed) says so;
 * - `--from OFFSET` is sent as given (a pruned one still fails fast with exit 3), but one after the ledger
 *   end is a {@link UsageError} (exit 2) naming both offsets — the participant would refuse it with a
 *   retryable error for as long as the retries last;
 * - with `descending`, `--to OFFSET` after the ledger end is a {@link UsageError} likewise (a newest-first
 *   read starts at an existing offset; it is not clamped), and `--to end` or no `--to` is `'ledger-end'`.
 *   An ascending `--to` after the ledger end is legitimate: the read waits for it.
 *
 * Rejects with the errors of `bounds` (`RetriesExhaustedError`, a server error, `StopRequested`).
 */
export async function resolveReadRange(request: ReadRangeRequest, bounds: LedgerBounds, logger: Logger, what: string): Promise<ReadRange> {
  const { from, to } = request;
  let endInclusive: number | 'ledger-end' | undefined;
  if (request.descending) {
    if (typeof to === 'number') {
      const end = await bounds.ledgerEnd();
      if (to > end) throw new UsageError(`--to ${to} is after the ledger end (${end}): a --descending read starts at an existing offset; give --to ${end} or less, or leave --to out`);
      endInclusive = to;
    } else endInclusive = 'ledger-end';
  } else if (to === 'end') {
    endInclusive = await bounds.ledgerEnd();
    logger.info({ endInclusive }, `${what} up to the ledger end as of now`);
  } else endInclusive = to;

  let beginExclusive: number | 'ledger-end';
  if (from === 'end') beginExclusive = 'ledger-end';
  else if (typeof from === 'number') {
    const end = await bounds.ledgerEnd();
    if (from > end) throw new UsageError(`--from ${from} is after the ledger end (${end}): give an offset up to ${end}, or --from end for only new updates`);
    beginExclusive = from;
  } else {
    const pruned = await bounds.prunedUpTo();
    if (pruned > 0 && typeof to === 'number' && to <= pruned) beginExclusive = 0;
    else {
      beginExclusive = pruned;
      if (pruned > 0) logger.info({ prunedUpTo: pruned }, `the participant is pruned: ${what} from its earliest available offset`);
    }
  }
  return { beginExclusive, endInclusive };
}
