import type { z } from 'zod';
import { GrantUserRightsRequest, RevokeUserRightsRequest } from '../../schemas/index.js';
import { checkIdentityProviderId } from './check-identity-provider-id.js';
import { checkPathUserId } from './check-path-user-id.js';
import { checkRights } from './check-rights.js';
import { checkUserId } from './check-user-id.js';
import { parseRequest } from './parse-request.js';

/**
 * Validates a grant (`POST`) or revoke (`PATCH`) of `/v2/users/{user-id}/rights` before it is sent, with
 * every rule the server applies before looking at its state, in its order (docs/server-behavior.md#rights-revoke-validation-order): the
 * request schema; the path id equal to `userId` in the body (the JSON layer's check); `userId` a user id
 * ({@link checkUserId}); every right's kind set and its party a party id ({@link checkRights});
 * `identityProviderId` well formed ({@link checkIdentityProviderId}). An empty `rights` list is valid.
 *
 * @param kind - which request it is; selects the schema.
 * @returns the parsed request (for reading only).
 * @throws InvalidArgumentError for the first violation.
 */
export function validateUserRightsRequest(
  kind: 'grant' | 'revoke',
  userId: string,
  request: unknown,
): z.output<typeof RevokeUserRightsRequest> {
  const schema = kind === 'grant' ? GrantUserRightsRequest : RevokeUserRightsRequest;
  const parsed = parseRequest(schema, request);
  checkPathUserId(userId, parsed.userId, 'userId');
  checkUserId(parsed.userId, 'userId');
  checkRights(parsed.rights);
  checkIdentityProviderId(parsed.identityProviderId, 'identityProviderId');
  return parsed;
}
