import type { SqlQueryable } from '../../../checkpoints/sql-database.js';
import type { InterfaceViewRow } from '../ingest-rows.js';
import { pgArrayLiteral } from '../pg-array-literal.js';
import { jsonLines } from './json-lines.js';

/**
 * Inserts `rows` into `ledger_rx_interface_views` with one statement (none when there are no rows: a stream
 * whose filter asks for no interface view pays nothing). A view already stored for the same event is kept
 * (`ON CONFLICT DO NOTHING`: a snapshot lists a contract once per synchronizer).
 */
export async function insertInterfaceViews(tx: SqlQueryable, streamName: string, rows: readonly InterfaceViewRow[]): Promise<void> {
  if (rows.length === 0) return;
  await tx.query(
    `INSERT INTO ledger_rx_interface_views (stream_name, ledger_offset, contract_id, interface_id, view_value)
     SELECT $1, o, c, i, v::jsonb
     FROM ROWS FROM (unnest($2::bigint[], $3::text[], $4::text[]), string_to_table($5::text, E'\\n')) AS x(o, c, i, v)
     ON CONFLICT DO NOTHING`,
    [
      streamName,
      pgArrayLiteral(rows.map((r) => r.offset)),
      pgArrayLiteral(rows.map((r) => r.contractId)),
      pgArrayLiteral(rows.map((r) => r.interfaceId)),
      jsonLines(rows.map((r) => r.viewValueJson)),
    ],
  );
}
