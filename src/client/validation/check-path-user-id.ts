import { InvalidArgumentError } from '../../errors/index.js';
import { requireNonEmptyString } from './require-non-empty-string.js';

/**
 * The user id in the URL path must be non-empty and equal the user id in the body; the server checks this
 * first and answers `INVALID_ARGUMENT` ("… does not match user in body …") otherwise.
 *
 * @param pathUserId - the `{user-id}` argument of the method.
 * @param bodyUserId - the id in the body (`user.id` or `userId`).
 * @param bodyField - the JSON path of the body id, reported on a mismatch.
 * @throws InvalidArgumentError('userId', …) for an empty path id, InvalidArgumentError(bodyField, …) on a mismatch.
 */
export function checkPathUserId(pathUserId: unknown, bodyUserId: string | null | undefined, bodyField: string): void {
  requireNonEmptyString(pathUserId, 'userId');
  if (bodyUserId !== pathUserId) {
    throw new InvalidArgumentError(bodyField, `must equal the user id in the path ('${pathUserId}')`);
  }
}
