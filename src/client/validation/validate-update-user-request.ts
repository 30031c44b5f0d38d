import type { z } from 'zod';
import { UpdateUserRequest } from '../../schemas/index.js';
import { checkAnnotations } from './check-annotations.js';
import { checkIdentityProviderId } from './check-identity-provider-id.js';
import { checkPartyId } from './check-party-id.js';
import { checkPathUserId } from './check-path-user-id.js';
import { checkResourceVersion } from './check-resource-version.js';
import { checkUpdateMask } from './check-update-mask.js';
import { checkUserId } from './check-user-id.js';
import { parseRequest } from './parse-request.js';

/**
 * Validates `PATCH /v2/users/{user-id}` before it is sent, with every rule the server applies before
 * looking at its state, in the server's order (docs/server-behavior.md#user-update-validation-order):
 *
 * 1. the `UpdateUserRequest` schema (the server's JSON decoding; `user` and `updateMask` present);
 * 2. the path id equal to `user.id` (the JSON layer's check, {@link checkPathUserId});
 * 3. `user.id` a user id ({@link checkUserId});
 * 4. a non-empty `user.primaryParty` a party id ({@link checkPartyId});
 * 5. `user.identityProviderId` ({@link checkIdentityProviderId});
 * 6. `user.metadata.resourceVersion` empty or a 64-bit integer ({@link checkResourceVersion});
 * 7. `user.metadata.annotations` keys and size, empty values allowed ({@link checkAnnotations});
 * 8. the update mask ({@link checkUpdateMask}).
 *
 * Left to the server: whether the user and identity provider exist, the resource-version match, the
 * merged annotation size, and self-deactivation.
 *
 * @returns the parsed request (for reading only).
 * @throws InvalidArgumentError for the first violation.
 */
export function validateUpdateUserRequest(userId: string, request: unknown): z.output<typeof UpdateUserRequest> {
  const parsed = parseRequest(UpdateUserRequest, request);
  const { user } = parsed;
  checkPathUserId(userId, user.id, 'user.id');
  checkUserId(user.id, 'user.id');
  if (user.primaryParty != null && user.primaryParty !== '') checkPartyId(user.primaryParty, 'user.primaryParty');
  checkIdentityProviderId(user.identityProviderId, 'user.identityProviderId');
  checkResourceVersion(user.metadata?.resourceVersion, 'user.metadata.resourceVersion');
  checkAnnotations(user.metadata?.annotations, true, 'user.metadata.annotations');
  checkUpdateMask(parsed.updateMask.paths);
  return parsed;
}
