import { InvalidArgumentError } from '../../errors/index.js';
import { quoteValue } from './quote-value.js';

const userId = /^[A-Za-z0-9@^$.!`\-#+'~_|:()]{1,128}$/;

/**
 * A user id as the server parses it (Daml-LF `UserId`): 1 to 128 characters, each an ASCII letter or
 * digit or one of ``@^$.!`-#+'~_|:()``. No spaces and no `/`. The server rejects anything else before
 * looking up the user (`INVALID_FIELD user_id` / `user.id`). The parentheses are the newest addition to
 * the set; a server that predates them rejects such an id itself.
 *
 * @param value - the user id (already known to be a string).
 * @param field - the JSON path reported in the error (`userId`, `user.id`).
 * @throws InvalidArgumentError(field, …).
 */
export function checkUserId(value: string, field: string): void {
  if (!userId.test(value)) {
    throw new InvalidArgumentError(
      field,
      `${quoteValue(value)} is not a user id (1 to 128 characters: letters, digits and @^$.!\`-#+'~_|:())`,
    );
  }
}
