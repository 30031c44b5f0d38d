import type { SqlQueryable } from '../../../checkpoints/sql-database.js';
import type { ActiveContractRow, CreatedRow } from '../ingest-rows.js';
import { pgArrayLiteral } from '../pg-array-literal.js';
import { jsonLines } from './json-lines.js';

/**
 * Inserts `rows` into `created_events` with one statement, which also copies the inserted rows of the
 * contracts in `stillActive` (made by these creates and active at the end of the batch) into
 * `active_contracts`, so their arguments are not parsed twice.
 */
export async function insertCreatedEvents(
  tx: SqlQueryable,
  streamName: string,
  rows: readonly CreatedRow[],
  stillActive: readonly ActiveContractRow[],
): Promise<void> {
  if (rows.length === 0) return;
  await tx.query(
    `WITH inserted AS (
       INSERT INTO created_events (stream_name, ledger_offset, node_id, contract_id, template_id, package_name, create_argument, contract_key,
         signatories, observers, witness_parties, created_at, acs_delta)
       SELECT $1, o, n, c, t, p, a::jsonb, NULLIF(k, '')::jsonb, s::text[], ob::text[], w::text[], ca, d
       FROM ROWS FROM (unnest($2::bigint[], $3::int[], $4::text[], $5::text[], $6::text[], $9::text[], $10::text[], $11::text[],
                              $12::timestamptz[], $13::boolean[]),
                       string_to_table($7::text, E'\\n'), string_to_table($8::text, E'\\n'))
         AS x(o, n, c, t, p, s, ob, w, ca, d, a, k)
       RETURNING ledger_offset, contract_id, template_id, package_name, create_argument, contract_key, signatories, observers, created_at)
     INSERT INTO active_contracts (stream_name, contract_id, template_id, package_name, create_argument, contract_key, signatories, observers,
       created_offset, created_at, synchronizer_id, reassignment_counter)
     SELECT $1, i.contract_id, i.template_id, i.package_name, i.create_argument, i.contract_key, i.signatories, i.observers,
       i.ledger_offset, i.created_at, sy, 0
     FROM inserted i JOIN unnest($14::text[], $15::text[]) AS keep(id, sy) ON keep.id = i.contract_id`,
    [
      streamName,
      pgArrayLiteral(rows.map((r) => r.offset)),
      pgArrayLiteral(rows.map((r) => r.nodeId)),
      pgArrayLiteral(rows.map((r) => r.contractId)),
      pgArrayLiteral(rows.map((r) => r.templateId)),
      pgArrayLiteral(rows.map((r) => r.packageName)),
      jsonLines(rows.map((r) => r.createArgumentJson)),
      jsonLines(rows.map((r) => r.contractKeyJson)),
      pgArrayLiteral(rows.map((r) => pgArrayLiteral(r.signatories))),
      pgArrayLiteral(rows.map((r) => pgArrayLiteral(r.observers))),
      pgArrayLiteral(rows.map((r) => pgArrayLiteral(r.witnessParties))),
      pgArrayLiteral(rows.map((r) => r.createdAt)),
      pgArrayLiteral(rows.map((r) => r.acsDelta)),
      pgArrayLiteral(stillActive.map((r) => r.contractId)),
      pgArrayLiteral(stillActive.map((r) => r.synchronizerId)),
    ],
  );
}
