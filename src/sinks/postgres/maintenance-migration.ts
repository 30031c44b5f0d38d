import type { Migration } from './migration.js';

/**
 * `ledger_rx_prune_archived_before(stream, before)`: removes, for offsets below `before`, the contracts whose life
 * ended there with their events, every exercise, archive and unassignment there, and the updates left without an
 * event row; keeps the create (or assignment, or snapshot row) of every contract still active at `before - 1` and
 * its update; records `before` as the stream's pruning point (so `oldest_offset()` is `before`). Touches only rows
 * below `before` (never `active_contracts`, never the checkpoint row), so it takes no lock a running ingester
 * wants. Returns the counts of rows removed.
 */
const prune = `CREATE FUNCTION ledger_rx_prune_archived_before(s text, before bigint)
RETURNS TABLE (pruned_contracts bigint, pruned_creates bigint, pruned_archives bigint, pruned_exercises bigint, pruned_reassignments bigint, pruned_snapshot_rows bigint, pruned_updates bigint)
LANGUAGE plpgsql AS $$
DECLARE
  latest bigint;
  oldest bigint;
  n_created bigint;
  n_archived bigint;
  n_exercised bigint;
  n_reassignment bigint;
  n_snapshot bigint;
  n_updates bigint;
BEGIN
  SELECT ledger_offset INTO latest FROM ledger_rx_checkpoints WHERE stream_name = s;
  IF latest IS NULL THEN RAISE EXCEPTION 'the store holds no stream %', quote_literal(s) USING ERRCODE = '42704'; END IF;
  IF before > latest THEN
    RAISE EXCEPTION 'cannot prune before offset %: after the latest offset the store holds (%)', before, latest USING ERRCODE = '22023';
  END IF;
  oldest := greatest(coalesce((SELECT snapshot_offset FROM ledger_rx_snapshots WHERE stream_name = s), 0),
                     coalesce((SELECT pruned_before FROM ledger_rx_store_pruning WHERE stream_name = s), 0));
  IF before <= oldest THEN
    RETURN QUERY SELECT 0::bigint, 0::bigint, 0::bigint, 0::bigint, 0::bigint, 0::bigint, 0::bigint;
    RETURN;
  END IF;
  CREATE TEMP TABLE IF NOT EXISTS ledger_rx_pruned (contract_id text, activated_at bigint) ON COMMIT DROP;
  DELETE FROM ledger_rx_pruned;
  -- the lives that ended below the point
  INSERT INTO ledger_rx_pruned
    SELECT l.contract_id, l.activated_at FROM ledger_rx_contract_lives(s, NULL) l WHERE l.deactivated_at < before;
  WITH dc AS (
    DELETE FROM created_events c WHERE c.stream_name = s AND c.ledger_offset < before
       AND (NOT c.acs_delta OR EXISTS (SELECT 1 FROM ledger_rx_pruned p WHERE p.contract_id = c.contract_id AND p.activated_at = c.ledger_offset))
    RETURNING 1)
  SELECT count(*) INTO n_created FROM dc;
  WITH da AS (DELETE FROM archived_events a WHERE a.stream_name = s AND a.ledger_offset < before RETURNING 1)
  SELECT count(*) INTO n_archived FROM da;
  WITH de AS (DELETE FROM exercised_events e WHERE e.stream_name = s AND e.ledger_offset < before RETURNING 1)
  SELECT count(*) INTO n_exercised FROM de;
  WITH dr AS (
    DELETE FROM reassignment_events r WHERE r.stream_name = s AND r.ledger_offset < before
       AND (r.kind = 'unassign' OR EXISTS (SELECT 1 FROM ledger_rx_pruned p WHERE p.contract_id = r.contract_id AND p.activated_at = r.ledger_offset))
    RETURNING 1)
  SELECT count(*) INTO n_reassignment FROM dr;
  WITH ds AS (
    DELETE FROM ledger_rx_snapshot_contracts sc WHERE sc.stream_name = s
       AND EXISTS (SELECT 1 FROM ledger_rx_pruned p WHERE p.contract_id = sc.contract_id AND p.activated_at = sc.created_offset)
    RETURNING 1)
  SELECT count(*) INTO n_snapshot FROM ds;
  -- then the updates below the point that no kept create or assignment needs
  WITH du AS (
    DELETE FROM updates u WHERE u.stream_name = s AND u.ledger_offset < before
       AND NOT EXISTS (SELECT 1 FROM created_events c WHERE c.stream_name = s AND c.ledger_offset = u.ledger_offset)
       AND NOT EXISTS (SELECT 1 FROM reassignment_events r WHERE r.stream_name = s AND r.ledger_offset = u.ledger_offset)
    RETURNING 1)
  SELECT count(*) INTO n_updates FROM du;
  INSERT INTO ledger_rx_store_pruning (stream_name, pruned_before, pruned_at) VALUES (s, before, now())
    ON CONFLICT (stream_name) DO UPDATE SET pruned_before = EXCLUDED.pruned_before, pruned_at = EXCLUDED.pruned_at;
  RETURN QUERY SELECT (SELECT count(*) FROM ledger_rx_pruned), n_created, n_archived, n_exercised, n_reassignment, n_snapshot, n_updates;
END $$`;

/** The element of an update with the create (or assignment) of `cid` stripped of its argument and key. */
const redactElement = `CREATE FUNCTION ledger_rx_redact_element(element json, cid text) RETURNS json LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE
    WHEN element::jsonb #> '{update,Transaction,value,events}' IS NOT NULL THEN
      jsonb_set(element::jsonb, '{update,Transaction,value,events}', (
        SELECT coalesce(jsonb_agg(CASE WHEN e #>> '{CreatedEvent,contractId}' = cid
                                       THEN jsonb_set(jsonb_set(e, '{CreatedEvent,createArgument}', 'null'), '{CreatedEvent,contractKey}', 'null')
                                       ELSE e END ORDER BY n), '[]'::jsonb)
          FROM jsonb_array_elements(element::jsonb #> '{update,Transaction,value,events}') WITH ORDINALITY x(e, n)))::json
    WHEN element::jsonb #> '{update,Reassignment,value,events}' IS NOT NULL THEN
      jsonb_set(element::jsonb, '{update,Reassignment,value,events}', (
        SELECT coalesce(jsonb_agg(CASE WHEN e #>> '{JsAssignmentEvent,createdEvent,contractId}' = cid
                                       THEN jsonb_set(jsonb_set(e, '{JsAssignmentEvent,createdEvent,createArgument}', 'null'), '{JsAssignmentEvent,createdEvent,contractKey}', 'null')
                                       ELSE e END ORDER BY n), '[]'::jsonb)
          FROM jsonb_array_elements(element::jsonb #> '{update,Reassignment,value,events}') WITH ORDINALITY x(e, n)))::json
    ELSE element END
$$`;

/**
 * `ledger_rx_redact_contract(stream, contract_id, redaction_id)`: for a contract that is not active at the latest
 * offset, nulls its create argument and key everywhere the store holds them (`created_events`, the snapshot copy,
 * and the creates and assignments inside the stored update elements) and records the redaction; an active, unknown
 * or already redacted contract is an error. Returns the number of rows changed.
 */
const redact = `CREATE FUNCTION ledger_rx_redact_contract(s text, cid text, rid text) RETURNS bigint LANGUAGE plpgsql AS $$
DECLARE
  changed bigint := 0;
  n bigint;
BEGIN
  IF rid IS NULL OR rid = '' THEN RAISE EXCEPTION 'a redaction id is required' USING ERRCODE = '22023'; END IF;
  IF EXISTS (SELECT 1 FROM ledger_rx_redactions r WHERE r.stream_name = s AND r.contract_id = cid) THEN
    RAISE EXCEPTION 'contract % is already redacted', cid USING ERRCODE = '22023';
  END IF;
  IF NOT EXISTS (SELECT 1 FROM ledger_rx_contract_lives(s, NULL) l WHERE l.contract_id = cid) THEN
    RAISE EXCEPTION 'the store holds no contract %', cid USING ERRCODE = '42704';
  END IF;
  IF EXISTS (SELECT 1 FROM active_contracts a WHERE a.stream_name = s AND a.contract_id = cid) THEN
    RAISE EXCEPTION 'cannot redact contract %: it is active (only archived contracts are redacted)', cid USING ERRCODE = '22023';
  END IF;
  UPDATE created_events c SET create_argument = NULL, contract_key = NULL WHERE c.stream_name = s AND c.contract_id = cid;
  GET DIAGNOSTICS n = ROW_COUNT; changed := changed + n;
  UPDATE ledger_rx_snapshot_contracts sc SET create_argument = NULL, contract_key = NULL WHERE sc.stream_name = s AND sc.contract_id = cid;
  GET DIAGNOSTICS n = ROW_COUNT; changed := changed + n;
  UPDATE updates u SET element = ledger_rx_redact_element(u.element, cid)
   WHERE u.stream_name = s AND u.ledger_offset IN (
     SELECT c.ledger_offset FROM created_events c WHERE c.stream_name = s AND c.contract_id = cid
     UNION SELECT r.ledger_offset FROM reassignment_events r WHERE r.stream_name = s AND r.contract_id = cid AND r.kind = 'assign');
  GET DIAGNOSTICS n = ROW_COUNT; changed := changed + n;
  INSERT INTO ledger_rx_redactions (stream_name, contract_id, redaction_id, redacted_at) VALUES (s, cid, rid, now());
  RETURN changed;
END $$`;

/**
 * `ledger_rx_reset_to(stream, to)`: rewinds the stream to offset `to` (for a re-ingest of what follows): removes
 * every row after it, rebuilds `active_contracts` as `active(NULL, to)` and moves the checkpoint to `to`. `to`
 * must be an offset the store answers for (`oldest_offset()` … `latest_offset()`). Locks the checkpoint row
 * first, so a commit in flight finishes before, and an ingester still running then finds the checkpoint moved
 * and stops (SINK_CONFLICT). Returns the numbers of updates removed and of contracts active at `to`.
 */
const reset = `CREATE FUNCTION ledger_rx_reset_to(s text, target bigint) RETURNS TABLE (removed_updates bigint, active_contracts_at bigint) LANGUAGE plpgsql AS $$
DECLARE
  latest bigint;
  oldest bigint;
  n_updates bigint;
  n_active bigint;
BEGIN
  SELECT c.ledger_offset INTO latest FROM ledger_rx_checkpoints c WHERE c.stream_name = s FOR UPDATE;
  IF latest IS NULL THEN RAISE EXCEPTION 'the store holds no stream %', quote_literal(s) USING ERRCODE = '42704'; END IF;
  oldest := greatest(coalesce((SELECT snapshot_offset FROM ledger_rx_snapshots WHERE stream_name = s), 0),
                     coalesce((SELECT pruned_before FROM ledger_rx_store_pruning WHERE stream_name = s), 0));
  IF target > latest OR target < oldest THEN
    RAISE EXCEPTION 'cannot reset to offset %: the store holds offsets % to %', target, oldest, latest USING ERRCODE = '22023';
  END IF;
  DELETE FROM active_contracts a WHERE a.stream_name = s;
  INSERT INTO active_contracts (stream_name, contract_id, template_id, package_name, create_argument, contract_key, signatories, observers,
                                created_offset, created_at, synchronizer_id, reassignment_counter, origin)
    SELECT DISTINCT ON (l.contract_id) s, l.contract_id, l.template_id, l.package_name, coalesce(l.payload, 'null'::jsonb), l.contract_key, l.signatories, l.observers,
           l.activated_at, l.created_effective_at, l.synchronizer_id, l.reassignment_counter,
           CASE WHEN EXISTS (SELECT 1 FROM ledger_rx_snapshot_contracts sc WHERE sc.stream_name = s AND sc.contract_id = l.contract_id AND sc.created_offset = l.activated_at)
                THEN 'snapshot' ELSE 'update' END
      FROM ledger_rx_contract_lives(s, NULL) l
     WHERE l.activated_at <= target AND (l.deactivated_at IS NULL OR l.deactivated_at > target)
     ORDER BY l.contract_id, l.activated_at DESC;
  GET DIAGNOSTICS n_active = ROW_COUNT;
  DELETE FROM created_events e WHERE e.stream_name = s AND e.ledger_offset > target;
  DELETE FROM archived_events e WHERE e.stream_name = s AND e.ledger_offset > target;
  DELETE FROM exercised_events e WHERE e.stream_name = s AND e.ledger_offset > target;
  DELETE FROM reassignment_events e WHERE e.stream_name = s AND e.ledger_offset > target;
  DELETE FROM updates u WHERE u.stream_name = s AND u.ledger_offset > target;
  GET DIAGNOSTICS n_updates = ROW_COUNT;
  UPDATE ledger_rx_checkpoints c SET ledger_offset = target, synchronizer_times = '[]'::jsonb, updated_at = now() WHERE c.stream_name = s;
  RETURN QUERY SELECT n_updates, n_active;
END $$`;

/** Version 6: the store's maintenance functions (`ledger-rx store prune`, `store redact`; docs/query-store.md). */
export const maintenanceMigration: Migration = {
  version: 6,
  name: 'the query store: prune archived contracts, redact a contract, reset to an offset',
  statements: [prune, redactElement, redact, reset],
};
