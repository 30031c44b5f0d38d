import type { Claims } from '../auth/claims.js';
import { requireAdmin, requireAdminOrIdpAdmin } from '../auth/authorize.js';

const adminOnly = new Set(['ParticipantAdmin', 'CanReadAsAnyParty', 'CanExecuteAsAnyParty', 'CanActAsAnyParty']);

/** Options of {@link authorizeUserManagement}. */
export interface UserManagementAuthorization {
  /** The kinds of the rights the request grants or revokes: any admin-only kind requires a participant admin. */
  readonly rightKinds?: readonly string[];
  /**
   * For routes whose JSON form cannot name an IDP (`GET /v2/users`, `DELETE /v2/users/{id}`,
   * `GET /v2/users/{id}/rights`): an IDP admin's empty request IDP means the admin's own IDP.
   */
  readonly defaultToCallerIdp?: boolean;
}

/**
 * The user-management authorization rule (docs/server-behavior.md#authentication-and-authorization): the caller must be a participant admin, or
 * an identity-provider admin of the request's IDP; granting, revoking or creating with any of
 * `ParticipantAdmin`, `CanReadAsAnyParty`, `CanExecuteAsAnyParty`, `CanActAsAnyParty` needs a participant
 * admin. Failures are the redacted 403. Returns the IDP the request is scoped to.
 *
 * Choice where the reference is silent: with `defaultToCallerIdp`, an IDP admin (not participant admin)
 * whose request names no IDP is scoped to the admin's own IDP — otherwise those routes would be unusable
 * for IDP admins over JSON. Where the body names the IDP (create, update, grant, revoke) the rule is strict.
 */
export function authorizeUserManagement(claims: Claims, requestedIdp: string, options: UserManagementAuthorization = {}): string {
  const idp = options.defaultToCallerIdp && requestedIdp === '' && !claims.admin && claims.idpAdmin ? claims.identityProviderId : requestedIdp;
  requireAdminOrIdpAdmin(claims, idp);
  if ((options.rightKinds ?? []).some((k) => adminOnly.has(k))) requireAdmin(claims);
  return idp;
}
