import type { UserInput } from '../../schemas/index.js';

/** The user fields {@link fieldMask} reads: any part of a `User` request value. */
export type UserFields = { readonly [K in Exclude<keyof UserInput, 'metadata'>]?: UserInput[K] | undefined } & {
  readonly metadata?: { readonly annotations?: unknown; readonly resourceVersion?: unknown } | null | undefined;
};

const simplePaths = [
  ['primaryParty', 'primary_party'],
  ['isDeactivated', 'is_deactivated'],
  ['identityProviderId', 'identity_provider_id'],
  ['primaryPartyAuthentication', 'primary_party_authentication'],
] as const;

/**
 * The update mask for `PATCH /v2/users/{user-id}` that updates exactly the fields present in `user`.
 *
 * A field is present when it is not `undefined` (`null`, `""` and `false` count: an exact mask path sets
 * the field even to its default, e.g. `primaryParty: ""` clears the primary party). Paths are the server's
 * snake_case names: `primaryParty` → `primary_party`, `isDeactivated` → `is_deactivated`,
 * `identityProviderId` → `identity_provider_id`, `primaryPartyAuthentication` →
 * `primary_party_authentication`, `metadata.annotations` → `metadata.annotations`. `id` is never included
 * (it identifies the user), nor is `metadata.resourceVersion` (it is a precondition the server reads from
 * the body regardless of the mask). Paths come in the order above, each at most once.
 *
 * ## Example
 * ```ts
 * const user = { id: 'alice', primaryParty: 'Alice::1220…', metadata: { annotations: { team: 'blue' } } };
 * await client.updateUser('alice', { user, updateMask: fieldMask(user) }); // paths: primary_party, metadata.annotations
 * ```
 *
 * @returns `{ paths }`; may be empty (which the client then rejects as an update request).
 */
export function fieldMask(user: UserFields): { paths: string[] } {
  const paths: string[] = [];
  for (const [key, path] of simplePaths) {
    if (user[key] !== undefined) paths.push(path);
  }
  if (user.metadata != null && user.metadata.annotations !== undefined) paths.push('metadata.annotations');
  return { paths };
}
