import type { Claims } from '../auth/claims.js';
import { SandboxError } from '../errors/sandbox-error.js';
import { authorizeUserManagement } from './authorize-user-management.js';

/**
 * Authorization of reading a user or its rights (`GET /v2/users/{id}`, `GET /v2/users/{id}/rights`,
 * `GET /v2/authenticated-user`): any authenticated user may read itself — then a requested IDP, if given,
 * must be the caller's own (else 403 redacted) and the caller's IDP is used — and otherwise the
 * user-management rule applies (`authorizeUserManagement`; `defaultToCallerIdp` for routes without an IDP
 * parameter). Returns the IDP to look the user up in.
 */
export function authorizeUserRead(claims: Claims, userId: string, requestedIdp: string, defaultToCallerIdp: boolean): string {
  if (claims.userId !== undefined && claims.userId === userId) {
    if (requestedIdp !== '' && requestedIdp !== claims.identityProviderId) throw SandboxError.redacted(7);
    return claims.identityProviderId;
  }
  return authorizeUserManagement(claims, requestedIdp, { defaultToCallerIdp });
}
