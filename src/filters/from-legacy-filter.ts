import { InvalidArgumentError } from '../errors/invalid-argument-error.js';
import type { EventFormat, TransactionFilter, UpdateFormat } from '../schemas/filters.js';

/**
 * Converts the deprecated `filter`/`verbose` pair of `GetUpdatesRequest` into the `UpdateFormat` the spec
 * says it defaults to (its Rule 1):
 *
 * - `includeTransactions.eventFormat` takes `filtersByParty`, `filtersForAnyParty` and `verbose`, with the
 *   `TRANSACTION_SHAPE_ACS_DELTA` shape;
 * - `includeReassignments` takes the same filter and `verbose`;
 * - `includeTopologyEvents.includeParticipantAuthorizationEvents.parties` lists every party named in the
 *   filter (an empty list, when only `filtersForAnyParty` is set, means every party).
 *
 * The real server's legacy path differs on one point: it leaves `includeTopologyEvents` unset, so a
 * request that sends the legacy fields to a real participant gets no topology events. The client always
 * sends the converted `updateFormat`, so it gets the same result from any server.
 *
 * Throws {@link InvalidArgumentError} when the filter names no party and has no any-party filter (the
 * server rejects such an event format).
 */
export function fromLegacyFilter(filter: TransactionFilter, verbose?: boolean | null): UpdateFormat {
  const filtersByParty = filter.filtersByParty ?? {};
  const parties = Object.keys(filtersByParty);
  if (parties.length === 0 && filter.filtersForAnyParty == null) {
    throw new InvalidArgumentError('filter', 'filtersByParty and filtersForAnyParty cannot be empty simultaneously');
  }
  const eventFormat: EventFormat = {
    filtersByParty,
    ...(filter.filtersForAnyParty == null ? {} : { filtersForAnyParty: filter.filtersForAnyParty }),
    verbose: verbose ?? false,
  };
  return {
    includeTransactions: { eventFormat, transactionShape: 'TRANSACTION_SHAPE_ACS_DELTA' },
    includeReassignments: eventFormat,
    includeTopologyEvents: { includeParticipantAuthorizationEvents: { parties } },
  };
}
