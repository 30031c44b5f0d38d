import type { JsGetUpdatesResponse } from '../schemas/index.js';

/**
 * One page of `POST /v2/updates/get-updates-page`, as `LedgerClient.updatesPage` resolves with it and as the
 * operators read it from any `UpdatesSource`: its updates (in the request's order; none is an
 * `OffsetCheckpoint`) and the bounds of the ledger section it covers, `(lowestPageOffsetExclusive,
 * highestPageOffsetInclusive]`. `nextPageToken` asks for the next page with the same request; it is absent
 * on the last page, and always present for an ascending read without `endOffsetInclusive` (the way to tail).
 */
export interface UpdatesPage {
  readonly updates: JsGetUpdatesResponse[];
  readonly lowestPageOffsetExclusive: number;
  readonly highestPageOffsetInclusive: number;
  readonly nextPageToken: string | undefined;
}
