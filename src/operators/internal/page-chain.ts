import type { UpdatesPage } from '../../updates/updates-page.js';

/**
 * A `get-updates-page` chain in progress: the offsets its first request was sent with — the follow-up
 * requests must repeat them unchanged, or the participant refuses the token — and the token of its next page.
 */
export interface PageChain {
  readonly beginExclusive: number;
  readonly endInclusive: number | undefined;
  readonly token: string;
}

/**
 * The chain after a page of a request with offsets `(beginExclusive, endInclusive]`: the page's
 * `nextPageToken` continues it; no token ends it (`undefined`: the next request starts a new chain after the
 * last delivered offset, or, for a bounded read, the read is complete). The participant answers an
 * ascending first page whose begin lies beyond its ledger end with a token that continues from the ledger
 * end, i.e. before the begin (docs/websocket-protocol.md §10): such a token is not followed either. Pure.
 */
export function nextPageChain(
  request: { readonly beginExclusive: number; readonly endInclusive: number | undefined; readonly descending: boolean },
  bounds: Pick<UpdatesPage, 'highestPageOffsetInclusive' | 'nextPageToken'>,
): PageChain | undefined {
  if (bounds.nextPageToken === undefined) return undefined;
  if (!request.descending && bounds.highestPageOffsetInclusive < request.beginExclusive) return undefined;
  return { beginExclusive: request.beginExclusive, endInclusive: request.endInclusive, token: bounds.nextPageToken };
}
