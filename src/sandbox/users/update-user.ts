import type { Claims } from '../auth/claims.js';
import { dictionary } from '../decode/dictionary.js';
import { ErrorDefs } from '../errors/error-defs.js';
import { SandboxError } from '../errors/sandbox-error.js';
import type { ParticipantState } from '../participant/participant-state.js';
import { lfStrings } from '../state/lf-strings.js';
import { annotationsWithinLimit } from './annotations-within-limit.js';
import { authorizeUserManagement } from './authorize-user-management.js';
import { findUserInIdp } from './find-user-in-idp.js';
import { identityProvidersOf } from './identity-providers-of.js';
import { parseUserUpdateMask } from './parse-user-update-mask.js';
import { toUserJson, type UserJson } from './to-user-json.js';
import type { userRequestDecoders } from './user-request-decoders.js';
import { validateAnnotations } from './validate-annotations.js';
import { requestErrors } from '../errors/request-errors.js';

/** Java's `Long.parseLong`: an optional sign and decimal digits, within the int64 range. */
function isLong(text: string): boolean {
  if (!/^[+-]?\d+$/.test(text)) return false;
  const n = BigInt(text);
  return n >= -(2n ** 63n) && n < 2n ** 63n;
}

/** A decoded `UpdateUserRequest`. */
export type UpdateUserInput = ReturnType<(typeof userRequestDecoders)['updateUser']>;

/**
 * `PATCH /v2/users/{user-id}` after the JSON layer's path/body id check and token resolution, following
 * docs/server-behavior.md#user-update-validation-order to #user-rendering, in this order:
 *
 * 1. authorization: participant admin, or IDP admin of `user.identityProviderId` (403 redacted);
 * 2. validation: `user.id` (`MISSING_FIELD`/`INVALID_FIELD user.id`), `updateMask` present
 *    (`MISSING_FIELD update_mask`), a non-empty `primaryParty` well formed (`INVALID_ARGUMENT`),
 *    `identityProviderId` (`INVALID_FIELD identity_provider_id`), a non-empty `metadata.resourceVersion`
 *    a decimal integer (`INVALID_FIELD user.metadata.resource_version`), annotations (keys, size;
 *    `""` values allowed: they delete);
 * 3. the update mask (`parseUserUpdateMask`: `INVALID_USER_UPDATE_REQUEST`);
 * 4. the IDP must exist (`INVALID_ARGUMENT` "Provided identity_provider_id … has not been found.");
 * 5. a caller may not deactivate itself (`INVALID_ARGUMENT` "Requesting user cannot self-deactivate");
 * 6. the store: `USER_NOT_FOUND` (404), another IDP (403 redacted), a given resource version that differs
 *    from the stored one → `CONCURRENT_USER_UPDATE_DETECTED` (409, retryable), merged annotations over
 *    256 KiB → `MAX_USER_ANNOTATIONS_SIZE_EXCEEDED` (400).
 *
 * Then the fields covered by the mask are set — exact paths even to default values, parent-only paths only
 * to non-default ones; annotations are merged into the existing ones and keys given `""` are removed — and
 * the resource version is incremented, even when nothing changed. Returns the whole updated user.
 */
export function updateUser(state: ParticipantState, claims: Claims, request: UpdateUserInput): { user: UserJson } {
  const user = request.user;
  if (!user) throw requestErrors.missingField('user');
  authorizeUserManagement(claims, user.identityProviderId);

  if (user.id === '') throw requestErrors.missingField('user.id');
  const idProblem = lfStrings.userId(user.id);
  if (idProblem) throw requestErrors.invalidField('user.id', idProblem);
  if (!request.updateMask) throw requestErrors.missingField('update_mask');
  const partyProblem = user.primaryParty === '' ? undefined : lfStrings.party(user.primaryParty);
  if (partyProblem) throw requestErrors.invalidArgument(partyProblem);
  const idpProblem = lfStrings.identityProviderId(user.identityProviderId);
  if (idpProblem) throw requestErrors.invalidField('identity_provider_id', idpProblem);
  const requestedVersion = user.metadata?.resourceVersion ?? '';
  if (requestedVersion !== '' && !isLong(requestedVersion)) {
    throw requestErrors.invalidField('user.metadata.resource_version', 'Invalid resource version number');
  }
  const requestAnnotations: Record<string, string> = user.metadata?.annotations ?? dictionary();
  validateAnnotations(requestAnnotations, true, 'user.metadata.annotations');

  const fields = parseUserUpdateMask(user.id, request.updateMask.paths);
  if (!identityProvidersOf(state).has(user.identityProviderId)) {
    throw requestErrors.invalidArgument(`Provided identity_provider_id ${user.identityProviderId} has not been found.`);
  }
  if (claims.userId === user.id && fields.isDeactivated && user.isDeactivated) {
    throw requestErrors.invalidArgument('Requesting user cannot self-deactivate');
  }

  const stored = findUserInIdp(state.users, user.id, user.identityProviderId, 'updating user');
  if (requestedVersion !== '' && BigInt(requestedVersion) !== BigInt(stored.resourceVersion)) {
    throw SandboxError.grpc(ErrorDefs.CONCURRENT_USER_UPDATE_DETECTED, `Update operation for user '${user.id}' failed due to a concurrent update to the same user`, {
      resources: [['USER', user.id]],
    });
  }
  let annotations = stored.annotations;
  const annotationsGiven = Object.keys(requestAnnotations).length > 0;
  if (fields.annotations === 'exact' || (fields.annotations === 'prefix' && annotationsGiven)) {
    const merged = dictionary([...Object.entries(stored.annotations), ...Object.entries(requestAnnotations)]);
    annotations = dictionary(Object.entries(merged).filter(([, v]) => v !== ''));
    if (!annotationsWithinLimit(annotations)) {
      throw SandboxError.grpc(ErrorDefs.MAX_USER_ANNOTATIONS_SIZE_EXCEEDED, `Maximum annotations size for user '${user.id}' has been exceeded`, {
        resources: [['USER', user.id]],
      });
    }
  }

  const apply = <T>(match: 'exact' | 'prefix' | undefined, value: T, isDefault: boolean, current: T): T =>
    match === 'exact' || (match === 'prefix' && !isDefault) ? value : current;
  stored.primaryParty = apply(fields.primaryParty, user.primaryParty, user.primaryParty === '', stored.primaryParty);
  stored.isDeactivated = apply(fields.isDeactivated, user.isDeactivated, !user.isDeactivated, stored.isDeactivated);
  stored.primaryPartyAuthentication = apply(
    fields.primaryPartyAuthentication,
    user.primaryPartyAuthentication,
    !user.primaryPartyAuthentication,
    stored.primaryPartyAuthentication,
  );
  stored.annotations = annotations;
  stored.resourceVersion += 1;
  return { user: toUserJson(stored, state.api) };
}
