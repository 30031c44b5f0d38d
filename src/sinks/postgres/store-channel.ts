import { createHash } from 'node:crypto';

/**
 * The `LISTEN`/`NOTIFY` channel on which a {@link PostgresSink} announces each commit of stream `streamName` in
 * `schema` (the payload: the committed offset, as decimal text; see docs/query-store.md "Changes pushed"):
 * `ledger_rx_` and 20 hex digits of a SHA-1 of both names, so it is a plain lower-case identifier of fixed length
 * (PostgreSQL truncates channel names at 63 bytes, and PGlite's `listen` does not quote them). Pure.
 */
export function storeChannel(schema: string, streamName: string): string {
  return `ledger_rx_${createHash('sha1').update(`${schema}\u0000${streamName}`).digest('hex').slice(0, 20)}`;
}
