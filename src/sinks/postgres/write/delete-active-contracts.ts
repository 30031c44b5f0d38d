import type { SqlQueryable } from '../../../checkpoints/sql-database.js';
import { pgArrayLiteral } from '../pg-array-literal.js';

/** Deletes the `active_contracts` rows of `contractIds` in `streamName` (nothing to do for an empty list). */
export async function deleteActiveContracts(tx: SqlQueryable, streamName: string, contractIds: readonly string[]): Promise<void> {
  if (contractIds.length === 0) return;
  await tx.query('DELETE FROM active_contracts WHERE stream_name = $1 AND contract_id = ANY($2::text[])', [streamName, pgArrayLiteral(contractIds)]);
}
