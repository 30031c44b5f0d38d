import type { Handler, RequestContext, Route } from '../http/request-context.js';
import { decodeBody } from '../decode/decoders.js';
import { queryInt64 } from '../decode/query-int64.js';
import { requestErrors } from '../errors/request-errors.js';
import { lfStrings } from '../state/lf-strings.js';
import { authorizeUserManagement } from '../users/authorize-user-management.js';
import { authorizeUserRead } from '../users/authorize-user-read.js';
import { createUser } from '../users/create-user.js';
import { findUserInIdp } from '../users/find-user-in-idp.js';
import { grantUserRights } from '../users/grant-user-rights.js';
import { listUsers } from '../users/list-users.js';
import { requireMatchingUserId } from '../users/require-matching-user-id.js';
import { revokeUserRights } from '../users/revoke-user-rights.js';
import { toRightJson } from '../users/to-right-json.js';
import { toUserJson } from '../users/to-user-json.js';
import { updateUser } from '../users/update-user.js';
import { userRequestDecodersFor } from '../users/user-request-decoders.js';

// Every user route resolves the token after body decoding and the JSON layer's own checks, and before the
// service's validation, as the real participant does (docs/server-behavior.md#authentication-and-authorization, #user-update-validation-order, #rights-revoke-validation-order).

const pathUserId = (ctx: RequestContext) => ctx.params['user-id'] ?? '';

/** The `user_id` / `identity_provider_id` validation of the read and delete services. */
function validateUserRef(userId: string, identityProviderId: string): void {
  const idProblem = lfStrings.userId(userId);
  if (idProblem) throw requestErrors.invalidField('user_id', idProblem);
  const idpProblem = lfStrings.identityProviderId(identityProviderId);
  if (idpProblem) throw requestErrors.invalidField('identity_provider_id', idpProblem);
}

const create: Handler = async (ctx) => {
  const request = decodeBody(userRequestDecodersFor(ctx.state.api).createUser, await ctx.body());
  return { json: createUser(ctx.state, await ctx.claims(), request) };
};

const list: Handler = async (ctx) => {
  const pageSize = queryInt64(ctx.query, 'pageSize', -2147483648, 2147483647) ?? 0;
  const pageToken = ctx.query.get('pageToken') ?? '';
  const idp = authorizeUserManagement(await ctx.claims(), '', { defaultToCallerIdp: true });
  return { json: listUsers(ctx.state, idp, pageSize, pageToken) };
};

const get: Handler = async (ctx) => {
  const userId = pathUserId(ctx);
  const requestedIdp = ctx.query.get('identity-provider-id') ?? '';
  const idp = authorizeUserRead(await ctx.claims(), userId, requestedIdp, false);
  validateUserRef(userId, idp);
  return { json: { user: toUserJson(findUserInIdp(ctx.state.users, userId, idp, 'getting user'), ctx.state.api) } };
};

const remove: Handler = async (ctx) => {
  const userId = pathUserId(ctx);
  const idp = authorizeUserManagement(await ctx.claims(), '', { defaultToCallerIdp: true });
  validateUserRef(userId, idp);
  findUserInIdp(ctx.state.users, userId, idp, 'deleting user');
  ctx.state.users.delete(userId);
  return { json: {} };
};

const update: Handler = async (ctx) => {
  const request = decodeBody(userRequestDecodersFor(ctx.state.api).updateUser, await ctx.body());
  requireMatchingUserId(pathUserId(ctx), request.user?.id);
  return { json: updateUser(ctx.state, await ctx.claims(), request) };
};

const listRights: Handler = async (ctx) => {
  const userId = pathUserId(ctx);
  const idp = authorizeUserRead(await ctx.claims(), userId, '', true);
  validateUserRef(userId, idp);
  const user = findUserInIdp(ctx.state.users, userId, idp, 'list user rights');
  return { json: { rights: [...user.rights.values()].map(toRightJson) } };
};

const grant: Handler = async (ctx) => {
  const request = decodeBody(userRequestDecodersFor(ctx.state.api).rightsChange, await ctx.body());
  requireMatchingUserId(pathUserId(ctx), request.userId);
  return { json: grantUserRights(ctx.state, await ctx.claims(), request) };
};

const revoke: Handler = async (ctx) => {
  const request = decodeBody(userRequestDecodersFor(ctx.state.api).rightsChange, await ctx.body());
  requireMatchingUserId(pathUserId(ctx), request.userId);
  return { json: revokeUserRights(ctx.state, await ctx.claims(), request) };
};

const authenticatedUser: Handler = async (ctx) => {
  const claims = await ctx.claims();
  if (claims.userId === undefined) {
    throw requestErrors.invalidArgument('requests with an empty user-id are only supported if there is an authenticated user');
  }
  const idp = authorizeUserRead(claims, claims.userId, ctx.query.get('identity-provider-id') ?? '', false);
  return { json: { user: toUserJson(findUserInIdp(ctx.state.users, claims.userId, idp, 'getting user'), ctx.state.api) } };
};

/**
 * The user-management routes: create, list, get, delete and update users (docs/server-behavior.md#user-update), list, grant and revoke
 * rights (docs/server-behavior.md#rights-revoke), and `GET /v2/authenticated-user` (the caller's own user). Identity providers come from
 * `identityProvidersOf(state)`.
 */
export const userRoutes: readonly Route[] = [
  { method: 'POST', pattern: '/v2/users', handler: create },
  { method: 'GET', pattern: '/v2/users', handler: list },
  { method: 'GET', pattern: '/v2/users/{user-id}', handler: get },
  { method: 'DELETE', pattern: '/v2/users/{user-id}', handler: remove },
  { method: 'PATCH', pattern: '/v2/users/{user-id}', handler: update },
  { method: 'GET', pattern: '/v2/users/{user-id}/rights', handler: listRights },
  { method: 'POST', pattern: '/v2/users/{user-id}/rights', handler: grant },
  { method: 'PATCH', pattern: '/v2/users/{user-id}/rights', handler: revoke },
  { method: 'GET', pattern: '/v2/authenticated-user', handler: authenticatedUser },
];
