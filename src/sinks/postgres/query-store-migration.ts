import type { Migration } from './migration.js';

/** The statement trigger function that records the templates of the rows a statement inserted (transition table `inserted`). */
const noteTemplates = `CREATE FUNCTION ledger_rx_note_templates() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO ledger_rx_templates (stream_name, template_id, package_name, module_name, entity_name)
  SELECT DISTINCT i.stream_name, i.template_id, i.package_name, split_part(i.template_id, ':', 2), split_part(i.template_id, ':', 3)
  FROM inserted i
  ON CONFLICT DO NOTHING;
  RETURN NULL;
END $$`;

const noteChoices = `CREATE FUNCTION ledger_rx_note_choices() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO ledger_rx_choices (stream_name, template_id, choice, package_name, module_name, entity_name, consuming)
  SELECT DISTINCT ON (i.stream_name, i.template_id, i.choice) i.stream_name, i.template_id, i.choice, i.package_name,
         split_part(i.template_id, ':', 2), split_part(i.template_id, ':', 3), i.consuming
  FROM inserted i
  ORDER BY i.stream_name, i.template_id, i.choice
  ON CONFLICT DO NOTHING;
  RETURN NULL;
END $$`;

/** The stream the query functions read: `ledger_rx.stream`, else the store's only stream. */
const streamFunction = `CREATE FUNCTION ledger_rx_stream() RETURNS text LANGUAGE plpgsql STABLE AS $$
DECLARE
  chosen text := nullif(current_setting('ledger_rx.stream', true), '');
  streams text[];
BEGIN
  SELECT array_agg(stream_name ORDER BY stream_name) INTO streams FROM ledger_rx_checkpoints;
  IF chosen IS NOT NULL THEN
    IF streams IS NULL OR NOT chosen = ANY (streams) THEN
      RAISE EXCEPTION 'the store holds no stream %', quote_literal(chosen)
        USING ERRCODE = '42704', HINT = format('streams in this store: %s', coalesce(array_to_string(streams, ', '), 'none'));
    END IF;
    RETURN chosen;
  END IF;
  IF streams IS NULL THEN
    RAISE EXCEPTION 'the store holds no stream yet' USING ERRCODE = '42704', HINT = 'run ledger-rx ingest first';
  END IF;
  IF cardinality(streams) > 1 THEN
    RAISE EXCEPTION 'the store holds several streams (%): choose one', array_to_string(streams, ', ')
      USING ERRCODE = '42725', HINT = 'SET ledger_rx.stream = ''NAME''';
  END IF;
  RETURN streams[1];
END $$`;

const latestOffset = `CREATE FUNCTION latest_offset() RETURNS bigint LANGUAGE plpgsql STABLE AS $$
DECLARE
  result bigint;
BEGIN
  SELECT ledger_offset INTO result FROM ledger_rx_checkpoints WHERE stream_name = ledger_rx_stream();
  RETURN result;
END $$`;

const oldestOffset = `CREATE FUNCTION oldest_offset() RETURNS bigint LANGUAGE sql STABLE AS $$
  SELECT greatest(
    coalesce((SELECT snapshot_offset FROM ledger_rx_snapshots WHERE stream_name = ledger_rx_stream()), 0),
    coalesce((SELECT pruned_before FROM ledger_rx_store_pruning WHERE stream_name = ledger_rx_stream()), 0))
$$`;

const checkOffset = `CREATE FUNCTION ledger_rx_held_offset(wanted bigint) RETURNS bigint LANGUAGE plpgsql STABLE AS $$
DECLARE
  latest bigint := latest_offset();
  oldest bigint := oldest_offset();
BEGIN
  IF wanted IS NULL THEN RETURN latest; END IF;
  IF latest IS NULL OR wanted > latest THEN
    RAISE EXCEPTION 'offset % is after the latest offset the store holds (%)', wanted, coalesce(latest::text, 'none yet') USING ERRCODE = '22023';
  END IF;
  IF wanted < oldest THEN
    RAISE EXCEPTION 'offset % is before the oldest offset the store holds (%)', wanted, oldest USING ERRCODE = '22023';
  END IF;
  RETURN wanted;
END $$`;

/** The template ids a (partly) qualified name means; NULL (every template) for a NULL name. */
const templateIds = `CREATE FUNCTION ledger_rx_template_ids(qname text) RETURNS text[] LANGUAGE plpgsql STABLE AS $$
DECLARE
  s text := ledger_rx_stream();
  wanted text := ltrim(qname, '#');
  names text[];
  ids text[];
BEGIN
  IF qname IS NULL THEN RETURN NULL; END IF;
  SELECT array_agg(DISTINCT t.package_name || ':' || t.module_name || ':' || t.entity_name ORDER BY t.package_name || ':' || t.module_name || ':' || t.entity_name),
         array_agg(t.template_id ORDER BY t.template_id)
    INTO names, ids
    FROM ledger_rx_templates t
   WHERE t.stream_name = s
     AND wanted IN (t.package_name || ':' || t.module_name || ':' || t.entity_name, t.module_name || ':' || t.entity_name, t.entity_name, t.template_id);
  IF names IS NULL THEN
    RAISE EXCEPTION 'no template % in this store', quote_literal(qname)
      USING ERRCODE = '42704', HINT = 'names are Entity, Module:Entity or package-name:Module:Entity; interface views are not stored (see docs/query-store.md)';
  END IF;
  IF cardinality(names) > 1 THEN
    RAISE EXCEPTION 'ambiguous name %: it matches %', quote_literal(qname), array_to_string(names, ', ')
      USING ERRCODE = '42725', HINT = 'qualify it with its module (Module:Entity) or package name (package-name:Module:Entity)';
  END IF;
  RETURN ids;
END $$`;

/** The (template id, choice) pairs a choice or template name means; choice NULL = every choice of that template. */
const choiceIds = `CREATE FUNCTION ledger_rx_choice_ids(qname text) RETURNS TABLE (template_id text, choice text) LANGUAGE plpgsql STABLE AS $$
DECLARE
  s text := ledger_rx_stream();
  wanted text := ltrim(qname, '#');
  names text[];
BEGIN
  SELECT array_agg(DISTINCT c.package_name || ':' || c.module_name || ':' || c.entity_name || ':' || c.choice)
    INTO names
    FROM ledger_rx_choices c
   WHERE c.stream_name = s
     AND wanted IN (c.package_name || ':' || c.module_name || ':' || c.entity_name || ':' || c.choice, c.module_name || ':' || c.entity_name || ':' || c.choice,
                    c.entity_name || ':' || c.choice, c.choice);
  IF names IS NULL THEN
    -- not a choice: a template's name gives all of its exercises
    RETURN QUERY SELECT unnest(ledger_rx_template_ids(qname)), NULL::text;
    RETURN;
  END IF;
  IF cardinality(names) > 1 THEN
    RAISE EXCEPTION 'ambiguous name %: it matches %', quote_literal(qname), array_to_string(names, ', ')
      USING ERRCODE = '42725', HINT = 'qualify the choice with its template (Entity:Choice, Module:Entity:Choice, package-name:Module:Entity:Choice)';
  END IF;
  RETURN QUERY SELECT c.template_id, c.choice FROM ledger_rx_choices c
    WHERE c.stream_name = s AND c.package_name || ':' || c.module_name || ':' || c.entity_name || ':' || c.choice = names[1];
END $$`;

/**
 * Every life of a contract of the stream: one row per activation (a create with `acsDelta`, a contract of the
 * stream's snapshot, an assignment), with the first deactivation after it (an archive, a consuming exercise
 * with `acsDelta`, an unassignment), if any. The rows the functions below filter.
 */
const lives = `CREATE FUNCTION ledger_rx_contract_lives(s text, ids text[]) RETURNS TABLE (
    template_fqn text, payload_type text, contract_id text, payload jsonb, contract_key jsonb,
    created_at_offset bigint, created_effective_at timestamptz, archived_at_offset bigint, archived_effective_at timestamptz,
    assigned_at_offset bigint, unassigned_at_offset bigint, redaction_id text, package_name text, package_id text, template_id text,
    signatories text[], observers text[], witnesses text[], synchronizer_id text, reassignment_counter bigint,
    activated_at bigint, deactivated_at bigint)
LANGUAGE sql STABLE AS $$
  WITH activations AS (
    SELECT c.contract_id, c.template_id, c.package_name, c.create_argument AS payload, c.contract_key, c.signatories, c.observers,
           c.witness_parties AS witnesses, c.ledger_offset AS created_at_offset, c.created_at, NULL::bigint AS assigned_at_offset,
           u.synchronizer_id, 0::bigint AS reassignment_counter, c.ledger_offset AS activated_at
      FROM created_events c JOIN updates u ON u.stream_name = c.stream_name AND u.ledger_offset = c.ledger_offset
     WHERE c.stream_name = s AND c.acs_delta AND (ids IS NULL OR c.template_id = ANY (ids))
    UNION ALL
    SELECT sc.contract_id, sc.template_id, sc.package_name, sc.create_argument, sc.contract_key, sc.signatories, sc.observers,
           sc.signatories || sc.observers, sc.created_offset, sc.created_at, NULL::bigint, sc.synchronizer_id, sc.reassignment_counter, sc.created_offset
      FROM ledger_rx_snapshot_contracts sc
     WHERE sc.stream_name = s AND (ids IS NULL OR sc.template_id = ANY (ids))
    UNION ALL
    SELECT r.contract_id, r.template_id, r.package_name, (ce.v -> 'createArgument')::jsonb, nullif((ce.v -> 'contractKey')::jsonb, 'null'::jsonb),
           ARRAY(SELECT json_array_elements_text(ce.v -> 'signatories')), ARRAY(SELECT json_array_elements_text(ce.v -> 'observers')),
           r.witness_parties, NULL::bigint, (ce.v ->> 'createdAt')::timestamptz, r.ledger_offset, r.target_synchronizer, r.reassignment_counter, r.ledger_offset
      FROM reassignment_events r
      JOIN updates u ON u.stream_name = r.stream_name AND u.ledger_offset = r.ledger_offset
      LEFT JOIN LATERAL (
        SELECT e -> 'JsAssignmentEvent' -> 'createdEvent' AS v
          FROM json_array_elements(u.element -> 'update' -> 'Reassignment' -> 'value' -> 'events') e
         WHERE e -> 'JsAssignmentEvent' -> 'createdEvent' ->> 'contractId' = r.contract_id
         LIMIT 1) ce ON true
     WHERE r.stream_name = s AND r.kind = 'assign' AND (ids IS NULL OR r.template_id = ANY (ids))
  )
  SELECT a.package_name || ':' || split_part(a.template_id, ':', 2) || ':' || split_part(a.template_id, ':', 3), 'template',
         a.contract_id, CASE WHEN red.redaction_id IS NULL THEN a.payload END, CASE WHEN red.redaction_id IS NULL THEN a.contract_key END,
         a.created_at_offset, a.created_at,
         CASE WHEN d.kind = 'archive' THEN d.ledger_offset END, CASE WHEN d.kind = 'archive' THEN du.effective_at END,
         a.assigned_at_offset, CASE WHEN d.kind = 'unassign' THEN d.ledger_offset END,
         red.redaction_id, a.package_name, split_part(a.template_id, ':', 1), a.template_id,
         a.signatories, a.observers, a.witnesses, a.synchronizer_id, a.reassignment_counter, a.activated_at, d.ledger_offset
    FROM activations a
    LEFT JOIN LATERAL (
      SELECT x.ledger_offset, x.kind FROM (
        SELECT ae.ledger_offset, 'archive' AS kind FROM archived_events ae WHERE ae.stream_name = s AND ae.contract_id = a.contract_id AND ae.ledger_offset > a.activated_at
        UNION ALL
        SELECT ee.ledger_offset, 'archive' FROM exercised_events ee
         WHERE ee.stream_name = s AND ee.contract_id = a.contract_id AND ee.consuming AND ee.acs_delta AND ee.ledger_offset > a.activated_at
        UNION ALL
        SELECT re.ledger_offset, 'unassign' FROM reassignment_events re
         WHERE re.stream_name = s AND re.contract_id = a.contract_id AND re.kind = 'unassign' AND re.ledger_offset > a.activated_at) x
      ORDER BY x.ledger_offset LIMIT 1) d ON true
    LEFT JOIN updates du ON du.stream_name = s AND du.ledger_offset = d.ledger_offset
    LEFT JOIN ledger_rx_redactions red ON red.stream_name = s AND red.contract_id = a.contract_id
$$`;

/** The columns of a contract row of `active`, `creates`, `archives` and `lookup_contract` (PQS's, see docs/query-store.md). */
export const contractColumns = `template_fqn text, payload_type text, contract_id text, payload jsonb, contract_key jsonb,
    created_at_offset bigint, created_effective_at timestamptz, archived_at_offset bigint, archived_effective_at timestamptz,
    assigned_at_offset bigint, unassigned_at_offset bigint, redaction_id text, package_name text, package_id text, template_id text,
    signatories text[], observers text[], witnesses text[], synchronizer_id text, reassignment_counter bigint`;
/** Those columns selected from `ledger_rx_contract_lives` as `l`. */
export const contractSelect = `l.template_fqn, l.payload_type, l.contract_id, l.payload, l.contract_key, l.created_at_offset, l.created_effective_at,
    l.archived_at_offset, l.archived_effective_at, l.assigned_at_offset, l.unassigned_at_offset, l.redaction_id, l.package_name, l.package_id,
    l.template_id, l.signatories, l.observers, l.witnesses, l.synchronizer_id, l.reassignment_counter`;

const active = `CREATE FUNCTION active(qname text DEFAULT NULL, "offset" bigint DEFAULT NULL) RETURNS TABLE (${contractColumns})
LANGUAGE sql STABLE AS $$
  WITH pin AS (SELECT ledger_rx_held_offset(active."offset") AS o)
  SELECT DISTINCT ON (l.contract_id) ${contractSelect}
    FROM pin, ledger_rx_contract_lives(ledger_rx_stream(), ledger_rx_template_ids(qname)) l
   WHERE l.activated_at <= pin.o AND (l.deactivated_at IS NULL OR l.deactivated_at > pin.o)
   ORDER BY l.contract_id, l.activated_at DESC
$$`;

const creates = `CREATE FUNCTION creates(qname text DEFAULT NULL, from_offset bigint DEFAULT NULL, to_offset bigint DEFAULT NULL) RETURNS TABLE (${contractColumns})
LANGUAGE sql STABLE AS $$
  WITH r AS (SELECT CASE WHEN from_offset IS NULL THEN oldest_offset() ELSE ledger_rx_held_offset(from_offset) END AS lo, ledger_rx_held_offset(to_offset) AS hi)
  SELECT ${contractSelect}
    FROM r, ledger_rx_contract_lives(ledger_rx_stream(), ledger_rx_template_ids(qname)) l
   WHERE l.created_at_offset IS NOT NULL AND l.created_at_offset = l.activated_at AND l.created_at_offset BETWEEN r.lo AND r.hi
   ORDER BY l.created_at_offset, l.contract_id
$$`;

const archives = `CREATE FUNCTION archives(qname text DEFAULT NULL, from_offset bigint DEFAULT NULL, to_offset bigint DEFAULT NULL) RETURNS TABLE (${contractColumns})
LANGUAGE sql STABLE AS $$
  WITH r AS (SELECT CASE WHEN from_offset IS NULL THEN oldest_offset() ELSE ledger_rx_held_offset(from_offset) END AS lo, ledger_rx_held_offset(to_offset) AS hi)
  SELECT ${contractSelect}
    FROM r, ledger_rx_contract_lives(ledger_rx_stream(), ledger_rx_template_ids(qname)) l
   WHERE l.archived_at_offset BETWEEN r.lo AND r.hi
   ORDER BY l.archived_at_offset, l.contract_id
$$`;

const exercises = `CREATE FUNCTION exercises(qname text DEFAULT NULL, from_offset bigint DEFAULT NULL, to_offset bigint DEFAULT NULL) RETURNS TABLE (
    template_fqn text, choice_fqn text, choice text, consuming boolean, exercised_at_offset bigint, exercised_effective_at timestamptz,
    contract_id text, argument jsonb, result jsonb, package_name text, package_id text, template_id text, interface_id text,
    controllers text[], witnesses text[], node_id integer, last_descendant_node_id integer, synchronizer_id text)
LANGUAGE sql STABLE AS $$
  WITH r AS (SELECT CASE WHEN from_offset IS NULL THEN oldest_offset() ELSE ledger_rx_held_offset(from_offset) END AS lo, ledger_rx_held_offset(to_offset) AS hi, ledger_rx_stream() AS s),
       wanted AS (SELECT * FROM ledger_rx_choice_ids(qname) WHERE qname IS NOT NULL)
  SELECT e.package_name || ':' || split_part(e.template_id, ':', 2) || ':' || split_part(e.template_id, ':', 3),
         e.package_name || ':' || split_part(e.template_id, ':', 2) || ':' || split_part(e.template_id, ':', 3) || ':' || e.choice,
         e.choice, e.consuming, e.ledger_offset, u.effective_at, e.contract_id, e.choice_argument, e.exercise_result,
         e.package_name, split_part(e.template_id, ':', 1), e.template_id, e.interface_id, e.acting_parties, e.witness_parties,
         e.node_id, e.last_descendant_node_id, u.synchronizer_id
    FROM r JOIN exercised_events e ON e.stream_name = r.s AND e.ledger_offset BETWEEN r.lo AND r.hi
    JOIN updates u ON u.stream_name = e.stream_name AND u.ledger_offset = e.ledger_offset
   WHERE qname IS NULL OR EXISTS (SELECT 1 FROM wanted w WHERE w.template_id = e.template_id AND (w.choice IS NULL OR w.choice = e.choice))
   ORDER BY e.ledger_offset, e.node_id
$$`;

const lookupContract = `CREATE FUNCTION lookup_contract(contract_id text, qname text DEFAULT NULL) RETURNS TABLE (${contractColumns})
LANGUAGE sql STABLE AS $$
  SELECT ${contractSelect}
    FROM ledger_rx_contract_lives(ledger_rx_stream(), ledger_rx_template_ids(qname)) l
   WHERE l.contract_id = lookup_contract.contract_id
   ORDER BY l.activated_at DESC
   LIMIT 1
$$`;

const nearestOffset = `CREATE FUNCTION nearest_offset(cutoff timestamptz) RETURNS bigint LANGUAGE plpgsql STABLE STRICT AS $$
DECLARE
  s text := ledger_rx_stream();
  result bigint;
BEGIN
  SELECT max(u.ledger_offset) INTO result FROM updates u WHERE u.stream_name = s AND u.record_time <= cutoff AND u.ledger_offset <= latest_offset();
  IF result IS NULL OR result < oldest_offset() THEN
    RAISE EXCEPTION 'the store holds no update recorded at or before %', cutoff
      USING ERRCODE = '22023', HINT = format('the oldest offset the store holds is %s', oldest_offset());
  END IF;
  RETURN result;
END $$`;

const nearestOffsetAgo = `CREATE FUNCTION nearest_offset(ago interval) RETURNS bigint LANGUAGE sql STABLE STRICT AS $$
  SELECT nearest_offset(now() - ago)
$$`;

/**
 * Version 5: the query store's SQL API, with the names of PQS's (see docs/query-store.md): `active`, `creates`,
 * `archives`, `exercises`, `lookup_contract`, `nearest_offset`, `latest_offset`, `oldest_offset`, and what they
 * need — the catalog of the stream's templates and choices (`ledger_rx_templates`, `ledger_rx_choices`, kept by
 * statement triggers on the event tables: one small insert per statement, not per row), the contracts of a
 * snapshot kept after they are archived (`ledger_rx_snapshot_contracts`), the store's pruning point
 * (`ledger_rx_store_pruning`) and redactions (`ledger_rx_redactions`), an index for a template's creates and
 * one for a contract's unassignments.
 */
export const queryStoreMigration: Migration = {
  version: 5,
  name: 'the query store: PQS-compatible SQL functions',
  statements: [
    `CREATE TABLE ledger_rx_templates (
       stream_name text NOT NULL,
       template_id text NOT NULL,
       package_name text NOT NULL,
       module_name text NOT NULL,
       entity_name text NOT NULL,
       PRIMARY KEY (stream_name, template_id))`,
    `CREATE TABLE ledger_rx_choices (
       stream_name text NOT NULL,
       template_id text NOT NULL,
       choice text NOT NULL,
       package_name text NOT NULL,
       module_name text NOT NULL,
       entity_name text NOT NULL,
       consuming boolean NOT NULL,
       PRIMARY KEY (stream_name, template_id, choice))`,
    `CREATE TABLE ledger_rx_snapshot_contracts (
       stream_name text NOT NULL,
       contract_id text NOT NULL,
       template_id text NOT NULL,
       package_name text NOT NULL,
       create_argument jsonb,
       contract_key jsonb,
       signatories text[] NOT NULL,
       observers text[] NOT NULL,
       created_offset bigint NOT NULL,
       created_at timestamptz,
       synchronizer_id text NOT NULL,
       reassignment_counter bigint NOT NULL,
       PRIMARY KEY (stream_name, contract_id))`,
    `CREATE TABLE ledger_rx_store_pruning (
       stream_name text PRIMARY KEY,
       pruned_before bigint NOT NULL,
       pruned_at timestamptz NOT NULL)`,
    `CREATE TABLE ledger_rx_redactions (
       stream_name text NOT NULL,
       contract_id text NOT NULL,
       redaction_id text NOT NULL,
       redacted_at timestamptz NOT NULL,
       PRIMARY KEY (stream_name, contract_id))`,
    `INSERT INTO ledger_rx_snapshot_contracts
       SELECT stream_name, contract_id, template_id, package_name, create_argument, contract_key, signatories, observers, created_offset, created_at,
              synchronizer_id, reassignment_counter
         FROM active_contracts WHERE origin = 'snapshot'`,
    `CREATE INDEX created_events_template ON created_events (stream_name, template_id, ledger_offset)`,
    `CREATE INDEX reassignment_events_contract_id ON reassignment_events (contract_id)`,
    noteTemplates,
    noteChoices,
    `CREATE TRIGGER created_events_templates AFTER INSERT ON created_events REFERENCING NEW TABLE AS inserted FOR EACH STATEMENT EXECUTE FUNCTION ledger_rx_note_templates()`,
    `CREATE TRIGGER reassignment_events_templates AFTER INSERT ON reassignment_events REFERENCING NEW TABLE AS inserted FOR EACH STATEMENT EXECUTE FUNCTION ledger_rx_note_templates()`,
    `CREATE TRIGGER snapshot_contracts_templates AFTER INSERT ON ledger_rx_snapshot_contracts REFERENCING NEW TABLE AS inserted FOR EACH STATEMENT EXECUTE FUNCTION ledger_rx_note_templates()`,
    `CREATE TRIGGER exercised_events_choices AFTER INSERT ON exercised_events REFERENCING NEW TABLE AS inserted FOR EACH STATEMENT EXECUTE FUNCTION ledger_rx_note_choices()`,
    `INSERT INTO ledger_rx_templates (stream_name, template_id, package_name, module_name, entity_name)
       SELECT DISTINCT stream_name, template_id, package_name, split_part(template_id, ':', 2), split_part(template_id, ':', 3)
         FROM (SELECT stream_name, template_id, package_name FROM created_events
               UNION SELECT stream_name, template_id, package_name FROM reassignment_events
               UNION SELECT stream_name, template_id, package_name FROM ledger_rx_snapshot_contracts) t
       ON CONFLICT DO NOTHING`,
    `INSERT INTO ledger_rx_choices (stream_name, template_id, choice, package_name, module_name, entity_name, consuming)
       SELECT DISTINCT ON (stream_name, template_id, choice) stream_name, template_id, choice, package_name, split_part(template_id, ':', 2), split_part(template_id, ':', 3), consuming
         FROM exercised_events ORDER BY stream_name, template_id, choice
       ON CONFLICT DO NOTHING`,
    `ALTER TABLE created_events ALTER COLUMN create_argument DROP NOT NULL`,
    streamFunction,
    latestOffset,
    oldestOffset,
    checkOffset,
    templateIds,
    choiceIds,
    lives,
    active,
    creates,
    archives,
    exercises,
    lookupContract,
    nearestOffset,
    nearestOffsetAgo,
  ],
};
