import { requireReadAs } from './authorize.js';
import type { Claims } from './claims.js';
import type { DecodedEventFormat } from '../decode/decode-get-updates-request.js';

/**
 * The read claims of an optional event format (submit-and-wait-for-reassignment): `ReadAs` for every
 * party key, `ReadAsAnyParty` with any-party filters. Throws the redacted 403.
 */
export function requireEventFormatReadClaims(claims: Claims, eventFormat: DecodedEventFormat | undefined): void {
  if (!eventFormat) return;
  requireReadAs(claims, Object.keys(eventFormat.filtersByParty), eventFormat.filtersForAnyParty !== undefined);
}
