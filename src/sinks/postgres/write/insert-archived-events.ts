import type { SqlQueryable } from '../../../checkpoints/sql-database.js';
import type { ArchivedRow } from '../ingest-rows.js';
import { pgArrayLiteral } from '../pg-array-literal.js';

/** Inserts `rows` into `archived_events` with one statement (`unnest` of column arrays). */
export async function insertArchivedEvents(tx: SqlQueryable, streamName: string, rows: readonly ArchivedRow[]): Promise<void> {
  if (rows.length === 0) return;
  await tx.query(
    `INSERT INTO archived_events (stream_name, ledger_offset, node_id, contract_id, template_id, package_name, witness_parties)
     SELECT $1, o, n, c, t, p, w::text[] FROM unnest($2::bigint[], $3::int[], $4::text[], $5::text[], $6::text[], $7::text[]) AS x(o, n, c, t, p, w)`,
    [
      streamName,
      pgArrayLiteral(rows.map((r) => r.offset)),
      pgArrayLiteral(rows.map((r) => r.nodeId)),
      pgArrayLiteral(rows.map((r) => r.contractId)),
      pgArrayLiteral(rows.map((r) => r.templateId)),
      pgArrayLiteral(rows.map((r) => r.packageName)),
      pgArrayLiteral(rows.map((r) => pgArrayLiteral(r.witnessParties))),
    ],
  );
}
