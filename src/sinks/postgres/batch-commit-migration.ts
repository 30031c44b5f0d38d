import type { Migration } from './migration.js';

/**
 * The first statement of every batch's transaction: locks the stream's checkpoint row (making it at -1 for a new
 * stream, so that concurrent writers of a new stream serialize too), and
 *
 * - when it already stands at or beyond `position` (the batch was stored before), raises `LRX01` with the stored
 *   offset as its DETAIL, so that the rest of the batch is not written;
 * - when it stands anywhere but at `after`, where the batch starts (another writer stored part of it), raises
 *   `LRX02`, the same way;
 * - else moves it to `position` with `times` and `updated`, and notifies `channel` with the offset (delivered when
 *   the transaction commits).
 */
const moveCheckpoint = `CREATE FUNCTION ledger_rx_move_checkpoint(stream text, after bigint, "position" bigint, times jsonb, updated timestamptz, channel text)
RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  stored bigint;
BEGIN
  INSERT INTO ledger_rx_checkpoints (stream_name, ledger_offset, updated_at) VALUES (stream, -1, now()) ON CONFLICT (stream_name) DO NOTHING;
  SELECT ledger_offset INTO stored FROM ledger_rx_checkpoints WHERE stream_name = stream FOR UPDATE;
  IF stored >= "position" THEN
    RAISE EXCEPTION 'stream % is stored up to offset %', quote_literal(stream), stored USING ERRCODE = 'LRX01', DETAIL = stored::text;
  END IF;
  IF stored <> after THEN
    RAISE EXCEPTION 'the checkpoint of stream % is at %, not at % where the batch starts', quote_literal(stream), stored, after
      USING ERRCODE = 'LRX02', DETAIL = stored::text;
  END IF;
  UPDATE ledger_rx_checkpoints SET ledger_offset = "position", synchronizer_times = times, updated_at = updated WHERE stream_name = stream;
  PERFORM pg_notify(channel, "position"::text);
END $$`;

/**
 * Version 12 (ingest throughput; docs/ingest.md): what lets a batch be written as one script, in one round trip
 * (`PostgresSink`):
 *
 * - `ledger_rx_move_checkpoint`, the checkpoint's compare-and-move and the commit's notification in one call;
 * - the statement triggers of version 5 that noted the templates and choices of the rows inserted into
 *   `created_events`, `exercised_events` and `reassignment_events` are dropped: their transition tables kept a
 *   copy of every inserted row (payloads included) for a statement that usually found nothing new. The sink notes
 *   the templates and choices of each batch itself, in the batch's transaction (only those it has not noted since
 *   it started). The trigger on `ledger_rx_snapshot_contracts` stays.
 */
export const batchCommitMigration: Migration = {
  version: 12,
  name: 'ingest: one script per batch (checkpoint function; templates noted by the sink)',
  statements: [
    moveCheckpoint,
    'DROP TRIGGER created_events_templates ON created_events',
    'DROP TRIGGER reassignment_events_templates ON reassignment_events',
    'DROP TRIGGER exercised_events_choices ON exercised_events',
  ],
};
