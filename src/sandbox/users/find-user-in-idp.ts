import { ErrorDefs } from '../errors/error-defs.js';
import { SandboxError } from '../errors/sandbox-error.js';
import type { UserRecord, UsersStore } from '../state/users-store.js';

/**
 * The user store's lookup (docs/server-behavior.md#user-update-validation-order step 8, #rights-revoke-validation-order step 7): a missing user is `USER_NOT_FOUND`
 * (404, resources `[["USER", id]]`) with the cause `<operation> failed for unknown user "<id>"` (e.g.
 * `updating user`, `revoke user rights`); a user that exists in another identity provider than the
 * request's is `PERMISSION_DENIED`, redacted (403) — its existence is not revealed.
 */
export function findUserInIdp(users: UsersStore, userId: string, identityProviderId: string, operation: string): UserRecord {
  const user = users.get(userId);
  if (!user) {
    throw SandboxError.grpc(ErrorDefs.USER_NOT_FOUND, `${operation} failed for unknown user "${userId}"`, { resources: [['USER', userId]] });
  }
  if (user.identityProviderId !== identityProviderId) throw SandboxError.redacted(7);
  return user;
}
