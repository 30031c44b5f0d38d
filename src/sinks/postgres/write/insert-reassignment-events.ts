import type { SqlQueryable } from '../../../checkpoints/sql-database.js';
import type { ReassignmentRow } from '../ingest-rows.js';
import { pgTextArray } from '../pg-text-array.js';

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
      rows.map((r) => r.offset),
      rows.map((r) => r.nodeId),
      rows.map((r) => r.kind),
      rows.map((r) => r.reassignmentId),
      rows.map((r) => r.contractId),
      rows.map((r) => r.templateId),
      rows.map((r) => r.packageName),
      rows.map((r) => r.source),
      rows.map((r) => r.target),
      rows.map((r) => r.reassignmentCounter),
      rows.map((r) => r.submitter),
      rows.map((r) => pgTextArray(r.witnessParties)),
    ],
  );
}
