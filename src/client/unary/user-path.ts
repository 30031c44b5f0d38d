import { InvalidArgumentError } from '../../errors/index.js';
import type { ResourcePath } from './resource-path.js';
import { checkUserId, requireNonEmptyString } from '../validation/index.js';

/**
 * The path of a user resource, `/v2/users/{user-id}` followed by `suffix`. Its `at(userId)` requires a
 * non-empty string and a user id the server accepts (`checkUserId`), and not `.` or `..`, which URL
 * parsing would resolve (even percent-encoded) and so send the call elsewhere; its `route` names the
 * request's span.
 *
 * @throws (from `at`) InvalidArgumentError naming `userId`.
 */
export function userPath(suffix = ''): ResourcePath {
  return {
    route: `/v2/users/{user-id}${suffix}`,
    at(userId) {
      requireNonEmptyString(userId, 'userId');
      if (userId === '.' || userId === '..') throw new InvalidArgumentError('userId', `'${userId}' cannot be addressed in a URL path`);
      checkUserId(userId, 'userId');
      return `/v2/users/${encodeURIComponent(userId)}${suffix}`;
    },
  };
}
