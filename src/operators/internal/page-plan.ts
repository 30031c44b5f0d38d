import type { GetUpdatesRequest } from '../../schemas/updates.js';
import type { OffsetRequest } from '../../updates/offset-order-of.js';
import type { UpdatesPageOptions } from '../updates-source.js';

/** One planned request of a paged read. */
export interface PagePlan {
  /** The request; its offsets are numbers (the answer is checked against them). */
  readonly request: GetUpdatesRequest & OffsetRequest;
  readonly options: UpdatesPageOptions;
  /** Ascending reads only: elements beyond this offset end the read instead of being delivered. */
  readonly stopAfter?: number;
  /** The ledger end read right before this page, when the read asked for it (the tail, to tell a slow participant from a quiet stream). */
  readonly ledgerEnd?: number;
}
