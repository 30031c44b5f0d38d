import { ErrorDefs } from '../errors/error-defs.js';
import { SandboxError } from '../errors/sandbox-error.js';
import type { UsersStore } from '../state/users-store.js';
import { lfStrings } from '../state/lf-strings.js';
import type { TokenInfo } from './verify-token.js';

/**
 * What a caller may do, resolved from the token's user and that user's rights (or everything, when auth
 * is off). `userId` is `undefined` when auth is off: requests must then name their user themselves.
 */
export interface Claims {
  readonly userId: string | undefined;
  readonly identityProviderId: string;
  readonly admin: boolean;
  readonly idpAdmin: boolean;
  readonly actAs: ReadonlySet<string>;
  readonly readAs: ReadonlySet<string>;
  readonly executeAs: ReadonlySet<string>;
  readonly actAsAnyParty: boolean;
  readonly readAsAnyParty: boolean;
  readonly executeAsAnyParty: boolean;
  /** The token's `exp` in epoch ms: a stream must not deliver past it. `undefined` without auth or `exp`. */
  readonly expiresAtMs: number | undefined;
}

/** The claims of an unauthenticated sandbox (auth off): admin and every party, no user id. */
export const wildcardClaims: Claims = {
  userId: undefined,
  identityProviderId: '',
  admin: true,
  idpAdmin: true,
  actAs: new Set(),
  readAs: new Set(),
  executeAs: new Set(),
  actAsAnyParty: true,
  readAsAnyParty: true,
  executeAsAnyParty: true,
  expiresAtMs: undefined,
};

/**
 * Resolves a verified token into {@link Claims}, failing as the real authorizer does:
 * no token or an invalid one → 401 (redacted); an expired token, an unknown or deactivated user → 403
 * (redacted); a `sub` that is not a valid user id (Daml-LF `UserId`, as `lfStrings.userId` checks) →
 * `INVALID_TOKEN` (400).
 */
export function resolveClaims(token: TokenInfo, users: UsersStore): Claims {
  switch (token.kind) {
    case 'none':
    case 'invalid':
      throw SandboxError.redacted(16);
    case 'expired':
      throw SandboxError.redacted(7);
    case 'valid':
      break;
  }
  const userId = token.userId;
  if (userId === undefined || lfStrings.userId(userId) !== undefined) {
    throw SandboxError.grpc(ErrorDefs.INVALID_TOKEN, `The submitted request is missing a user-id: token has no valid sub claim`);
  }
  const user = users.get(userId);
  if (!user || user.isDeactivated) throw SandboxError.redacted(7);
  const actAs = new Set<string>();
  const readAs = new Set<string>();
  const executeAs = new Set<string>();
  let admin = false;
  let idpAdmin = false;
  let actAsAnyParty = false;
  let readAsAnyParty = false;
  let executeAsAnyParty = false;
  for (const right of user.rights.values()) {
    switch (right.kind) {
      case 'CanActAs':
        actAs.add(right.party ?? '');
        break;
      case 'CanReadAs':
        readAs.add(right.party ?? '');
        break;
      case 'CanExecuteAs':
        executeAs.add(right.party ?? '');
        break;
      case 'CanActAsAnyParty':
        actAsAnyParty = true;
        break;
      case 'CanReadAsAnyParty':
        readAsAnyParty = true;
        break;
      case 'CanExecuteAsAnyParty':
        executeAsAnyParty = true;
        break;
      case 'ParticipantAdmin':
        admin = true;
        break;
      case 'IdentityProviderAdmin':
        idpAdmin = true;
        break;
    }
  }
  return {
    userId,
    identityProviderId: user.identityProviderId,
    admin,
    idpAdmin,
    actAs,
    readAs,
    executeAs,
    actAsAnyParty,
    readAsAnyParty: readAsAnyParty || actAsAnyParty,
    executeAsAnyParty: executeAsAnyParty || actAsAnyParty,
    expiresAtMs: token.expiresAtMs,
  };
}
