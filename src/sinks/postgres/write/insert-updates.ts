import type { SqlQueryable } from '../../../checkpoints/sql-database.js';
import type { UpdateRow } from '../ingest-rows.js';
import { pgArrayLiteral } from '../pg-array-literal.js';
import { jsonLines } from './json-lines.js';

/**
 * Inserts `rows` into `updates` with one statement (`unnest` of column arrays; the elements as JSON lines,
 * stored as `json`: their text as sent, checked but not converted, see migration 3).
 */
export async function insertUpdates(tx: SqlQueryable, streamName: string, rows: readonly UpdateRow[]): Promise<void> {
  if (rows.length === 0) return;
  await tx.query(
    `INSERT INTO updates (stream_name, ledger_offset, update_id, kind, record_time, synchronizer_id, command_id, workflow_id, effective_at, element)
     SELECT $1, o, u, k, r, s, c, w, e, el::json
     FROM ROWS FROM (unnest($2::bigint[], $3::text[], $4::text[], $5::timestamptz[], $6::text[], $7::text[], $8::text[], $9::timestamptz[]),
                     string_to_table($10::text, E'\\n')) AS x(o, u, k, r, s, c, w, e, el)`,
    [
      streamName,
      pgArrayLiteral(rows.map((r) => r.offset)),
      pgArrayLiteral(rows.map((r) => r.updateId)),
      pgArrayLiteral(rows.map((r) => r.kind)),
      pgArrayLiteral(rows.map((r) => r.recordTime)),
      pgArrayLiteral(rows.map((r) => r.synchronizerId)),
      pgArrayLiteral(rows.map((r) => r.commandId)),
      pgArrayLiteral(rows.map((r) => r.workflowId)),
      pgArrayLiteral(rows.map((r) => r.effectiveAt)),
      jsonLines(rows.map((r) => r.elementJson)),
    ],
  );
}
