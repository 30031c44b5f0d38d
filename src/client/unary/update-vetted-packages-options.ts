import type { CallOptions } from '../call-options.js';

/** Options of {@link LedgerClient.updateVettedPackages}. */
export interface UpdateVettedPackagesOptions extends CallOptions {
  /**
   * Which route to send to: `'deprecated'` (default) is `POST /v2/package-vetting`, the alias that servers
   * up to Canton 3.6 snapshots of July 2026 serve; `'update'` is `POST /v2/package-vetting/update`, the
   * route that replaces it. Both run the same server logic.
   */
  readonly endpoint?: 'deprecated' | 'update' | undefined;
}
