import type { Claims } from '../auth/claims.js';
import type { ParticipantState } from '../participant/participant-state.js';
import { rightKey } from '../state/users-store.js';
import { authorizeUserManagement } from './authorize-user-management.js';
import { checkPartiesInIdp } from './check-parties-in-idp.js';
import { findUserInIdp } from './find-user-in-idp.js';
import { toRightJson, type RightJson } from './to-right-json.js';
import { validateRightsChange, type RightsChangeInput } from './validate-rights-change.js';
import { requestErrors } from '../errors/request-errors.js';

/**
 * `PATCH /v2/users/{user-id}/rights` after the JSON layer's path/body id check and token resolution,
 * following docs/server-behavior.md#rights-revoke-validation-order:
 *
 * 1. authorization: participant admin or IDP admin of `identityProviderId`; revoking `ParticipantAdmin` or
 *    an any-party right needs a participant admin (403 redacted);
 * 2. validation (`validateRightsChange`);
 * 3. a caller may not revoke its own `ParticipantAdmin` (`INVALID_ARGUMENT` "Requesting user cannot remove
 *    own admin rights");
 * 4. an IDP admin may only name parties of its IDP (`checkPartiesInIdp`: `UNKNOWN_RESOURCE` 404);
 * 5. the store: `USER_NOT_FOUND` (404, "revoke user rights failed for unknown user …"), another IDP (403).
 *
 * Returns `newlyRevokedRights`: only the requested rights the user actually had (rights it did not have
 * are no error). The user's resource version does not change.
 */
export function revokeUserRights(state: ParticipantState, claims: Claims, request: RightsChangeInput): { newlyRevokedRights: RightJson[] } {
  authorizeUserManagement(claims, request.identityProviderId, { rightKinds: request.rights.map((r) => r.kind.kind) });
  const { userId, rights, identityProviderId } = validateRightsChange(request);
  if (claims.userId === userId && rights.some((r) => r.kind === 'ParticipantAdmin')) {
    throw requestErrors.invalidArgument('Requesting user cannot remove own admin rights');
  }
  checkPartiesInIdp(state.parties, claims, rights, identityProviderId);
  const user = findUserInIdp(state.users, userId, identityProviderId, 'revoke user rights');
  const revoked = rights.filter((r) => user.rights.delete(rightKey(r)));
  return { newlyRevokedRights: revoked.map(toRightJson) };
}
