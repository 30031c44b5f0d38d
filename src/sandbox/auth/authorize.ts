import { ErrorDefs } from '../errors/error-defs.js';
import { SandboxError } from '../errors/sandbox-error.js';
import type { Claims } from './claims.js';

const denied = () => SandboxError.redacted(7);

/** True when the claims may read as `party` (`CanReadAs`, `CanActAs`, or an any-party read right). */
export function canReadAs(claims: Claims, party: string): boolean {
  return claims.readAsAnyParty || claims.readAs.has(party) || claims.actAs.has(party);
}

/** True when the claims may act as `party`. */
export function canActAs(claims: Claims, party: string): boolean {
  return claims.actAsAnyParty || claims.actAs.has(party);
}

/** Participant admin only (vetting updates, admin-only rights). Admin does not imply party rights. */
export function requireAdmin(claims: Claims): void {
  if (!claims.admin) throw denied();
}

/** Participant admin, or an identity-provider admin of `identityProviderId`. */
export function requireAdminOrIdpAdmin(claims: Claims, identityProviderId: string): void {
  if (claims.admin) return;
  if (claims.idpAdmin && claims.identityProviderId === identityProviderId) return;
  throw denied();
}

/**
 * The `MatchReadAsParties` rule of the by-hash reads: `any` for a `ReadAsAnyParty` caller, else the
 * parties it may act or read as; none at all is the redacted 403 (the server's `NoReadableParties`).
 */
export function readableParties(claims: Claims): 'any' | ReadonlySet<string> {
  if (claims.readAsAnyParty) return 'any';
  const parties = new Set([...claims.actAs, ...claims.readAs]);
  if (parties.size === 0) throw denied();
  return parties;
}

/** `ReadAs(p)` for every party, and `ReadAsAnyParty` when `anyParty`. */
export function requireReadAs(claims: Claims, parties: Iterable<string>, anyParty: boolean): void {
  if (anyParty && !claims.readAsAnyParty) throw denied();
  for (const p of parties) if (!canReadAs(claims, p)) throw denied();
}

/** `ActAs(p)` for every `actAs` party and `ReadAs(p)` for every `readAs` party. */
export function requireActAs(claims: Claims, actAs: Iterable<string>, readAs: Iterable<string>): void {
  for (const p of actAs) if (!canActAs(claims, p)) throw denied();
  for (const p of readAs) if (!canReadAs(claims, p)) throw denied();
}

/**
 * The `MatchUserId` rule: an empty request user id is filled from the token; without a token user id
 * that is `INVALID_TOKEN`; a different user id is `PERMISSION_DENIED`. Returns the effective user id.
 */
export function matchUserId(claims: Claims, requested: string | undefined): string {
  const wanted = requested ?? '';
  if (wanted === '') {
    if (claims.userId === undefined) {
      throw SandboxError.grpc(
        ErrorDefs.INVALID_TOKEN,
        'The submitted request is missing a user-id: Cannot default user_id field because claims do not specify an user-id. Is authentication turned on?',
      );
    }
    return claims.userId;
  }
  if (claims.userId !== undefined && claims.userId !== wanted) throw denied();
  return wanted;
}
