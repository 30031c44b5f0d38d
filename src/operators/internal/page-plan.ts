import type { GetUpdatesRequest } from '../../schemas/updates.js';
import type { OffsetRequest } from '../../updates/offset-order-of.js';
import type { Transport } from '../../updates/transport.js';
import type { UpdatesOptions } from '../../updates/updates-options.js';
import type { PageChain } from './page-chain.js';

/**
 * One planned request of a paged read. `R` is the request of the read's element stream (a
 * `GetUpdatesRequest` by default; the completions tail plans completion requests, the snapshot its own);
 * offsets in it are numbers.
 */
export interface PagePlan<R = GetUpdatesRequest & OffsetRequest> {
  /**
   * The request; its offsets are numbers (the answer is checked against them). For the `list` and
   * `websocket` transports it is what is sent; for `page` it is the range the page's updates must lie in
   * (`beginExclusive` = the last delivered offset), and the `page` strategy sends its `get-updates-page`
   * request (the offsets of `chain`, when it continues one).
   */
  readonly request: R;
  readonly options: UpdatesOptions;
  /** Ascending reads only: elements beyond this offset end the read instead of being delivered. */
  readonly stopAfter?: number;
  /** The ledger end read right before this page, when the read asked for it (the tail, to tell a slow participant from a quiet stream). */
  readonly ledgerEnd?: number;
  /** How the request goes to the participant. Default `list`. */
  readonly transport?: Exclude<Transport, 'auto'>;
  /** `page` transport: the token chain this page continues (none: a new chain from `request`). */
  readonly chain?: PageChain | undefined;
}
