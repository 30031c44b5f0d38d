import type { z } from 'zod';
import { GrantUserRightsRequest, RevokeUserRightsRequest } from '../../schemas/index.js';
import { checkPathUserId } from './check-path-user-id.js';
import { checkRightKinds } from './check-right-kinds.js';
import { parseRequest } from './parse-request.js';

/**
 * Validates a grant (`POST`) or revoke (`PATCH`) of `/v2/users/{user-id}/rights` before it is sent: the
 * request schema, the path id equal to `userId` in the body, and every right's kind set.
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
  checkRightKinds(parsed.rights);
  return parsed;
}
