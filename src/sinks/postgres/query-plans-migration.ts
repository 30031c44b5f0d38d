import type { Migration } from './migration.js';
import { contractColumns, contractSelect } from './query-store-migration.js';

/** A contract's `package-name:Module:Entity` from the row `t` (`package_name`, `template_id`). */
const fqn = (t: string): string => `${t}.package_name || ':' || split_part(${t}.template_id, ':', 2) || ':' || split_part(${t}.template_id, ':', 3)`;

/**
 * `active(name [, at])` in PL/pgSQL: the stream, the template ids of `name` and the pinned offset computed once,
 * then the lives of those templates read with them as constants (`plan_cache_mode = force_custom_plan`), so the
 * planner reads a template's creates through `created_events_template` instead of calling the name lookup for
 * every create of the stream. At the latest offset (no `at`, the common question) the rows of
 * `active_contracts`, each joined to the create, snapshot row or assignment that made it active (the same
 * columns as the lives give; rows in no particular order), instead of every life of the template and the
 * first deactivation of each (docs/query-store.md, "What the functions cost").
 */
const active = `CREATE OR REPLACE FUNCTION active(qname text DEFAULT NULL, "offset" bigint DEFAULT NULL) RETURNS TABLE (${contractColumns})
LANGUAGE plpgsql STABLE SET plan_cache_mode = force_custom_plan AS $$
DECLARE
  s text := ledger_rx_stream();
  ids text[] := ledger_rx_template_ids(qname);
  pin bigint := ledger_rx_held_offset(active."offset");
BEGIN
  IF pin = latest_offset() THEN
    -- at the latest offset the active set is active_contracts: each row joined to the event that activated it
    -- (its witnesses and offsets; the synchronizer and reassignment counter of the row are the event's)
    RETURN QUERY
    SELECT ${fqn('ac')}, 'template'::text, ac.contract_id, ac.create_argument, ac.contract_key,
           x.created_at_offset, ac.created_at, NULL::bigint, NULL::timestamptz, x.assigned_at_offset, NULL::bigint, NULL::text,
           ac.package_name, split_part(ac.template_id, ':', 1), ac.template_id, ac.signatories, ac.observers, x.witnesses,
           ac.synchronizer_id, ac.reassignment_counter
      FROM active_contracts ac
      JOIN (
        SELECT c.contract_id, c.ledger_offset AS activated_at, c.ledger_offset AS created_at_offset, NULL::bigint AS assigned_at_offset,
               c.witness_parties AS witnesses, 'update' AS origin
          FROM created_events c
         WHERE c.stream_name = s AND c.acs_delta AND (ids IS NULL OR c.template_id = ANY (ids))
        UNION ALL
        SELECT sc.contract_id, sc.created_offset, sc.created_offset, NULL::bigint, sc.signatories || sc.observers, 'snapshot'
          FROM ledger_rx_snapshot_contracts sc
         WHERE sc.stream_name = s AND (ids IS NULL OR sc.template_id = ANY (ids))
        UNION ALL
        SELECT r.contract_id, r.ledger_offset, NULL::bigint, r.ledger_offset, r.witness_parties, 'update'
          FROM reassignment_events r
         WHERE r.stream_name = s AND r.kind = 'assign' AND (ids IS NULL OR r.template_id = ANY (ids))
      ) x ON x.contract_id = ac.contract_id AND x.activated_at = ac.created_offset AND x.origin = ac.origin
     WHERE ac.stream_name = s AND (ids IS NULL OR ac.template_id = ANY (ids));
    RETURN;
  END IF;
  RETURN QUERY
  SELECT DISTINCT ON (l.contract_id) ${contractSelect}
    FROM ledger_rx_contract_lives(s, ids) l
   WHERE l.activated_at <= pin AND (l.deactivated_at IS NULL OR l.deactivated_at > pin)
   ORDER BY l.contract_id, l.activated_at DESC;
END $$`;

/**
 * A function over an offset range (`creates`, `archives`) the same way: name, stream and range resolved once,
 * then the lives of the named templates whose `offsetColumn` lies in the range (and `also`), in its order.
 */
const rangeFunction = (name: string, offsetColumn: string, also: string): string => `CREATE OR REPLACE FUNCTION ${name}(qname text DEFAULT NULL, from_offset bigint DEFAULT NULL, to_offset bigint DEFAULT NULL) RETURNS TABLE (${contractColumns})
LANGUAGE plpgsql STABLE SET plan_cache_mode = force_custom_plan AS $$
DECLARE
  s text := ledger_rx_stream();
  ids text[] := ledger_rx_template_ids(qname);
  lo bigint := CASE WHEN from_offset IS NULL THEN oldest_offset() ELSE ledger_rx_held_offset(from_offset) END;
  hi bigint := ledger_rx_held_offset(to_offset);
BEGIN
  RETURN QUERY
  SELECT ${contractSelect}
    FROM ledger_rx_contract_lives(s, ids) l
   WHERE ${also}l.${offsetColumn} BETWEEN lo AND hi
   ORDER BY l.${offsetColumn}, l.contract_id;
END $$`;

/** `creates(name [, from, to])`: the creates in the range (not the assignments or snapshot rows). */
const creates = rangeFunction('creates', 'created_at_offset', 'l.created_at_offset IS NOT NULL AND l.created_at_offset = l.activated_at AND ');

/** `archives(name [, from, to])`: the archives in the range. */
const archives = rangeFunction('archives', 'archived_at_offset', '');

/**
 * Version 9: `active`, `creates` and `archives` resolve the stream, the name and the offsets once, before the
 * query, instead of in its filter: on a store of 10^6 contracts the SQL functions of version 5 called the name
 * lookup once per create of the stream (seconds per call, growing with the whole store); these read only the
 * named template's rows. Same signatures, same rows, same errors.
 */
export const queryPlansMigration: Migration = {
  version: 9,
  name: 'the query store functions resolve their arguments once',
  statements: [active, creates, archives],
};
