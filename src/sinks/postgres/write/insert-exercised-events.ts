import type { SqlQueryable } from '../../../checkpoints/sql-database.js';
import type { ExercisedRow } from '../ingest-rows.js';
import { pgArrayLiteral } from '../pg-array-literal.js';
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
      pgArrayLiteral(rows.map((r) => r.offset)),
      pgArrayLiteral(rows.map((r) => r.nodeId)),
      pgArrayLiteral(rows.map((r) => r.contractId)),
      pgArrayLiteral(rows.map((r) => r.templateId)),
      pgArrayLiteral(rows.map((r) => r.interfaceId)),
      pgArrayLiteral(rows.map((r) => r.packageName)),
      pgArrayLiteral(rows.map((r) => r.choice)),
      jsonLines(rows.map((r) => r.choiceArgumentJson)),
      pgArrayLiteral(rows.map((r) => pgArrayLiteral(r.actingParties))),
      pgArrayLiteral(rows.map((r) => r.consuming)),
      pgArrayLiteral(rows.map((r) => pgArrayLiteral(r.witnessParties))),
      pgArrayLiteral(rows.map((r) => r.lastDescendantNodeId)),
      jsonLines(rows.map((r) => r.exerciseResultJson)),
      pgArrayLiteral(rows.map((r) => r.acsDelta)),
    ],
  );
}
