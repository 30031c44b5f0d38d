import type { SqlQueryable } from '../../../checkpoints/sql-database.js';
import type { ExercisedRow } from '../ingest-rows.js';
import { pgTextArray } from '../pg-text-array.js';
import { jsonLines } from './json-lines.js';

/** Inserts `rows` into `exercised_events` with one statement (`unnest` of column arrays; arguments and results as JSON lines). */
export async function insertExercisedEvents(tx: SqlQueryable, streamName: string, rows: readonly ExercisedRow[]): Promise<void> {
  if (rows.length === 0) return;
  await tx.query(
    `INSERT INTO exercised_events (stream_name, ledger_offset, node_id, contract_id, template_id, interface_id, package_name, choice, choice_argument,
       acting_parties, consuming, witness_parties, last_descendant_node_id, exercise_result, acs_delta)
     SELECT $1, o, n, c, t, i, p, ch, ca::jsonb, ap::text[], co, w::text[], l, NULLIF(r, '')::jsonb, d
     FROM ROWS FROM (unnest($2::bigint[], $3::int[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[], $10::text[], $11::boolean[],
                            $12::text[], $13::int[], $15::boolean[]),
                     string_to_table($9::text, E'\\n'), string_to_table($14::text, E'\\n'))
       AS x(o, n, c, t, i, p, ch, ap, co, w, l, d, ca, r)`,
    [
      streamName,
      rows.map((r) => r.offset),
      rows.map((r) => r.nodeId),
      rows.map((r) => r.contractId),
      rows.map((r) => r.templateId),
      rows.map((r) => r.interfaceId),
      rows.map((r) => r.packageName),
      rows.map((r) => r.choice),
      jsonLines(rows.map((r) => r.choiceArgumentJson)),
      rows.map((r) => pgTextArray(r.actingParties)),
      rows.map((r) => r.consuming),
      rows.map((r) => pgTextArray(r.witnessParties)),
      rows.map((r) => r.lastDescendantNodeId),
      jsonLines(rows.map((r) => r.exerciseResultJson)),
      rows.map((r) => r.acsDelta),
    ],
  );
}
