import { requireReadAs } from './authorize.js';
import type { Claims } from './claims.js';
import type { DecodedEventFormat, DecodedUpdateFormat } from '../decode/decode-get-updates-request.js';

/**
 * The authorization of an update read (docs/server-behavior.md#authentication-and-authorization): `ReadAs(p)` for every key of every
 * `filtersByParty`, `ReadAsAnyParty` when any `filtersForAnyParty` is set, and for topology events
 * `ReadAs(p)` for each listed party, or `ReadAsAnyParty` when the list is empty. A format that names no
 * party needs no party right (only an authenticated caller). Throws the redacted 403.
 */
export function requireUpdateReadClaims(claims: Claims, format: DecodedUpdateFormat): void {
  const parties: string[] = [];
  let anyParty = false;
  const add = (ef: DecodedEventFormat | undefined) => {
    if (!ef) return;
    parties.push(...Object.keys(ef.filtersByParty));
    if (ef.filtersForAnyParty) anyParty = true;
  };
  add(format.includeTransactions?.eventFormat);
  add(format.includeReassignments);
  const topology = format.includeTopologyEvents?.includeParticipantAuthorizationEvents;
  if (topology) {
    if (topology.parties.length === 0) anyParty = true;
    else parties.push(...topology.parties);
  }
  requireReadAs(claims, parties, anyParty);
}
