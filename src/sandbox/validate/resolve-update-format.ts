import type { DecodedGetUpdatesRequest, DecodedUpdateFormat } from '../decode/decode-get-updates-request.js';
import { requestErrors } from '../errors/request-errors.js';

const useEither = 'Please use either backwards compatible arguments (filter and verbose) or update_format';

/**
 * Step 2 of `POST /v2/updates` validation (docs/server-behavior.md#updates-validation-order), done by the JSON layer and raised as
 * gRPC `INVALID_ARGUMENT` errors: `updateFormat` must not come with `filter` or with `verbose: true`,
 * and one of `updateFormat` or `filter` is required. Returns the update format to serve.
 *
 * The deprecated `filter`/`verbose` pair is converted with the seed's Rule 1 (the OAS description of
 * `GetUpdatesRequest.updateFormat`): ACS-delta transactions and reassignments with the filter's event
 * format, plus participant-authorization topology events for every party named in `filtersByParty`
 * (all parties when only `filtersForAnyParty` is given). NOTE: the real server leaves topology events
 * out on this path (`includeTopologyEvents = None`); the sandbox follows the documented rule instead,
 * which is also what ledger-rx's client sends when it converts a legacy filter itself.
 */
export function resolveUpdateFormat(request: DecodedGetUpdatesRequest): DecodedUpdateFormat {
  const { updateFormat, filter, verbose } = request;
  if (updateFormat && filter) {
    throw requestErrors.invalidArgument(`Both update_format and filter are set. ${useEither}, but not both.`);
  }
  if (updateFormat && verbose) {
    throw requestErrors.invalidArgument(`Both update_format and verbose are set. ${useEither}, but not both.`);
  }
  if (updateFormat) return updateFormat;
  if (!filter) {
    throw requestErrors.invalidArgument(`Either filter/verbose or update_format is required. ${useEither}.`);
  }
  const eventFormat = { filtersByParty: filter.filtersByParty, filtersForAnyParty: filter.filtersForAnyParty, verbose };
  return {
    includeTransactions: { eventFormat, transactionShape: 'TRANSACTION_SHAPE_ACS_DELTA' },
    includeReassignments: eventFormat,
    includeTopologyEvents: { includeParticipantAuthorizationEvents: { parties: Object.keys(filter.filtersByParty) } },
  };
}
