import type { ReadRange } from '../source/resolve-read-range.js';
import type { TailOptions } from './tail-options.js';

/** The read `tail` does, decided before any element is read (see {@link planTailRead}). */
export type TailReadPlan =
  | {
      readonly kind: 'descending';
      readonly endInclusive: number | 'ledger-end';
      readonly beginExclusive: number;
      readonly pageLimit: number;
    }
  | {
      readonly kind: 'ascending';
      readonly beginExclusive: number | 'ledger-end';
      /** Absent: tail forever. */
      readonly endInclusive?: number;
      readonly pageLimit: number;
      readonly idleTimeoutMs?: number;
      readonly longPollMs?: number;
    }
  /** `--to` resolved to offset 0 (an empty ledger up to its end): there is nothing to read. */
  | { readonly kind: 'nothing' };

/**
 * Turns the flags and the resolved range into the read to run (a pure function):
 * - `descending`: `readDescending` from `endInclusive` (default the ledger end) down to `beginExclusive`
 *   (`'ledger-end'`, which `--from end` would give, is refused earlier; anything but a number is 0), with
 *   pages no larger than `--limit`, since only the newest `limit` are wanted;
 * - ascending with an `endInclusive` of 0: nothing to read;
 * - otherwise `tailUpdates` after `beginExclusive`, up to `endInclusive` or forever, with the flags' page
 *   limit (default 200), catch-up idle timeout and long poll (the operator's defaults when absent).
 */
export function planTailRead(options: TailOptions, range: ReadRange): TailReadPlan {
  const pageLimit = options.pageLimit ?? 200;
  if (options.descending) {
    return {
      kind: 'descending',
      endInclusive: range.endInclusive ?? 'ledger-end',
      beginExclusive: typeof range.beginExclusive === 'number' ? range.beginExclusive : 0,
      pageLimit: options.limit === undefined ? pageLimit : Math.min(pageLimit, options.limit),
    };
  }
  if (range.endInclusive === 0) return { kind: 'nothing' };
  return {
    kind: 'ascending',
    beginExclusive: range.beginExclusive,
    ...(typeof range.endInclusive === 'number' ? { endInclusive: range.endInclusive } : {}),
    pageLimit,
    ...(options.idleTimeoutMs === undefined ? {} : { idleTimeoutMs: options.idleTimeoutMs }),
    ...(options.longPollMs === undefined ? {} : { longPollMs: options.longPollMs }),
  };
}
