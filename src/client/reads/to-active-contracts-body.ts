import type { TransactionFilter } from '../../schemas/index.js';
import type { ActiveContractsRequest } from './active-contracts-options.js';

/** A request for active contracts as the client sends it: always an `eventFormat`, never the deprecated `filter`/`verbose`. */
export type ActiveContractsBody = Omit<ActiveContractsRequest, 'filter' | 'verbose' | 'eventFormat'> & {
  readonly eventFormat: NonNullable<ActiveContractsRequest['eventFormat']>;
};

/**
 * Builds the body of a request for active contracts from a validated request: a request with the deprecated
 * `filter` (and `verbose`) is sent with the `eventFormat` the server builds from them (the filter's
 * `filtersByParty` and `filtersForAnyParty`, and `verbose`); a request with `eventFormat` is sent as written.
 * The same body then serves every transport (the page endpoint has no `filter`). Does not validate: call
 * `validateGetActiveContractsRequest` first.
 *
 * @returns a new object; the request is not modified.
 */
export function toActiveContractsBody(request: ActiveContractsRequest, parsedFilter: TransactionFilter | null | undefined): ActiveContractsBody {
  const { filter: _filter, verbose, eventFormat, ...rest } = request;
  if (eventFormat != null) return { ...rest, eventFormat };
  if (parsedFilter == null) throw new TypeError('toActiveContractsBody: the request has neither eventFormat nor filter');
  return {
    ...rest,
    eventFormat: {
      filtersByParty: parsedFilter.filtersByParty ?? {},
      ...(parsedFilter.filtersForAnyParty == null ? {} : { filtersForAnyParty: parsedFilter.filtersForAnyParty }),
      verbose: verbose ?? false,
    },
  };
}
