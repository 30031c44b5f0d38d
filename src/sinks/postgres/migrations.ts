import { batchCommitMigration } from './batch-commit-migration.js';
import type { Migration } from './migration.js';
import { inlinedQueriesMigration } from './inlined-queries-migration.js';
import { liveScopeMigration } from './live-scope-migration.js';
import { maintenanceMigration } from './maintenance-migration.js';
import { queryPlansMigration } from './query-plans-migration.js';
import { queryStoreMigration } from './query-store-migration.js';
import { scopeMigration } from './scope-migration.js';
import { typedViewsMigration } from './typed-views-migration.js';
import { updateIdIndexMigration } from './update-id-index-migration.js';

/**
 * The migrations of the ingestion schema, oldest first. Version 1 creates:
 *
 * - `ledger_rx_checkpoints`: one row per stream name (the `PostgresCheckpointStore` table; created here so
 *   concurrent starts never race on it);
 * - `updates`: one row per update (offset, update id, kind `transaction` | `reassignment` |
 *   `topology_transaction` | `unknown`, record time, synchronizer, command and workflow id, effective time,
 *   and the element as the server sent it, as jsonb until version 3, json since);
 * - `created_events` (both shapes), `archived_events` (ACS-delta shape), `exercised_events`
 *   (ledger-effects shape), `reassignment_events` (assignments and unassignments): one row per event,
 *   keyed by (stream, offset, node id);
 * - `active_contracts`: the active contract set of the stream's filter, kept up to date by every batch.
 *
 * Every table has a `stream_name` column, so several streams (filters) can share a database.
 *
 * Version 2 (a stream may start from the active-contract snapshot, see `PostgresSink.bootstrap`):
 *
 * - `active_contracts.origin`: `update` (made active by a create or an assignment stored in the event
 *   tables; every row written before version 2) or `snapshot` (taken from the snapshot: its create is not in
 *   the event tables, it happened at or before the snapshot's offset, possibly before the pruning offset);
 * - `ledger_rx_snapshots`: one row per stream that started from a snapshot: its offset, the contracts it
 *   stored, the incomplete unassignments it skipped (their assignment comes as an update), and when.
 *
 * Version 3 (ingest throughput): `updates.element` is `json`, not `jsonb`: the element's text as the server
 * sent it, checked to be JSON but not converted into `jsonb`'s binary form, which cost PostgreSQL ~20 µs of
 * CPU per 1.6 KB element on every insert (the largest single cost of an ingested update). Queries keep
 * working with `->`, `->>`, `#>`, `#>>` and the `json_*` functions; the `jsonb`-only operators (`@>`, `?`,
 * `jsonb_path_query`, …) need `element::jsonb`. The rows written before it keep `jsonb`'s normalized text
 * (keys reordered, whitespace dropped); the upgrade rewrites the table once.
 *
 * Version 4 (ingest throughput): where the server has lz4 (`default_toast_compression` offers it; PGlite
 * does not), the columns that hold large JSON — `updates.element`, `created_events.create_argument`,
 * `active_contracts.create_argument`, `exercised_events.choice_argument` and `exercise_result` — compress
 * with lz4 instead of pglz when PostgreSQL moves a value of over ~2 KB out of line: a 5-event transaction's
 * element (~7 KB) cost ~80 µs to compress with pglz and ~35 µs with lz4, at about the same size. Only values
 * written afterwards are affected (no rewrite); reads decompress either.
 *
 * Version 5 (`queryStoreMigration`): the query store's SQL functions with PQS's names (`active`, `creates`,
 * `archives`, `exercises`, `lookup_contract`, `nearest_offset`, `latest_offset`, `oldest_offset`; see
 * docs/query-store.md) and the tables they read besides the event tables.
 *
 * Version 6 (`maintenanceMigration`): `ledger_rx_prune_archived_before` and `ledger_rx_redact_contract`, which
 * `ledger-rx store prune` and `store redact` call.
 *
 * Version 7 (`typedViewsMigration`): the interface views of created events (`ledger_rx_interface_views`) and the
 * catalog of the typed views `ingest --dar` creates (`ledger_rx_typed_views`; docs/query-store.md, "Typed views").
 *
 * Version 8 (`scopeMigration`): a stream's scope (`ledger_rx_stream_scopes`) and its changes
 * (`ledger_rx_scope_changes`; docs/query-store.md, "Scope changes").
 *
 * Version 9 (`queryPlansMigration`): `active`, `creates` and `archives` resolve their name, stream and offsets
 * once, before their query (10^6-contract stores: benchmarks/store-query).
 *
 * Version 10 (`inlinedQueriesMigration`): an interface's name gives its stored views in `active`, `creates`,
 * `archives` and `lookup_contract`, and those are SQL functions the planner inlines into the caller's query (the
 * name and offsets resolved once, their errors raised before any row).
 *
 * Version 11 (`liveScopeMigration`): the scope a running stream is asked to change to (`wanted`) and the scope of
 * the flags that last set it (`flags`; docs/query-store.md, "Scope changes without a re-seed").
 *
 * Version 12 (`batchCommitMigration`, ingest throughput): `ledger_rx_move_checkpoint` (a batch's checkpoint
 * compare-and-move and notification in one call, so the batch is one script sent in one round trip) and the
 * sink noting templates and choices instead of statement triggers (docs/ingest.md).
 *
 * Version 13 (`updateIdIndexMigration`, ingest throughput): the index on `updates.update_id`, which nothing of the
 * store reads, is dropped (docs/ingest.md, "What PostgreSQL spends per update").
 */
export const migrations: readonly Migration[] = [
  {
    version: 1,
    name: 'create the ingestion tables',
    statements: [
      `CREATE TABLE IF NOT EXISTS ledger_rx_checkpoints (
         stream_name text PRIMARY KEY,
         ledger_offset bigint NOT NULL,
         synchronizer_times jsonb NOT NULL DEFAULT '[]'::jsonb,
         updated_at timestamptz NOT NULL)`,
      `CREATE TABLE updates (
         stream_name text NOT NULL,
         ledger_offset bigint NOT NULL,
         update_id text NOT NULL,
         kind text NOT NULL,
         record_time timestamptz,
         synchronizer_id text,
         command_id text,
         workflow_id text,
         effective_at timestamptz,
         element jsonb NOT NULL,
         PRIMARY KEY (stream_name, ledger_offset))`,
      `CREATE INDEX updates_update_id ON updates (update_id)`,
      `CREATE TABLE created_events (
         stream_name text NOT NULL,
         ledger_offset bigint NOT NULL,
         node_id integer NOT NULL,
         contract_id text NOT NULL,
         template_id text NOT NULL,
         package_name text NOT NULL,
         create_argument jsonb NOT NULL,
         contract_key jsonb,
         signatories text[] NOT NULL,
         observers text[] NOT NULL,
         witness_parties text[] NOT NULL,
         created_at timestamptz,
         acs_delta boolean NOT NULL,
         PRIMARY KEY (stream_name, ledger_offset, node_id))`,
      `CREATE INDEX created_events_contract_id ON created_events (contract_id)`,
      `CREATE TABLE archived_events (
         stream_name text NOT NULL,
         ledger_offset bigint NOT NULL,
         node_id integer NOT NULL,
         contract_id text NOT NULL,
         template_id text NOT NULL,
         package_name text NOT NULL,
         witness_parties text[] NOT NULL,
         PRIMARY KEY (stream_name, ledger_offset, node_id))`,
      `CREATE INDEX archived_events_contract_id ON archived_events (contract_id)`,
      `CREATE TABLE exercised_events (
         stream_name text NOT NULL,
         ledger_offset bigint NOT NULL,
         node_id integer NOT NULL,
         contract_id text NOT NULL,
         template_id text NOT NULL,
         interface_id text,
         package_name text NOT NULL,
         choice text NOT NULL,
         choice_argument jsonb NOT NULL,
         acting_parties text[] NOT NULL,
         consuming boolean NOT NULL,
         witness_parties text[] NOT NULL,
         last_descendant_node_id integer NOT NULL,
         exercise_result jsonb,
         acs_delta boolean NOT NULL,
         PRIMARY KEY (stream_name, ledger_offset, node_id))`,
      `CREATE INDEX exercised_events_contract_id ON exercised_events (contract_id)`,
      `CREATE TABLE reassignment_events (
         stream_name text NOT NULL,
         ledger_offset bigint NOT NULL,
         node_id integer NOT NULL,
         kind text NOT NULL,
         reassignment_id text NOT NULL,
         contract_id text NOT NULL,
         template_id text NOT NULL,
         package_name text NOT NULL,
         source_synchronizer text NOT NULL,
         target_synchronizer text NOT NULL,
         reassignment_counter bigint NOT NULL,
         submitter text,
         witness_parties text[] NOT NULL,
         PRIMARY KEY (stream_name, ledger_offset, node_id))`,
      `CREATE TABLE active_contracts (
         stream_name text NOT NULL,
         contract_id text NOT NULL,
         template_id text NOT NULL,
         package_name text NOT NULL,
         create_argument jsonb NOT NULL,
         contract_key jsonb,
         signatories text[] NOT NULL,
         observers text[] NOT NULL,
         created_offset bigint NOT NULL,
         created_at timestamptz,
         synchronizer_id text NOT NULL,
         reassignment_counter bigint NOT NULL,
         PRIMARY KEY (stream_name, contract_id))`,
      `CREATE INDEX active_contracts_template ON active_contracts (stream_name, template_id)`,
    ],
  },
  {
    version: 2,
    name: 'streams that start from the active-contract snapshot',
    statements: [
      `ALTER TABLE active_contracts ADD COLUMN origin text NOT NULL DEFAULT 'update' CHECK (origin IN ('update', 'snapshot'))`,
      `CREATE TABLE ledger_rx_snapshots (
         stream_name text PRIMARY KEY,
         snapshot_offset bigint NOT NULL,
         contracts bigint NOT NULL,
         incomplete_unassigned bigint NOT NULL,
         taken_at timestamptz NOT NULL)`,
    ],
  },
  {
    version: 3,
    name: 'updates.element as json (stored as sent, not parsed into jsonb)',
    statements: [`ALTER TABLE updates ALTER COLUMN element TYPE json USING element::json`],
  },
  {
    version: 4,
    name: 'lz4 for the large json columns, where the server has it',
    statements: [
      `DO $$
       BEGIN
         IF EXISTS (SELECT 1 FROM pg_settings WHERE name = 'default_toast_compression' AND 'lz4' = ANY (enumvals)) THEN
           ALTER TABLE updates ALTER COLUMN element SET COMPRESSION lz4;
           ALTER TABLE created_events ALTER COLUMN create_argument SET COMPRESSION lz4;
           ALTER TABLE active_contracts ALTER COLUMN create_argument SET COMPRESSION lz4;
           ALTER TABLE exercised_events ALTER COLUMN choice_argument SET COMPRESSION lz4, ALTER COLUMN exercise_result SET COMPRESSION lz4;
         END IF;
       END $$`,
    ],
  },
  queryStoreMigration,
  maintenanceMigration,
  typedViewsMigration,
  scopeMigration,
  queryPlansMigration,
  inlinedQueriesMigration,
  liveScopeMigration,
  batchCommitMigration,
  updateIdIndexMigration,
];
