import type { SqlQueryable } from '../../../checkpoints/sql-database.js';
import type { IngestBatch } from '../ingest-batch.js';
import { deleteActiveContracts } from './delete-active-contracts.js';
import { insertActiveContracts } from './insert-active-contracts.js';
import { insertArchivedEvents } from './insert-archived-events.js';
import { insertCreatedEvents } from './insert-created-events.js';
import { insertInterfaceViews } from './insert-interface-views.js';
import { insertExercisedEvents } from './insert-exercised-events.js';
import { insertReassignmentEvents } from './insert-reassignment-events.js';
import { insertUpdates } from './insert-updates.js';

/**
 * Writes the rows of `batch` for `streamName` in the caller's transaction, one multi-row statement per
 * table (statements with no rows are skipped), in this order: the `active_contracts` rows the batch
 * archived, unassigned or (re)assigned are deleted first; then `updates`, `created_events` (whose
 * statement also copies the contracts still active at the end of the batch into `active_contracts`),
 * `archived_events`, `exercised_events`, `reassignment_events`, the contracts made active by an
 * assignment, and the interface views of the batch's creates and assignments (when there are any). Rejects on the first failing statement (the caller rolls back).
 */
export async function writeBatch(tx: SqlQueryable, batch: IngestBatch, streamName: string): Promise<void> {
  await deleteActiveContracts(tx, streamName, batch.acsDeletes);
  const createdHere = new Set(batch.acsCreated);
  await insertUpdates(tx, streamName, batch.updates);
  await insertCreatedEvents(tx, streamName, batch.created, batch.acsInserts.filter((r) => createdHere.has(r.contractId)));
  await insertArchivedEvents(tx, streamName, batch.archived);
  await insertExercisedEvents(tx, streamName, batch.exercised);
  await insertReassignmentEvents(tx, streamName, batch.reassignments);
  await insertActiveContracts(tx, streamName, batch.acsAssigned);
  await insertInterfaceViews(tx, streamName, batch.views);
}
