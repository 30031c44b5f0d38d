/** What the live progress (status) line shows. */
export interface ProgressSnapshot {
  /** The transport the read uses (`websocket`, `page`, `list`), shown first once known. */
  readonly transport?: string | undefined;
  /** Updates written so far. */
  readonly count: number;
  /** Updates per second over the last interval. */
  readonly rate: number;
  /** Offset of the last element processed, if any. */
  readonly lastOffset: number | undefined;
  /** The ledger end last seen, if known. */
  readonly ledgerEnd: number | undefined;
}

/**
 * The progress line for stderr, e.g. `12,345 updates · 812/s · offset 98,765 · lag 12` (with the transport the read uses:
 * `websocket · 12,345 updates · …`); `lag` is the ledger end minus the last offset (never negative; offsets are
 * not contiguous, so it counts offsets, not updates) and is `?` until both are known.
 */
export function formatProgress(s: ProgressSnapshot): string {
  const n = (v: number) => v.toLocaleString('en-US');
  const rate = s.rate >= 100 || s.rate === 0 ? n(Math.round(s.rate)) : s.rate.toFixed(1);
  const offset = s.lastOffset === undefined ? '-' : n(s.lastOffset);
  const lag = s.lastOffset === undefined || s.ledgerEnd === undefined ? '?' : n(Math.max(0, s.ledgerEnd - s.lastOffset));
  return `${s.transport ? `${s.transport} · ` : ''}${n(s.count)} updates · ${rate}/s · offset ${offset} · lag ${lag}`;
}
