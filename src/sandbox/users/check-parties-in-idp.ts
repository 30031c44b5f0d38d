import type { Claims } from '../auth/claims.js';
import { ErrorDefs } from '../errors/error-defs.js';
import { SandboxError } from '../errors/sandbox-error.js';
import type { PartiesStore } from '../state/parties-store.js';
import type { RightRecord } from '../state/users-store.js';

/**
 * The IDP scoping of party rights (docs/server-behavior.md#rights-revoke-validation-order step 6): when the caller is not a participant admin
 * (an identity-provider admin), every party of a `CanActAs`/`CanReadAs` right must have a party record in
 * that IDP (`CanExecuteAs` parties are not checked), else `UNKNOWN_RESOURCE` (404): "The submitted request
 * refers to a non-existing PARTIES: Provided parties have not been found in identity_provider_id=`<idp>`:
 * [p1,p2].". Participant admins are not checked.
 */
export function checkPartiesInIdp(parties: PartiesStore, claims: Claims, rights: readonly RightRecord[], identityProviderId: string): void {
  if (claims.admin) return;
  const named = new Set(rights.filter((r) => r.kind === 'CanActAs' || r.kind === 'CanReadAs').map((r) => r.party ?? ''));
  const unknown = [...named].filter((p) => parties.get(p)?.identityProviderId !== identityProviderId);
  if (unknown.length === 0) return;
  throw SandboxError.grpc(
    ErrorDefs.UNKNOWN_RESOURCE,
    `The submitted request refers to a non-existing PARTIES: Provided parties have not been found in identity_provider_id=\`${identityProviderId}\`: [${unknown.join(',')}].`,
  );
}
