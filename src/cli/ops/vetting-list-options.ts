import type { SourceOptions } from '../options/source-options.js';

/** Options of `runVettingList` (`ledger-rx vetting list`). Empty filters match everything. */
export interface VettingListOptions {
  readonly source: SourceOptions;
  readonly packageIds?: readonly string[] | undefined;
  readonly packageNamePrefixes?: readonly string[] | undefined;
  readonly participantIds?: readonly string[] | undefined;
  readonly synchronizerIds?: readonly string[] | undefined;
  /** One `VettedPackages` JSON document per line instead of the table. */
  readonly json?: boolean | undefined;
}
