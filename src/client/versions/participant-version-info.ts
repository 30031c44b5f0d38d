import type { VersionedOperationName } from './participant-version-table.js';

/** What `LedgerClient.participantVersion` resolves with. */
export interface ParticipantVersionInfo {
  /** The version string the participant reported (or the `participantVersion` option). */
  readonly version: string;
  /**
   * True when the participant has `operation` (docs/participant-versions.md: `updatesPage`,
   * `activeContractsPage`, `commandCompletions`, `updateByHash`, `completionByHash`, `vettingUpdate`,
   * `vettingUpdateAlias`). A version string without three leading numbers counts as having everything.
   */
  supports(operation: VersionedOperationName): boolean;
}
