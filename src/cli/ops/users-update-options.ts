import type { SourceOptions } from '../options/source-options.js';

/**
 * Options of `runUsersUpdate` (`ledger-rx users update USER`). Only the fields given are updated (the
 * update mask is built with `fieldMask`).
 */
export interface UsersUpdateOptions {
  readonly source: SourceOptions;
  readonly userId: string;
  /** The new primary party; `""` clears it. */
  readonly primaryParty?: string | undefined;
  readonly deactivated?: boolean | undefined;
  /** Annotations to set; a key with an empty value is removed (the server's merge rule). */
  readonly annotations?: Readonly<Record<string, string>> | undefined;
  /** The resource version the user must have (optimistic concurrency); default: no check. */
  readonly resourceVersion?: string | undefined;
  readonly identityProviderId?: string | undefined;
}
