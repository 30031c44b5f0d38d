import { array, boolean, empty, json, map, object, optional, string, variant, withDefault, wrapped } from '../decode/decoders.js';
import { dictionary } from '../decode/dictionary.js';

const partyRight = wrapped(object({ party: withDefault(string, () => '') }));
const unitRight = wrapped(empty);

const right = object({
  kind: withDefault(
    variant('Kind', {
      CanActAs: partyRight,
      CanReadAs: partyRight,
      CanExecuteAs: partyRight,
      CanActAsAnyParty: unitRight,
      CanReadAsAnyParty: unitRight,
      CanExecuteAsAnyParty: unitRight,
      ParticipantAdmin: unitRight,
      IdentityProviderAdmin: unitRight,
      Empty: empty,
    }),
    () => ({ kind: 'Empty' as const, value: {} }),
  ),
});

const user = object({
  id: withDefault(string, () => ''),
  primaryParty: withDefault(string, () => ''),
  isDeactivated: withDefault(boolean, () => false),
  metadata: optional(object({ resourceVersion: withDefault(string, () => ''), annotations: withDefault(map(string), () => dictionary<string>()) })),
  identityProviderId: withDefault(string, () => ''),
  primaryPartyAuthentication: withDefault(boolean, () => false),
});

const rights = withDefault(array(right), () => []);

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
 */
export const userRequestDecoders = {
  createUser: object({ user: optional(user), rights }),
  updateUser: object({
    user: optional(user),
    updateMask: optional(object({ paths: withDefault(array(string), () => []), unknownFields: optional(json) })),
  }),
  rightsChange: object({ userId: withDefault(string, () => ''), rights, identityProviderId: withDefault(string, () => '') }),
} as const;
