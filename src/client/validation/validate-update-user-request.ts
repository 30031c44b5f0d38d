import type { z } from 'zod';
import { UpdateUserRequest } from '../../schemas/index.js';
import { checkPathUserId } from './check-path-user-id.js';
import { checkUpdateMask } from './check-update-mask.js';
import { parseRequest } from './parse-request.js';

/**
 * Validates `PATCH /v2/users/{user-id}` before it is sent: the `UpdateUserRequest` schema, the path id
 * equal to `user.id`, and the update mask (see {@link checkUpdateMask}).
 *
 * @returns the parsed request (for reading only).
 * @throws InvalidArgumentError for the first violation.
 */
export function validateUpdateUserRequest(userId: string, request: unknown): z.output<typeof UpdateUserRequest> {
  const parsed = parseRequest(UpdateUserRequest, request);
  checkPathUserId(userId, parsed.user.id, 'user.id');
  checkUpdateMask(parsed.updateMask.paths);
  return parsed;
}
