import type { SourceOptions } from '../options/source-options.js';

/** Options of `runUsersRevoke` (`ledger-rx users revoke USER`): the rights to revoke. */
export interface UsersRevokeOptions {
  readonly source: SourceOptions;
  readonly userId: string;
  readonly actAs?: readonly string[] | undefined;
  readonly readAs?: readonly string[] | undefined;
  readonly executeAs?: readonly string[] | undefined;
  readonly actAsAnyParty?: boolean | undefined;
  readonly readAsAnyParty?: boolean | undefined;
  readonly executeAsAnyParty?: boolean | undefined;
  readonly participantAdmin?: boolean | undefined;
  readonly identityProviderAdmin?: boolean | undefined;
  readonly identityProviderId?: string | undefined;
}
