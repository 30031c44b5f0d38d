import type { Migration } from './migration.js';

/** Statement trigger on `updates` deletions (a prune, a reset): the interface views the removed updates brought go with them. */
const forgetViews = `CREATE FUNCTION ledger_rx_forget_views() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM ledger_rx_interface_views v USING removed r WHERE v.stream_name = r.stream_name AND v.ledger_offset = r.ledger_offset;
  RETURN NULL;
END $$`;

/** Row trigger on a recorded redaction: the contract's interface view values are nulled too. */
const redactViews = `CREATE FUNCTION ledger_rx_redact_views() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE ledger_rx_interface_views v SET view_value = NULL WHERE v.stream_name = NEW.stream_name AND v.contract_id = NEW.contract_id;
  RETURN NULL;
END $$`;

/** A `CreatedEvent` object without its argument, key and interface view values (what a redaction leaves). */
const redactCreated = `CREATE FUNCTION ledger_rx_redact_created(e jsonb) RETURNS jsonb LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE WHEN jsonb_typeof(e -> 'interfaceViews') = 'array'
              THEN jsonb_set(r, '{interfaceViews}', coalesce((SELECT jsonb_agg(v || '{"viewValue": null}'::jsonb ORDER BY n)
                                                                 FROM jsonb_array_elements(e -> 'interfaceViews') WITH ORDINALITY x(v, n)), '[]'::jsonb))
              ELSE r END
    FROM (SELECT jsonb_set(jsonb_set(e, '{createArgument}', 'null'), '{contractKey}', 'null') AS r) s
$$`;

/** Version 6's `ledger_rx_redact_element`, now also nulling the interface views' values of the redacted create. */
const redactElement = `CREATE OR REPLACE FUNCTION ledger_rx_redact_element(element json, cid text) RETURNS json LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE
    WHEN element::jsonb #> '{update,Transaction,value,events}' IS NOT NULL THEN
      jsonb_set(element::jsonb, '{update,Transaction,value,events}', (
        SELECT coalesce(jsonb_agg(CASE WHEN e #>> '{CreatedEvent,contractId}' = cid
                                       THEN jsonb_set(e, '{CreatedEvent}', ledger_rx_redact_created(e -> 'CreatedEvent'))
                                       ELSE e END ORDER BY n), '[]'::jsonb)
          FROM jsonb_array_elements(element::jsonb #> '{update,Transaction,value,events}') WITH ORDINALITY x(e, n)))::json
    WHEN element::jsonb #> '{update,Reassignment,value,events}' IS NOT NULL THEN
      jsonb_set(element::jsonb, '{update,Reassignment,value,events}', (
        SELECT coalesce(jsonb_agg(CASE WHEN e #>> '{JsAssignmentEvent,createdEvent,contractId}' = cid
                                       THEN jsonb_set(e, '{JsAssignmentEvent,createdEvent}', ledger_rx_redact_created(e #> '{JsAssignmentEvent,createdEvent}'))
                                       ELSE e END ORDER BY n), '[]'::jsonb)
          FROM jsonb_array_elements(element::jsonb #> '{update,Reassignment,value,events}') WITH ORDINALITY x(e, n)))::json
    ELSE element END
$$`;

/**
 * Version 7: what the typed views need (docs/query-store.md, "Typed views").
 *
 * - `ledger_rx_interface_views`: the interface views the participant computed for a created event (a create, an
 *   assignment's created event, a snapshot entry's), one row per (stream, contract, event offset, interface), the
 *   offset being the contract's `active_contracts.created_offset`; written only when the stream's filter asks for
 *   views (`--interface`). Removed with the updates that brought them (a prune, a reset: a statement trigger on
 *   `updates`), nulled by a redaction (a trigger on `ledger_rx_redactions`), and the redaction of the stored update
 *   elements now nulls their `interfaceViews[].viewValue` too.
 * - `ledger_rx_typed_views`: the catalog of the typed views `ingest --dar` made (name, template or interface, its
 *   qualified name, and each column's field and SQL expression), which `ledger-rx store index` reads.
 */
export const typedViewsMigration: Migration = {
  version: 7,
  name: 'the query store: interface views and the catalog of typed views',
  statements: [
    `CREATE TABLE ledger_rx_interface_views (
       stream_name text NOT NULL,
       ledger_offset bigint NOT NULL,
       contract_id text NOT NULL,
       interface_id text NOT NULL,
       view_value jsonb,
       PRIMARY KEY (stream_name, contract_id, ledger_offset, interface_id))`,
    `CREATE INDEX ledger_rx_interface_views_offset ON ledger_rx_interface_views (stream_name, ledger_offset)`,
    `CREATE TABLE ledger_rx_typed_views (
       view_name text PRIMARY KEY,
       kind text NOT NULL CHECK (kind IN ('template', 'interface')),
       package_name text NOT NULL,
       module_name text NOT NULL,
       entity_name text NOT NULL,
       package_id text NOT NULL,
       columns jsonb NOT NULL,
       defined_at timestamptz NOT NULL)`,
    forgetViews,
    `CREATE TRIGGER updates_forget_views AFTER DELETE ON updates REFERENCING OLD TABLE AS removed FOR EACH STATEMENT EXECUTE FUNCTION ledger_rx_forget_views()`,
    redactViews,
    `CREATE TRIGGER redactions_views AFTER INSERT ON ledger_rx_redactions FOR EACH ROW EXECUTE FUNCTION ledger_rx_redact_views()`,
    redactCreated,
    redactElement,
  ],
};
