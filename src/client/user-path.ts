import { InvalidArgumentError } from '../errors/index.js';
import { checkUserId, requireNonEmptyString } from './validation/index.js';

/**
 * The path of a user resource: the id must be a non-empty string and a user id the server accepts
 * (`checkUserId`), and not `.` or `..`, which URL parsing would resolve (even percent-encoded) and so
 * send the call elsewhere. With its route (`/v2/users/{user-id}...`), which names the request's span.
 *
 * @throws InvalidArgumentError naming `userId`.
 */
export function userPath(userId: string, suffix = ''): { path: string; route: string } {
  requireNonEmptyString(userId, 'userId');
  if (userId === '.' || userId === '..') throw new InvalidArgumentError('userId', `'${userId}' cannot be addressed in a URL path`);
  checkUserId(userId, 'userId');
  return { path: `/v2/users/${encodeURIComponent(userId)}${suffix}`, route: `/v2/users/{user-id}${suffix}` };
}
