import { UsageError } from './usage-error.js';

/** Where a read stops: at an offset (inclusive), or at the ledger end as of the start. */
export type ToOffset = number | 'end';

/**
 * Parses `--to`: `end` (the ledger end, looked up once at start) or an offset (an integer >= 1, inclusive).
 * Throws {@link UsageError} otherwise.
 */
export function parseToOffset(value: string): ToOffset {
  const v = value.trim().toLowerCase();
  if (v === 'end') return v;
  if (/^\d+$/.test(v)) {
    const n = Number(v);
    if (Number.isSafeInteger(n) && n >= 1) return n;
  }
  throw new UsageError(`--to must be an offset (an integer >= 1) or 'end', got '${value}'`);
}
