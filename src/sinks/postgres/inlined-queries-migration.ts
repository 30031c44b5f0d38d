import type { Migration } from './migration.js';
import { contractColumns } from './query-store-migration.js';

/**
 * The statement trigger that notes the interface ids of the views a statement stored (transition table
 * `inserted`) in `ledger_rx_view_interfaces`, the catalog an interface's name is resolved against.
 */
const noteViewInterfaces = `CREATE FUNCTION ledger_rx_note_view_interfaces() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO ledger_rx_view_interfaces (stream_name, interface_id, module_name, entity_name)
  SELECT DISTINCT i.stream_name, i.interface_id, split_part(i.interface_id, ':', 2), split_part(i.interface_id, ':', 3)
  FROM inserted i
  ON CONFLICT DO NOTHING;
  RETURN NULL;
END $$`;

/**
 * The interfaces of the streams' filters, as recorded (`#package-name:Module:Entity`, the form a filter takes): in a
 * scope now, or before or after any scope change (docs/query-store.md, "Interface names").
 */
const scopeInterfaces = `CREATE FUNCTION ledger_rx_scope_interfaces() RETURNS TABLE (package_name text, module_name text, entity_name text)
LANGUAGE sql STABLE PARALLEL SAFE AS $$
  SELECT DISTINCT split_part(ltrim(i, '#'), ':', 1), split_part(ltrim(i, '#'), ':', 2), split_part(ltrim(i, '#'), ':', 3)
    FROM (SELECT jsonb_array_elements_text(scope -> 'interfaces') FROM ledger_rx_stream_scopes
          UNION ALL
          SELECT jsonb_array_elements_text(scope_before -> 'interfaces') FROM ledger_rx_scope_changes WHERE scope_before IS NOT NULL
          UNION ALL
          SELECT jsonb_array_elements_text(scope_after -> 'interfaces') FROM ledger_rx_scope_changes) x(i)
$$`;

/**
 * Every name the stream's functions answer: its templates (`ledger_rx_templates`, with their ids) and the interfaces
 * the store knows — of a stream's filter (now or once), of a DAR's typed views, or with stored views under no known
 * package name (then named by the package id of the view).
 */
const names = `CREATE FUNCTION ledger_rx_names(s text) RETURNS TABLE (kind text, package_name text, module_name text, entity_name text, template_id text)
LANGUAGE sql STABLE PARALLEL SAFE AS $$
  SELECT 'template', t.package_name, t.module_name, t.entity_name, t.template_id FROM ledger_rx_templates t WHERE t.stream_name = s
  UNION ALL
  SELECT DISTINCT 'interface', k.package_name, k.module_name, k.entity_name, NULL::text
    FROM (SELECT si.package_name, si.module_name, si.entity_name FROM ledger_rx_scope_interfaces() si
          UNION ALL
          SELECT tv.package_name, tv.module_name, tv.entity_name FROM ledger_rx_typed_views tv WHERE tv.kind = 'interface'
          UNION ALL
          SELECT split_part(vi.interface_id, ':', 1), vi.module_name, vi.entity_name FROM ledger_rx_view_interfaces vi
           WHERE NOT EXISTS (SELECT 1 FROM ledger_rx_scope_interfaces() si WHERE si.module_name = vi.module_name AND si.entity_name = vi.entity_name)
             AND NOT EXISTS (SELECT 1 FROM ledger_rx_typed_views tv WHERE tv.kind = 'interface' AND tv.module_name = vi.module_name AND tv.entity_name = vi.entity_name)) k
$$`;

/**
 * What a (partly) qualified name means: one template or one interface (its kind and `package-name:Module:Entity`), or
 * an error — none (42704) or several (42725, the candidates listed, interfaces marked).
 */
const resolveName = `CREATE FUNCTION ledger_rx_resolve_name(qname text, OUT kind text, OUT fqn text) LANGUAGE plpgsql STABLE PARALLEL SAFE AS $$
DECLARE
  s text := ledger_rx_stream();
  wanted text := ltrim(qname, '#');
  found text[];
BEGIN
  SELECT array_agg(DISTINCT n.kind || ' ' || n.package_name || ':' || n.module_name || ':' || n.entity_name
                   ORDER BY n.kind || ' ' || n.package_name || ':' || n.module_name || ':' || n.entity_name DESC)
    INTO found
    FROM ledger_rx_names(s) n
   WHERE wanted IN (n.package_name || ':' || n.module_name || ':' || n.entity_name, n.module_name || ':' || n.entity_name, n.entity_name)
      OR wanted = n.template_id;
  IF found IS NULL THEN
    RAISE EXCEPTION 'no template or interface % in this store', quote_literal(qname)
      USING ERRCODE = '42704',
            HINT = 'names are Entity, Module:Entity or package-name:Module:Entity; a template is known once the store holds one of its contracts, '
                || 'an interface once the stream''s filter names it (ingest --interface) or ingest --dar declares it';
  END IF;
  IF cardinality(found) > 1 THEN
    RAISE EXCEPTION 'ambiguous name %: it matches %', quote_literal(qname),
      (SELECT string_agg(CASE WHEN f LIKE 'interface %' THEN substr(f, 11) || ' (interface)' ELSE substr(f, 10) END, ', ' ORDER BY substr(f, strpos(f, ' ') + 1), f)
         FROM unnest(found) f)
      USING ERRCODE = '42725', HINT = 'qualify it with its module (Module:Entity) or package name (package-name:Module:Entity)';
  END IF;
  kind := split_part(found[1], ' ', 1);
  fqn := split_part(found[1], ' ', 2);
END $$`;

/** `template`, `interface` or `all` (no name): the branch of a function that answers, after the name's errors. */
const nameKind = `CREATE FUNCTION ledger_rx_name_kind(qname text) RETURNS text LANGUAGE sql STABLE PARALLEL SAFE AS $$
  SELECT CASE WHEN qname IS NULL THEN 'all' ELSE (SELECT r.kind FROM ledger_rx_resolve_name(qname) r) END
$$`;

/**
 * The template ids of a name (every template: NULL), resolved among templates and interfaces: none (an empty array)
 * for an interface's name. Never an error but the name's own (unknown, ambiguous): the functions' template branches
 * use it, and PostgreSQL may evaluate a branch's InitPlans before its one-time filter (a `Gather` evaluates them all).
 *
 * Called directly (not as a scalar subquery) in an index condition, it is evaluated once per scan, and the planner
 * evaluates it while planning to estimate the rows (a STABLE function with constant arguments), so a template of 1%
 * of the contracts is estimated as 1%, not as all of them; its high COST keeps it out of a sequential scan's filter,
 * where it would run once per row (docs/query-store.md, "What the functions cost").
 */
const nameTemplateIds = `CREATE FUNCTION ledger_rx_name_template_ids(qname text) RETURNS text[] LANGUAGE plpgsql STABLE PARALLEL SAFE COST 10000 AS $$
DECLARE
  s text := ledger_rx_stream();
  wanted text := ltrim(qname, '#');
  r record;
  ids text[];
BEGIN
  IF qname IS NULL THEN RETURN NULL; END IF;
  SELECT * INTO r FROM ledger_rx_resolve_name(qname);
  IF r.kind = 'interface' THEN RETURN '{}'; END IF;
  SELECT array_agg(t.template_id ORDER BY t.template_id) INTO ids
    FROM ledger_rx_templates t
   WHERE t.stream_name = s AND t.package_name || ':' || t.module_name || ':' || t.entity_name = r.fqn
     AND wanted IN (t.package_name || ':' || t.module_name || ':' || t.entity_name, t.module_name || ':' || t.entity_name, t.entity_name, t.template_id);
  RETURN ids;
END $$`;

/** Version 5's template ids of a name, now resolved among interfaces too: an interface's name is an error here (42809). */
const templateIds = `CREATE OR REPLACE FUNCTION ledger_rx_template_ids(qname text) RETURNS text[] LANGUAGE plpgsql STABLE PARALLEL SAFE AS $$
DECLARE
  r record;
BEGIN
  IF qname IS NULL THEN RETURN NULL; END IF;
  SELECT * INTO r FROM ledger_rx_resolve_name(qname);
  IF r.kind = 'interface' THEN
    RAISE EXCEPTION '% is an interface (%), not a template', quote_literal(qname), r.fqn
      USING ERRCODE = '42809', HINT = 'active(), creates(), archives() and lookup_contract() answer an interface''s name with its views; exercises() takes a choice or a template';
  END IF;
  RETURN ledger_rx_name_template_ids(qname);
END $$`;

/**
 * The offsets over which the stream stored the views of interface `fqn` (`package-name:Module:Entity`): one row per
 * stretch of its filter that named it, `stored_from` the scope change that added it (NULL: from the stream's start),
 * `stored_to` the one that removed it (NULL: still named). A stream with no recorded scope (written by a library sink
 * without one) counts as naming every interface whose views it stored, from its start.
 */
const interfaceStints = `CREATE FUNCTION ledger_rx_interface_stints(s text, fqn text) RETURNS TABLE (stored_from bigint, stored_to bigint, backfilled boolean)
LANGUAGE plpgsql STABLE PARALLEL SAFE AS $$
DECLARE
  named boolean;
  started bigint;
  filled boolean := true;
  c record;
  first boolean := true;
BEGIN
  IF NOT EXISTS (SELECT 1 FROM ledger_rx_stream_scopes WHERE stream_name = s) THEN
    IF EXISTS (SELECT 1 FROM ledger_rx_view_interfaces vi WHERE vi.stream_name = s
                AND vi.module_name = split_part(fqn, ':', 2) AND vi.entity_name = split_part(fqn, ':', 3)) THEN
      stored_from := NULL; stored_to := NULL; backfilled := true; RETURN NEXT;
    END IF;
    RETURN;
  END IF;
  FOR c IN SELECT ledger_offset, scope_before, scope_after FROM ledger_rx_scope_changes WHERE stream_name = s ORDER BY ledger_offset, changed_at LOOP
    IF first THEN
      -- the stream's first scope: before its first change (a store older than scopes: what that change recorded)
      named := EXISTS (SELECT 1 FROM jsonb_array_elements_text(coalesce(c.scope_before, c.scope_after) -> 'interfaces') i WHERE ltrim(i, '#') = fqn);
      first := false;
    END IF;
    IF NOT named AND EXISTS (SELECT 1 FROM jsonb_array_elements_text(c.scope_after -> 'interfaces') i WHERE ltrim(i, '#') = fqn) THEN
      -- added: a widening read the snapshot with the new filter (the views of the contracts active then); a
      -- narrowing (from every template to the interface) read none
      named := true; started := c.ledger_offset; filled := ledger_rx_scope_widened(c.scope_before, c.scope_after);
    ELSIF named AND NOT EXISTS (SELECT 1 FROM jsonb_array_elements_text(c.scope_after -> 'interfaces') i WHERE ltrim(i, '#') = fqn) THEN
      named := false; stored_from := started; stored_to := c.ledger_offset; backfilled := filled; RETURN NEXT;
      started := NULL; filled := true;
    END IF;
  END LOOP;
  IF first THEN
    named := EXISTS (SELECT 1 FROM ledger_rx_stream_scopes sc, jsonb_array_elements_text(sc.scope -> 'interfaces') i WHERE sc.stream_name = s AND ltrim(i, '#') = fqn);
  END IF;
  IF named THEN stored_from := started; stored_to := NULL; backfilled := filled; RETURN NEXT; END IF;
END $$`;

/** Whether a scope change widened the scope (as `streamScopeChange` decides): then it read the snapshot with the new filter. */
const scopeWidened = `CREATE FUNCTION ledger_rx_scope_widened(before jsonb, after jsonb) RETURNS boolean LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT before IS NOT NULL AND (
    (jsonb_typeof(before -> 'parties') = 'array'
      AND (jsonb_typeof(after -> 'parties') IS DISTINCT FROM 'array'
           OR EXISTS (SELECT 1 FROM jsonb_array_elements_text(after -> 'parties') p WHERE NOT (before -> 'parties') ? p)))
    OR (jsonb_array_length(before -> 'templates') + jsonb_array_length(before -> 'interfaces') > 0
      AND (jsonb_array_length(after -> 'templates') + jsonb_array_length(after -> 'interfaces') = 0
           OR EXISTS (SELECT 1 FROM jsonb_array_elements_text(after -> 'templates') t WHERE NOT (before -> 'templates') ? t)
           OR EXISTS (SELECT 1 FROM jsonb_array_elements_text(after -> 'interfaces') i WHERE NOT (before -> 'interfaces') ? i))))
$$`;

/**
 * The stored interface ids (`package-id:Module:Entity`, as the participant sends them) of interface `qname`'s views,
 * after checking that the stream stored them for what `mode` asks over [lo, hi] — `active` at `lo` = `hi`, the
 * `creates` or the `archives` in the range (an archive needs the view stored at the contract's activation, before
 * it), or `any` (the stream's filter named it at some time: a lookup's view is there or not); else an error that
 * says what was stored and what to do (55000), never an empty answer that looks real. A template's name gets none
 * (an empty array), not an error: the interface branches' InitPlans may be evaluated before their one-time filter.
 */
const interfaceIds = `CREATE FUNCTION ledger_rx_interface_ids(qname text, lo bigint, hi bigint, mode text) RETURNS text[] LANGUAGE plpgsql STABLE PARALLEL SAFE AS $$
DECLARE
  s text := ledger_rx_stream();
  r record;
  stints text;
  ids text[];
  others text[];
BEGIN
  SELECT * INTO r FROM ledger_rx_resolve_name(qname);
  IF r.kind <> 'interface' THEN RETURN '{}'; END IF;
  IF NOT EXISTS (SELECT 1 FROM ledger_rx_interface_stints(s, r.fqn) st
                  WHERE mode = 'any' OR (st.stored_to IS NULL OR hi <= st.stored_to)
                    AND (st.stored_from IS NULL
                         OR (mode = 'creates' AND (st.stored_from < lo OR (st.backfilled AND st.stored_from = lo)))
                         OR (mode = 'active' AND st.backfilled AND st.stored_from <= lo)
                         OR (mode = 'archives' AND st.backfilled AND st.stored_from < lo))) THEN
    SELECT string_agg(CASE WHEN st.stored_from IS NULL AND st.stored_to IS NULL THEN 'from the stream''s start on'
                           WHEN st.stored_to IS NULL THEN format('from offset %s on', st.stored_from)
                           WHEN st.stored_from IS NULL THEN format('from the stream''s start to offset %s', st.stored_to)
                           ELSE format('from offset %s to %s', st.stored_from, st.stored_to) END
                      || CASE WHEN st.backfilled THEN '' ELSE format(' (only for the creates after offset %s: the filter narrowed to it then, which stores no view of the contracts already active)', st.stored_from) END,
                      ', ' ORDER BY st.stored_from NULLS FIRST)
      INTO stints FROM ledger_rx_interface_stints(s, r.fqn) st;
    IF stints IS NULL THEN
      RAISE EXCEPTION 'the views of interface % are not stored: the filter of stream % has never named it (ingest with --interface #%)', r.fqn, quote_literal(s), r.fqn
        USING ERRCODE = '55000',
              HINT = format('restart ledger-rx ingest with --interface #%s: the scope change stores the views of the contracts active then and of every create after it', r.fqn);
    END IF;
    RAISE EXCEPTION 'the views of interface % are stored % (while the stream''s filter named it): not enough for %() over offsets % to %; ask within that, or ingest a new stream with --interface #% --from acs', r.fqn, stints, mode, lo, hi, r.fqn
      USING ERRCODE = '55000',
            HINT = 'ask within that (without from_offset, creates() and archives() start where the views do), or start a new stream with --interface from the active-contract snapshot (ingest --stream-name NAME --from acs)';
  END IF;
  SELECT array_agg(DISTINCT n.package_name) INTO others FROM ledger_rx_names(s) n
   WHERE n.kind = 'interface' AND n.module_name || ':' || n.entity_name = split_part(r.fqn, ':', 2) || ':' || split_part(r.fqn, ':', 3);
  IF cardinality(others) > 1 THEN
    RAISE EXCEPTION 'the views of interface % cannot be told apart from those of %', r.fqn, array_to_string(others, ', ')
      USING ERRCODE = '42725', HINT = 'the participant names a view''s interface by package id, and these packages declare the same Module:Entity';
  END IF;
  SELECT coalesce(array_agg(vi.interface_id ORDER BY vi.interface_id), '{}') INTO ids FROM ledger_rx_view_interfaces vi
   WHERE vi.stream_name = s AND vi.module_name = split_part(r.fqn, ':', 2) AND vi.entity_name = split_part(r.fqn, ':', 3);
  RETURN ids;
END $$`;

/**
 * The stored interface ids of an interface's name as `ledger_rx_interface_ids` gives them, without checking which
 * offsets they were stored for (the one-time filters do): none for a template's name. Used in index conditions,
 * for the same reasons and with the same COST as `ledger_rx_name_template_ids`.
 */
const viewInterfaceIds = `CREATE FUNCTION ledger_rx_view_interface_ids(qname text) RETURNS text[] LANGUAGE plpgsql STABLE PARALLEL SAFE COST 10000 AS $$
DECLARE
  r record;
  ids text[];
BEGIN
  IF qname IS NULL THEN RETURN '{}'; END IF;
  SELECT * INTO r FROM ledger_rx_resolve_name(qname);
  IF r.kind <> 'interface' THEN RETURN '{}'; END IF;
  SELECT coalesce(array_agg(vi.interface_id ORDER BY vi.interface_id), '{}') INTO ids FROM ledger_rx_view_interfaces vi
   WHERE vi.stream_name = ledger_rx_stream() AND vi.module_name = split_part(r.fqn, ':', 2) AND vi.entity_name = split_part(r.fqn, ':', 3);
  RETURN ids;
END $$`;

/**
 * The lower bound of `creates`/`archives`: `from_offset` checked, or by default the oldest offset, and for an interface
 * the first one its views are stored for in the stretch that holds `to_offset` (the offset after, for `archives`).
 */
const rangeLow = `CREATE FUNCTION ledger_rx_range_low(qname text, from_offset bigint, to_offset bigint, mode text) RETURNS bigint LANGUAGE plpgsql STABLE PARALLEL SAFE AS $$
DECLARE
  hi bigint := ledger_rx_held_offset(to_offset);
  lo bigint := CASE WHEN from_offset IS NULL THEN oldest_offset() ELSE ledger_rx_held_offset(from_offset) END;
  r record;
  start bigint;
BEGIN
  IF from_offset IS NOT NULL OR ledger_rx_name_kind(qname) <> 'interface' THEN RETURN lo; END IF;
  SELECT * INTO r FROM ledger_rx_resolve_name(qname);
  SELECT st.stored_from + CASE WHEN mode = 'archives' OR NOT st.backfilled THEN 1 ELSE 0 END INTO start
    FROM ledger_rx_interface_stints(ledger_rx_stream(), r.fqn) st
   WHERE st.stored_from IS NOT NULL AND st.stored_from <= hi AND (st.stored_to IS NULL OR hi <= st.stored_to)
   ORDER BY st.stored_from DESC LIMIT 1;
  IF start IS NULL THEN RETURN lo; END IF;
  RETURN greatest(lo, start);
END $$`;

/**
 * The lives of a name's templates (every template: NULL), as version 5's `ledger_rx_contract_lives`, but an SQL
 * function the planner inlines: the stream and the template ids are scalar subqueries (InitPlans, evaluated once),
 * and `qname IS NULL` is a constant once inlined, so a named template's rows are read through its index.
 */
const livesOf = `CREATE FUNCTION ledger_rx_lives(qname text) RETURNS TABLE (
    template_fqn text, payload_type text, contract_id text, payload jsonb, contract_key jsonb,
    created_at_offset bigint, created_effective_at timestamptz, archived_at_offset bigint, archived_effective_at timestamptz,
    assigned_at_offset bigint, unassigned_at_offset bigint, redaction_id text, package_name text, package_id text, template_id text,
    signatories text[], observers text[], witnesses text[], synchronizer_id text, reassignment_counter bigint,
    activated_at bigint, deactivated_at bigint)
LANGUAGE sql STABLE PARALLEL SAFE AS $$
  SELECT a.package_name || ':' || split_part(a.template_id, ':', 2) || ':' || split_part(a.template_id, ':', 3), 'template',
         a.contract_id, CASE WHEN red.redaction_id IS NULL THEN a.payload END, CASE WHEN red.redaction_id IS NULL THEN a.contract_key END,
         a.created_at_offset, a.created_at,
         CASE WHEN d.kind = 'archive' THEN d.ledger_offset END, CASE WHEN d.kind = 'archive' THEN du.effective_at END,
         a.assigned_at_offset, CASE WHEN d.kind = 'unassign' THEN d.ledger_offset END,
         red.redaction_id, a.package_name, split_part(a.template_id, ':', 1), a.template_id,
         a.signatories, a.observers, a.witnesses, a.synchronizer_id, a.reassignment_counter, a.activated_at, d.ledger_offset
    FROM (
      SELECT c.stream_name, c.contract_id, c.template_id, c.package_name, c.create_argument AS payload, c.contract_key, c.signatories, c.observers,
             c.witness_parties AS witnesses, c.ledger_offset AS created_at_offset, c.created_at, NULL::bigint AS assigned_at_offset,
             u.synchronizer_id, 0::bigint AS reassignment_counter, c.ledger_offset AS activated_at
        FROM created_events c JOIN updates u ON u.stream_name = c.stream_name AND u.ledger_offset = c.ledger_offset
       WHERE c.stream_name = (SELECT ledger_rx_stream()) AND c.acs_delta
         AND (qname IS NULL OR c.template_id = ANY (ledger_rx_name_template_ids(qname)))
      UNION ALL
      SELECT sc.stream_name, sc.contract_id, sc.template_id, sc.package_name, sc.create_argument, sc.contract_key, sc.signatories, sc.observers,
             sc.signatories || sc.observers, sc.created_offset, sc.created_at, NULL::bigint, sc.synchronizer_id, sc.reassignment_counter, sc.created_offset
        FROM ledger_rx_snapshot_contracts sc
       WHERE sc.stream_name = (SELECT ledger_rx_stream())
         AND (qname IS NULL OR sc.template_id = ANY ((SELECT ledger_rx_name_template_ids(qname))::text[]))
      UNION ALL
      SELECT r.stream_name, r.contract_id, r.template_id, r.package_name, (ce.v -> 'createArgument')::jsonb, nullif((ce.v -> 'contractKey')::jsonb, 'null'::jsonb),
             ARRAY(SELECT json_array_elements_text(ce.v -> 'signatories')), ARRAY(SELECT json_array_elements_text(ce.v -> 'observers')),
             r.witness_parties, NULL::bigint, (ce.v ->> 'createdAt')::timestamptz, r.ledger_offset, r.target_synchronizer, r.reassignment_counter, r.ledger_offset
        FROM reassignment_events r
        JOIN updates u ON u.stream_name = r.stream_name AND u.ledger_offset = r.ledger_offset
        LEFT JOIN LATERAL (
          SELECT e -> 'JsAssignmentEvent' -> 'createdEvent' AS v
            FROM json_array_elements(u.element -> 'update' -> 'Reassignment' -> 'value' -> 'events') e
           WHERE e -> 'JsAssignmentEvent' -> 'createdEvent' ->> 'contractId' = r.contract_id
           LIMIT 1) ce ON true
       WHERE r.stream_name = (SELECT ledger_rx_stream()) AND r.kind = 'assign'
         AND (qname IS NULL OR r.template_id = ANY ((SELECT ledger_rx_name_template_ids(qname))::text[]))
    ) a
    LEFT JOIN LATERAL (
      SELECT x.ledger_offset, x.kind FROM (
        SELECT ae.ledger_offset, 'archive' AS kind FROM archived_events ae
         WHERE ae.stream_name = a.stream_name AND ae.contract_id = a.contract_id AND ae.ledger_offset > a.activated_at
        UNION ALL
        SELECT ee.ledger_offset, 'archive' FROM exercised_events ee
         WHERE ee.stream_name = a.stream_name AND ee.contract_id = a.contract_id AND ee.consuming AND ee.acs_delta AND ee.ledger_offset > a.activated_at
        UNION ALL
        SELECT re.ledger_offset, 'unassign' FROM reassignment_events re
         WHERE re.stream_name = a.stream_name AND re.contract_id = a.contract_id AND re.kind = 'unassign' AND re.ledger_offset > a.activated_at) x
      ORDER BY x.ledger_offset LIMIT 1) d ON true
    LEFT JOIN updates du ON du.stream_name = a.stream_name AND du.ledger_offset = d.ledger_offset
    LEFT JOIN ledger_rx_redactions red ON red.stream_name = a.stream_name AND red.contract_id = a.contract_id
$$`;

/** The lives' columns of a contract row, from `l`. */
const lifeColumns = (l: string) =>
  `${l}.template_fqn, ${l}.payload_type, ${l}.contract_id, ${l}.payload, ${l}.contract_key, ${l}.created_at_offset, ${l}.created_effective_at,
    ${l}.archived_at_offset, ${l}.archived_effective_at, ${l}.assigned_at_offset, ${l}.unassigned_at_offset, ${l}.redaction_id, ${l}.package_name,
    ${l}.package_id, ${l}.template_id, ${l}.signatories, ${l}.observers, ${l}.witnesses, ${l}.synchronizer_id, ${l}.reassignment_counter`;

/**
 * The same columns for an interface's view of a life `l` (its view `v`): PQS's interface rows (docs/query-store.md,
 * "Interface names"): the interface's name, `payload_type` `interface`, the view as payload (NULL once redacted), no key.
 */
const viewColumns = (l: string, v: string, fqn: string) =>
  `${fqn}, 'interface'::text, ${l}.contract_id, CASE WHEN ${l}.redaction_id IS NULL THEN ${v}.view_value END, NULL::jsonb, ${l}.created_at_offset, ${l}.created_effective_at,
    ${l}.archived_at_offset, ${l}.archived_effective_at, ${l}.assigned_at_offset, ${l}.unassigned_at_offset, ${l}.redaction_id, ${l}.package_name,
    ${l}.package_id, ${l}.template_id, ${l}.signatories, ${l}.observers, ${l}.witnesses, ${l}.synchronizer_id, ${l}.reassignment_counter`;

/** The interface's `package-name:Module:Entity`, resolved once. */
const interfaceFqn = `(SELECT r.fqn FROM ledger_rx_resolve_name(qname) r)`;

/**
 * The columns of a row of `active_contracts` `ac` as its life gives them, with no join: a create's row has
 * reassignment counter 0 and an assignment's at least 1 (docs/query-store.md, "What the functions cost"), so the
 * offsets need no lookup; the witnesses (and a redaction after a rewind) are scalar subqueries, evaluated only for a
 * row that is returned with them (`count(*)` reads `active_contracts` alone).
 */
const activeRowColumns = (payload: string, key: string, fqn: string, kind: string) => `${fqn}, ${kind}, ac.contract_id,
    CASE WHEN (SELECT red.redaction_id FROM ledger_rx_redactions red WHERE red.stream_name = ac.stream_name AND red.contract_id = ac.contract_id) IS NULL THEN ${payload} END,
    ${key},
    CASE WHEN ac.origin = 'update' AND ac.reassignment_counter > 0 THEN NULL ELSE ac.created_offset END, ac.created_at, NULL::bigint, NULL::timestamptz,
    CASE WHEN ac.origin = 'update' AND ac.reassignment_counter > 0 THEN ac.created_offset END, NULL::bigint,
    (SELECT red.redaction_id FROM ledger_rx_redactions red WHERE red.stream_name = ac.stream_name AND red.contract_id = ac.contract_id),
    ac.package_name, split_part(ac.template_id, ':', 1), ac.template_id, ac.signatories, ac.observers,
    CASE WHEN ac.origin = 'snapshot' THEN ac.signatories || ac.observers
         WHEN ac.reassignment_counter > 0 THEN (SELECT r.witness_parties FROM reassignment_events r
                                                  WHERE r.stream_name = ac.stream_name AND r.ledger_offset = ac.created_offset AND r.contract_id = ac.contract_id AND r.kind = 'assign' LIMIT 1)
         ELSE (SELECT c.witness_parties FROM created_events c
                WHERE c.stream_name = ac.stream_name AND c.ledger_offset = ac.created_offset AND c.contract_id = ac.contract_id AND c.acs_delta LIMIT 1) END,
    ac.synchronizer_id, ac.reassignment_counter`;

/** The pinned offset of `active` (the latest when none: errors for one the store does not hold). */
const pin = `(SELECT ledger_rx_held_offset(active."offset"))`;

/**
 * `active(name [, at])` as one inlinable SELECT: branches behind one-time filters on the name's kind and on whether
 * `at` is the latest offset (so one runs, and the name's and the offset's errors are raised before any row, whatever
 * the caller's `count(*)`, `WHERE` or `LIMIT`). Without `at` (a constant NULL once inlined, so the planner keeps only
 * these branches) a template's rows come from `active_contracts` (index `(stream_name, template_id)`), an
 * interface's from its stored views joined to it; with `at`, from the lives, or from `ledger_rx_active_latest` when
 * `at` is the latest offset.
 */
const active = `CREATE OR REPLACE FUNCTION active(qname text DEFAULT NULL, "offset" bigint DEFAULT NULL) RETURNS TABLE (${contractColumns})
LANGUAGE sql STABLE PARALLEL SAFE AS $$
  SELECT ${activeRowColumns('ac.create_argument', 'ac.contract_key', `ac.package_name || ':' || split_part(ac.template_id, ':', 2) || ':' || split_part(ac.template_id, ':', 3)`, "'template'::text")}
    FROM active_contracts ac
   WHERE active."offset" IS NULL AND (SELECT ledger_rx_name_kind(qname)) <> 'interface'
     AND ac.stream_name = (SELECT ledger_rx_stream())
     AND (qname IS NULL OR ac.template_id = ANY (ledger_rx_name_template_ids(qname)))
  UNION ALL
  SELECT ${activeRowColumns('v.view_value', 'NULL::jsonb', interfaceFqn, "'interface'::text")}
    FROM ledger_rx_interface_views v
    JOIN active_contracts ac ON ac.stream_name = v.stream_name AND ac.contract_id = v.contract_id AND ac.created_offset = v.ledger_offset
   WHERE active."offset" IS NULL AND qname IS NOT NULL AND (SELECT ledger_rx_name_kind(qname)) = 'interface'
     AND (SELECT ledger_rx_interface_ids(qname, ${pin}, ${pin}, 'active')) IS NOT NULL
     AND v.stream_name = (SELECT ledger_rx_stream())
     AND v.interface_id = ANY (ledger_rx_view_interface_ids(qname))
  UNION ALL
  SELECT ${lifeColumns('l')} FROM (
    SELECT DISTINCT ON (l.contract_id) l.*
      FROM ledger_rx_lives(qname) l
     WHERE l.activated_at <= ${pin} AND (l.deactivated_at IS NULL OR l.deactivated_at > ${pin})
     ORDER BY l.contract_id, l.activated_at DESC) l
   WHERE active."offset" IS NOT NULL AND (SELECT ledger_rx_name_kind(qname)) <> 'interface' AND ${pin} <> (SELECT latest_offset())
  UNION ALL
  SELECT ${viewColumns('l', 'l', interfaceFqn)} FROM (
    SELECT DISTINCT ON (l.contract_id) l.*, v.view_value
      FROM ledger_rx_interface_views v
      CROSS JOIN LATERAL (SELECT * FROM ledger_rx_lives(NULL) x WHERE x.contract_id = v.contract_id AND x.activated_at = v.ledger_offset OFFSET 0) l
     WHERE v.stream_name = (SELECT ledger_rx_stream()) AND v.interface_id = ANY (ledger_rx_view_interface_ids(qname))
       AND l.activated_at <= ${pin} AND (l.deactivated_at IS NULL OR l.deactivated_at > ${pin})
     ORDER BY l.contract_id, l.activated_at DESC) l
   WHERE active."offset" IS NOT NULL AND qname IS NOT NULL AND (SELECT ledger_rx_name_kind(qname)) = 'interface' AND ${pin} <> (SELECT latest_offset())
     AND (SELECT ledger_rx_interface_ids(qname, ${pin}, ${pin}, 'active')) IS NOT NULL
  UNION ALL
  SELECT * FROM ledger_rx_active_latest(qname)
   WHERE active."offset" IS NOT NULL AND (SELECT ledger_rx_name_kind(qname)) IS NOT NULL AND ${pin} = (SELECT latest_offset())
$$`;

/**
 * `active(name)` run as its own query: what `active(name, at)` gives for an `at` that is the latest offset. A
 * PL/pgSQL function, so the planner of `active(name, at)` sees a small fixed cost for it instead of the cost of
 * that query beside the past-offset one (both over the JIT threshold on a large store, where compiling the plan took
 * longer than running it); it runs only when `at` is the latest.
 */
const activeLatest = `CREATE FUNCTION ledger_rx_active_latest(qname text) RETURNS TABLE (${contractColumns})
LANGUAGE plpgsql STABLE PARALLEL SAFE AS $$
BEGIN
  RETURN QUERY SELECT * FROM active(qname);
END $$`;

/**
 * A function over an offset range (`creates`, `archives`) as one inlinable SELECT: the lives of a template (or every
 * template) whose `offsetColumn` lies in [lo, hi] (and `also`), or those with a stored view of an interface, in the
 * order of `offsetColumn`; the bounds and the name are resolved once, their errors raised before any row.
 */
const rangeFunction = (name: 'creates' | 'archives', offsetColumn: string, also: string): string => {
  const lo = `(SELECT ledger_rx_range_low(qname, from_offset, to_offset, '${name}'))`;
  const hi = `(SELECT ledger_rx_held_offset(to_offset))`;
  return `CREATE OR REPLACE FUNCTION ${name}(qname text DEFAULT NULL, from_offset bigint DEFAULT NULL, to_offset bigint DEFAULT NULL) RETURNS TABLE (${contractColumns})
LANGUAGE sql STABLE PARALLEL SAFE AS $$
  SELECT q.template_fqn, q.payload_type, q.contract_id, q.payload, q.contract_key, q.created_at_offset, q.created_effective_at, q.archived_at_offset,
         q.archived_effective_at, q.assigned_at_offset, q.unassigned_at_offset, q.redaction_id, q.package_name, q.package_id, q.template_id,
         q.signatories, q.observers, q.witnesses, q.synchronizer_id, q.reassignment_counter
    FROM (
      SELECT ${lifeColumns('l')}, l.${offsetColumn} AS sort_offset
        FROM ledger_rx_lives(qname) l
       WHERE (SELECT ledger_rx_name_kind(qname)) <> 'interface' AND ${lo} <= ${hi}
         AND ${also}l.${offsetColumn} BETWEEN ${lo} AND ${hi}
      UNION ALL
      SELECT ${viewColumns('l', 'v', interfaceFqn)}, l.${offsetColumn}
        FROM ledger_rx_interface_views v
        CROSS JOIN LATERAL (SELECT * FROM ledger_rx_lives(NULL) x WHERE x.contract_id = v.contract_id AND x.activated_at = v.ledger_offset OFFSET 0) l
       WHERE qname IS NOT NULL AND (SELECT ledger_rx_name_kind(qname)) = 'interface' AND ${lo} <= ${hi}
         AND (SELECT ledger_rx_interface_ids(qname, ${lo}, ${hi}, '${name}')) IS NOT NULL
         AND v.stream_name = (SELECT ledger_rx_stream()) AND v.interface_id = ANY (ledger_rx_view_interface_ids(qname))
         AND ${also}l.${offsetColumn} BETWEEN ${lo} AND ${hi}) q
   ORDER BY q.sort_offset, q.contract_id
$$`;
};

/** `creates(name [, from, to])`: the creates in the range (not the assignments or snapshot rows). */
const creates = rangeFunction('creates', 'created_at_offset', 'l.created_at_offset IS NOT NULL AND l.created_at_offset = l.activated_at AND ');

/** `archives(name [, from, to])`: the archives in the range. */
const archives = rangeFunction('archives', 'archived_at_offset', '');

/** `lookup_contract(id [, name])`: the contract's latest life (an interface's name: its view of that life), inlinable. */
const lookupContract = `CREATE OR REPLACE FUNCTION lookup_contract(contract_id text, qname text DEFAULT NULL) RETURNS TABLE (${contractColumns})
LANGUAGE sql STABLE PARALLEL SAFE AS $$
  SELECT q.template_fqn, q.payload_type, q.contract_id, q.payload, q.contract_key, q.created_at_offset, q.created_effective_at, q.archived_at_offset,
         q.archived_effective_at, q.assigned_at_offset, q.unassigned_at_offset, q.redaction_id, q.package_name, q.package_id, q.template_id,
         q.signatories, q.observers, q.witnesses, q.synchronizer_id, q.reassignment_counter
    FROM (
      SELECT ${lifeColumns('l')}, l.activated_at
        FROM ledger_rx_lives(qname) l
       WHERE (SELECT ledger_rx_name_kind(qname)) <> 'interface' AND l.contract_id = lookup_contract.contract_id
      UNION ALL
      SELECT ${viewColumns('l', 'v', interfaceFqn)}, l.activated_at
        FROM ledger_rx_lives(NULL) l
        JOIN ledger_rx_interface_views v ON v.stream_name = (SELECT ledger_rx_stream()) AND v.contract_id = l.contract_id AND v.ledger_offset = l.activated_at
       WHERE qname IS NOT NULL AND (SELECT ledger_rx_name_kind(qname)) = 'interface' AND (SELECT ledger_rx_interface_ids(qname, NULL, NULL, 'any')) IS NOT NULL
         AND l.contract_id = lookup_contract.contract_id
         AND v.interface_id = ANY (ledger_rx_view_interface_ids(qname))) q
   ORDER BY q.activated_at DESC
   LIMIT 1
$$`;

/**
 * Version 5's `exercises`, with a one-time filter that resolves the name before any row: an unknown or ambiguous name
 * is an error even on a stream without exercises (it was an empty answer there).
 */
const exercises = `CREATE OR REPLACE FUNCTION exercises(qname text DEFAULT NULL, from_offset bigint DEFAULT NULL, to_offset bigint DEFAULT NULL) RETURNS TABLE (
    template_fqn text, choice_fqn text, choice text, consuming boolean, exercised_at_offset bigint, exercised_effective_at timestamptz,
    contract_id text, argument jsonb, result jsonb, package_name text, package_id text, template_id text, interface_id text,
    controllers text[], witnesses text[], node_id integer, last_descendant_node_id integer, synchronizer_id text)
LANGUAGE sql STABLE PARALLEL SAFE AS $$
  SELECT e.package_name || ':' || split_part(e.template_id, ':', 2) || ':' || split_part(e.template_id, ':', 3),
         e.package_name || ':' || split_part(e.template_id, ':', 2) || ':' || split_part(e.template_id, ':', 3) || ':' || e.choice,
         e.choice, e.consuming, e.ledger_offset, u.effective_at, e.contract_id, e.choice_argument, e.exercise_result,
         e.package_name, split_part(e.template_id, ':', 1), e.template_id, e.interface_id, e.acting_parties, e.witness_parties,
         e.node_id, e.last_descendant_node_id, u.synchronizer_id
    FROM exercised_events e
    JOIN updates u ON u.stream_name = e.stream_name AND u.ledger_offset = e.ledger_offset
   WHERE (qname IS NULL OR (SELECT count(*) FROM ledger_rx_choice_ids(qname)) >= 0)
     AND e.stream_name = (SELECT ledger_rx_stream())
     AND e.ledger_offset BETWEEN (SELECT CASE WHEN from_offset IS NULL THEN oldest_offset() ELSE ledger_rx_held_offset(from_offset) END)
                             AND (SELECT ledger_rx_held_offset(to_offset))
     AND (qname IS NULL OR EXISTS (SELECT 1 FROM ledger_rx_choice_ids(qname) w WHERE w.template_id = e.template_id AND (w.choice IS NULL OR w.choice = e.choice)))
   ORDER BY e.ledger_offset, e.node_id
$$`;

/**
 * Version 10 (docs/query-store.md, "Interface names" and "What the functions cost"):
 *
 * - **interface names**: `active`, `creates`, `archives` and `lookup_contract` answer an interface's name with the
 *   rows of the contracts whose stored view it is (PQS's `payload_type` `interface`, the view as payload); the names
 *   of templates and interfaces are resolved together (`ledger_rx_resolve_name`: one, or an error listing the
 *   candidates); an interface whose views the stream did not store over the offsets asked is an error that says so.
 *   `ledger_rx_view_interfaces` notes the interface ids of the stored views (a statement trigger, as for templates),
 *   and an index finds an interface's views.
 * - **plannable functions**: those four are SQL functions of one SELECT, `STABLE`, without `SET` or `STRICT`, which
 *   the planner inlines into the caller's query; the stream, the name and the offsets are scalar subqueries (each an
 *   InitPlan, evaluated once), and each branch runs behind a one-time filter that raises their errors before any
 *   row. So a caller's `count(*)`, `WHERE` and `LIMIT` reach the tables' indexes (benchmarks/store-query).
 */
export const inlinedQueriesMigration: Migration = {
  version: 10,
  name: 'the query store: interface names, and functions the planner inlines',
  statements: [
    `CREATE TABLE ledger_rx_view_interfaces (
       stream_name text NOT NULL,
       interface_id text NOT NULL,
       module_name text NOT NULL,
       entity_name text NOT NULL,
       PRIMARY KEY (stream_name, interface_id))`,
    noteViewInterfaces,
    `CREATE TRIGGER interface_views_interfaces AFTER INSERT ON ledger_rx_interface_views REFERENCING NEW TABLE AS inserted FOR EACH STATEMENT EXECUTE FUNCTION ledger_rx_note_view_interfaces()`,
    `INSERT INTO ledger_rx_view_interfaces (stream_name, interface_id, module_name, entity_name)
       SELECT DISTINCT stream_name, interface_id, split_part(interface_id, ':', 2), split_part(interface_id, ':', 3) FROM ledger_rx_interface_views
       ON CONFLICT DO NOTHING`,
    `CREATE INDEX ledger_rx_interface_views_interface ON ledger_rx_interface_views (stream_name, interface_id)`,
    scopeInterfaces,
    names,
    resolveName,
    nameKind,
    nameTemplateIds,
    templateIds,
    scopeWidened,
    interfaceStints,
    interfaceIds,
    viewInterfaceIds,
    rangeLow,
    livesOf,
    activeLatest,
    active,
    creates,
    archives,
    lookupContract,
    exercises,
    // version 5's helpers read tables and settings only (a worker gets the session's settings): parallel safe, so a
    // query calling them may scan in parallel workers, which evaluate them in index conditions (an unsafe function
    // anywhere in a query makes all of it serial; a restricted one keeps its scan in the leader)
    'ALTER FUNCTION ledger_rx_stream() PARALLEL SAFE',
    'ALTER FUNCTION latest_offset() PARALLEL SAFE',
    'ALTER FUNCTION oldest_offset() PARALLEL SAFE',
    'ALTER FUNCTION ledger_rx_held_offset(bigint) PARALLEL SAFE',
    'ALTER FUNCTION ledger_rx_choice_ids(text) PARALLEL SAFE',
  ],
};
