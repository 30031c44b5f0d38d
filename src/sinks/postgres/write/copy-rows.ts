import type { ActiveContractRow, ArchivedRow, CreatedRow, ExercisedRow, ReassignmentRow, UpdateRow } from '../ingest-rows.js';
import type { CopyText } from './copy-text.js';

/** How the rows of one table are copied: its `COPY … FROM STDIN` statement and the fields of a row after `stream_name`. */
export interface CopyTable<R> {
  readonly statement: string;
  write(out: CopyText, row: R): void;
}

const copy = (table: string, columns: string): string => `COPY ${table} (stream_name, ${columns}) FROM STDIN`;

/**
 * The tables a batch of updates is copied into (docs/ingest.md, "COPY"), each row written with exactly the values
 * the multi-row `INSERT`s of earlier versions stored: the element as sent (`json`), the arguments as JSON text
 * (parsed into `jsonb` by PostgreSQL), timestamps as the participant wrote them (parsed by PostgreSQL), party lists
 * as `text[]` literals. `active_contracts.origin` is left to its default (`update`).
 */
export const copyRows = {
  updates: {
    statement: copy('updates', 'ledger_offset, update_id, kind, record_time, synchronizer_id, command_id, workflow_id, effective_at, element'),
    write: (out, r) => {
      out.row().int(r.offset).text(r.updateId).text(r.kind).text(r.recordTime).text(r.synchronizerId).text(r.commandId).text(r.workflowId).text(r.effectiveAt).text(r.elementJson);
    },
  } satisfies CopyTable<UpdateRow>,
  created: {
    statement: copy(
      'created_events',
      'ledger_offset, node_id, contract_id, template_id, package_name, create_argument, contract_key, signatories, observers, witness_parties, created_at, acs_delta',
    ),
    write: (out, r) => {
      out
        .row()
        .int(r.offset)
        .int(r.nodeId)
        .text(r.contractId)
        .text(r.templateId)
        .text(r.packageName)
        .text(r.createArgumentJson)
        .text(r.contractKeyJson)
        .textArray(r.signatories)
        .textArray(r.observers)
        .textArray(r.witnessParties)
        .text(r.createdAt)
        .bool(r.acsDelta);
    },
  } satisfies CopyTable<CreatedRow>,
  archived: {
    statement: copy('archived_events', 'ledger_offset, node_id, contract_id, template_id, package_name, witness_parties'),
    write: (out, r) => {
      out.row().int(r.offset).int(r.nodeId).text(r.contractId).text(r.templateId).text(r.packageName).textArray(r.witnessParties);
    },
  } satisfies CopyTable<ArchivedRow>,
  exercised: {
    statement: copy(
      'exercised_events',
      'ledger_offset, node_id, contract_id, template_id, interface_id, package_name, choice, choice_argument, acting_parties, consuming, witness_parties, last_descendant_node_id, exercise_result, acs_delta',
    ),
    write: (out, r) => {
      out
        .row()
        .int(r.offset)
        .int(r.nodeId)
        .text(r.contractId)
        .text(r.templateId)
        .text(r.interfaceId)
        .text(r.packageName)
        .text(r.choice)
        .text(r.choiceArgumentJson)
        .textArray(r.actingParties)
        .bool(r.consuming)
        .textArray(r.witnessParties)
        .int(r.lastDescendantNodeId)
        .text(r.exerciseResultJson)
        .bool(r.acsDelta);
    },
  } satisfies CopyTable<ExercisedRow>,
  reassignments: {
    statement: copy(
      'reassignment_events',
      'ledger_offset, node_id, kind, reassignment_id, contract_id, template_id, package_name, source_synchronizer, target_synchronizer, reassignment_counter, submitter, witness_parties',
    ),
    write: (out, r) => {
      out
        .row()
        .int(r.offset)
        .int(r.nodeId)
        .text(r.kind)
        .text(r.reassignmentId)
        .text(r.contractId)
        .text(r.templateId)
        .text(r.packageName)
        .text(r.source)
        .text(r.target)
        .int(r.reassignmentCounter)
        .text(r.submitter)
        .textArray(r.witnessParties);
    },
  } satisfies CopyTable<ReassignmentRow>,
  active: {
    statement: copy(
      'active_contracts',
      'contract_id, template_id, package_name, create_argument, contract_key, signatories, observers, created_offset, created_at, synchronizer_id, reassignment_counter',
    ),
    write: (out, r) => {
      out
        .row()
        .text(r.contractId)
        .text(r.templateId)
        .text(r.packageName)
        .text(r.createArgumentJson)
        .text(r.contractKeyJson)
        .textArray(r.signatories)
        .textArray(r.observers)
        .int(r.createdOffset)
        .text(r.createdAt)
        .text(r.synchronizerId)
        .int(r.reassignmentCounter);
    },
  } satisfies CopyTable<ActiveContractRow>,
};
