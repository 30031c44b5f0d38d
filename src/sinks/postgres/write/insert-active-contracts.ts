import type { SqlQueryable } from '../../../checkpoints/sql-database.js';
import type { ActiveContractRow } from '../ingest-rows.js';
import { pgArrayLiteral } from '../pg-array-literal.js';
import { jsonLines } from './json-lines.js';

/**
 * Inserts `rows` into `active_contracts` with one statement, with `origin` (`update`: contracts made active
 * by an assignment; `snapshot`: contracts of the active-contract snapshot, where a contract listed twice —
 * on two synchronizers — is stored once, its first listing).
 */
export async function insertActiveContracts(tx: SqlQueryable, streamName: string, rows: readonly ActiveContractRow[], origin: 'update' | 'snapshot' = 'update'): Promise<void> {
  if (rows.length === 0) return;
  await tx.query(
    `INSERT INTO active_contracts (stream_name, contract_id, template_id, package_name, create_argument, contract_key, signatories, observers,
       created_offset, created_at, synchronizer_id, reassignment_counter, origin)
     SELECT $1, c, t, p, a::jsonb, NULLIF(k, '')::jsonb, s::text[], ob::text[], o, ca, sy, rc, $13::text
     FROM ROWS FROM (unnest($2::text[], $3::text[], $4::text[], $7::text[], $8::text[], $9::bigint[], $10::timestamptz[], $11::text[], $12::bigint[]),
                     string_to_table($5::text, E'\\n'), string_to_table($6::text, E'\\n'))
       AS x(c, t, p, s, ob, o, ca, sy, rc, a, k)${origin === 'snapshot' ? ' ON CONFLICT (stream_name, contract_id) DO NOTHING' : ''}`,
    [
      streamName,
      pgArrayLiteral(rows.map((r) => r.contractId)),
      pgArrayLiteral(rows.map((r) => r.templateId)),
      pgArrayLiteral(rows.map((r) => r.packageName)),
      jsonLines(rows.map((r) => r.createArgumentJson)),
      jsonLines(rows.map((r) => r.contractKeyJson)),
      pgArrayLiteral(rows.map((r) => pgArrayLiteral(r.signatories))),
      pgArrayLiteral(rows.map((r) => pgArrayLiteral(r.observers))),
      pgArrayLiteral(rows.map((r) => r.createdOffset)),
      pgArrayLiteral(rows.map((r) => r.createdAt)),
      pgArrayLiteral(rows.map((r) => r.synchronizerId)),
      pgArrayLiteral(rows.map((r) => r.reassignmentCounter)),
      origin,
    ],
  );
}
