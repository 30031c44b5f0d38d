import { fromLegacyFilter } from '../../filters/from-legacy-filter.js';
import type { GetUpdatesRequest, TransactionFilter } from '../../schemas/index.js';

/** The body the client sends to `POST /v2/updates`: never the deprecated `filter`. */
export type UpdatesBody = Omit<GetUpdatesRequest, 'filter'>;

/**
 * Builds the body of `POST /v2/updates` from a validated request. A request with the deprecated `filter`
 * (and optionally `verbose`) and no `updateFormat` is sent as the `updateFormat` that
 * `fromLegacyFilter(filter, verbose)` produces, with `filter` and `verbose` left out; a request with
 * `updateFormat` is sent as written (minus a `filter: null`). Does not validate: call
 * `validateGetUpdatesRequest` first.
 *
 * @param request - the caller's request, as written.
 * @param parsedFilter - the parsed `filter` of that request (from `validateGetUpdatesRequest`).
 * @returns a new object; the request is not modified.
 * @throws InvalidArgumentError from `fromLegacyFilter` when the legacy filter names no party.
 */
export function toUpdatesBody(request: GetUpdatesRequest, parsedFilter: TransactionFilter | null | undefined): UpdatesBody {
  const { filter: _filter, verbose, updateFormat, ...rest } = request;
  if (updateFormat != null) return { ...rest, updateFormat, ...(verbose == null ? {} : { verbose }) };
  if (parsedFilter == null) throw new TypeError('toUpdatesBody: the request has neither updateFormat nor filter');
  return { ...rest, updateFormat: fromLegacyFilter(parsedFilter, verbose) };
}
