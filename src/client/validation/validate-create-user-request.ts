import type { z } from 'zod';
import { CreateUserRequest } from '../../schemas/index.js';
import { checkRights } from './check-rights.js';
import { parseRequest } from './parse-request.js';
import { requireNonEmptyString } from './require-non-empty-string.js';

/**
 * Validates the body of `POST /v2/users` before it is sent: the `CreateUserRequest` schema, then
 * `user.id` non-empty and every right a known kind (`checkRights`).
 *
 * @returns the parsed request (for reading only).
 * @throws InvalidArgumentError for the first violation.
 */
export function validateCreateUserRequest(request: unknown): z.output<typeof CreateUserRequest> {
  const parsed = parseRequest(CreateUserRequest, request);
  requireNonEmptyString(parsed.user.id, 'user.id');
  checkRights(parsed.rights);
  return parsed;
}
