import type { Claims } from '../auth/claims.js';
import { dictionary } from '../decode/dictionary.js';
import { ErrorDefs } from '../errors/error-defs.js';
import { SandboxError } from '../errors/sandbox-error.js';
import type { ParticipantState } from '../participant/participant-state.js';
import { rightKey } from '../state/users-store.js';
import { lfStrings } from '../state/lf-strings.js';
import { authorizeUserManagement } from './authorize-user-management.js';
import { checkPartiesInIdp } from './check-parties-in-idp.js';
import { checkUserRightsLimit } from './check-user-rights-limit.js';
import { identityProvidersOf } from './identity-providers-of.js';
import { parseRights } from './parse-rights.js';
import { toUserJson, type UserJson } from './to-user-json.js';
import type { userRequestDecoders } from './user-request-decoders.js';
import { validateAnnotations } from './validate-annotations.js';
import { requestErrors } from '../errors/request-errors.js';

/** A decoded `CreateUserRequest`. */
export type CreateUserInput = ReturnType<(typeof userRequestDecoders)['createUser']>;

/**
 * `POST /v2/users` after token resolution, as the server's `CreateUser`:
 *
 * 1. authorization: participant admin or IDP admin of `user.identityProviderId` (any IDP admin when `user`
 *    is missing); admin-only rights (`ParticipantAdmin`, any-party rights) need a participant admin;
 * 2. validation: `user` present (`MISSING_FIELD user`), `user.id` (`MISSING_FIELD`/`INVALID_FIELD id`),
 *    `metadata.resourceVersion` empty (`INVALID_FIELD user.metadata.resource_version`), annotations (no
 *    empty values on create), `primaryParty`, rights (`parseRights`), `identityProviderId`;
 * 3. the IDP exists; an IDP admin may only name parties of its IDP (`checkPartiesInIdp`);
 * 4. the store: an existing id is `USER_ALREADY_EXISTS` (409, "creating user failed, as user … already
 *    exists"); at most 1000 rights.
 *
 * The new user starts with resource version 0 and the given rights (which don't count as updates).
 */
export function createUser(state: ParticipantState, claims: Claims, request: CreateUserInput): { user: UserJson } {
  const kinds = request.rights.map((r) => r.kind.kind);
  const user = request.user;
  // Without a user the server only asks for some IDP admin: the caller's own IDP always matches.
  authorizeUserManagement(claims, user ? user.identityProviderId : claims.identityProviderId, { rightKinds: kinds });

  if (!user) throw requestErrors.missingField('user');
  if (user.id === '') throw requestErrors.missingField('id');
  const idProblem = lfStrings.userId(user.id);
  if (idProblem) throw requestErrors.invalidField('id', idProblem);
  const version = user.metadata?.resourceVersion ?? '';
  if (version !== '') throw requestErrors.invalidField('user.metadata.resource_version', `must be empty but was '${version}'`);
  const annotations: Record<string, string> = user.metadata?.annotations ?? dictionary();
  validateAnnotations(annotations, false, 'user.metadata.annotations');
  const partyProblem = user.primaryParty === '' ? undefined : lfStrings.party(user.primaryParty);
  if (partyProblem) throw requestErrors.invalidArgument(partyProblem);
  const rights = parseRights(request.rights);
  const idpProblem = lfStrings.identityProviderId(user.identityProviderId);
  if (idpProblem) throw requestErrors.invalidField('identity_provider_id', idpProblem);

  if (!identityProvidersOf(state).has(user.identityProviderId)) {
    throw requestErrors.invalidArgument(`Provided identity_provider_id ${user.identityProviderId} has not been found.`);
  }
  checkPartiesInIdp(state.parties, claims, rights, user.identityProviderId);
  if (state.users.get(user.id)) {
    throw SandboxError.grpc(ErrorDefs.USER_ALREADY_EXISTS, `creating user failed, as user "${user.id}" already exists`, { resources: [['USER', user.id]] });
  }
  checkUserRightsLimit('creating user', user.id, rights.length);
  const created = state.users.add({
    id: user.id,
    primaryParty: user.primaryParty,
    isDeactivated: user.isDeactivated,
    annotations: dictionary(Object.entries(annotations)),
    resourceVersion: 0,
    identityProviderId: user.identityProviderId,
    primaryPartyAuthentication: user.primaryPartyAuthentication,
    rights: new Map(rights.map((r) => [rightKey(r), r] as const)),
  });
  return { user: toUserJson(created, state.api) };
}
