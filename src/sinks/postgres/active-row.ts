import type { ActiveContractRow, CreatedRow } from './ingest-rows.js';

/** The `active_contracts` row of a contract created as `c`, active on `synchronizerId` with `reassignmentCounter`. Pure. */
export function activeRow(c: CreatedRow, synchronizerId: string, reassignmentCounter: number): ActiveContractRow {
  return {
    contractId: c.contractId,
    templateId: c.templateId,
    packageName: c.packageName,
    createArgumentJson: c.createArgumentJson,
    contractKeyJson: c.contractKeyJson,
    signatories: c.signatories,
    observers: c.observers,
    createdOffset: c.offset,
    createdAt: c.createdAt,
    synchronizerId,
    reassignmentCounter,
  };
}
