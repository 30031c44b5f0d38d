import { InvalidArgumentError } from '../../errors/index.js';
import type { UpdateFormat } from '../../schemas/index.js';
import { checkEventFormat } from './check-event-format.js';
import { checkPartyId } from './check-party-id.js';
import { formatJsonPath } from './format-json-path.js';

/**
 * Checks the `updateFormat` of `POST /v2/updates` with the stateless rules of the server's format
 * validator (docs/server-behavior.md#updates-validation-order step 4), in its order:
 *
 * 1. `includeTransactions`: `transactionShape` must not be `TRANSACTION_SHAPE_UNSPECIFIED` (the server
 *    answers `MISSING_FIELD transaction_shape`), then its `eventFormat` (see {@link checkEventFormat});
 * 2. `includeReassignments`: an event format, checked the same way;
 * 3. `includeTopologyEvents.includeParticipantAuthorizationEvents.parties`: each a party id
 *    (`INVALID_FIELD parties`); an empty list means every party and is valid.
 *
 * A format with none of the three parts is valid: the server then streams no updates (only checkpoints).
 * A missing `transactionShape` or `eventFormat` is already a schema error.
 *
 * @param format - the parsed update format.
 * @param path - its JSON path in the request (default `['updateFormat']`).
 * @throws InvalidArgumentError naming the offending field below `path`.
 */
export function checkUpdateFormat(format: UpdateFormat, path: readonly PropertyKey[] = ['updateFormat']): void {
  const transactions = format.includeTransactions;
  if (transactions != null) {
    if (transactions.transactionShape === 'TRANSACTION_SHAPE_UNSPECIFIED') {
      throw new InvalidArgumentError(
        formatJsonPath([...path, 'includeTransactions', 'transactionShape']),
        'must be TRANSACTION_SHAPE_ACS_DELTA or TRANSACTION_SHAPE_LEDGER_EFFECTS (UNSPECIFIED counts as missing)',
      );
    }
    checkEventFormat(transactions.eventFormat, [...path, 'includeTransactions', 'eventFormat']);
  }
  if (format.includeReassignments != null) checkEventFormat(format.includeReassignments, [...path, 'includeReassignments']);
  const parties = format.includeTopologyEvents?.includeParticipantAuthorizationEvents?.parties ?? [];
  parties.forEach((party, i) => {
    checkPartyId(party, formatJsonPath([...path, 'includeTopologyEvents', 'includeParticipantAuthorizationEvents', 'parties', i]));
  });
}
