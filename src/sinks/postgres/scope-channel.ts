import { createHash } from 'node:crypto';

/**
 * The `LISTEN`/`NOTIFY` channel on which a scope change of stream `streamName` in `schema` is asked for
 * (`requestScopeChange` notifies it; a running `ingest` listens: docs/query-store.md, "Scope changes without a
 * re-seed"): `ledger_rx_scope_` and 20 hex digits of a SHA-1 of both names, a plain lower-case identifier of fixed
 * length, beside the commits' `storeChannel`. Pure.
 */
export function scopeChannel(schema: string, streamName: string): string {
  return `ledger_rx_scope_${createHash('sha1').update(`${schema}\u0000${streamName}`).digest('hex').slice(0, 20)}`;
}
