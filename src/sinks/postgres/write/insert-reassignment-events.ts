import type { SqlQueryable } from '../../../checkpoints/sql-database.js';
import type { ReassignmentRow } from '../ingest-rows.js';
import { pgArrayLiteral } from '../pg-array-literal.js';

/** Inserts `rows` into `reassignment_events` with one statement (`unnest` of column arrays). */
export async function insertReassignmentEvents(tx: SqlQueryable, streamName: string, rows: readonly ReassignmentRow[]): Promise<void> {
  if (rows.length === 0) return;
  await tx.query(
    `INSERT INTO reassignment_events (stream_name, ledger_offset, node_id, kind, reassignment_id, contract_id, template_id, package_name,
       source_synchronizer, target_synchronizer, reassignment_counter, submitter, witness_parties)
     SELECT $1, o, n, k, ri, c, t, p, s, tg, rc, sb, w::text[]
     FROM unnest($2::bigint[], $3::int[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[], $9::text[], $10::text[], $11::bigint[],
                 $12::text[], $13::text[]) AS x(o, n, k, ri, c, t, p, s, tg, rc, sb, w)`,
    [
      streamName,
      pgArrayLiteral(rows.map((r) => r.offset)),
      pgArrayLiteral(rows.map((r) => r.nodeId)),
      pgArrayLiteral(rows.map((r) => r.kind)),
      pgArrayLiteral(rows.map((r) => r.reassignmentId)),
      pgArrayLiteral(rows.map((r) => r.contractId)),
      pgArrayLiteral(rows.map((r) => r.templateId)),
      pgArrayLiteral(rows.map((r) => r.packageName)),
      pgArrayLiteral(rows.map((r) => r.source)),
      pgArrayLiteral(rows.map((r) => r.target)),
      pgArrayLiteral(rows.map((r) => r.reassignmentCounter)),
      pgArrayLiteral(rows.map((r) => r.submitter)),
      pgArrayLiteral(rows.map((r) => pgArrayLiteral(r.witnessParties))),
    ],
  );
}
