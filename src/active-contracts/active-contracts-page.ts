import type { JsGetActiveContractsResponse } from '../schemas/index.js';

/**
 * One page of `GET /v2/state/active-contracts-page`, as `LedgerClient.activeContractsPage` resolves with it
 * and as `activeContractsSnapshot` reads it from any `SnapshotSource`: its entries, the offset the snapshot is taken at (the
 * request's `activeAtOffset`, or the ledger end the participant chose for a first page without one), and
 * `nextPageToken` for the next page of the same request, absent on the last page. A page token carries the
 * offset: the pages of one snapshot all have the same.
 */
export interface ActiveContractsPage {
  readonly activeContracts: JsGetActiveContractsResponse[];
  readonly activeAtOffset: number;
  readonly nextPageToken: string | undefined;
}
