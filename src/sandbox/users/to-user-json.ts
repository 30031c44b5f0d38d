import { dictionary } from '../decode/dictionary.js';
import type { UserRecord } from '../state/users-store.js';
import type { ApiVersionProfile } from '../version/api-version-profile.js';

/** A `User` as the server answers it. */
export interface UserJson {
  readonly id: string;
  readonly primaryParty: string;
  readonly isDeactivated: boolean;
  readonly metadata: { readonly resourceVersion: string; readonly annotations: Record<string, string> };
  readonly identityProviderId: string;
  /** From 3.5 on (docs/participant-versions.md). */
  readonly primaryPartyAuthentication?: boolean;
}

/**
 * Renders a user with every field present, as the server does (docs/server-behavior.md#user-rendering): `primaryParty` `""`
 * when none, `identityProviderId` `""` for the default IDP, `metadata.resourceVersion` as a decimal string,
 * `annotations` `{}` when none; `primaryPartyAuthentication` from 3.5 on.
 */
export function toUserJson(user: UserRecord, api: ApiVersionProfile): UserJson {
  return {
    id: user.id,
    primaryParty: user.primaryParty,
    isDeactivated: user.isDeactivated,
    metadata: { resourceVersion: String(user.resourceVersion), annotations: dictionary(Object.entries(user.annotations)) },
    identityProviderId: user.identityProviderId,
    ...(api.fieldsOf35 ? { primaryPartyAuthentication: user.primaryPartyAuthentication } : {}),
  };
}
