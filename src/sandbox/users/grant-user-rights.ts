import type { Claims } from '../auth/claims.js';
import type { ParticipantState } from '../participant/participant-state.js';
import { rightKey } from '../state/users-store.js';
import { authorizeUserManagement } from './authorize-user-management.js';
import { checkPartiesInIdp } from './check-parties-in-idp.js';
import { checkUserRightsLimit } from './check-user-rights-limit.js';
import { findUserInIdp } from './find-user-in-idp.js';
import { toRightJson, type RightJson } from './to-right-json.js';
import { validateRightsChange, type RightsChangeInput } from './validate-rights-change.js';

/**
 * `POST /v2/users/{user-id}/rights` after the path/body id check and token resolution — the mirror image of
 * `revokeUserRights`: authorization (participant admin or IDP admin of `identityProviderId`; admin-only
 * kinds need a participant admin), validation, the IDP-admin party check, the store ("grant user rights
 * failed for unknown user …", another IDP → 403), at most 1000 rights (`TOO_MANY_USER_RIGHTS`). Returns
 * `newlyGrantedRights`: the requested rights the user did not have yet. The resource version does not
 * change. Choice where the reference is silent: the JSON layer checks the body `userId` against the path
 * as it does for revoke.
 */
export function grantUserRights(state: ParticipantState, claims: Claims, request: RightsChangeInput): { newlyGrantedRights: RightJson[] } {
  authorizeUserManagement(claims, request.identityProviderId, { rightKinds: request.rights.map((r) => r.kind.kind) });
  const { userId, rights, identityProviderId } = validateRightsChange(request);
  checkPartiesInIdp(state.parties, claims, rights, identityProviderId);
  const user = findUserInIdp(state.users, userId, identityProviderId, 'grant user rights');
  const granted = rights.filter((r) => !user.rights.has(rightKey(r)));
  checkUserRightsLimit('grant user rights', userId, user.rights.size + granted.length);
  for (const r of granted) user.rights.set(rightKey(r), r);
  return { newlyGrantedRights: granted.map(toRightJson) };
}
