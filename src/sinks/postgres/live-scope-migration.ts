import type { Migration } from './migration.js';

/**
 * Version 11: live scope changes (docs/query-store.md, "Scope changes without a re-seed"). On
 * `ledger_rx_stream_scopes`: `wanted` (the scope a `ledger-rx store scope` or `requestScopeChange` asked for and the
 * running ingester has not applied yet; `NULL`: none pending) and `wanted_at`; `flags` (the scope of the `--party` /
 * `--template` / `--interface` flags of the start that last set the scope, so a restart with the same flags keeps a
 * scope changed live, and one with other flags sets it as before).
 */
export const liveScopeMigration: Migration = {
  version: 11,
  name: 'the query store: live scope changes',
  statements: [`ALTER TABLE ledger_rx_stream_scopes ADD COLUMN wanted jsonb, ADD COLUMN wanted_at timestamptz, ADD COLUMN flags jsonb`],
};
