import type { Migration } from './migration.js';

/**
 * Version 8: a stream's scope and its changes (docs/query-store.md, "Scope changes"): `ledger_rx_stream_scopes`
 * (the parties, templates and interfaces the stream stores now, written with its first commit and by every change)
 * and `ledger_rx_scope_changes` (one row per change: at which offset, from what to what, how many contracts the
 * backfill stored and the narrowing removed from `active_contracts`).
 */
export const scopeMigration: Migration = {
  version: 8,
  name: 'the query store: stream scopes and their changes',
  statements: [
    `CREATE TABLE ledger_rx_stream_scopes (
       stream_name text PRIMARY KEY,
       scope jsonb NOT NULL,
       updated_at timestamptz NOT NULL)`,
    `CREATE TABLE ledger_rx_scope_changes (
       stream_name text NOT NULL,
       ledger_offset bigint NOT NULL,
       scope_before jsonb,
       scope_after jsonb NOT NULL,
       backfilled bigint NOT NULL,
       removed bigint NOT NULL,
       changed_at timestamptz NOT NULL)`,
  ],
};
