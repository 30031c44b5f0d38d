import type { SqlQueryable } from '../../../checkpoints/sql-database.js';
import type { ArchivedRow } from '../ingest-rows.js';
import { pgTextArray } from '../pg-text-array.js';

/** Inserts `rows` into `archived_events` with one statement (`unnest` of column arrays). */
export async function insertArchivedEvents(tx: SqlQueryable, streamName: string, rows: readonly ArchivedRow[]): Promise<void> {
  if (rows.length === 0) return;
  await tx.query(
    `INSERT INTO archived_events (stream_name, ledger_offset, node_id, contract_id, template_id, package_name, witness_parties)
     SELECT $1, o, n, c, t, p, w::text[] FROM unnest($2::bigint[], $3::int[], $4::text[], $5::text[], $6::text[], $7::text[]) AS x(o, n, c, t, p, w)`,
    [
      streamName,
      rows.map((r) => r.offset),
      rows.map((r) => r.nodeId),
      rows.map((r) => r.contractId),
      rows.map((r) => r.templateId),
      rows.map((r) => r.packageName),
      rows.map((r) => pgTextArray(r.witnessParties)),
    ],
  );
}
