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
}
