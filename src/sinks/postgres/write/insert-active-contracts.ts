import type { SqlQueryable } from '../../../checkpoints/sql-database.js';
import type { ActiveContractRow } from '../ingest-rows.js';
import { pgTextArray } from '../pg-text-array.js';
import { jsonLines } from './json-lines.js';

/** Inserts `rows` into `active_contracts` with one statement (used for contracts made active by an assignment). */
export async function insertActiveContracts(tx: SqlQueryable, streamName: string, rows: readonly ActiveContractRow[]): Promise<void> {
  if (rows.length === 0) return;
  await tx.query(
    `INSERT INTO active_contracts (stream_name, contract_id, template_id, package_name, create_argument, contract_key, signatories, observers,
       created_offset, created_at, synchronizer_id, reassignment_counter)
     SELECT $1, c, t, p, a::jsonb, NULLIF(k, '')::jsonb, s::text[], ob::text[], o, ca, sy, rc
     FROM ROWS FROM (unnest($2::text[], $3::text[], $4::text[], $7::text[], $8::text[], $9::bigint[], $10::timestamptz[], $11::text[], $12::bigint[]),
                     string_to_table($5::text, E'\\n'), string_to_table($6::text, E'\\n'))
       AS x(c, t, p, s, ob, o, ca, sy, rc, a, k)`,
    [
      streamName,
      rows.map((r) => r.contractId),
      rows.map((r) => r.templateId),
      rows.map((r) => r.packageName),
      jsonLines(rows.map((r) => r.createArgumentJson)),
      jsonLines(rows.map((r) => r.contractKeyJson)),
      rows.map((r) => pgTextArray(r.signatories)),
      rows.map((r) => pgTextArray(r.observers)),
      rows.map((r) => r.createdOffset),
      rows.map((r) => r.createdAt),
      rows.map((r) => r.synchronizerId),
      rows.map((r) => r.reassignmentCounter),
    ],
  );
}
