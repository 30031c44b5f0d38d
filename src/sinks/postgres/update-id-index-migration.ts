import type { Migration } from './migration.js';

/**
 * Version 13 (ingest throughput; docs/ingest.md, "What PostgreSQL spends per update"): the index
 * `updates (update_id)` of version 1 is dropped. No function, view or command of the store reads updates by id (the
 * query functions join `updates` by its key, stream and offset), and it was the costliest of the b-trees an update
 * writes: a random 68-character key per update, about 4 µs of PostgreSQL's ~40 µs per 1-event update. A user who
 * looks updates up by id creates it again (`CREATE INDEX ON updates (update_id)`); the docs say so.
 */
export const updateIdIndexMigration: Migration = {
  version: 13,
  name: 'ingest: no index on updates.update_id (nothing reads it; a b-tree insert per update)',
  statements: ['DROP INDEX IF EXISTS updates_update_id'],
};
