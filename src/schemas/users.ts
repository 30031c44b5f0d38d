import { z } from 'zod';
import { Empty, FieldMask, ObjectMeta } from './common.js';
import { variant, wrapped } from './variant.js';

/** `CanActAs` (payload). */
export const CanActAs = z.looseObject({ party: z.string() });
/** `CanReadAs` (payload). */
export const CanReadAs = z.looseObject({ party: z.string() });
/** `CanExecuteAs` (payload). */
export const CanExecuteAs = z.looseObject({ party: z.string() });
/** `CanActAsAnyParty` (payload). */
export const CanActAsAnyParty = z.looseObject({});
/** `CanReadAsAnyParty` (payload). */
export const CanReadAsAnyParty = z.looseObject({});
/** `CanExecuteAsAnyParty` (payload). */
export const CanExecuteAsAnyParty = z.looseObject({});
/** `ParticipantAdmin` (payload). */
export const ParticipantAdmin = z.looseObject({});
/** `IdentityProviderAdmin` (payload). */
export const IdentityProviderAdmin = z.looseObject({});

/** The eight kinds of right, plus `Empty`; each wraps its payload in `"value"`. */
export const kindCases = {
  CanActAs: wrapped(CanActAs),
  CanActAsAnyParty: wrapped(CanActAsAnyParty),
  CanExecuteAs: wrapped(CanExecuteAs),
  CanExecuteAsAnyParty: wrapped(CanExecuteAsAnyParty),
  CanReadAs: wrapped(CanReadAs),
  CanReadAsAnyParty: wrapped(CanReadAsAnyParty),
  Empty,
  IdentityProviderAdmin: wrapped(IdentityProviderAdmin),
  ParticipantAdmin: wrapped(ParticipantAdmin),
};

/** `Kind`: the kind of a right; unknown kinds from a newer server are kept as {@link UnknownVariant}. */
export const Kind = variant('Kind', kindCases, { open: true });
export type Kind = z.output<typeof Kind>;

/** `Right`. */
export const Right = z.looseObject({ kind: Kind.nullish() });
export type Right = z.output<typeof Right>;
/** A right as a request field. */
export type RightInput = z.input<typeof Right>;

/** `User`. `primaryParty` and `identityProviderId` are `""` when unset. */
export const User = z.looseObject({
  id: z.string(),
  primaryParty: z.string().nullish(),
  isDeactivated: z.boolean().nullish(),
  metadata: ObjectMeta.nullish(),
  identityProviderId: z.string().nullish(),
  primaryPartyAuthentication: z.boolean().nullish(),
});
export type User = z.output<typeof User>;
/** A user as a request field. */
export type UserInput = z.input<typeof User>;

/** `UpdateUserRequest`: `updateMask.paths` use snake_case field names (see `fieldMask`). */
export const UpdateUserRequest = z.looseObject({
  user: User,
  updateMask: FieldMask,
});
export type UpdateUserRequest = z.input<typeof UpdateUserRequest>;

/** `UpdateUserResponse`: the whole user after the update. */
export const UpdateUserResponse = z.looseObject({ user: User });
export type UpdateUserResponse = z.output<typeof UpdateUserResponse>;

/** `RevokeUserRightsRequest`: `userId` must equal the path's user id. */
export const RevokeUserRightsRequest = z.looseObject({
  userId: z.string(),
  rights: z.array(Right).nullish(),
  identityProviderId: z.string().nullish(),
});
export type RevokeUserRightsRequest = z.input<typeof RevokeUserRightsRequest>;

/** `RevokeUserRightsResponse`: only the rights the user actually had. */
export const RevokeUserRightsResponse = z.looseObject({
  newlyRevokedRights: z.array(Right).nullish(),
});
export type RevokeUserRightsResponse = z.output<typeof RevokeUserRightsResponse>;

/** `GrantUserRightsRequest`. */
export const GrantUserRightsRequest = z.looseObject({
  userId: z.string(),
  rights: z.array(Right).nullish(),
  identityProviderId: z.string().nullish(),
});
export type GrantUserRightsRequest = z.input<typeof GrantUserRightsRequest>;

/** `GrantUserRightsResponse`. */
export const GrantUserRightsResponse = z.looseObject({
  newlyGrantedRights: z.array(Right).nullish(),
});
export type GrantUserRightsResponse = z.output<typeof GrantUserRightsResponse>;

/** `ListUserRightsResponse`. */
export const ListUserRightsResponse = z.looseObject({ rights: z.array(Right).nullish() });
export type ListUserRightsResponse = z.output<typeof ListUserRightsResponse>;

/** `CreateUserRequest`. */
export const CreateUserRequest = z.looseObject({ user: User, rights: z.array(Right).nullish() });
export type CreateUserRequest = z.input<typeof CreateUserRequest>;

/** `CreateUserResponse`. */
export const CreateUserResponse = z.looseObject({ user: User });
export type CreateUserResponse = z.output<typeof CreateUserResponse>;

/** `GetUserResponse`. */
export const GetUserResponse = z.looseObject({ user: User });
export type GetUserResponse = z.output<typeof GetUserResponse>;
