import { z } from 'zod';
import { built, lazySchema } from './lazy-schema.js';
import { Empty, FieldMask, ObjectMeta } from './common.js';
import { variant, wrapped } from './variant.js';

/** `CanActAs` (payload). */
export const CanActAs = lazySchema(() => z.looseObject({ party: z.string() }));
/** `CanReadAs` (payload). */
export const CanReadAs = lazySchema(() => z.looseObject({ party: z.string() }));
/** `CanExecuteAs` (payload). */
export const CanExecuteAs = lazySchema(() => z.looseObject({ party: z.string() }));
/** `CanActAsAnyParty` (payload). */
export const CanActAsAnyParty = lazySchema(() => z.looseObject({}));
/** `CanReadAsAnyParty` (payload). */
export const CanReadAsAnyParty = lazySchema(() => z.looseObject({}));
/** `CanExecuteAsAnyParty` (payload). */
export const CanExecuteAsAnyParty = lazySchema(() => z.looseObject({}));
/** `ParticipantAdmin` (payload). */
export const ParticipantAdmin = lazySchema(() => z.looseObject({}));
/** `IdentityProviderAdmin` (payload). */
export const IdentityProviderAdmin = lazySchema(() => z.looseObject({}));

/** The eight kinds of right, plus `Empty`; each wraps its payload in `"value"`. */
export const kindCases = {
  CanActAs: lazySchema(() => wrapped(built(CanActAs))),
  CanActAsAnyParty: lazySchema(() => wrapped(built(CanActAsAnyParty))),
  CanExecuteAs: lazySchema(() => wrapped(built(CanExecuteAs))),
  CanExecuteAsAnyParty: lazySchema(() => wrapped(built(CanExecuteAsAnyParty))),
  CanReadAs: lazySchema(() => wrapped(built(CanReadAs))),
  CanReadAsAnyParty: lazySchema(() => wrapped(built(CanReadAsAnyParty))),
  Empty,
  IdentityProviderAdmin: lazySchema(() => wrapped(built(IdentityProviderAdmin))),
  ParticipantAdmin: lazySchema(() => wrapped(built(ParticipantAdmin))),
};

/** `Kind`: the kind of a right; unknown kinds from a newer server are kept as {@link UnknownVariant}. */
export const Kind = lazySchema(() => variant('Kind', kindCases, { open: true }));
export type Kind = z.output<typeof Kind>;

/** `Right`. */
export const Right = lazySchema(() => z.looseObject({ kind: built(Kind).nullish() }));
export type Right = z.output<typeof Right>;
/** A right as a request field. */
export type RightInput = z.input<typeof Right>;

/** `User`. `primaryParty` and `identityProviderId` are `""` when unset. */
export const User = lazySchema(() => z.looseObject({
  id: z.string(),
  primaryParty: z.string().nullish(),
  isDeactivated: z.boolean().nullish(),
  metadata: built(ObjectMeta).nullish(),
  identityProviderId: z.string().nullish(),
  primaryPartyAuthentication: z.boolean().nullish(),
}));
export type User = z.output<typeof User>;
/** A user as a request field. */
export type UserInput = z.input<typeof User>;

/** `UpdateUserRequest`: `updateMask.paths` use snake_case field names (see `fieldMask`). */
export const UpdateUserRequest = lazySchema(() => z.looseObject({
  user: built(User),
  updateMask: built(FieldMask),
}));
export type UpdateUserRequest = z.input<typeof UpdateUserRequest>;

/** `UpdateUserResponse`: the whole user after the update. */
export const UpdateUserResponse = lazySchema(() => z.looseObject({ user: built(User) }));
export type UpdateUserResponse = z.output<typeof UpdateUserResponse>;

/** `RevokeUserRightsRequest`: `userId` must equal the path's user id. */
export const RevokeUserRightsRequest = lazySchema(() => z.looseObject({
  userId: z.string(),
  rights: z.array(built(Right)).nullish(),
  identityProviderId: z.string().nullish(),
}));
export type RevokeUserRightsRequest = z.input<typeof RevokeUserRightsRequest>;

/** `RevokeUserRightsResponse`: only the rights the user actually had. */
export const RevokeUserRightsResponse = lazySchema(() => z.looseObject({
  newlyRevokedRights: z.array(built(Right)).nullish(),
}));
export type RevokeUserRightsResponse = z.output<typeof RevokeUserRightsResponse>;

/** `GrantUserRightsRequest`. */
export const GrantUserRightsRequest = lazySchema(() => z.looseObject({
  userId: z.string(),
  rights: z.array(built(Right)).nullish(),
  identityProviderId: z.string().nullish(),
}));
export type GrantUserRightsRequest = z.input<typeof GrantUserRightsRequest>;

/** `GrantUserRightsResponse`. */
export const GrantUserRightsResponse = lazySchema(() => z.looseObject({
  newlyGrantedRights: z.array(built(Right)).nullish(),
}));
export type GrantUserRightsResponse = z.output<typeof GrantUserRightsResponse>;

/** `ListUserRightsResponse`. */
export const ListUserRightsResponse = lazySchema(() => z.looseObject({ rights: z.array(built(Right)).nullish() }));
export type ListUserRightsResponse = z.output<typeof ListUserRightsResponse>;

/** `CreateUserRequest`. */
export const CreateUserRequest = lazySchema(() => z.looseObject({ user: built(User), rights: z.array(built(Right)).nullish() }));
export type CreateUserRequest = z.input<typeof CreateUserRequest>;

/** `CreateUserResponse`. */
export const CreateUserResponse = lazySchema(() => z.looseObject({ user: built(User) }));
export type CreateUserResponse = z.output<typeof CreateUserResponse>;

/** `GetUserResponse`. */
export const GetUserResponse = lazySchema(() => z.looseObject({ user: built(User) }));
export type GetUserResponse = z.output<typeof GetUserResponse>;
