import { array, boolean, empty, json, map, object, optional, string, variant, withDefault, wrapped } from '../decode/decoders.js';
import { dictionary } from '../decode/dictionary.js';
import type { ApiVersionProfile } from '../version/api-version-profile.js';

const partyRight = wrapped(object({ party: withDefault(string, () => '') }));
const unitRight = wrapped(empty);

const kinds = {
  CanActAs: partyRight,
  CanReadAs: partyRight,
  CanExecuteAs: partyRight,
  CanActAsAnyParty: unitRight,
  CanReadAsAnyParty: unitRight,
  CanExecuteAsAnyParty: unitRight,
  ParticipantAdmin: unitRight,
  IdentityProviderAdmin: unitRight,
  Empty: empty,
};

const right = object({ kind: withDefault(variant('Kind', kinds), () => ({ kind: 'Empty' as const, value: {} })) });

/** `Right` before 3.6, whose `Kind` has no `CanActAsAnyParty` (an unknown alternative: a decode failure). */
const { CanActAsAnyParty: _added36, ...kindsBefore36 } = kinds;
const rightBefore36 = object({ kind: withDefault(variant('Kind', kindsBefore36), () => ({ kind: 'Empty' as const, value: {} })) });

const user = object({
  id: withDefault(string, () => ''),
  primaryParty: withDefault(string, () => ''),
  isDeactivated: withDefault(boolean, () => false),
  metadata: optional(object({ resourceVersion: withDefault(string, () => ''), annotations: withDefault(map(string), () => dictionary<string>()) })),
  identityProviderId: withDefault(string, () => ''),
  primaryPartyAuthentication: withDefault(boolean, () => false),
});

const rights = withDefault(array(right), () => []);
const rightsBefore36 = withDefault(array(rightBefore36), () => []);

/** A decoded `Right`: its kind (`Empty` when missing) and payload. */
export type RightInput = ReturnType<typeof right>;
/** A decoded `User`, relaxed-codec defaults applied. */
export type UserInput = ReturnType<typeof user>;

/**
 * Decoders of the user-management request bodies, with the server's relaxed codec: scalar fields default
 * to their protobuf default when missing, message fields (`user`, `metadata`, `updateMask`) may be missing
 * or `null`, a right without `kind` is `Empty`; wrapper alternatives need their `value`
 * (`{"ParticipantAdmin": {"value": {}}}`), an unknown right kind is a decode failure (400 text/plain).
 *
 * - `createUser`: `CreateUserRequest` `{user, rights}`;
 * - `updateUser`: `UpdateUserRequest` `{user, updateMask: {paths}}`;
 * - `rightsChange`: `GrantUserRightsRequest` / `RevokeUserRightsRequest` `{userId, rights, identityProviderId}`.
 *
 * The right kind `CanActAsAnyParty` exists from 3.6 on: {@link userRequestDecodersFor} gives the decoders
 * of a release line (docs/participant-versions.md).
 */
export const userRequestDecoders = {
  createUser: object({ user: optional(user), rights }),
  updateUser: object({
    user: optional(user),
    updateMask: optional(object({ paths: withDefault(array(string), () => []), unknownFields: optional(json) })),
  }),
  rightsChange: object({ userId: withDefault(string, () => ''), rights, identityProviderId: withDefault(string, () => '') }),
} as const;

const decodersBefore36: typeof userRequestDecoders = {
  ...userRequestDecoders,
  createUser: object({ user: optional(user), rights: rightsBefore36 }),
  rightsChange: object({ userId: withDefault(string, () => ''), rights: rightsBefore36, identityProviderId: withDefault(string, () => '') }),
};

/** The user-management decoders of the release line `api` serves. */
export function userRequestDecodersFor(api: ApiVersionProfile): typeof userRequestDecoders {
  return api.canActAsAnyParty ? userRequestDecoders : decodersBefore36;
}
