import { UsageError } from './usage-error.js';

/** Where a read starts: after an offset, at the beginning, or at the ledger end (only new updates). */
export type FromOffset = number | 'begin' | 'end';

/**
 * Parses `--from`: `begin` (the default: the whole history still available), `end` (only what comes after
 * the ledger end at start), or an offset (a non-negative integer; the read starts AFTER it, like
 * `beginExclusive`). Throws {@link UsageError} otherwise.
 */
export function parseFromOffset(value: string): FromOffset {
  const v = value.trim().toLowerCase();
  if (v === 'begin' || v === 'end') return v;
  if (/^\d+$/.test(v)) {
    const n = Number(v);
    if (Number.isSafeInteger(n)) return n;
  }
  throw new UsageError(`--from must be an offset (an integer >= 0), 'begin' or 'end', got '${value}'`);
}
