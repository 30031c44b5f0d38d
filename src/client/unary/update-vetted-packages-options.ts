import type { CallOptions } from '../call-options.js';

/** Options of {@link LedgerClient.updateVettedPackages}. */
export interface UpdateVettedPackagesOptions extends CallOptions {
  /**
   * Which route to send to: `'update'` is `POST /v2/package-vetting/update` (participants 3.4.12 and later),
   * `'deprecated'` is `POST /v2/package-vetting`, the alias that participants before 3.6 serve. Both run the
   * same server logic. Default: `'update'` where the participant's version has it, else `'deprecated'`
   * (docs/participant-versions.md); a route the version lacks rejects with
   * `UnsupportedByParticipantVersionError` before sending.
   */
  readonly endpoint?: 'deprecated' | 'update' | undefined;
}
