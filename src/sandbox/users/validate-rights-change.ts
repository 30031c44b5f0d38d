import type { RightRecord } from '../state/users-store.js';
import { lfStrings } from '../state/lf-strings.js';
import { parseRights } from './parse-rights.js';
import type { userRequestDecoders } from './user-request-decoders.js';
import { requestErrors } from '../errors/request-errors.js';

/** A decoded `GrantUserRightsRequest` / `RevokeUserRightsRequest`. */
export type RightsChangeInput = ReturnType<(typeof userRequestDecoders)['rightsChange']>;

/** A validated grant or revoke request. */
export interface RightsChange {
  readonly userId: string;
  readonly rights: readonly RightRecord[];
  readonly identityProviderId: string;
}

/**
 * The request validation of grant and revoke (docs/server-behavior.md#rights-revoke-validation-order step 4), in the server's order:
 * `userId` (`MISSING_FIELD user_id` when empty, `INVALID_FIELD user_id` when malformed), the rights
 * (`parseRights`), `identityProviderId` (`INVALID_FIELD identity_provider_id`). An empty rights list is
 * valid.
 */
export function validateRightsChange(request: RightsChangeInput): RightsChange {
  if (request.userId === '') throw requestErrors.missingField('user_id');
  const idProblem = lfStrings.userId(request.userId);
  if (idProblem) throw requestErrors.invalidField('user_id', idProblem);
  const rights = parseRights(request.rights);
  const idpProblem = lfStrings.identityProviderId(request.identityProviderId);
  if (idpProblem) throw requestErrors.invalidField('identity_provider_id', idpProblem);
  return { userId: request.userId, rights, identityProviderId: request.identityProviderId };
}
