import type { VettedPackagesRef } from '../../schemas/vetting.js';
import type { SourceOptions } from '../options/source-options.js';

/** The force flags of a vetting change, by their command-line names. */
export type VettingForceFlag = 'allow-vet-incompatible-upgrades' | 'allow-unvetted-dependencies';

/** Options of `runVettingChange` (`ledger-rx vetting vet|unvet`). */
export interface VettingChangeOptions {
  readonly source: SourceOptions;
  readonly operation: 'vet' | 'unvet';
  readonly packages: readonly VettedPackagesRef[];
  /** `vet` only: the new validity window (omitted = unbounded). */
  readonly validFrom?: string | undefined;
  readonly validUntil?: string | undefined;
  /** Empty: the participant picks the synchronizer. */
  readonly synchronizerId?: string | undefined;
  /** The topology serial the state must have (`none`: no state yet); default: no check. */
  readonly expectSerial?: number | 'none' | undefined;
  readonly force?: readonly VettingForceFlag[] | undefined;
  /** Only check and preview the change. */
  readonly dryRun?: boolean | undefined;
  /** Which route: `update` (`/v2/package-vetting/update`) or `deprecated` (`/v2/package-vetting`, the client default). */
  readonly endpoint?: 'update' | 'deprecated' | undefined;
  /** Print the server's response as JSON instead of the diff. */
  readonly json?: boolean | undefined;
}
