import { ErrorDefs } from '../errors/error-defs.js';
import { SandboxError } from '../errors/sandbox-error.js';

/** The participant's `maxRightsPerUser`, as `GET /v2/version` publishes it. */
const maxRightsPerUser = 1000;

/**
 * Refuses a user with more than 1000 rights (the published `maxRightsPerUser`): `TOO_MANY_USER_RIGHTS`
 * (400), cause `<operation> failed, as user "<id>" would have too many rights.`, resources
 * `[["USER", id]]`.
 */
export function checkUserRightsLimit(operation: string, userId: string, rightCount: number): void {
  if (rightCount <= maxRightsPerUser) return;
  throw SandboxError.grpc(ErrorDefs.TOO_MANY_USER_RIGHTS, `${operation} failed, as user "${userId}" would have too many rights.`, { resources: [['USER', userId]] });
}
