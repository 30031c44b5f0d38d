import type { Ledger } from '../ledger/ledger.js';
import { renderAcsEntry } from '../render/render-acs-entry.js';
import { acsTokens } from '../validate/acs-tokens.js';
import type { PreparedActiveContracts } from '../validate/prepare-active-contracts.js';
import { activeContractsAt } from '../ledger/active-contracts-at.js';
import type { ElementGuard, ElementSink } from './read-log.js';

/** An element of an active contract set with its position (1-based) in the whole set. */
export interface AcsElement {
  readonly json: string;
  readonly position: number;
}

const yieldEvery = 2048;

/**
 * Streams the active contract set a validated request asks for ({@link activeContractsAt} at its
 * `activeAtOffset`, the entries its event format lets through, from after its continuation position) into
 * `sink`, one `JsGetActiveContractsResponse` per entry, waiting on the sink's backpressure and stopping
 * after `limit` elements or when `signal` aborts. Each element carries the continuation token of its
 * position, unless `withTokens` is false (pages carry `""`). Returns the elements' positions.
 */
export async function readActiveContracts(
  ledger: Ledger,
  read: PreparedActiveContracts,
  sink: ElementSink,
  signal: AbortSignal,
  options: { readonly limit?: number; readonly withTokens: boolean; readonly guard?: ElementGuard },
): Promise<number[]> {
  const positions: number[] = [];
  if (read.activeAtOffset === 0) return positions;
  const entries = activeContractsAt(ledger, read.activeAtOffset);
  const limit = options.limit ?? Number.POSITIVE_INFINITY;
  for (let i = read.after; i < entries.length && positions.length < limit; i++) {
    if (signal.aborted) break;
    const position = i + 1;
    const token = options.withTokens ? acsTokens.continuation(position, read.checksum).toString('base64') : '';
    const json = renderAcsEntry(ledger, entries[i] as (typeof entries)[number], read.format, token);
    if (json === undefined) continue;
    options.guard?.beforeElement();
    const r = sink.element(json, read.activeAtOffset);
    if (r) await r;
    positions.push(position);
    if (i % yieldEvery === yieldEvery - 1) await new Promise((resolve) => setImmediate(resolve));
  }
  return positions;
}
